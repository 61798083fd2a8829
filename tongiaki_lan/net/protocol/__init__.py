"""The sans-I/O protocol: state machines that take datagrams and the time and return datagrams,
events and timers. Nothing here imports asyncio, sockets or the terminal
(tests/net/test_layers.py holds that rule).
"""

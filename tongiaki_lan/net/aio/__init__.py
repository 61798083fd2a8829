"""The asyncio glue around the protocol core: UDP sockets, zeroconf, files of a running node.
Thin on purpose: decisions live in net/protocol/.
"""

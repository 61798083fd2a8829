"""Tools for measuring and breaking the protocol: bench, the simulated LAN, loopback tables,
fault injection. Never used by a player's node.
"""

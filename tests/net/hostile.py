"""A hostile LAN: datagrams built to break a node, from a seeded generator."""

from __future__ import annotations

import os
import random

import msgpack

from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol.identity import Identity


class HostileDatagrams:
    """Yields (kind, bytes). `captured` holds real datagrams seen on the wire, for the
    truncation and replay attacks."""

    KINDS = ("random", "truncated", "oversized", "garbage-msgpack", "wrong-types",
             "stranger", "other-game", "deep-nesting", "impersonation", "unsigned")

    def __init__(self, seed: int, game_id: bytes, members: list[bytes], key: bytes | None = None):
        self.rng = random.Random(seed)
        self.game_id = game_id
        self.members = members
        self.key = key
        self.pkt = 1 << 40
        self.strangers = [Identity.generate() for _ in range(4)]
        self.dest = C.NO_PEER

    def _frame(self, obj, flags: int = C.FLAG_SIGNED) -> bytes:
        """Framed and signed by a stranger (so the node gets as far as parsing it)."""
        data = C.MAGIC + bytes([C.PROTOCOL_VERSION, flags]) + msgpack.packb(obj,
                                                                          use_bin_type=True)
        ident = self.rng.choice(self.strangers)
        signed = data + ident.public + C.NO_KX
        return signed + ident.sign(signed)

    def _env(self, sender: bytes, msg: list, game: bytes | None = None) -> list:
        self.pkt += 1
        return [game or self.game_id, sender, 5, self.dest, 0, self.pkt, 0, 1, 0, 0, msg]

    def _junk(self, depth: int = 0):
        r = self.rng.random()
        if depth > 2 or r < 0.3:
            return self.rng.choice([self.rng.randrange(-2**63, 2**64), "x" * self.rng.randrange(40),
                                    os.urandom(self.rng.randrange(40)), None, True, 1.5])
        if r < 0.8:
            return [self._junk(depth + 1) for _ in range(self.rng.randrange(6))]
        return {str(i): self._junk(depth + 1) for i in range(self.rng.randrange(3))}

    def one(self, dest: bytes = C.NO_PEER) -> tuple[str, bytes]:
        """One hostile datagram, addressed (envelope `dest`) to the node `dest`, so that
        it gets as far as its kind makes it."""
        self.dest = dest
        kind = self.rng.choice(self.KINDS)
        rng = self.rng
        if kind == "random":
            data = os.urandom(rng.randrange(0, 1300))
        elif kind == "truncated":
            full = C.encode_datagram(C.Envelope(self.game_id, os.urandom(8), 1, dest, 0, 1, 0,
                                                1, 0, 0, C.MoveMsg(3, [2, 7], bytes(32))))
            data = full[:rng.randrange(0, len(full) - 1)]
        elif kind == "oversized":
            data = self._frame(self._env(os.urandom(8), [40, "x" * 1500]))
        elif kind == "garbage-msgpack":
            data = self._frame(self._junk())
        elif kind == "wrong-types":
            sender = rng.choice(self.members)
            msg = rng.choice([
                [30, "zero", [2, 7], bytes(32), [], bytes(32), bytes(64)],
                [30, 0, "expand Samoa", bytes(32), [], bytes(32), bytes(64)],
                [30, 0, [2, 7], b"short", [], bytes(32), bytes(64)], [11, 1, "lobby"],
                [20, b"n", b"not 32 bytes"],
                [1, "playing", -1, 0, b"", b""], [40, 42], [10, "", "blue"], [31, True],
                [32, 0, 1, [[[2, 7], bytes(32)], [[2, 8], bytes(32)]]],
            ])
            data = self._frame(self._env(sender, msg))
        elif kind == "stranger":
            # well formed and signed, but from a node that is not in the game
            msg = rng.choice([C.MoveMsg(rng.randrange(50), [2, 7], bytes(32)), C.Chat("hi"),
                              C.Fetch(0), C.Start(), C.Ready(True), C.Join("mallory", "")])
            ident = rng.choice(self.strangers)
            data = C.encode_datagram(C.Envelope(self.game_id, ident.peer_id, 1, dest, 0, 1, 0,
                                                1, 0, 0, msg), self.key, ident)
        elif kind == "impersonation":
            # a member's peer id, signed with a stranger's key
            msg = rng.choice([C.MoveMsg(rng.randrange(50), [2, 7], bytes(32)), C.Chat("hi"),
                              C.Heartbeat("playing", 1, 999, bytes(32))])
            data = C.encode_datagram(C.Envelope(self.game_id, rng.choice(self.members),
                                                2**64 - 1, dest, 0, 1, 0, msg.RELIABLE * 1,
                                                0, 0, msg),
                                     self.key, rng.choice(self.strangers))
        elif kind == "unsigned":
            data = C.encode_datagram(C.Envelope(self.game_id, rng.choice(self.members), 1,
                                                dest, 0, 1, 0, 0, 0, 0,
                                                C.Heartbeat("lobby", 0, 0, b"")),
                                     self.key)
        elif kind == "other-game":
            ident = rng.choice(self.strangers)
            data = C.encode_datagram(C.Envelope(os.urandom(8), ident.peer_id, 1, dest, 0,
                                                1, 0, 1, 0, 0, C.Chat("x")), None, ident)
        else:  # deep-nesting: a msgpack bomb within the size limit
            inner = b"\x91" * 1000 + b"\x00"
            data = C.MAGIC + bytes([C.PROTOCOL_VERSION, 0]) + inner
        return kind, data

"""PROBE and PROBE_ANSWER (protocol/wire.md, "Probe"): can a datagram get from one laptop
to another and back, and how far apart are their clocks? Sans-I/O, like the rest of
net.protocol: time and the wall clock's offset are given, datagrams are handed back.

`Responder` is what every node holds (NodeCore answers probes in the lobby and mid-game,
and `doctor` answers other doctors): it answers a signed PROBE with a signed PROBE_ANSWER
and nothing else, so a probe never touches game state. It answers at most RATE_PER_S
probes a second in all and PER_ADDR_PER_S per sender address (a token bucket each), and an
answer is only 19 bytes longer than its probe (198 against 179), so the node can be used
neither to flood nor to amplify: at most 1.11 times the bytes sent to it, 4 KB a second.

`Prober` is `doctor`'s side: it sends a few tries to each address it is asked about and
keeps, per address, the first answer: who answered (its key hashes to the peer id it
claims), the round trip and the clock difference.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from dataclasses import dataclass

from tongiaki_lan.net.protocol.codec import (
    NO_GAME,
    NO_KX,
    NO_PEER,
    NONCE_LEN,
    Envelope,
    Probe,
    ProbeAnswer,
    WireError,
    decode_datagram,
    encode_datagram,
    peek_game,
)
from tongiaki_lan.net.protocol.identity import Identity

log = logging.getLogger("tongiaki_lan.net.protocol.probe")

RATE_PER_S = 20.0
PER_ADDR_PER_S = 4.0
BURST = 8.0
MAX_ADDRS = 64
TRIES = 6
TRY_EVERY_S = 0.25

Addr = tuple[str, int]


def is_probe_frame(data: bytes) -> bool:
    """Whether a datagram is outside any game (envelope game id 0): only probes and their
    answers are. Cheap enough to ask of every datagram a node receives."""
    return peek_game(data) == NO_GAME


def _frame(identity: Identity, message) -> bytes:
    env = Envelope(NO_GAME, identity.peer_id, 0, NO_PEER, 0, 0, 0, 0, 0, 0, message)
    return encode_datagram(env, identity=identity, kx_public=NO_KX)


class _Bucket:
    __slots__ = ("tokens", "at", "size")

    def __init__(self, now: float, size: float = BURST) -> None:
        self.tokens = self.size = size
        self.at = now

    def take(self, now: float, rate: float) -> bool:
        self.tokens = min(self.size, self.tokens + max(0.0, now - self.at) * rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Responder:
    """Answers probes. `wall_offset_us`: the wall clock minus the monotonic clock that
    `now` is read from, in microseconds (the asyncio glue sets it; 0 in simulations)."""

    def __init__(self, identity: Identity, wall_offset_us: int = 0) -> None:
        self.identity = identity
        self.wall_offset_us = wall_offset_us
        self.game: bytes = NO_GAME
        self._all: _Bucket | None = None
        self._per: OrderedDict[str, _Bucket] = OrderedDict()
        self.answered = 0
        self.refused = 0

    def answer(self, data: bytes, addr: Addr, now: float) -> bytes | None:
        """The answer to send back to `addr`, or None (not a probe, or over the rate)."""
        try:
            env = decode_datagram(data, require_signature=True)
        except WireError as exc:
            self.refused += 1
            log.debug("probe from %s refused: %s", addr, exc)
            return None
        if not isinstance(env.message, Probe):
            self.refused += 1
            log.debug("datagram outside any game from %s refused: %s is not a probe",
                      addr, type(env.message).__name__)
            return None
        if not self._allow(addr[0], now):
            self.refused += 1
            log.debug("probe from %s refused: too many probes", addr)
            return None
        self.answered += 1
        wall = max(0, int(now * 1_000_000) + self.wall_offset_us)
        return _frame(self.identity, ProbeAnswer(env.message.nonce, wall, self.game))

    def _allow(self, host: str, now: float) -> bool:
        if self._all is None:
            self._all = _Bucket(now, RATE_PER_S)
        mine = self._per.get(host)
        if mine is None:
            if len(self._per) >= MAX_ADDRS:
                self._per.popitem(last=False)
            mine = self._per[host] = _Bucket(now)
        else:
            self._per.move_to_end(host)
        if not mine.take(now, PER_ADDR_PER_S):
            return False
        return self._all.take(now, RATE_PER_S)


@dataclass
class ProbeResult:
    """What one address said (or did not)."""

    addr: Addr
    expect: bytes | None  # the peer id its advert names, when known
    sent: int = 0
    answered: bool = False
    peer: bytes | None = None
    rtt_s: float | None = None
    clock_offset_s: float | None = None  # their wall clock minus ours
    game: bytes = NO_GAME
    wrong: str = ""  # an answer that was refused, and why

    def to_json(self) -> dict:
        return {"host": self.addr[0], "port": self.addr[1], "sent": self.sent,
                "answered": self.answered,
                "peer": self.peer.hex() if self.peer else None,
                "rtt_ms": None if self.rtt_s is None else round(self.rtt_s * 1000, 1),
                "clock_offset_s": (None if self.clock_offset_s is None
                                   else round(self.clock_offset_s, 3)),
                **({"refused_answer": self.wrong} if self.wrong else {})}


class Prober:
    """Probes addresses; also answers probes itself (a doctor is a tongiaki node too)."""

    def __init__(self, identity: Identity, wall_offset_us: int = 0, entropy=None) -> None:
        import os

        self.identity = identity
        self.responder = Responder(identity, wall_offset_us)
        self.wall_offset_us = wall_offset_us
        self.entropy = entropy or os.urandom
        self.results: dict[Addr, ProbeResult] = {}
        self._nonce: dict[bytes, Addr] = {}
        self._sent_at: dict[bytes, float] = {}
        self._next: dict[Addr, float] = {}
        self._out: list[tuple[bytes, Addr]] = []

    # ---------------------------------------------------------------- sans-I/O surface

    def probe(self, addr: Addr, now: float, expect: bytes | None = None) -> None:
        addr = (addr[0], int(addr[1]))
        if addr in self.results:
            return
        self.results[addr] = ProbeResult(addr, expect)
        self._next[addr] = now
        self.handle_timer(now)

    def done(self) -> bool:
        return not self._next

    def receive(self, data: bytes, addr: tuple, now: float) -> None:
        addr = (addr[0], int(addr[1]))
        if not is_probe_frame(data):
            return
        try:
            env = decode_datagram(data, require_signature=True)
        except WireError as exc:
            log.debug("datagram from %s refused: %s", addr, exc)
            return
        msg = env.message
        if isinstance(msg, Probe):
            reply = self.responder.answer(data, addr, now)
            if reply is not None:
                self._out.append((reply, addr))
            return
        if not isinstance(msg, ProbeAnswer):
            return
        target = self._nonce.get(msg.nonce)
        if target is None:
            return  # not ours, or a second answer
        result = self.results[target]
        if result.expect is not None and env.sender != result.expect:
            result.wrong = (f"answered by {env.sender.hex()}, not by the advertised "
                            f"{result.expect.hex()}")
            return
        sent = self._sent_at[msg.nonce]
        for nonce in [n for n, a in self._nonce.items() if a == target]:
            del self._nonce[nonce]
        result.answered = True
        result.peer = env.sender
        result.game = msg.game
        result.rtt_s = max(0.0, now - sent)
        ours_us = int((sent + now) / 2 * 1_000_000) + self.wall_offset_us
        result.clock_offset_s = (msg.wall_us - ours_us) / 1_000_000
        self._next.pop(target, None)

    def datagrams_to_send(self) -> list[tuple[bytes, Addr]]:
        out, self._out = self._out, []
        return out

    def get_timer(self) -> float | None:
        return min(self._next.values(), default=None)

    def handle_timer(self, now: float) -> None:
        for addr, due in list(self._next.items()):
            if due > now:
                continue
            result = self.results[addr]
            if result.sent >= TRIES:
                del self._next[addr]  # no answer: the verdict will say so
                continue
            nonce = self.entropy(NONCE_LEN)
            self._nonce[nonce] = addr
            self._sent_at[nonce] = now
            result.sent += 1
            self._out.append((_frame(self.identity, Probe(nonce)), addr))
            self._next[addr] = now + TRY_EVERY_S

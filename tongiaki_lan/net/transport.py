"""Reliable, ordered, per-peer message delivery over one UDP socket (protocol/transport.md).

Why our own: the game needs exactly-once, in-order delivery of a few small messages per
move between 2-6 peers, with datagrams small enough never to fragment, and a MAC on every
datagram. TCP would need N*(N-1)/2 connections and could not share the socket with
discovery-driven, connectionless joins; this layer is a few hundred lines instead.

Each peer link has: a send sequence (1, 2, ...) with a retransmission queue and
exponential backoff; a receive cursor with a reorder buffer; a cumulative ack plus a
64-bit selective-ack bitmap carried on every datagram; an anti-replay window over the
per-datagram packet counter; and the peer's incarnation, so a restarted peer is noticed
and both directions start afresh.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import asyncio_dgram

from tongiaki_lan.net.codec import (
    MAX_DATAGRAM,
    NO_GAME,
    Ack,
    Envelope,
    Message,
    WireError,
    decode_datagram,
    encode_datagram,
)

log = logging.getLogger("tongiaki_lan.net.transport")

RTO_MIN = 0.04
# a bare ACK waits this long for a message to ride on (the next move, a heartbeat),
# keeping it off the critical path of the move that is being spread
ACK_DELAY = 0.01
RTO_MAX = 0.5
RTO_INITIAL = 0.1
RECV_WINDOW = 512
REPLAY_WINDOW = 1024
MAX_RETX_PER_TICK = 16
MAX_UNACKED = 8192
MAX_LINKS = 32


@dataclass
class _Pending:
    message: Message
    first_sent: float
    last_sent: float
    rto: float
    tries: int = 1


@dataclass
class Link:
    """What this node knows about one peer's end of the conversation."""

    peer: bytes
    addr: tuple[str, int]
    their_inc: int = 0
    send_next: int = 1
    unacked: dict[int, _Pending] = field(default_factory=dict)
    recv_next: int = 1
    recv_buf: dict[int, Message] = field(default_factory=dict)
    ack_pending: bool = False
    last_heard: float = 0.0
    max_pkt: int = 0
    pkt_bits: int = 0  # bit i set: packet max_pkt - i seen
    srtt: float = 0.0

    def rto(self) -> float:
        if self.srtt <= 0:
            return RTO_INITIAL
        return min(RTO_MAX, max(RTO_MIN, 3 * self.srtt + 0.005))

    def reset(self, inc: int) -> None:
        self.their_inc = inc
        self.send_next = 1
        self.unacked.clear()
        self.recv_next = 1
        self.recv_buf.clear()
        self.max_pkt = 0
        self.pkt_bits = 0
        self.ack_pending = False


@dataclass
class TransportStats:
    datagrams_sent: int = 0
    bytes_sent: int = 0
    datagrams_received: int = 0
    retransmissions: int = 0
    refused: int = 0


# (sender peer or None, address, reason)
RefusalHook = Callable[[bytes | None, tuple, str], None]


class Transport:
    """One socket, many peers. Upper layer callbacks run synchronously on the event loop.

    `on_message(peer, addr, message)` gets every message exactly once and in order per
    peer; `admit(peer, message)` decides whether an unknown sender may open a link (the node
    lets a JOIN in, nothing else); `on_restart(peer)` reports a peer that came back with a
    new incarnation; `on_refused` receives each refused datagram with the reason.
    """

    def __init__(
        self,
        peer_id: bytes,
        incarnation: int,
        on_message: Callable[[bytes, tuple, Message], None],
        *,
        admit: Callable[[bytes, Message], str | None] | None = None,
        on_restart: Callable[[bytes], None] | None = None,
        on_refused: RefusalHook | None = None,
        wrap_socket: Callable | None = None,
        keep: Callable[[bytes], bool] | None = None,
    ) -> None:
        self.peer_id = peer_id
        self.incarnation = incarnation
        self.on_message = on_message
        self.admit = admit or (lambda peer, msg: None)
        self.on_restart = on_restart or (lambda peer: None)
        self.on_refused = on_refused or (lambda peer, addr, why: None)
        self._wrap = wrap_socket
        self.keep = keep or (lambda peer: True)
        self.game_id: bytes = NO_GAME
        self.key: bytes | None = None
        self.links: dict[bytes, Link] = {}
        self.stats = TransportStats()
        self._pkt = 0
        self._sock = None
        self._tasks: list[asyncio.Task] = []
        self._out: asyncio.Queue[tuple[bytes, tuple]] | None = None
        self._wake = asyncio.Event()
        self._ack_scheduled = False
        self.closed = False

    # ------------------------------------------------------------------ lifecycle

    async def open(self, host: str = "0.0.0.0", port: int = 0) -> tuple[str, int]:
        stream = await asyncio_dgram.bind((host, port))
        self._sock = self._wrap(stream) if self._wrap else stream
        self._out = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._recv_loop(), name="tk-recv"),
            loop.create_task(self._send_loop(), name="tk-send"),
            loop.create_task(self._timer_loop(), name="tk-timer"),
        ]
        return self._sock.sockname[:2]

    @property
    def address(self) -> tuple[str, int]:
        return self._sock.sockname[:2]

    async def close(self) -> None:
        self.closed = True
        for t in self._tasks:
            t.cancel()
        # bounded: on 3.11 a cancel that races with wait_for's own wake-up can be lost
        # (the loops also watch `closed`)
        self._wake.set()
        await asyncio.wait(self._tasks, timeout=1.0)
        if self._sock is not None:
            self._sock.close()

    def set_game(self, game_id: bytes, key: bytes | None) -> None:
        """Switch to another game: every link belongs to the old one and is forgotten."""
        if game_id != self.game_id:
            self.links.clear()
        self.game_id = game_id
        self.key = key

    # ------------------------------------------------------------------ sending

    def link(self, peer: bytes, addr: tuple[str, int]) -> Link:
        lk = self.links.get(peer)
        if lk is None:
            lk = self.links[peer] = Link(peer, tuple(addr), last_heard=time.monotonic())
        return lk

    def forget(self, peer: bytes) -> None:
        self.links.pop(peer, None)

    def send(self, peer: bytes, addr: tuple[str, int] | None, message: Message) -> None:
        """Queue `message` for `peer` (reliable types are retransmitted until acked)."""
        if self.closed:
            return
        lk = self.links.get(peer)
        if lk is None:
            if addr is None:
                return
            lk = self.link(peer, addr)
        elif addr is not None and lk.their_inc == 0:
            lk.addr = tuple(addr)
        if message.RELIABLE:
            if len(lk.unacked) >= MAX_UNACKED:
                log.warning("dropping link to %s: %d unacked messages", peer.hex(), MAX_UNACKED)
                self.links.pop(peer, None)
                return
            seq = lk.send_next
            lk.send_next += 1
            now = time.monotonic()
            lk.unacked[seq] = _Pending(message, now, now, lk.rto())
            self._emit(lk, seq, message)
            self._wake.set()
        else:
            self._emit(lk, 0, message)

    def _emit(self, lk: Link, seq: int, message: Message) -> None:
        self._pkt += 1
        ack, sack = self._ack_fields(lk)
        env = Envelope(self.game_id, self.peer_id, self.incarnation, lk.their_inc, self._pkt,
                       seq, ack, sack, message)
        try:
            data = encode_datagram(env, self.key)
        except WireError as exc:
            log.error("cannot send %s to %s: %s", type(message).__name__, lk.peer.hex(), exc)
            return
        lk.ack_pending = False
        self.stats.datagrams_sent += 1
        self.stats.bytes_sent += len(data)
        self._out.put_nowait((data, lk.addr))

    def send_raw(self, data: bytes, addr: tuple[str, int]) -> None:
        """For tests and tools: put arbitrary bytes on the wire from this socket."""
        self._out.put_nowait((data, tuple(addr)))

    @staticmethod
    def _ack_fields(lk: Link) -> tuple[int, int]:
        ack = lk.recv_next - 1
        sack = 0
        for seq in lk.recv_buf:
            bit = seq - ack - 2
            if 0 <= bit < 64:
                sack |= 1 << bit
        return ack, sack

    async def _send_loop(self) -> None:
        while not self.closed:
            data, addr = await self._out.get()
            try:
                await self._sock.send(data, addr)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # unreachable peer, closed socket: retransmission copes
                log.debug("send to %s failed: %s", addr, exc)

    # ------------------------------------------------------------------ receiving

    async def _recv_loop(self) -> None:
        while not self.closed:
            try:
                data, addr = await self._sock.recv()
            except asyncio.CancelledError:
                raise
            except asyncio_dgram.TransportClosed:
                return
            except Exception as exc:  # ICMP errors surface here; they are not fatal
                log.debug("recv error: %s", exc)
                continue
            try:
                self.datagram_received(data, addr)
            except Exception:  # a bug must not kill the receive loop
                log.exception("internal error handling datagram from %s", addr)

    def _refuse(self, peer: bytes | None, addr: tuple, why: str) -> None:
        self.stats.refused += 1
        self.on_refused(peer, addr, why)

    def datagram_received(self, data: bytes, addr: tuple) -> None:
        self.stats.datagrams_received += 1
        addr = tuple(addr[:2])
        if len(data) > MAX_DATAGRAM:
            self._refuse(None, addr, f"oversized datagram ({len(data)} bytes)")
            return
        if self.game_id == NO_GAME:
            self._refuse(None, addr, "datagram while not in a game")
            return
        try:
            env = decode_datagram(data, self.key)
        except WireError as exc:
            self._refuse(None, addr, str(exc))
            return
        peer = env.sender
        if env.game != self.game_id:
            self._refuse(peer, addr, f"datagram for another game {env.game.hex()}")
            return
        if peer == self.peer_id:
            self._refuse(peer, addr, "datagram claims to come from this node")
            return
        msg = env.message
        if msg.RELIABLE != (env.seq > 0):
            self._refuse(peer, addr, f"{type(msg).__name__} with sequence number {env.seq}")
            return
        lk = self.links.get(peer)
        if lk is None:
            why = self.admit(peer, msg)
            if why is None and len(self.links) >= MAX_LINKS and not self._evict_stranger():
                why = "too many peers"
            if why is not None:
                self._refuse(peer, addr, why)
                return
            lk = self.link(peer, addr)
        if lk.their_inc == 0:
            lk.their_inc = env.incarnation
        elif env.incarnation < lk.their_inc:
            self._refuse(peer, addr, "datagram from an earlier run of this peer (replay?)")
            return
        elif env.incarnation > lk.their_inc:
            log.info("peer %s restarted (incarnation %d -> %d)", peer.hex(), lk.their_inc,
                     env.incarnation)
            lk.reset(env.incarnation)
            lk.addr = addr
            self.on_restart(peer)
            if self.links.get(peer) is not lk:
                return
        if env.dest_inc not in (0, self.incarnation):
            # meant for a previous run of this node; the sender will learn our new incarnation
            lk.last_heard = time.monotonic()
            return
        if not self._fresh_packet(lk, env.pkt):
            self._refuse(peer, addr, f"replayed or duplicated datagram (packet {env.pkt})")
            return
        lk.addr = addr
        lk.last_heard = time.monotonic()
        if env.dest_inc == self.incarnation:
            self._process_acks(lk, env.ack, env.sack)
        if env.seq == 0:
            if not isinstance(msg, Ack):
                self.on_message(peer, addr, msg)
            return
        self._schedule_ack(lk)
        if env.seq < lk.recv_next or env.seq in lk.recv_buf:
            return  # retransmission of something already delivered: just re-ack
        if env.seq >= lk.recv_next + RECV_WINDOW:
            self._refuse(peer, addr, f"sequence number {env.seq} too far ahead")
            return
        lk.recv_buf[env.seq] = msg
        while lk.recv_next in lk.recv_buf:
            m = lk.recv_buf.pop(lk.recv_next)
            lk.recv_next += 1
            self.on_message(peer, lk.addr, m)
            if self.links.get(peer) is not lk:
                return

    def _evict_stranger(self) -> bool:
        """Make room by forgetting the longest-silent link the node does not need (a
        stranger's refused JOIN, say), so strangers cannot crowd out a real joiner."""
        spare = [lk for lk in self.links.values() if not self.keep(lk.peer)]
        if not spare:
            return False
        victim = min(spare, key=lambda lk: lk.last_heard)
        del self.links[victim.peer]
        return True

    @staticmethod
    def _fresh_packet(lk: Link, pkt: int) -> bool:
        if pkt > lk.max_pkt:
            shift = pkt - lk.max_pkt
            lk.pkt_bits = ((lk.pkt_bits << shift) | 1) & ((1 << REPLAY_WINDOW) - 1)
            lk.max_pkt = pkt
            return True
        back = lk.max_pkt - pkt
        if back >= REPLAY_WINDOW or lk.pkt_bits >> back & 1:
            return False
        lk.pkt_bits |= 1 << back
        return True

    def _process_acks(self, lk: Link, ack: int, sack: int) -> None:
        if not lk.unacked:
            return
        now = time.monotonic()
        done = [s for s in lk.unacked if s <= ack or (s > ack + 1 and sack >> (s - ack - 2) & 1)]
        for s in done:
            p = lk.unacked.pop(s)
            if p.tries == 1:
                sample = now - p.first_sent
                lk.srtt = sample if lk.srtt <= 0 else 0.875 * lk.srtt + 0.125 * sample
        head = lk.unacked.get(ack + 1)
        if sack and head is not None and now - head.last_sent > max(0.005, 1.5 * lk.srtt):
            # the peer holds later messages but not this one: it was lost, resend at once
            head.tries += 1
            head.last_sent = now
            self.stats.retransmissions += 1
            self._emit(lk, ack + 1, head.message)

    def _schedule_ack(self, lk: Link) -> None:
        lk.ack_pending = True
        if not self._ack_scheduled:
            self._ack_scheduled = True
            asyncio.get_running_loop().call_later(ACK_DELAY, self._flush_acks)

    def _flush_acks(self) -> None:
        self._ack_scheduled = False
        for lk in list(self.links.values()):
            if lk.ack_pending:
                self._emit(lk, 0, Ack())

    # ------------------------------------------------------------------ timers

    async def _timer_loop(self) -> None:
        while not self.closed:
            now = time.monotonic()
            deadline = now + 0.25
            for lk in list(self.links.values()):
                n = 0
                for seq, p in list(lk.unacked.items()):
                    if n >= MAX_RETX_PER_TICK:
                        break
                    n += 1
                    due = p.last_sent + p.rto
                    if due <= now:
                        p.tries += 1
                        p.last_sent = now
                        p.rto = min(RTO_MAX, p.rto * 1.5)
                        self.stats.retransmissions += 1
                        self._emit(lk, seq, p.message)
                        due = now + p.rto
                    deadline = min(deadline, due)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), max(0.001, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass

    def idle(self) -> bool:
        """True when nothing is waiting for an acknowledgement."""
        return all(not lk.unacked for lk in self.links.values())

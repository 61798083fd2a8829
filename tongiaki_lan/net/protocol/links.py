"""Reliable, ordered, per-peer message delivery as a sans-I/O state machine
(protocol/transport.md).

Why our own: the game needs exactly-once, in-order delivery of a few small messages per
move between 2-6 peers, with datagrams small enough never to fragment, and a MAC on every
datagram. TCP would need N*(N-1)/2 connections and could not share the socket with
connectionless joins; this layer is a few hundred lines instead.

Why sans-I/O: `Links` never reads a clock and never touches a socket. It takes datagrams
and the current time (`receive`, `handle_timer`), and hands back datagrams to send
(`datagrams_to_send`) and the time it next wants to be woken (`get_timer`), like aioquic's
`QuicConnection`. So the same object runs over a real UDP socket (`net.pump`) and over the
simulated lossy network of the tests, on a virtual clock.

Each peer link has: a send sequence (1, 2, ...) with a retransmission queue whose timeout
follows the measured round trip; a receive cursor with a reorder buffer; a cumulative ack
plus a 64-bit selective-ack bitmap carried on every datagram; an anti-replay window over the
per-datagram packet counter; and the peer's incarnation, so a restarted peer is noticed
and both directions start afresh.

What a datagram proves about its sender is kept apart from what it says. Every datagram
names its receiver (`dest`) and echoes the newest packet its sender got from the
receiver's run (`echo`); the receiver remembers when and where it sent each packet of the
last few seconds. So an echo of a recent packet proves the sender alive since it was
sent (a replay is bytes from before), and an echo of a packet sent to the very address the
datagram comes from proves the sender receives there: only such an answer moves the
address a peer's traffic goes to (protocol/transport.md, "Addresses" and "Liveness").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from tongiaki_lan.net.protocol.codec import (
    MAX_DATAGRAM,
    NO_GAME,
    Ack,
    Message,
    WireError,
    decode_datagram,
    encode_fields,
    pack_message,
)
from tongiaki_lan.net.protocol.identity import KeyExchange
from tongiaki_lan.net.protocol.presence import AWAY_AFTER_S

log = logging.getLogger("tongiaki_lan.net.protocol.links")

RTO_MIN = 0.02
# a bare ACK waits this long for a message to ride on (the next move, a heartbeat),
# keeping it off the critical path of the move that is being spread
ACK_DELAY = 0.01
# a timer that wakes to send one link's delayed ack sends those due within this much
# later too: one wake-up for several peers' acks instead of one each
ACK_SLACK = 0.005
RTO_MAX = 0.2
RTO_INITIAL = 0.1
# a LAN has few peers and short queues: back off gently, a lost resend costs the game time
RTO_BACKOFF = 1.3
RECV_WINDOW = 512
REPLAY_WINDOW = 1024
MAX_RETX_PER_TICK = 16
MAX_UNACKED = 8192
MAX_LINKS = 32
# a link the node does not need (a stranger's refused JOIN, a watcher gone) is given up
# once a message to it has gone unacknowledged this long: its REFUSE would otherwise be
# resent for ever to a laptop that has moved on (and refuses it, many times a second)
STRANGER_GIVE_UP_S = 3.0
MAX_COPIES = 4
# even on a keyed link, sign a datagram this often: a peer that lost the key (it forgot
# the link) gets it back from the signed X25519 key within this time
RESIGN_S = 2.0
# incarnations only grow from run to run (net/aio/incarnation.py); nothing compares one with
# a clock, since laptops disagree by hours. This ceiling leaves room for every later run, so
# no datagram, not even the node's own, can number a run that no restart could follow.
MAX_INCARNATION = 1 << 62
# an echo of a packet sent this long ago or less proves its sender alive since then: what
# a member away (silent this long) needs to be back (presence.py)
PROOF_S = AWAY_AFTER_S
MAX_SENT_KEPT = 4096  # packets remembered per link for that (a few seconds of a busy one)
# a datagram that proves nothing (its echo is old, or names no packet of ours) is answered
# at once, so its sender gets a packet to echo: at most this often per link
ANSWER_S = 0.2

Addr = tuple[str, int]


@dataclass(frozen=True)
class Sign:
    """What the datagram being delivered proves about its sender (`Links.sign`, valid
    while `on_message` runs): `proven_at`, when we sent the packet it echoes (its sender
    was alive since; None: it proves nothing), and `newer`, whether it names our run and
    is newer than every datagram of its sender's run before it (a node that still hears a
    peer hears it this way; one it no longer hears needs a proof)."""

    proven_at: float | None
    newer: bool


@dataclass
class _Pending:
    message: Message
    first_sent: float
    last_sent: float
    rto: float
    tries: int = 1
    copies: int = 1


@dataclass
class Link:
    """What this node knows about one peer's end of the conversation."""

    peer: bytes
    addr: Addr
    their_inc: int = 0
    send_next: int = 1
    unacked: dict[int, _Pending] = field(default_factory=dict)
    recv_next: int = 1
    recv_buf: dict[int, Message] = field(default_factory=dict)
    ack_due: float | None = None
    last_heard: float = 0.0
    max_pkt: int = 0
    pkt_bits: int = 0  # bit i set: packet max_pkt - i seen
    srtt: float = 0.0
    rttvar: float = 0.0
    loss: float = 0.0  # estimated share of our datagrams this peer does not get
    # the pair's key (net.identity.KeyExchange) once both have each other's X25519 key:
    # `key` from the peer's signed datagram, `mac_ok` once the peer has shown it got ours
    their_kx: bytes | None = None
    key: bytes | None = None
    mac_ok: bool = False
    last_signed: float = -1e9
    # the longest wait before a resend: a watcher is off the game's critical path and may
    # be slow to ack (a busy laptop), so its link backs off further (protocol/watching.md)
    rto_max: float = RTO_MAX
    acked_at: float = -1e9  # when the peer last acknowledged a message of ours
    # the packets we sent this peer lately: pkt -> (when, to which address), so an echo
    # of one proves the peer alive since then, and reachable there
    sent: dict[int, tuple[float, Addr]] = field(default_factory=dict)
    answered_at: float = -1e9  # when we last answered a datagram of it that proved nothing
    challenged: dict[Addr, float] = field(default_factory=dict)  # other addresses asked

    def copies(self) -> int:
        """How many copies of an urgent message to send at once so that this peer misses
        all of them at most 2% of the time (1 on a clean link, at most MAX_COPIES)."""
        if self.loss < 0.05:  # one late ack is no storm: it decays again after two clean ones
            return 1
        k = 2
        while k < MAX_COPIES and self.loss ** k > 0.02:
            k += 1
        return k

    def note_delivery(self, p: _Pending, now: float) -> None:
        """Learn the loss rate from how messages got through: a resend means every copy
        was lost (or its ack was: on a LAN the two are alike); a single copy acked at once
        means none was; several copies acked at once tell little, so they only let the
        estimate decay slowly."""
        if p.tries > 1:
            self.loss += (1.0 - self.loss) / 16  # (one late ack under load is no storm)
        elif p.copies == 1:
            self.loss -= self.loss / 8
        else:
            self.loss -= self.loss / 64

    def rto(self) -> float:
        """RFC 6298's SRTT + 4·RTTVAR, floored for the peer's delayed acks: on a LAN the
        round trip is well under a millisecond, so a loss is repaired within tens of ms."""
        if self.srtt <= 0:
            return RTO_INITIAL
        return min(self.rto_max, max(RTO_MIN, self.srtt + 4 * self.rttvar + ACK_DELAY))

    def sample_rtt(self, sample: float) -> None:
        if self.srtt <= 0:
            self.srtt, self.rttvar = sample, sample / 2
        else:
            self.rttvar = 0.75 * self.rttvar + 0.25 * abs(self.srtt - sample)
            self.srtt = 0.875 * self.srtt + 0.125 * sample

    def reset(self, inc: int) -> None:
        self.their_inc = inc
        self.send_next = 1
        self.unacked.clear()
        self.recv_next = 1
        self.recv_buf.clear()
        self.max_pkt = 0
        self.pkt_bits = 0
        self.ack_due = None
        self.their_kx = None
        self.key = None
        self.mac_ok = False
        self.answered_at = -1e9  # (a new run's first words are answered at once)
        self.challenged.clear()


@dataclass
class TransportStats:
    datagrams_sent: int = 0
    bytes_sent: int = 0
    datagrams_received: int = 0
    retransmissions: int = 0
    redundant: int = 0  # extra copies of urgent messages sent on lossy links
    refused: int = 0


# (sender peer or None, address, reason)
RefusalHook = Callable[[bytes | None, tuple, str], None]


class Links:
    """Every link of one node. Upper-layer callbacks run synchronously inside `receive`.

    `on_message(peer, addr, message)` gets every message exactly once and in order per
    peer, with the peer's address as the link knows it (never merely where a datagram came
    from: that moves only on proof), and `sign` saying what the datagram that brought it
    proves; `admit(peer, message)` decides whether an unknown sender may open a link (the node
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
        keep: Callable[[bytes], bool] | None = None,
        identity=None,
        urgent_types: tuple[type, ...] = (),
        on_early: Callable[[bytes, tuple, Message], None] | None = None,
        early_types: tuple[type, ...] = (),
    ) -> None:
        # messages of `early_types` that overtake a lost one are also shown to `on_early`
        # at once (a MOVE need not wait for the resend of the message before it)
        self.on_early = on_early
        self.early_types = early_types
        # reliable messages on the game's critical path (MOVE): sent in several copies at
        # once on a lossy link, instead of waiting a round trip to learn one was lost
        self.urgent_types = urgent_types
        # with an identity every datagram is signed, and only signed ones are accepted
        self.identity = identity
        self.kx = KeyExchange() if identity is not None else None
        if identity is not None and identity.peer_id != peer_id:
            raise ValueError("peer id does not belong to the identity")
        self.peer_id = peer_id
        self.incarnation = incarnation
        self.on_message = on_message
        self.admit = admit or (lambda peer, msg: None)
        self.on_restart = on_restart or (lambda peer: None)
        self.on_refused = on_refused or (lambda peer, addr, why: None)
        self.keep = keep or (lambda peer: True)
        self.game_id: bytes = NO_GAME
        self.key: bytes | None = None
        self.links: dict[bytes, Link] = {}
        # every peer's Ed25519 key, from its signed datagrams: what a move's or a lobby's
        # own signature is checked with (protocol/security.md, "Signed moves")
        self.keys: dict[bytes, bytes] = {}
        self.stats = TransportStats()
        self.now = 0.0
        self._pkt = 0
        self._out: list[tuple[bytes, Addr]] = []
        # the last message packed, and its bytes: a broadcast packs its message once for
        # all peers (only the envelope differs)
        self._packed: tuple[Message | None, bytes] = (None, b"")
        self.closed = False
        # what the datagram being delivered proves about its sender (None between datagrams)
        self.sign: Sign | None = None
        # a test hook only (net/lab/corrupt.py): every message this node sends passes
        # through it before it is numbered and signed, as in a laptop whose memory or
        # program is broken. None on every real node
        self.outgoing: Callable[[bytes, Message], Message] | None = None

    def rebirth(self) -> None:
        """Go on as a new incarnation without a restart (a node that took moves back, a
        watcher asking a member for the game again): what is still queued for the old
        state is dropped, and peers refuse any copy of it still on its way, as from an
        earlier run; a peer that kept our link starts it afresh, at sequence 1."""
        self.incarnation += 1
        for lk in self.links.values():
            lk.reset(lk.their_inc)

    def set_game(self, game_id: bytes, key: bytes | None) -> None:
        """Switch to another game: every link belongs to the old one and is forgotten."""
        if game_id != self.game_id:
            self.links.clear()
        self.game_id = game_id
        self.key = key

    # ------------------------------------------------------------------ output

    def datagrams_to_send(self) -> list[tuple[bytes, Addr]]:
        """Everything queued since the last call, in order: (bytes, address)."""
        out, self._out = self._out, []
        return out

    def get_timer(self) -> float | None:
        """When `handle_timer` must next run (a retransmission or a delayed ack is due)."""
        best: float | None = None
        for lk in self.links.values():
            if lk.ack_due is not None and (best is None or lk.ack_due < best):
                best = lk.ack_due
            for p in lk.unacked.values():
                due = p.last_sent + p.rto
                if best is None or due < best:
                    best = due
                break  # the oldest message is due first (RTOs only grow)
        return best

    def handle_timer(self, now: float) -> None:
        self.now = now
        for lk in list(self.links.values()):
            if lk.unacked and not self.keep(lk.peer) and now - min(
                    p.first_sent for p in lk.unacked.values()) > STRANGER_GIVE_UP_S:
                del self.links[lk.peer]
                continue
            if lk.ack_due is not None and lk.ack_due <= now + ACK_SLACK:
                self._emit(lk, 0, Ack())
            n = 0
            for seq, p in list(lk.unacked.items()):
                if n >= MAX_RETX_PER_TICK:
                    break
                n += 1
                if p.last_sent + p.rto <= now:
                    p.tries += 1
                    p.last_sent = now
                    p.rto = min(lk.rto_max, p.rto * RTO_BACKOFF)
                    self.stats.retransmissions += 1
                    self._emit(lk, seq, p.message)

    # ------------------------------------------------------------------ sending

    def link(self, peer: bytes, addr: Addr) -> Link:
        lk = self.links.get(peer)
        if lk is None:
            lk = self.links[peer] = Link(peer, tuple(addr), last_heard=self.now)
        return lk

    def forget(self, peer: bytes) -> None:
        self.links.pop(peer, None)

    def send(self, peer: bytes, addr: Addr | None, message: Message) -> None:
        """Queue `message` for `peer` (reliable types are retransmitted until acked)."""
        if self.closed:
            return
        if self.outgoing is not None:
            message = self.outgoing(peer, message)
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
            copies = lk.copies() if isinstance(message, self.urgent_types) else 1
            lk.unacked[seq] = _Pending(message, self.now, self.now, lk.rto(), copies=copies)
            for _ in range(copies):
                self._emit(lk, seq, message)
            self.stats.redundant += copies - 1
        else:
            self._emit(lk, 0, message)

    def try_address(self, peer: bytes, addr: Addr) -> None:
        """A peer's address learnt from elsewhere (its advert, another member's lobby):
        ask there. Its traffic moves there once the peer answers from there (`receive`):
        an address anyone can claim, or a datagram anyone can replay from anywhere, never
        moves it by itself."""
        lk = self.links.get(peer)
        if lk is None or tuple(addr) == lk.addr:
            return
        self._challenge(lk, tuple(addr))

    def _move(self, lk: Link, addr: Addr) -> None:
        """The peer answered from `addr` a packet we sent there: its traffic goes there
        now, what waits for an ack at once."""
        log.info("peer %s answers at %s:%s: its traffic goes there", lk.peer.hex(), *addr)
        lk.addr = addr
        lk.challenged.pop(addr, None)
        for p in lk.unacked.values():
            p.last_sent = self.now - p.rto  # due now

    def _challenge(self, lk: Link, addr: Addr) -> None:
        """Send the peer, at an address its traffic does not go to, a datagram to echo:
        signed (a run there may not hold our link key) and naming no run of it (the run
        there may be a new one), so whatever runs there can answer."""
        if self.now - lk.challenged.get(addr, -1e9) < ANSWER_S:
            return
        if len(lk.challenged) >= 8:  # (a few candidates at most: forget the oldest)
            del lk.challenged[min(lk.challenged, key=lk.challenged.get)]
        lk.challenged[addr] = self.now
        self._emit(lk, 0, Ack(), to=addr, dest_inc=0, sign=True)

    def _answer(self, lk: Link, addr: Addr) -> None:
        """A datagram of the peer that proved nothing (a new run's first, one from an
        address its traffic does not go to, a replay): give it a packet to echo, where
        it came from. A peer that is there echoes it and proves itself; a replay gets
        nobody an answer."""
        if self.now - lk.answered_at < ANSWER_S:
            return
        lk.answered_at = self.now
        if addr != lk.addr:
            lk.challenged[addr] = self.now
        # (naming the run that spoke, and echoing it: the peer, if there, echoes it in its
        # next datagram, from where it is; two peers that both moved thus find each other)
        self._emit(lk, 0, Ack(), to=addr, sign=True)

    def _emit(self, lk: Link, seq: int, message: Message, *, to: Addr | None = None,
              dest_inc: int | None = None, sign: bool = False) -> None:
        self._pkt += 1
        to = lk.addr if to is None else to
        ack, sack = self._ack_fields(lk)
        if dest_inc is None:
            dest_inc = lk.their_inc
        echo = lk.max_pkt if dest_inc else 0  # (the newest packet of the run we name)
        fields = [self.game_id, self.peer_id, self.incarnation, lk.peer, dest_inc, self._pkt,
                  echo, seq, ack, sack]  # (an Envelope's, without its message)
        try:
            if self._packed[0] is not message:
                self._packed = (message, pack_message(message))
            packed = self._packed[1]
            if self.identity is None:
                data = encode_fields(fields, packed, self.key)
            elif (lk.key is not None and lk.mac_ok and self._first_try(lk, seq) and not sign
                  and self.now - lk.last_signed < RESIGN_S):
                data = encode_fields(fields, packed, self.key, link_key=lk.key)
            else:  # not keyed yet, a resend (the peer may have lost the key) or a refresh
                data = encode_fields(fields, packed, self.key, self.identity, self.kx.public)
                lk.last_signed = self.now
        except WireError as exc:
            log.error("cannot send %s to %s: %s", type(message).__name__, lk.peer.hex(), exc)
            return
        if to == lk.addr:
            lk.ack_due = None
        self._remember_sent(lk, self._pkt, to)
        self.stats.datagrams_sent += 1
        self.stats.bytes_sent += len(data)
        self._out.append((data, to))

    def _remember_sent(self, lk: Link, pkt: int, to: Addr) -> None:
        sent = lk.sent
        sent[pkt] = (self.now, to)
        old = self.now - PROOF_S
        while sent:  # (in the order sent: the oldest first)
            first = next(iter(sent))
            if sent[first][0] >= old and len(sent) <= MAX_SENT_KEPT:
                break
            del sent[first]

    @staticmethod
    def _first_try(lk: Link, seq: int) -> bool:
        p = lk.unacked.get(seq)
        return p is None or p.tries == 1

    def send_raw(self, data: bytes, addr: Addr) -> None:
        """For tests and tools: put arbitrary bytes on the wire from this node."""
        self._out.append((data, tuple(addr)))

    @staticmethod
    def _ack_fields(lk: Link) -> tuple[int, int]:
        ack = lk.recv_next - 1
        sack = 0
        for seq in lk.recv_buf:
            bit = seq - ack - 2
            if 0 <= bit < 64:
                sack |= 1 << bit
        return ack, sack

    # ------------------------------------------------------------------ receiving

    def _refuse(self, peer: bytes | None, addr: tuple, why: str) -> None:
        self.stats.refused += 1
        self.on_refused(peer, addr, why)

    def receive(self, data: bytes, addr: tuple, now: float) -> None:
        self.now = now
        self.stats.datagrams_received += 1
        addr = tuple(addr[:2])
        if len(data) > MAX_DATAGRAM:
            self._refuse(None, addr, f"oversized datagram ({len(data)} bytes)")
            return
        if self.game_id == NO_GAME:
            self._refuse(None, addr, "datagram while not in a game")
            return
        signer: dict = {}
        try:
            env = decode_datagram(data, self.key, require_signature=self.identity is not None,
                                  link_key=self._link_key, signer=signer)
        except WireError as exc:
            self._refuse(None, addr, str(exc))
            return
        peer = env.sender
        if signer:  # (the key hashes to the sender's id: it is that peer's, whatever follows)
            self.keys[peer] = signer["public"]
        if env.game != self.game_id:
            self._refuse(peer, addr, f"datagram for another game {env.game.hex()}")
            return
        if peer == self.peer_id:
            self._refuse(peer, addr, "datagram claims to come from this node")
            return
        if env.dest != self.peer_id:
            # captured on its way to another node and replayed here (or a laptop that took
            # over the port of one that left): nothing in it is ours
            self._refuse(peer, addr, f"datagram for another node {env.dest.hex()} (replayed?)")
            return
        msg = env.message
        if msg.RELIABLE != (env.seq > 0):
            self._refuse(peer, addr, f"{type(msg).__name__} with sequence number {env.seq}")
            return
        if env.incarnation >= MAX_INCARNATION:
            self._refuse(peer, addr, f"incarnation {env.incarnation} is out of range "
                         f"(at most {MAX_INCARNATION - 1})")
            return
        lk = self.links.get(peer)
        if lk is None:
            why = self.admit(peer, msg)
            if why is None and len(self.links) >= MAX_LINKS and not self._evict_stranger():
                why = "too many peers"
            if why is not None:
                if msg.RELIABLE:
                    self._refuse(peer, addr, why)
                else:
                    # a heartbeat or an ack asks for nothing and changes nothing; on a
                    # jittery Wi-Fi a newcomer's first heartbeat often overtakes the lobby
                    # that makes it a member, and players read "refused … not a member"
                    self.stats.refused += 1
                    log.info("dropped %s from %s at %s:%s: %s", type(msg).__name__,
                             peer.hex(), addr[0], addr[1], why)
                return
            lk = self.link(peer, addr)
        if lk.their_inc == 0:
            lk.their_inc = env.incarnation
        elif env.incarnation < lk.their_inc:
            self._refuse(peer, addr, "datagram from an earlier run of this peer (replay?)")
            return
        elif env.incarnation > lk.their_inc:
            # (its address stays: a datagram of a run this node never heard from may be a
            # replay, from anywhere; the new run answers `_answer` from where it is)
            log.info("peer %s restarted (incarnation %d -> %d)", peer.hex(), lk.their_inc,
                     env.incarnation)
            lk.reset(env.incarnation)
            self.on_restart(peer)
            if self.links.get(peer) is not lk:
                return
        if env.dest_inc not in (0, self.incarnation):
            # meant for a previous run of this node; the sender learns our new incarnation
            # from our next datagram. Not a sign of life: it may be a replay.
            return
        ours = env.dest_inc == self.incarnation
        newer = ours and env.pkt > lk.max_pkt
        if not self._fresh_packet(lk, env.pkt):
            self._refuse(peer, addr, f"replayed or duplicated datagram (packet {env.pkt})")
            return
        proven_at = None
        sent = lk.sent.get(env.echo) if ours and env.echo else None
        if sent is not None and now - sent[0] <= PROOF_S:
            # it echoes a packet we sent lately: its sender was alive since; and if we sent
            # that packet to where this datagram comes from, the peer receives there
            proven_at = sent[0]
            if sent[1] == addr and addr != lk.addr:
                self._move(lk, addr)
        if proven_at is not None:
            lk.last_heard = max(lk.last_heard, proven_at)
        elif newer and now - lk.last_heard <= PROOF_S:
            lk.last_heard = now  # (still heard, one way perhaps: Sign)
        if proven_at is None or addr != lk.addr:
            self._answer(lk, addr)
        self.sign = Sign(proven_at, newer)
        try:
            self._deliver(lk, peer, env, signer, now)
        finally:
            self.sign = None

    def _deliver(self, lk: Link, peer: bytes, env, signer: dict, now: float) -> None:
        """The acknowledgements and the message of a datagram that passed every check."""
        msg = env.message
        if signer and self.kx is not None and signer["kx"] != lk.their_kx:
            lk.their_kx = signer["kx"]
            lk.key = self.kx.link_key(self.peer_id, peer, signer["kx"])
        if env.dest_inc == self.incarnation:
            # it knows our incarnation, so it got one of our signed datagrams: our X25519
            # key with it (a keyed datagram from it proves the same)
            lk.mac_ok = True
            self._process_acks(lk, env.ack, env.sack)
        if env.seq == 0:
            if not isinstance(msg, Ack):
                self.on_message(peer, lk.addr, msg)
            return
        if lk.ack_due is None:
            lk.ack_due = now + ACK_DELAY
        if env.seq < lk.recv_next or env.seq in lk.recv_buf:
            return  # retransmission of something already delivered: just re-ack
        if env.seq >= lk.recv_next + RECV_WINDOW:
            self._refuse(peer, lk.addr, f"sequence number {env.seq} too far ahead")
            return
        lk.recv_buf[env.seq] = msg
        if env.seq > lk.recv_next and self.on_early is not None and isinstance(
                msg, self.early_types):
            self.on_early(peer, lk.addr, msg)
            if self.links.get(peer) is not lk:
                return
        while lk.recv_next in lk.recv_buf:
            m = lk.recv_buf.pop(lk.recv_next)
            lk.recv_next += 1
            self.on_message(peer, lk.addr, m)
            if self.links.get(peer) is not lk:
                return

    def _link_key(self, sender: bytes, incarnation: int) -> bytes | None:
        lk = self.links.get(sender)
        if lk is None or lk.their_inc != incarnation:
            return None
        return lk.key

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
            lk.pkt_bits = ((lk.pkt_bits << min(shift, REPLAY_WINDOW)) | 1) & (
                (1 << REPLAY_WINDOW) - 1)
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
        now = self.now
        done = [s for s in lk.unacked if s <= ack or (s > ack + 1 and sack >> (s - ack - 2) & 1)]
        newest = None
        if done:
            lk.acked_at = now
        for s in done:
            p = lk.unacked.pop(s)
            lk.note_delivery(p, now)
            if p.tries == 1 and (newest is None or p.first_sent > newest):
                newest = p.first_sent
        if newest is not None:
            # Karn: only first transmissions measure the round trip; and only the newest
            # message acked, since an ack that was lost makes the older ones look slow
            lk.sample_rtt(now - newest)
        head = lk.unacked.get(ack + 1)
        if sack and head is not None and now - head.last_sent > max(0.005, 1.5 * lk.srtt):
            # the peer holds later messages but not this one: it was lost, resend at once
            head.tries += 1
            head.last_sent = now
            self.stats.retransmissions += 1
            self._emit(lk, ack + 1, head.message)

    def unacked_for(self, peer: bytes, now: float) -> float:
        """How long our oldest message to `peer` has gone unacknowledged (0: none waits).
        A peer we hear, yet which acknowledges nothing for seconds, does not hear us."""
        lk = self.links.get(peer)
        if lk is None or not lk.unacked:
            return 0.0
        return now - next(iter(lk.unacked.values())).first_sent  # (the lowest sequence)

    def acked_at(self, peer: bytes) -> float:
        lk = self.links.get(peer)
        return lk.acked_at if lk is not None else -1e9

    def idle(self) -> bool:
        """True when nothing is waiting for an acknowledgement."""
        return all(not lk.unacked for lk in self.links.values())

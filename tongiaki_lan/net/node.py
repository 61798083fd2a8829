"""A peer of a LAN game: lobby, seed agreement, move sync and rejoin on top of the transport.

No node is special. During the lobby the first present member (the coordinator) orders
requests; once the game runs the engine itself orders everything: only the seat whose
decision is pending may move, every node checks every move with its own engine and
compares digests. A UI drives a node through the methods below and reads `events`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import msgpack

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Dealer, Game, IllegalMove, Move, move_from_wire
from tongiaki_lan.net import lobby as L
from tongiaki_lan.net.auth import derive_key
from tongiaki_lan.net.codec import (
    ID_LEN,
    NO_GAME,
    Abort,
    AddBot,
    Chat,
    Commit,
    Fetch,
    Heartbeat,
    Join,
    Leave,
    Lobby,
    Log,
    Member,
    Message,
    MoveMsg,
    Ready,
    Refuse,
    RemoveBot,
    Reveal,
    SeedOk,
    SetSeat,
    Start,
    encode_datagram,
)
from tongiaki_lan.net.events import NodeEvent
from tongiaki_lan.net.seed import SeedRound, seed_check
from tongiaki_lan.net.transport import Transport
from tongiaki_lan.records import (
    RecordHeader,
    RecordWriter,
    SeatInfo,
    read_record,
    replay_record,
)

log = logging.getLogger("tongiaki_lan.net.node")

HEARTBEAT_S = 0.5
AWAY_AFTER_S = 3.0
TICK_S = 0.1
FETCH_RETRY_S = 1.0
START_TIMEOUT_S = 15.0
LOG_CHUNK_BYTES = 900
MAX_EARLY = 64
REQUESTS = (Join, SetSeat, Ready, AddBot, RemoveBot, Leave, Start)
SIDECAR_SUFFIX = ".net"
MAX_QUEUED_EVENTS = 10_000
# bots that decide in well under a millisecond run on the event loop: a worker thread
# would hold the GIL for up to a switch interval (5 ms) while peers' datagrams wait
INLINE_BOTS: frozenset[str] = frozenset()


class JoinRefused(Exception):
    """Joining a game did not work; str() says why in words."""


@dataclass(frozen=True)
class GameRef:
    """Enough to contact a game: one member's address and peer id, and the game id."""

    game_id: bytes
    peer: bytes
    host: str
    port: int
    passphrase: bool = False
    name: str = ""

    def invite(self) -> str:
        """A text form to pass to another player (joining without discovery)."""
        return f"tongiaki://{self.host}:{self.port}/{self.game_id.hex()}/{self.peer.hex()}"

    @classmethod
    def parse(cls, text: str) -> GameRef:
        """Read an invite; raises ValueError with what is wrong."""
        rest = text.strip()
        if not rest.startswith("tongiaki://"):
            raise ValueError("an invite starts with tongiaki://")
        try:
            hostport, gid, peer = rest[len("tongiaki://"):].split("/")
            host, _, port = hostport.rpartition(":")
            ref = cls(bytes.fromhex(gid), bytes.fromhex(peer), host, int(port))
        except ValueError:
            raise ValueError(f"not an invite: {text!r}") from None
        if len(ref.game_id) != ID_LEN or len(ref.peer) != ID_LEN or not host:
            raise ValueError(f"not an invite: {text!r}")
        return ref


def bot_seed(seed: bytes, seat: int, index: int) -> int:
    """A bot's randomness for one decision, fixed by the game: whichever node drives the
    seat computes the same move, so a hand-over between drivers can never fork the game."""
    h = hashlib.blake2b(seed + bytes([seat]) + index.to_bytes(4, "big"), digest_size=8)
    return int.from_bytes(h.digest(), "big")


class Node:
    def __init__(
        self,
        name: str,
        *,
        host: str = "0.0.0.0",
        port: int = 0,
        record_path: str | os.PathLike | None = None,
        record_dir: str | os.PathLike | None = None,
        autoplay: str | None = None,
        peer_id: bytes | None = None,
        wrap_socket: Callable | None = None,
        discovery=None,
    ) -> None:
        self.name = name
        self.peer_id = peer_id or os.urandom(ID_LEN)
        self.incarnation = time.time_ns() // 1000
        self._host, self._port = host, port
        self.record_path = Path(record_path) if record_path else None
        self.record_dir = Path(record_dir) if record_dir else Path("records")
        self.autoplay = autoplay
        self.discovery = discovery
        self.transport = Transport(
            self.peer_id, self.incarnation, self._on_message, admit=self._admit,
            on_restart=self._on_restart, on_refused=self._on_refused, wrap_socket=wrap_socket,
            keep=self._keep_link,
        )
        self.events: asyncio.Queue[NodeEvent] = asyncio.Queue(maxsize=MAX_QUEUED_EVENTS)
        self._listeners: list[Callable[[NodeEvent], None]] = []
        self.game_id: bytes = NO_GAME
        self.passphrase: str | None = None
        self.lobby: Lobby | None = None
        self.game: Game | None = None
        self.dealer: Dealer | None = None
        self.seed: bytes | None = None
        self.stopped: str | None = None  # reason the game stopped on this node (mismatch)
        self.refusals = 0
        # perf_counter() per move index: when this node sent it / applied and verified it
        self.move_times: dict[int, float] = {}
        self.sent_at: dict[int, float] = {}
        self._writer: RecordWriter | None = None
        self._sync_pending = False
        # the record is written (and fsynced, ~3 ms) by one thread in move order, so the
        # event loop keeps answering peers meanwhile; a move lost to a crash in that window
        # is fetched back from the peers on rejoin
        self._io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tk-record")
        self._round: SeedRound | None = None
        self._early: list[tuple[bytes, Message]] = []
        self._joining: set[bytes] = set()
        self._join_sent: set[bytes] = set()
        self._answered_join: set[bytes] = set()
        self._away: set[bytes] = set()
        self._left: set[bytes] = set()
        self._progress: dict[bytes, int] = {}
        self._buffer: dict[int, list[tuple[bytes, MoveMsg]]] = {}
        self._digest_list: list[bytes] = []
        self._member_since: dict[bytes, float] = {}
        self._fetch_at = 0.0
        self._served: dict[tuple[bytes, int], float] = {}
        self._thinking: int | None = None
        self._your_turn: int | None = None
        self._last_hb = 0.0
        self._lobby_sent: dict[bytes, float] = {}
        self._start_seen = 0.0
        self._tasks: list[asyncio.Task] = []
        self._changed = asyncio.Event()
        self._closing = False
        self._closed = False

    # ================================================================== lifecycle

    async def start(self) -> tuple[str, int]:
        addr = await self.transport.open(self._host, self._port)
        self._tasks.append(asyncio.get_running_loop().create_task(self._ticker(), name="tk-node"))
        return addr

    @property
    def address(self) -> tuple[str, int]:
        return self.transport.address

    async def close(self) -> None:
        """Stop everything: no goodbye (see `leave`). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self._closing = True
        for t in self._tasks:
            t.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        await self.transport.close()
        self._close_record()
        await asyncio.get_running_loop().run_in_executor(None, self._io.shutdown, True)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.withdraw()

    async def leave(self, timeout: float = 2.0) -> None:
        """Say goodbye to the game, wait (bounded) until it was heard, then close."""
        if self.lobby is not None:
            self._broadcast(Leave())
            await self.wait_for(self.transport.idle, timeout, raise_on_timeout=False)
        await self.close()

    async def leave_game(self, timeout: float = 2.0) -> None:
        """Leave the current game but keep the node running (to join another one)."""
        if self.lobby is not None:
            self._broadcast(Leave())
            await self.wait_for(self.transport.idle, timeout, raise_on_timeout=False)
        self._reset_game_state()
        self.transport.set_game(NO_GAME, None)
        self.game_id = NO_GAME
        if self.discovery is not None:
            await self.discovery.withdraw()

    async def stream(self):
        """`async for event in node.stream(): ...` — the events queue as an iterator."""
        while not self._closed:
            yield await self.events.get()

    def add_listener(self, fn: Callable[[NodeEvent], None]) -> None:
        self._listeners.append(fn)

    def _emit(self, kind: str, **data) -> None:
        ev = NodeEvent(kind, data)
        if self.events.full():  # nobody reads the queue (listeners only): keep the newest
            self.events.get_nowait()
        self.events.put_nowait(ev)
        for fn in self._listeners:
            try:
                fn(ev)
            except Exception:
                log.exception("event listener failed")
        self._changed.set()

    async def wait_for(self, cond: Callable[[], bool], timeout: float,
                       raise_on_timeout: bool = True) -> bool:
        """Wait until `cond()` holds; re-checked on every node change and at least every
        50 ms (acks change state without an event)."""
        async def loop():
            while not cond():
                self._changed.clear()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), 0.05)
        try:
            await asyncio.wait_for(loop(), timeout)
            return True
        except asyncio.TimeoutError:
            if raise_on_timeout:
                raise
            return False

    # ================================================================== game set-up

    def _enter_game(self, game_id: bytes, passphrase: str | None) -> None:
        self.game_id = game_id
        self.passphrase = passphrase or None
        key = derive_key(passphrase, game_id) if passphrase else None
        self.transport.set_game(game_id, key)

    async def create_game(self, game_name: str, seats: int, passphrase: str | None = None,
                          colour: str = "") -> bytes:
        """Open a new game in the lobby phase, seated as its first player."""
        self._reset_game_state()
        self._enter_game(os.urandom(ID_LEN), passphrase)
        self.lobby = L.new_lobby(game_name, seats, bool(passphrase), self.peer_id, self.name,
                                 colour, self.address[1])
        self._lobby_changed(None)
        self._emit("joined", game=game_name, game_id=self.game_id.hex(), created=True,
                   invite=self.invite())
        return self.game_id

    async def join_game(self, ref: GameRef, passphrase: str | None = None, colour: str = "",
                        timeout: float = 5.0) -> None:
        """Ask a game for a seat; returns once seated, raises JoinRefused otherwise."""
        self._reset_game_state()
        self._enter_game(ref.game_id, passphrase)
        self._joining = {ref.peer}
        self._join_refusal: str | None = None
        self._join_sent = {ref.peer}
        self.transport.send(ref.peer, (ref.host, ref.port), Join(self.name, colour))
        self._join_colour = colour
        ok = await self.wait_for(
            lambda: self._seated() or self._join_refusal is not None, timeout,
            raise_on_timeout=False)
        if self._seated():
            self._emit("joined", game=self.lobby.name, game_id=self.game_id.hex(), created=False,
                       invite=self.invite())
            return
        reason = self._join_refusal or (
            "no answer from the game" + (" (wrong passphrase?)" if passphrase or ref.passphrase
                                         else ""))
        if not ok:
            reason = f"no answer from the game within {timeout:.0f} s" + (
                " (wrong or missing passphrase?)" if ref.passphrase or passphrase else "")
        self._reset_game_state()
        self.transport.set_game(NO_GAME, None)
        self.game_id = NO_GAME
        raise JoinRefused(reason)

    def invite(self, host: str | None = None) -> str:
        """This node's invite for the current game (see GameRef.invite)."""
        if self.lobby is None:
            raise ValueError("not in a game")
        if host is None:
            host = self.address[0]
            if host == "0.0.0.0":
                from tongiaki_lan.net.discovery import local_ipv4
                host = local_ipv4()[0]
        return GameRef(self.game_id, self.peer_id, host, self.address[1]).invite()

    def _seated(self) -> bool:
        return self.lobby is not None and L.is_member(self.lobby, self.peer_id)

    def _close_record(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(RuntimeError):  # executor already shut down
                self._io.submit(self._writer.close)

    def _record(self, move: Move, digest: bytes) -> None:
        writer = self._writer
        try:
            writer.append(move, digest)  # in the OS's hands now: survives a crash
        except Exception as exc:  # disk full, removed directory...
            log.error("cannot write record %s: %s", writer.path, exc)
            self._emit("error", reason=f"cannot write record {writer.path}: {exc}")
            return
        if not self._sync_pending:
            self._sync_pending = True

            def sync() -> None:
                self._sync_pending = False
                with contextlib.suppress(Exception):
                    writer.sync()

            self._io.submit(sync)

    async def flush_record(self) -> None:
        """Wait until every move so far is on disk."""
        await asyncio.get_running_loop().run_in_executor(None, self._io.submit(
            lambda: None).result)

    def _reset_game_state(self) -> None:
        self._close_record()
        self.lobby = None
        self.game = None
        self.seed = None
        self.stopped = None
        self._writer = None
        self._round = None
        self._early.clear()
        self._joining = set()
        self._answered_join = set()
        self._away.clear()
        self._left.clear()
        self._progress.clear()
        self._buffer.clear()
        self.move_times = {}
        self.sent_at = {}
        self._digest_list = []
        self._member_since = {}
        self._thinking = None
        self._your_turn: int | None = None
        self._join_refusal = None

    async def resume(self, record_path: str | os.PathLike, passphrase: str | None = None) -> None:
        """Rejoin a game after a crash or restart from our own record and its sidecar."""
        record_path = Path(record_path)
        side = read_sidecar(record_path)
        self.peer_id = side["peer"]
        self.transport.peer_id = self.peer_id
        self._reset_game_state()
        self._enter_game(side["game_id"], passphrase)
        self.lobby = side["lobby"]
        self.record_path = record_path
        record = read_record(record_path)
        self.seed = record.header.seed
        self.game = replay_record(record)
        self.dealer = record.header.dealer()
        self._digest_list = list(record.digests)
        self._writer = RecordWriter.open_append(record_path, fsync=False)
        self._deal()  # the crash may have come between a move and its reveals
        self._emit("game_start", seed=self.seed.hex(), seats=self._seat_json(),
                   record=str(record_path), resumed=True, moves=len(self.game.moves))
        for m in self.lobby.members:
            if m.peer != self.peer_id and m.host != "0.0.0.0":
                self.transport.send(m.peer, (m.host, m.port), self._heartbeat())
        self._advertise()
        self._after_state_change()

    # ================================================================== UI requests

    def set_seat(self, name: str, colour: str = "") -> None:
        self.name = name
        self._request(SetSeat(name, colour))

    def set_ready(self, ready: bool = True) -> None:
        self._request(Ready(ready))

    def add_bot(self, kind: str = "random", colour: str = "") -> None:
        make_bot(kind)  # refuse unknown kinds here, before anyone else sees them
        self._request(AddBot(kind, colour))

    def remove_bot(self, colour: str) -> None:
        self._request(RemoveBot(colour))

    def start_game(self) -> None:
        self._request(Start())

    def chat(self, text: str) -> None:
        self._broadcast(Chat(text))
        self._emit("chat", peer=self.peer_id.hex(), name=self.name, text=text)

    def send_move(self, move: Move) -> None:
        """Play a move for a seat of this node. Raises IllegalMove / ValueError as the engine
        does; nothing is sent then."""
        if self.game is None or self.game.is_over:
            raise ValueError("no game in progress")
        if self.stopped:
            raise ValueError(f"game stopped: {self.stopped}")
        d = self.game.pending
        seat = self.lobby.seats[d.seat]
        if seat.owner != self.peer_id and not (
                seat.kind == "bot" and self._bot_driver(d.seat) == self.peer_id):
            raise ValueError(f"it is {seat.name}'s decision, not yours")
        self._play_local(move)

    def _request(self, msg: Message) -> None:
        if self.lobby is None:
            raise ValueError("not in a game")
        coord = self.coordinator()
        if coord == self.peer_id:
            self._handle_request(self.peer_id, self.address, msg)
        else:
            self.transport.send(coord, self._addr_of(coord), msg)

    # ================================================================== views

    def present(self) -> set[bytes]:
        if self.lobby is None:
            return {self.peer_id}
        gone = self._away | self._left
        return {m.peer for m in self.lobby.members if m.peer == self.peer_id or m.peer not in gone}

    def coordinator(self) -> bytes:
        return L.coordinator(self.lobby, self.present())

    def _bot_driver(self, seat: int) -> bytes:
        return L.bot_driver(self.lobby, seat, self.present())

    def my_seats(self) -> list[int]:
        if self.lobby is None:
            return []
        return [i for i, s in enumerate(self.lobby.seats) if s.owner == self.peer_id]

    def _addr_of(self, peer: bytes) -> tuple[str, int] | None:
        lk = self.transport.links.get(peer)
        if lk is not None:
            return lk.addr
        for m in self.lobby.members if self.lobby else ():
            if m.peer == peer and m.host != "0.0.0.0":
                return (m.host, m.port)
        return None

    def _peer_name(self, peer: bytes | None) -> str:
        if peer is None:
            return "unknown sender"
        if self.lobby is not None:
            for s in self.lobby.seats:
                if s.owner == peer and s.kind == "human":
                    return f"{s.name} ({peer.hex()[:8]})"
        return f"node {peer.hex()[:8]}"

    def lobby_json(self) -> dict:
        lb = self.lobby
        if lb is None:
            return {}
        present = self.present()
        return {
            "game": lb.name, "game_id": self.game_id.hex(), "version": lb.version,
            "phase": lb.phase, "seats_total": lb.total, "passphrase": lb.passphrase,
            "seats": [{"name": s.name, "colour": s.colour, "kind": s.kind, "bot": s.bot,
                       "ready": s.ready, "owner": s.owner.hex(), "mine": s.owner == self.peer_id,
                       "away": s.owner not in present} for s in lb.seats],
            "coordinator": self.coordinator().hex(),
        }

    def _seat_json(self) -> list[dict]:
        return [{"name": s.name, "colour": s.colour, "kind": s.bot or "human"}
                for s in self.lobby.seats]

    # ================================================================== inbound

    def _keep_link(self, peer: bytes) -> bool:
        return peer in self._joining or (self.lobby is not None and L.is_member(self.lobby, peer))

    def _admit(self, peer: bytes, msg: Message) -> str | None:
        if self.lobby is not None and L.is_member(self.lobby, peer):
            return None
        if peer in self._joining:
            return None
        if isinstance(msg, Join):
            if self.lobby is None:
                return "join while this node is not in a game"
            return None
        return f"unknown node {peer.hex()[:8]} is not a member of this game"

    def _on_refused(self, peer: bytes | None, addr: tuple, why: str) -> None:
        self.refusals += 1
        who = self._peer_name(peer)
        log.info("refused datagram from %s at %s:%s: %s", who, addr[0], addr[1], why)
        self._emit("refused", peer=peer.hex() if peer else None, sender=who,
                   addr=f"{addr[0]}:{addr[1]}", reason=why)

    def _refuse_msg(self, peer: bytes, what: str, why: str) -> None:
        self.refusals += 1
        who = self._peer_name(peer)
        addr = self._addr_of(peer) or ("?", 0)
        log.warning("refused %s from %s: %s", what, who, why)
        self._emit("refused", peer=peer.hex(), sender=who, addr=f"{addr[0]}:{addr[1]}",
                   what=what, reason=why)

    def _on_restart(self, peer: bytes) -> None:
        self._progress.pop(peer, None)
        if self.lobby is not None and L.is_member(self.lobby, peer):
            self._left.discard(peer)
            self._away.discard(peer)
            self._emit("restarted", peer=peer.hex(), name=self._peer_name(peer))
            self._lobby_sent.pop(peer, None)

    def _on_message(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if self._closing:
            return
        if peer in self._away or peer in self._left:
            if self.lobby is not None and L.is_member(self.lobby, peer):
                self._away.discard(peer)
                self._left.discard(peer)
                self._emit("back", peer=peer.hex(), name=self._peer_name(peer))
                self._after_state_change()
        try:
            self._dispatch(peer, addr, msg)
        except Exception as exc:  # a bug or an unforeseen input must not kill the node
            log.exception("internal error on %s from %s", type(msg).__name__, peer.hex())
            self._refuse_msg(peer, type(msg).__name__, f"internal error: {exc}")

    def _dispatch(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if isinstance(msg, Heartbeat):
            self._on_heartbeat(peer, msg)
        elif isinstance(msg, Lobby):
            self._on_lobby(peer, addr, msg)
        elif isinstance(msg, Refuse):
            if peer in self._joining and not self._seated():
                self._join_refusal = msg.reason
                self._changed.set()
            else:
                self._emit("request_refused", peer=peer.hex(), reason=msg.reason)
        elif isinstance(msg, REQUESTS):
            self._handle_request(peer, addr, msg)
        elif isinstance(msg, Commit | Reveal | Abort | SeedOk):
            self._on_seed_message(peer, msg)
        elif isinstance(msg, MoveMsg):
            self._on_move(peer, msg)
        elif isinstance(msg, Fetch):
            self._on_fetch(peer, msg)
        elif isinstance(msg, Log):
            self._on_log(peer, msg)
        elif isinstance(msg, Chat):
            if self.lobby is not None and L.is_member(self.lobby, peer):
                self._emit("chat", peer=peer.hex(), name=self._peer_name(peer), text=msg.text)

    # ------------------------------------------------------------------ lobby

    def _handle_request(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if self.lobby is None:
            return
        if isinstance(msg, Leave) and peer != self.peer_id:
            self._left.add(peer)
            self._emit("away", peer=peer.hex(), name=self._peer_name(peer), left=True)
        if (isinstance(msg, Join) and self.lobby.phase != "lobby"
                and not L.is_member(self.lobby, peer)):
            why = f"game {self.lobby.name!r} has already started"
            self._refuse_msg(peer, "join", why)
            self.transport.send(peer, addr, Refuse(why))
            self.transport.forget(peer)  # a stranger's link is not worth keeping
            return
        if self.coordinator() != self.peer_id:
            if isinstance(msg, Join) and peer not in self._answered_join:
                self._answered_join.add(peer)
                self.transport.send(peer, addr, self.lobby)  # the joiner finds the coordinator
            return
        result = L.apply_request(self.lobby, peer, addr, msg)
        if isinstance(result, str):
            if peer == self.peer_id:
                self._emit("request_refused", peer=peer.hex(), reason=result)
            elif isinstance(msg, Leave):
                pass
            else:
                self.transport.send(peer, addr, Refuse(result))
            return
        if isinstance(msg, Join) and result is self.lobby:
            self.transport.send(peer, addr, self.lobby)  # a repeated join: resend the lobby
            return
        if result is not self.lobby:
            self._install_lobby(result, broadcast=True)

    def _install_lobby(self, new: Lobby, broadcast: bool) -> None:
        old = self.lobby
        self.lobby = new
        if broadcast:
            self._broadcast(new)
        self._lobby_changed(old)

    def _on_lobby(self, peer: bytes, addr: tuple, msg: Lobby) -> None:
        # the sender's own entry carries a placeholder address: use where it came from
        members = tuple(Member(m.peer, addr[0], addr[1]) if m.peer == peer else m
                        for m in msg.members)
        msg = Lobby(msg.version, msg.phase, msg.name, msg.total, msg.passphrase, msg.seats,
                    members, msg.start_nonce)
        if not L.is_member(msg, peer):
            self._refuse_msg(peer, "lobby", "lobby from a node that is not in it")
            return
        cur = self.lobby
        if cur is None:
            if peer not in self._joining:
                self._refuse_msg(peer, "lobby", "unsolicited lobby")
                return
        elif msg.version <= cur.version:
            return
        elif self.game is not None and msg.seats != cur.seats:
            self._refuse_msg(peer, "lobby", "lobby with other seats after the game started")
            return
        if not L.is_member(msg, self.peer_id) and not self._seated():
            # not seated yet: ask the coordinator (and anyone we have not asked) for a seat
            self.lobby = None
            for m in msg.members:
                if m.peer not in self._join_sent:
                    self._join_sent.add(m.peer)
                    self._joining.add(m.peer)
                    self.transport.send(m.peer, (m.host, m.port),
                                        Join(self.name, getattr(self, "_join_colour", "")))
            return
        self._install_lobby(msg, broadcast=False)

    def _lobby_changed(self, old: Lobby | None) -> None:
        lb = self.lobby
        self._emit("lobby", **self.lobby_json())
        self._advertise()
        if lb.phase == "starting" and (self._round is None or self._round.nonce != lb.start_nonce):
            self._begin_seed_round()
        if lb.phase == "lobby" and self._round is not None:
            self._round = None
        if self.coordinator() == self.peer_id and L.should_autostart(lb):
            self._install_lobby(L.start(lb), broadcast=True)

    def _advertise(self) -> None:
        if self.discovery is None or self.lobby is None:
            return
        phase = self.lobby.phase
        if self.game is not None:
            phase = "over" if self.game.is_over else "playing"
        try:
            self.discovery.advertise_soon(
                game_name=self.lobby.name, game_id=self.game_id, peer=self.peer_id,
                player=self.name, phase=phase, taken=len(self.lobby.seats),
                total=self.lobby.total, passphrase=self.lobby.passphrase,
                port=self.address[1])
        except Exception:
            log.exception("advertising failed")

    # ------------------------------------------------------------------ seed

    def _begin_seed_round(self) -> None:
        lb = self.lobby
        self._round = SeedRound(self.game_id, lb.start_nonce, self.peer_id, L.seed_order(lb))
        self._start_seen = time.monotonic()
        self._emit("starting", nonce=lb.start_nonce.hex(),
                   order=[p.hex() for p in self._round.order])
        self._broadcast(Commit(lb.start_nonce, self._round.my_commitment))
        early, self._early = self._early, []
        for peer, msg in early:
            self._on_seed_message(peer, msg)
        self._seed_progress()

    def _on_seed_message(self, peer: bytes, msg: Commit | Reveal | Abort | SeedOk) -> None:
        rnd = self._round
        if isinstance(msg, Abort):
            if rnd is not None and msg.nonce == rnd.nonce:
                self._abort_start(msg.reason, tell=False)
            return
        if rnd is None or msg.nonce != rnd.nonce:
            if self.game is None and len(self._early) < MAX_EARLY:
                self._early.append((peer, msg))  # may overtake the lobby that announces it
            return
        if isinstance(msg, SeedOk):
            why = rnd.add_ok(peer, msg.check)
            if why:
                self._refuse_msg(peer, "seed confirmation", why)
                self._abort_start(f"{self._peer_name(peer)}: {why}", tell=True)
                return
        elif isinstance(msg, Commit):
            why = rnd.add_commit(peer, msg.commitment)
            if why:
                self._refuse_msg(peer, "commit", why)
                return
        else:
            why = rnd.add_reveal(peer, msg.secret)
            if why:
                self._refuse_msg(peer, "reveal", why)
                self._abort_start(f"{self._peer_name(peer)}: {why}", tell=True)
                return
        self._seed_progress()

    def _seed_progress(self) -> None:
        rnd = self._round
        if rnd is None:
            return
        if rnd.all_committed() and not rnd.revealed:
            rnd.revealed = True
            self._broadcast(Reveal(rnd.nonce, rnd.secret))
        if rnd.revealed and rnd.complete() and not rnd.ok_sent:
            rnd.ok_sent = True
            for p, check in list(rnd.oks.items()):  # confirmations that came early
                why = rnd.add_ok(p, check)
                if why:
                    self._abort_start(f"{self._peer_name(p)}: {why}", tell=True)
                    return
            self._broadcast(SeedOk(rnd.nonce, seed_check(rnd.seed())))
        if rnd.ok_sent and rnd.confirmed() and self.game is None:
            self._begin_game(rnd.seed())

    def _abort_start(self, reason: str, tell: bool) -> None:
        rnd = self._round
        if rnd is None:
            return
        if tell:
            self._broadcast(Abort(rnd.nonce, reason[:300]))
        self._round = None
        self._buffer.clear()  # nothing said for the void attempt may leak into the next one
        self._early.clear()
        self._emit("abort", reason=reason)
        if self.coordinator() == self.peer_id and self.lobby.phase == "starting":
            self._install_lobby(L.abort_start(self.lobby), broadcast=True)

    # ------------------------------------------------------------------ game

    def _default_record_path(self) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.lobby.name)
        return self.record_dir / f"{safe}-{self.game_id.hex()[:8]}-{self.peer_id.hex()[:8]}.tgrec"

    def _begin_game(self, seed: bytes) -> None:
        lb = self.lobby
        self.seed = seed
        colours = [s.colour for s in lb.seats]
        self.game = Game(colours)
        self.dealer = Dealer(seed)
        header = RecordHeader(seed, tuple(SeatInfo(s.name, s.colour, s.bot or "human")
                                          for s in lb.seats),
                              created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                              game_name=lb.name)
        path = self.record_path or self._default_record_path()
        if path.exists():
            path = path.with_name(f"{path.stem}-{self.incarnation}{path.suffix}")
            self.record_path = path
        self.record_path = path
        self._writer = RecordWriter.create(path, header, fsync=False)
        self._writer.sync()
        playing = Lobby(lb.version, "playing", lb.name, lb.total, lb.passphrase, lb.seats,
                        lb.members, lb.start_nonce)
        self.lobby = playing
        write_sidecar(path, self)
        self._emit("game_start", seed=seed.hex(), seats=self._seat_json(), record=str(path),
                   resumed=False, moves=0)
        if self.coordinator() == self.peer_id:
            self._install_lobby(dataclass_replace_version(playing), broadcast=True)
        else:
            self._advertise()
        self._drain_buffer()
        self._after_state_change()

    def _after_state_change(self) -> None:
        """Called after anything that might make this node the one to move."""
        g = self.game
        if g is None or self.stopped or self._closing:
            return
        if g.is_over:
            return
        d = g.pending
        seat = self.lobby.seats[d.seat]
        idx = len(g.moves)
        if seat.kind == "bot":
            if self._bot_driver(d.seat) != self.peer_id:
                self._note_waiting(d.seat)
                return
            kind = seat.bot
        elif seat.owner == self.peer_id:
            if not self.autoplay:
                if self._your_turn != idx:
                    self._your_turn = idx
                    self._emit("your_turn", index=idx, seat=d.seat, decision=d.kind)
                return
            kind = self.autoplay
        else:
            self._note_waiting(d.seat)
            return
        if self._thinking == idx:
            return
        self._thinking = idx
        self._tasks.append(asyncio.get_running_loop().create_task(self._think(kind, d.seat, idx)))
        self._tasks = [t for t in self._tasks if not t.done()]

    def _note_waiting(self, seat: int) -> None:
        owner = self.lobby.seats[seat].owner
        if owner not in self.present() and self.lobby.seats[seat].kind == "human":
            key = (len(self.game.moves), owner)
            if getattr(self, "_waiting_key", None) != key:
                self._waiting_key = key
                self._emit("waiting", seat=seat, name=self.lobby.seats[seat].name)

    async def _think(self, kind: str, seat: int, idx: int) -> None:
        try:
            bot = make_bot(kind, seed=bot_seed(self.seed, seat, idx))
            snapshot = self.game.copy()
            if kind in INLINE_BOTS:
                await asyncio.sleep(0)  # let datagrams that are already here go first
                move = bot.choose(snapshot)
            else:  # thinking bots must not stall heartbeats and acks
                move = await asyncio.get_running_loop().run_in_executor(None, bot.choose,
                                                                        snapshot)
        except Exception as exc:
            log.exception("bot failed")
            self._emit("error", reason=f"bot {kind} failed: {exc}")
            return
        if self.game is not None and len(self.game.moves) == idx and not self.stopped:
            try:
                self._play_local(move)
            except (IllegalMove, ValueError) as exc:
                self._emit("error", reason=f"bot {kind} chose an illegal move: {exc}")

    def _play_local(self, move: Move) -> None:
        g = self.game
        idx = len(g.moves)
        seat = g.pending.seat
        g.apply(move)  # raises on an illegal move; nothing sent then
        digest = g.digest()
        self._record(move, digest)
        self._digest_list.append(digest)
        self.move_times[idx] = self.sent_at[idx] = time.perf_counter()
        self._broadcast(MoveMsg(idx, move.to_wire(), digest))
        self._applied(idx, seat, move, digest, by=self.peer_id, recorded=True)

    def _applied(self, idx: int, seat: int, move: Move, digest: bytes, by: bytes | None,
                 recorded: bool = False) -> None:
        if not recorded:
            self._record(move, digest)
            self._digest_list.append(digest)
        self.move_times.setdefault(idx, time.perf_counter())
        self._emit("move", index=idx, seat=seat, colour=self.lobby.seats[seat].colour,
                   name=self.lobby.seats[seat].name, move=str(move),
                   by=by.hex() if by else None)
        self._deal()
        if self.game.is_over:
            self._finish()
        else:
            self._after_state_change()

    def _deal(self) -> None:
        """Reveal the tiles the last move calls for. Every peer deals the same tiles from
        the agreed seed, so reveals are never sent; each is recorded like a move."""
        def on_reveal(move: Move) -> None:
            digest = self.game.digest()
            self._record(move, digest)
            self._digest_list.append(digest)
            idx = len(self.game.moves) - 1
            self.move_times.setdefault(idx, time.perf_counter())
            self._emit("reveal", index=idx, move=str(move))

        self.dealer.deal(self.game, on_reveal)

    def _finish(self) -> None:
        g = self.game
        self._advertise()
        self._broadcast(self._heartbeat())  # tell everyone at once that we are done
        done = self._io.submit(self._writer.close)
        loop = asyncio.get_running_loop()
        record = str(self.record_path)

        def announce(_fut) -> None:  # only once the whole record is on disk
            self._emit("game_over", digest=g.digest().hex(), scores=g.scores(),
                       winners=g.winners(), moves=len(g.moves), record=record)

        done.add_done_callback(lambda fut: loop.call_soon_threadsafe(announce, fut))

    def _stop(self, reason: str) -> None:
        """Our state differs from a peer's: stop playing, keep the evidence."""
        if self.stopped:
            return
        self.stopped = reason
        dump = None
        if self.record_path is not None:
            dump = self.record_path.with_suffix(".diverged.txt")
            lines = [f"game {self.game_id.hex()} stopped: {reason}",
                     f"seed {self.seed.hex()}", f"record {self.record_path}"]
            lines += [f"{i:4d} {m}" for i, m in enumerate(self.game.moves)]
            lines.append(f"digest after last move {self.game.digest().hex()}")
            with contextlib.suppress(OSError):
                dump.write_text("\n".join(lines) + "\n")
        log.error("game stopped: %s (dump %s)", reason, dump)
        self._emit("mismatch", reason=reason, record=str(self.record_path), dump=str(dump))

    def _on_move(self, peer: bytes, msg: MoveMsg) -> None:
        g = self.game
        if g is None:
            if self.lobby is not None and self.lobby.phase in ("starting", "playing"):
                self._keep(peer, msg)  # overtook the last reveal: keep it for later
                return
            self._refuse_msg(peer, f"move {msg.index}", "no game in progress here")
            return
        n = len(g.moves)
        if msg.index < n:
            if g.moves[msg.index].to_wire() != msg.move:
                self._refuse_msg(peer, f"move {msg.index}",
                                 f"conflicts with the move already played ({g.moves[msg.index]})")
            return
        if msg.index > n:
            self._keep(peer, msg)
            self._fetch(peer, n)
            return
        why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True)
        if why:
            self._refuse_msg(peer, f"move {msg.index}", why)
        self._drain_buffer()

    def _keep(self, peer: bytes, msg: MoveMsg) -> None:
        """Hold a move that came early. Several candidates per index are kept, so a forged
        move cannot displace the real one; each is checked when its turn comes."""
        if len(self._buffer) >= 256 and msg.index not in self._buffer:
            return
        slot = self._buffer.setdefault(msg.index, [])
        if len(slot) < 4:
            slot.append((peer, msg))

    def _drain_buffer(self) -> None:
        while self.game is not None and not self.stopped:
            n = len(self.game.moves)
            for k in [k for k in self._buffer if k < n]:
                del self._buffer[k]
            slot = self._buffer.pop(n, None)
            if slot is None:
                return
            for peer, msg in slot:
                if len(self.game.moves) != n:
                    break
                why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True)
                if why:
                    self._refuse_msg(peer, f"move {msg.index}", why)
            if len(self.game.moves) == n:
                return

    def _check_and_apply(self, peer: bytes, wire: list, digest: bytes,
                         check_sender: bool) -> str | None:
        g = self.game
        if self.stopped:
            return f"game stopped here: {self.stopped}"
        if g.is_over:
            return "the game is over"
        idx = len(g.moves)
        d = g.pending
        seat = self.lobby.seats[d.seat]
        if check_sender:
            if seat.kind == "human" and seat.owner != peer:
                return (f"it is {seat.name}'s ({seat.colour}) decision, "
                        f"not {self._peer_name(peer)}'s")
            if seat.kind == "bot" and not L.is_member(self.lobby, peer):
                return "bot move from a node outside the game"
        try:
            move = move_from_wire(wire)
        except ValueError as exc:
            return f"malformed move: {exc}"
        try:
            g.apply(move)
        except IllegalMove as exc:
            return f"illegal move {move} for {seat.name} ({getattr(exc, 'clause', '?')}): {exc}"
        except ValueError as exc:
            return f"illegal move {move} for {seat.name}: {exc}"
        mine = g.digest()
        self.move_times[idx] = time.perf_counter()  # applied and verified
        if mine != digest:
            self._stop(f"digest mismatch after move {idx} ({move}) from {self._peer_name(peer)}: "
                       f"ours {mine.hex()[:16]}, theirs {digest.hex()[:16]}")
        self._applied(idx, d.seat, move, mine, by=peer)
        return None

    def _fetch(self, peer: bytes, start: int) -> None:
        now = time.monotonic()
        if now - self._fetch_at < FETCH_RETRY_S:
            return
        self._fetch_at = now
        self.transport.send(peer, self._addr_of(peer), Fetch(start))

    def _on_fetch(self, peer: bytes, msg: Fetch) -> None:
        g = self.game
        if g is None:
            return
        now = time.monotonic()
        if now - self._served.get((peer, msg.start), -10.0) < FETCH_RETRY_S / 2:
            return  # the same request again within half a second: already on its way
        self._served[(peer, msg.start)] = now
        if len(self._served) > 4096:
            self._served.clear()
        moves = g.moves
        digests = self._digest_list
        i = msg.start
        total = len(moves)
        sent = 0
        while i < total and sent < 32:
            entries, size = [], 0
            while i < total:
                w = moves[i].to_wire()
                sz = len(msgpack.packb(w)) + 36
                if entries and size + sz > LOG_CHUNK_BYTES:
                    break
                entries.append((w, digests[i]))
                size += sz
                i += 1
            self.transport.send(peer, None, Log(i - len(entries), total, tuple(entries)))
            sent += 1

    def _on_log(self, peer: bytes, msg: Log) -> None:
        g = self.game
        if g is None:
            return
        for k, (wire, digest) in enumerate(msg.entries):
            idx = msg.start + k
            n = len(g.moves)
            if idx < n:
                continue
            if idx > n or self.stopped:
                return
            why = self._check_and_apply(peer, wire, digest, check_sender=False)
            if why:
                self._refuse_msg(peer, f"logged move {idx}", why)
                return
        self._drain_buffer()
        if len(g.moves) < msg.total and msg.start + len(msg.entries) == len(g.moves):
            self._fetch_at = 0.0

    # ------------------------------------------------------------------ heartbeats

    def _heartbeat(self) -> Heartbeat:
        lb = self.lobby
        g = self.game
        phase = lb.phase if lb else "lobby"
        if g is not None:
            phase = "over" if g.is_over else "playing"
        return Heartbeat(phase, lb.version if lb else 0, len(g.moves) if g else 0,
                         g.digest() if g is not None and g.moves else b"")

    def _on_heartbeat(self, peer: bytes, hb: Heartbeat) -> None:
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return
        self._progress[peer] = hb.n_moves
        g = self.game
        if g is not None and not self.stopped:
            n = len(g.moves)
            if hb.n_moves == n and hb.digest and hb.digest != g.digest():
                self._stop(f"{self._peer_name(peer)} reached a different state after move "
                           f"{n - 1}: theirs {hb.digest.hex()[:16]}, ours {g.digest().hex()[:16]}")
            elif hb.n_moves > n:
                self._fetch(peer, n)
        if hb.lobby_version < self.lobby.version:
            now = time.monotonic()
            if now - self._lobby_sent.get(peer, 0.0) > 1.0:
                self._lobby_sent[peer] = now
                self.transport.send(peer, None, self.lobby)

    def _broadcast(self, msg: Message) -> None:
        if self.lobby is None:
            return
        for m in self.lobby.members:
            if m.peer == self.peer_id or m.peer in self._left:
                continue
            self.transport.send(m.peer, self._addr_of(m.peer), msg)

    async def _ticker(self) -> None:
        while not self._closing:
            await asyncio.sleep(TICK_S)
            try:
                self._tick()
            except Exception:
                log.exception("tick failed")

    def _tick(self) -> None:
        lb = self.lobby
        if lb is None:
            return
        now = time.monotonic()
        if now - self._last_hb >= HEARTBEAT_S:
            self._last_hb = now
            hb = self._heartbeat()
            self._broadcast(hb)
        changed = False
        for m in lb.members:
            if m.peer == self.peer_id or m.peer in self._left:
                continue
            lk = self.transport.links.get(m.peer)
            since = self._member_since.setdefault(m.peer, now)
            heard = lk.last_heard if lk is not None and lk.their_inc else since
            silent = now - heard > AWAY_AFTER_S
            if silent and m.peer not in self._away:
                self._away.add(m.peer)
                self._emit("away", peer=m.peer.hex(), name=self._peer_name(m.peer), left=False)
                changed = True
            elif not silent and m.peer in self._away:
                self._away.discard(m.peer)
                self._emit("back", peer=m.peer.hex(), name=self._peer_name(m.peer))
                changed = True
        if changed:
            if self.game is None and self.coordinator() == self.peer_id:
                if L.should_autostart(self.lobby):
                    self._install_lobby(L.start(self.lobby), broadcast=True)
            self._after_state_change()
        if (lb.phase == "starting" and self._round is not None and self.game is None
                and now - self._start_seen > START_TIMEOUT_S):
            missing = [p for p in self._round.order if p not in self._round.reveals]
            self._abort_start("no commitment/reveal from "
                              + ", ".join(self._peer_name(p) for p in missing), tell=True)
        g = self.game
        if g is not None and not self.stopped:
            ahead = [p for p, k in self._progress.items() if k > len(g.moves)]
            if ahead:
                self._fetch(ahead[0], len(g.moves))

    def caught_up(self) -> bool:
        """Every present peer reports at least as many moves as we have and nothing we sent
        is unacknowledged: safe to exit after game over."""
        if self.game is None:
            return True
        n = len(self.game.moves)
        others = [m.peer for m in self.lobby.members if m.peer != self.peer_id]
        return self.transport.idle() and all(
            self._progress.get(p, -1) >= n for p in others if p in self.present())


def dataclass_replace_version(lb: Lobby) -> Lobby:
    return Lobby(lb.version + 1, lb.phase, lb.name, lb.total, lb.passphrase, lb.seats,
                 lb.members, lb.start_nonce)


# ====================================================================== sidecar


def write_sidecar(record_path: Path, node: Node) -> None:
    """What a restarted node needs besides its record: who it is and which game."""
    data = {
        "peer": node.peer_id,
        "game_id": node.game_id,
        "lobby": node.lobby.to_wire(),
        "passphrase": bool(node.passphrase),
    }
    tmp = record_path.with_name(record_path.name + SIDECAR_SUFFIX + ".tmp")
    tmp.write_bytes(msgpack.packb(data, use_bin_type=True))
    os.replace(tmp, record_path.with_name(record_path.name + SIDECAR_SUFFIX))


def read_sidecar(record_path: Path) -> dict:
    from tongiaki_lan.net.codec import parse_message

    raw = msgpack.unpackb(Path(str(record_path) + SIDECAR_SUFFIX).read_bytes(), raw=False)
    lobby = parse_message(raw["lobby"])
    if not isinstance(lobby, Lobby):
        raise ValueError("sidecar: not a lobby")
    return {"peer": raw["peer"], "game_id": raw["game_id"], "lobby": lobby,
            "passphrase": raw.get("passphrase", False)}


def has_sidecar(record_path: str | os.PathLike) -> bool:
    return Path(str(record_path) + SIDECAR_SUFFIX).exists()


__all__ = ["Node", "GameRef", "JoinRefused", "bot_seed", "encode_datagram"]

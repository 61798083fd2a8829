"""A player's node on the LAN: the protocol core (`net.core`) on a real UDP socket.

This is the thin asyncio layer: it feeds the core what the socket receives and the
monotonic clock, sends what the core returns, and does what the core asks of the outside
world — write the record (appended on the loop, fsynced by a worker thread), run bots
(a worker thread, so a thinking bot never stalls heartbeats), advertise through zeroconf,
and hand events to the user interface. All protocol decisions live in the core.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Move
from tongiaki_lan.files import write_text_atomic
from tongiaki_lan.net.aio.identity_file import load_identity, save_identity
from tongiaki_lan.net.aio.incarnation import next_incarnation, runs_path
from tongiaki_lan.net.aio.pump import DatagramPump
from tongiaki_lan.net.aio.pump import clock as pump_clock
from tongiaki_lan.net.aio.sidecar import has_sidecar, read_sidecar, sidecar_path, write_sidecar
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    GUEST_WATCH,
    NO_GAME,
    Message,
    encode_datagram,
    pack_message,
)
from tongiaki_lan.net.protocol.core import NodeCore, bot_seed, handed
from tongiaki_lan.net.protocol.handover import seat_kind
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.invite import GameRef, JoinRefused
from tongiaki_lan.net.protocol.settings import HANDOVER_BOT, net_bot_options
from tongiaki_lan.net.protocol.tables import FRESH_S
from tongiaki_lan.records import (
    RecordHeader,
    RecordWriter,
    SeatInfo,
    read_record,
    replay_record,
)

log = logging.getLogger("tongiaki_lan.net.aio.node")

# (after a rewind: whatever the bots are, say them again with the next move)
RESAY = ("?",)

MAX_QUEUED_EVENTS = 10_000
# the record is fsynced this long after a move at most (one worker-thread wake-up for all
# the moves of that window): a thread woken on every move competes, on a busy machine,
# with the peers that are taking in that same move
SYNC_DELAY_S = 0.05
# bots that decide in well under a millisecond may run on the event loop: a worker thread
# would hold the GIL for up to a switch interval (5 ms) while peers' datagrams wait. None
# does: measured with `bench net` (six processes, two cores), a random bot deciding on the
# loop saved CPU but made moves slower to spread — the next player's move then competes
# at once with the peers still taking in the last one (p50 7.7-11.9 ms against 4.7-8.3 ms
# with the thread, under the same load)
INLINE_BOTS: frozenset[str] = frozenset()
FALLBACK_BOT = "random"  # plays a decision whose bot failed (it cannot fail on a legal state)


def other_identity(record: Path, side: dict, profile: Path) -> str:
    """Why a seat cannot be taken back with this identity, and what the player can do:
    "only the same identity can take the seat back" left a player whose key file was
    lost or replaced with nothing to try."""
    lobby = side["lobby"]
    seats = [s for s in getattr(lobby, "seats", ()) if s.owner == side["peer"]]
    colour = seats[0].colour if seats else "COLOUR"
    game = getattr(lobby, "name", "") or record.name
    return (f"{game} was played with another identity than this laptop's ({profile}, made "
            f"anew or changed since): your seat cannot be taken back with it. If you kept a "
            f"copy of the old identity file, put it back as {profile} and join again; "
            f"otherwise watch the game and `take {colour}` once a bot plays your seat "
            f"(another player's `replace` gives it to one a minute after you went)")


class _TransportView:
    """The node's link layer as tools and tests see it: counters, the socket, raw sends."""

    def __init__(self, node: Node) -> None:
        self._node = node

    @property
    def stats(self):
        return self._node.core.links.stats

    @property
    def links(self):
        return self._node.core.links.links

    @property
    def _sock(self):
        return self._node._pump.socket

    def idle(self) -> bool:
        return self._node.core.links.idle()

    def send(self, peer: bytes, addr, message: Message) -> None:
        self._node.core.links.now = pump_clock()
        self._node.core.links.send(peer, addr, message)
        self._node._pump.step()

    def send_raw(self, data: bytes, addr) -> None:
        self._node._pump.send_raw(data, addr)


class _NoticeHandler(logging.Handler):
    """Warnings of the network layer as `Notice` events (the UI's log pane), from any
    thread; only while a node runs, so the player reads them where they play."""

    def __init__(self, node: Node, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(logging.WARNING)
        self.node, self.loop = node, loop

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001 - a bad format string must not break logging
            text = str(record.msg)
        with contextlib.suppress(RuntimeError):  # loop closed
            self.loop.call_soon_threadsafe(self.node.notify, E.Notice(text))


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
        identity: Identity | None = None,
        profile: str | os.PathLike | None = None,
        wrap_socket: Callable | None = None,
        discovery=None,
        handover_after: float | None = None,
        bot_delay: float = 0.0,
        draw_wait: int | None = None,
        table_bot: str | None = None,
    ) -> None:
        self.bot_delay = bot_delay
        self.record_path = Path(record_path) if record_path else None
        self.record_dir = Path(record_dir) if record_dir else Path("records")
        # the profile keeps this player's identity (private key, mode 0600) across runs
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "player"
        self.profile = Path(profile) if profile else (
            (self.record_path.parent if self.record_path else self.record_dir)
            / f"{safe}.identity")
        if identity is None:
            identity = (load_identity(self.profile) if self.profile.exists()
                        else Identity.generate())
        incarnation = next_incarnation(runs_path(self.profile), time.time_ns() // 1000)
        self.core = NodeCore(name, identity, incarnation=incarnation,
                             autoplay=autoplay, handover_after=handover_after, port=port,
                             **({"handover_bot": table_bot} if table_bot else {}))
        if draw_wait is not None:  # (the table's setting, for a game this node opens)
            self.core.draw_wait = int(draw_wait)
        self._host, self._port = host, port
        self.discovery = discovery
        self._pump = DatagramPump(self.core, wrap_socket=wrap_socket, after=self._drain)
        # probes are answered with our wall clock: the core reads only the monotonic one
        self.core.probes.wall_offset_us = time.time_ns() // 1000 - int(time.monotonic() * 1e6)
        self.transport = _TransportView(self)
        self.events: asyncio.Queue[E.NodeEvent] = asyncio.Queue(maxsize=MAX_QUEUED_EVENTS)
        self._listeners: list[Callable[[E.NodeEvent], None]] = []
        self._writer: RecordWriter | None = None
        self._expelled_unwritten: list = []  # expulsions the record is still to say
        self._left_for_good = False  # said goodbye for good (kept in `<record>.net`)
        self._names_written: tuple[str, ...] | None = None  # as the record says them now
        # per seat, the bot playing for an away player, as the record says it (None: no
        # entry said any)
        self._bots_written: tuple[str, ...] | None = None
        # per seat, the bot that made its latest move for its away player ("": the player
        # did), and the kind the table last gave it (`_bot_for`)
        self._seat_bots: dict[int, str] = {}
        self._bot_kinds: dict[int, str] = {}
        # a watcher: the moves the table had played when it came (None: not watching, or
        # not yet told); who played those is not known here (`_before_arrival`)
        self._arrival: int | None = None
        self._sync_pending = False
        # move index -> when this node had applied it (the glue's clock: `bench net`)
        self.applied_at: dict[int, float] = {}
        self._sync_handle: asyncio.TimerHandle | None = None
        # the record is written (and fsynced, ~3 ms) by one thread in move order, so the
        # event loop keeps answering peers meanwhile; a move lost to a crash in that window
        # is fetched back from the peers on rejoin
        self._io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tk-record")
        self._tasks: set[asyncio.Task] = set()
        # (condition, future) of every `wait_for` under way, checked after each change
        self._waiters: list[tuple[Callable[[], bool], asyncio.Future]] = []
        self._closed = False
        self._fresh_until = 0.0  # the game started a moment ago (tables.FRESH_S) until then
        self._fresh_handle: asyncio.TimerHandle | None = None

    # ================================================================== state (read-only)

    @property
    def name(self) -> str:
        return self.core.name

    @name.setter
    def name(self, value: str) -> None:
        self.core.name = value

    peer_id = property(lambda self: self.core.peer_id)
    incarnation = property(lambda self: self.core.incarnation)
    game_id = property(lambda self: self.core.game_id)
    passphrase = property(lambda self: self.core.passphrase)
    lobby = property(lambda self: self.core.lobby)
    game = property(lambda self: self.core.game)
    seed = property(lambda self: self.core.seed)
    stopped = property(lambda self: self.core.stopped)
    refusals = property(lambda self: self.core.refusals)
    sent_at = property(lambda self: self.core.sent_at)

    @property
    def _closing(self) -> bool:
        return self.core.closing

    @_closing.setter
    def _closing(self, value: bool) -> None:
        self.core.closing = value

    # ================================================================== lifecycle

    async def start(self) -> tuple[str, int]:
        addr = await self._pump.open(self._host, self._port)
        self.core.port = addr[1]
        self._notices = _NoticeHandler(self, asyncio.get_running_loop())
        logging.getLogger("tongiaki_lan").addHandler(self._notices)
        return addr

    @property
    def address(self) -> tuple[str, int]:
        return self._pump.address

    async def close(self) -> None:
        """Stop everything: no goodbye (see `leave`). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._fresh_handle is not None:
            self._fresh_handle.cancel()
        if getattr(self, "_notices", None) is not None:
            logging.getLogger("tongiaki_lan").removeHandler(self._notices)
        self.core.closing = True
        self.core.links.closed = True
        for t in list(self._tasks):
            t.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        await self._pump.close()
        if self._sync_handle is not None:
            self._sync_handle.cancel()  # closing the record syncs it
            self._sync_handle = None
        self._close_record()
        await asyncio.get_running_loop().run_in_executor(None, self._io.shutdown, True)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.withdraw()

    async def leave(self, timeout: float = 2.0, for_good: bool = False) -> None:
        """Say goodbye to the game (`for_good`: a bot takes our seat at once and the
        table draws without us; else the seat waits), wait (bounded) until it was heard,
        then close."""
        if self.lobby is not None:
            self.core.leave_game(self._now(), for_good)
            if for_good and self._writer is not None and not self.core.watching:
                self._left_for_good = True  # (`records`: "left for good", not "unfinished")
                self._write_sidecar()
            self._pump.step()
            await self.wait_for(self.core.links.idle, timeout, raise_on_timeout=False)
        await self.close()

    async def leave_game(self, timeout: float = 2.0, keep_advert: bool = False) -> None:
        """Leave the current game but keep the node running (to join another one).
        `keep_advert`: the node goes to another table at once (matchmaking), so its advert
        stays, to say the new table in a moment, instead of a goodbye now and a new
        advert (and a second of nothing) after."""
        if self.lobby is not None:
            self.core.leave_game(self._now())
            self._pump.step()
            await self.wait_for(self.core.links.idle, timeout, raise_on_timeout=False)
        self._close_record()
        self._writer = None
        self._expelled_unwritten = []
        self.core.abandon()
        self._fresh_until = 0.0
        if self.discovery is not None and not keep_advert:
            await self.discovery.withdraw()

    async def stream(self):
        """`async for event in node.stream(): ...` — the events queue as an iterator."""
        while not self._closed:
            yield await self.events.get()

    def add_listener(self, fn: Callable[[E.NodeEvent], None]) -> None:
        self._listeners.append(fn)

    def notify(self, ev: E.NodeEvent) -> None:
        """Hand an event to the UI (queue and listeners)."""
        if self.events.full():  # nobody reads the queue (listeners only): keep the newest
            self.events.get_nowait()
        self.events.put_nowait(ev)
        for fn in self._listeners:
            try:
                fn(ev)
            except Exception:
                log.exception("event listener failed")
        self._check_waiters()

    async def wait_for(self, cond: Callable[[], bool], timeout: float,
                       raise_on_timeout: bool = True) -> bool:
        """Wait until `cond()` holds; checked after every step of the node (a datagram, a
        timer, a request: acks too) and at least every 50 ms.

        The check runs inside the step, so a waiting task is woken only once its
        condition holds (or every 50 ms), not on every datagram. No `asyncio.wait_for`:
        on Python before 3.12 a `wait_for` around another one can lose the outer
        cancellation when both time out together, and the wait then never ends — a
        headless node once hung for minutes after its game was over that way; here a
        plain timer resolves the future and a cancellation simply propagates."""
        deadline = time.monotonic() + timeout
        loop = asyncio.get_running_loop()
        while not cond():
            left = deadline - time.monotonic()
            if left <= 0:
                if raise_on_timeout:
                    raise asyncio.TimeoutError(f"condition not met within {timeout:.1f} s")
                return False
            fut = loop.create_future()
            entry = (cond, fut)
            self._waiters.append(entry)
            timer = loop.call_later(min(0.05, left), _resolve, fut)
            try:
                await fut
            finally:
                timer.cancel()
                self._waiters.remove(entry)
        return True

    def _check_waiters(self) -> None:
        for cond, fut in self._waiters:
            if fut.done():
                continue
            try:
                ok = cond()
            except Exception:  # the waiter evaluates it again itself and sees the error
                ok = True
            if ok:
                fut.set_result(True)

    @staticmethod
    def _now() -> float:
        return pump_clock()  # (the pump's: the core sees one clock)

    def _step(self) -> None:
        self._pump.step()

    # ================================================================== core -> world

    def _drain(self) -> None:
        """Carry out what the core asked for, in order, before its datagrams leave."""
        for ev in self.core.events():
            try:
                self._handle(ev)
            except Exception as exc:
                log.exception("handling %s failed", ev.kind)
                self.notify(E.Error(f"internal error on {ev.kind}: {exc}"))
        self._check_waiters()

    def _handle(self, ev: E.NodeEvent) -> None:
        if isinstance(ev, E.RecordMove):
            self._record(ev.move, ev.digest, ev.proof, ev.seat, ev.by_bot)
            # once the core has applied it, checked its digest and it is in the record
            self.applied_at.setdefault(ev.index, pump_clock())
        elif isinstance(ev, E.ChainMade):
            if self._writer is not None:
                self._write_sidecar()  # (its secret, before the table takes its head)
        elif isinstance(ev, E.Rewound):
            if self._writer is not None:
                self._writer.rewind(ev.index)
                self._names_written = None  # (said again with the next move: the names
                # entry may have been among those cut off, and the bots' with it)
                self._bots_written = RESAY
            for i in [i for i in self.applied_at if i >= ev.index]:
                del self.applied_at[i]
            self.notify(ev)
        elif isinstance(ev, E.BotTurn):
            task = asyncio.get_running_loop().create_task(self._think(ev))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif isinstance(ev, E.GameStarted):
            if not ev.resumed:
                self.applied_at = {}
                self._open_record()
                # the advert says "fresh" a moment: the party that filled it still arrives
                self._fresh_until = time.monotonic() + FRESH_S
                if self._fresh_handle is not None:
                    self._fresh_handle.cancel()
                self._fresh_handle = asyncio.get_running_loop().call_later(
                    FRESH_S + 0.05, self._advertise)
            self._advertise()
            self.notify(E.GameStarted(ev.seed, ev.seats, ev.resumed, ev.moves,
                                      str(self.record_path)))
        elif isinstance(ev, E.GameOver):
            self._advertise()
            self._finish(ev)
        elif isinstance(ev, E.Mismatch):
            self.notify(E.Mismatch(ev.reason, str(self.record_path), str(self._dump())))
        elif isinstance(ev, E.Expelled):
            proof = self.core.proof_against(bytes.fromhex(ev.peer))
            if not ev.you and proof is not None:
                # the record says who was expelled and keeps the proof, which `verify`
                # checks (protocol/record.md), with the next move it writes
                self._expelled_unwritten.append(
                    [ev.name.split(" (")[0], list(ev.seats), self.game_id, pack_message(proof)])
            self.notify(ev)
        elif (isinstance(ev, E.GuestRefused | E.RequestRefused) and not self.core.watching
              and L.is_seat_given(ev.reason) and self.record_path is not None):
            # back after a goodbye for good, and a newcomer plays the seat: the game is
            # no longer ours to resume, and the lobby must stop offering it as "yours"
            # (the record itself stays, for replay)
            with contextlib.suppress(OSError):
                sidecar_path(self.record_path).unlink()
            self.notify(ev)
        elif isinstance(ev, E.Watching):
            if self._arrival is None:  # (the first feeder's word: how far the table was)
                self._arrival = ev.moves
            self.notify(ev)
        elif isinstance(ev, E.Joined):
            self.notify(E.Joined(ev.game, ev.game_id, ev.created, ev.invite or self.invite()))
        elif isinstance(ev, E.LobbyChanged):
            if self.game is not None and self._writer is not None and not self.core.watching:
                # who is at the table now (a newcomer in a seat — us too, a watcher just
                # seated —, a handover, the draws' drops): a crash's resume must start
                # from it, or a restarted laptop whose first companions have all gone
                # knows nobody who is still playing
                self._write_sidecar()
            self._advertise()
            self.notify(ev)
        else:
            self.notify(ev)

    def _still_asked(self, ev: E.BotTurn) -> bool:
        """Whether the decision a BotTurn asked for is still the game's: a sleep or a
        rewind meanwhile may have left the game elsewhere — at a reveal, even, which no bot
        may be asked to decide (it has no seat to choose for)."""
        g = self.game
        return (not self._closed and g is not None and not g.is_over
                and len(g.moves) == ev.index and g.pending is not None
                and g.pending.seat == ev.seat)

    async def _think(self, ev: E.BotTurn) -> None:
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)  # pacing for people watching, not sync
        if not self._still_asked(ev):
            return
        snapshot = self.game.copy()
        try:
            bot = make_bot(ev.bot, seed=ev.seed, **net_bot_options(ev.bot))
            if ev.bot in INLINE_BOTS:
                await asyncio.sleep(0)  # let datagrams that are already here go first
                move = bot.choose(snapshot)
            else:  # thinking bots must not stall heartbeats and acks
                move = await asyncio.get_running_loop().run_in_executor(None, bot.choose,
                                                                        snapshot)
        except Exception as exc:
            if not self._still_asked(ev):
                return  # the game moved on while it thought: nothing to decide
            # never silent, never a stall: the fallback plays this decision, and says so
            log.exception("bot %s failed at move %d; the random bot plays it", ev.bot, ev.index)
            try:
                move = make_bot(FALLBACK_BOT, seed=ev.seed).choose(snapshot)
            except Exception as exc2:  # (then the seat truly cannot move: tell the player)
                log.exception("the fallback bot failed too")
                self.notify(E.Error(f"bot {ev.bot} failed: {exc}; fallback: {exc2}"))
                return
            self.notify(E.BotFallback(ev.seat, ev.index, ev.bot, FALLBACK_BOT, str(exc)))
        if not self._still_asked(ev):
            return
        self.core.bot_move(ev.index, move, self._now())
        self._step()

    # ------------------------------------------------------------------ records

    def _default_record_path(self) -> Path:
        safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.lobby.name)
        return self.record_dir / f"{safe}-{self.game_id.hex()[:8]}-{self.peer_id.hex()[:8]}.tgrec"

    def _open_record(self) -> None:
        lb = self.lobby
        # (a seat's kind: the bot a table gave it, or the one its laptop plays it with)
        header = RecordHeader(self.seed, tuple(SeatInfo(s.name, s.colour, seat_kind(s))
                                               for s in lb.seats),
                              created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                              game_name=lb.name, commitments=self.core.seed_heads,
                              variant=lb.variant, watched=self.core.watching)
        path = self.record_path or self._default_record_path()
        if path.exists():
            path = path.with_name(f"{path.stem}-{self.incarnation}{path.suffix}")
        self.record_path = path
        try:
            self._save_identity()
            self._writer = RecordWriter.create(path, header, fsync=False)
            self._names_written = tuple(seat.name for seat in header.seats)
            self._writer.sync()
            if not self.core.watching:  # (a watcher has nothing to resume: it watches anew)
                self._write_sidecar()
        except OSError as exc:
            log.error("cannot write record %s: %s", path, exc)
            self.notify(E.Error(f"cannot write record {path}: {exc}"))

    def _write_sidecar(self) -> None:
        if self.record_path is None or self.lobby is None:
            return
        try:
            write_sidecar(self.record_path, peer=self.peer_id, game_id=self.game_id,
                          lobby=self.lobby, passphrase=bool(self.core.game_key),
                          port=self.address[1], contributors=self.core.seed_contributors,
                          chain_secret=self.core.chain_secret, key=self.core.game_key,
                          late_secrets=self.core.late_chain_secrets,
                          left=self._left_for_good)
        except OSError as exc:
            log.error("cannot write %s's resume data: %s", self.record_path, exc)
            self.notify(E.Error(f"cannot write resume data for {self.record_path}: {exc}"))

    def _save_identity(self) -> None:
        """Keep the identity once it matters (a game with a record to resume)."""
        if not self.profile.exists():
            save_identity(self.core.identity, self.profile)

    def _close_record(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(RuntimeError):  # executor already shut down
                self._io.submit(self._writer.close)

    def _bot_for(self, i: int, seat: int | None, by_bot: bool | None) -> str:
        """The bot playing seat `i` for its away player as of the move being recorded
        (of seat `seat`; `by_bot`: whether a bot made it, None if unknown), or "". A seat
        counts as a bot's from the bot's first move to its player's next one. Not read
        off the lobby at the time of writing: moves often arrive after the lobby moved
        on (a laptop behind, or one back from a sleep), and Ben's own replay, and a third
        laptop's record, told the bot's moves as his."""
        s = self.lobby.seats[i]
        if s.kind != "human":
            return ""
        if handed(s):
            self._bot_kinds[i] = s.bot
        if i == seat:
            if by_bot is None and self._before_arrival(self._writer.next_index):
                self._seat_bots[i] = ""  # (nobody told us who played it: see below)
            elif by_bot is None:  # (unknown: the lobby says)
                self._seat_bots[i] = s.bot if handed(s) else ""
            else:
                self._seat_bots[i] = (self._bot_kinds.get(i) or HANDOVER_BOT) if by_bot else ""
        return self._seat_bots.get(i, "")

    def _before_arrival(self, index: int) -> bool:
        """Whether move `index` was played before this laptop came to watch (its
        feeder's log brought it): nothing on the wire says who played those
        (protocol/watching.md), and the lobby of now is not the lobby of then. A late
        arrival read Ben's seat as handed to a bot from the first move, because it was
        when she came, while every other laptop had the bot from move 12 to move 34 (a
        LAN playtest); its record says nothing of a bot before it came instead."""
        if self._arrival is None:
            return self.core.watching  # (the feeder has not said how far the table is)
        return index < self._arrival

    def _record(self, move: Move, digest: bytes, proof: list | None = None,
                seat: int | None = None, by_bot: bool | None = None) -> None:
        writer = self._writer
        if writer is None:
            return
        # who plays each seat now, when it changed (a newcomer in a seat): the record would
        # otherwise credit the game to the names of its start (a LAN-party playtest:
        # `verify` named the player who had left, not the newcomer who won)
        # and a seat a bot plays while its player is away, and when it is theirs again:
        # replay told the bot's moves as the player's (a playtest)
        lb = self.lobby
        names = tuple(s.name for s in lb.seats) if lb else None
        bots = tuple(self._bot_for(i, seat, by_bot) for i in range(len(lb.seats))) if lb else None
        if bots == self._bots_written or (self._bots_written is None and not any(bots or ())):
            # (the same as said, or nobody's seat was ever handed: the shorter entry)
            bots = None
        if names == self._names_written and bots is None:
            names = None
        elif bots is None and self._bots_written is not None:
            bots = self._bots_written  # (said again with the names: one entry says both)
        expelled, self._expelled_unwritten = self._expelled_unwritten, []
        if expelled:  # (said with both names and bots: the entry format's rule)
            names = names or tuple(s.name for s in lb.seats)
            bots = bots or self._bots_written or ("",) * len(lb.seats)
        try:
            writer.append(move, digest, proof, names, bots, expelled)  # in the OS's hands
            if names is not None:
                self._names_written = names
            if bots is not None:
                self._bots_written = bots
        except Exception as exc:  # disk full, removed directory...
            log.error("cannot write record %s: %s", writer.path, exc)
            self.notify(E.Error(f"cannot write record {writer.path}: {exc}"))
            return
        if not self._sync_pending:
            self._sync_pending = True
            self._sync_handle = asyncio.get_running_loop().call_later(
                SYNC_DELAY_S, self._submit_sync, writer)

    def _submit_sync(self, writer: RecordWriter) -> None:
        self._sync_handle = None

        def sync() -> None:
            self._sync_pending = False  # before the fsync: it covers whatever came first
            with contextlib.suppress(Exception):
                writer.sync()

        with contextlib.suppress(RuntimeError):  # executor already shut down
            self._io.submit(sync)

    async def flush_record(self) -> None:
        """Wait until every move so far is on disk."""
        if self._sync_handle is not None:  # a sync is waiting for its moment: now
            self._sync_handle.cancel()
            self._submit_sync(self._writer)
        await asyncio.get_running_loop().run_in_executor(None, self._io.submit(
            lambda: None).result)

    def _finish(self, ev: E.GameOver) -> None:
        loop = asyncio.get_running_loop()
        record = str(self.record_path)
        done = self._io.submit(self._writer.close) if self._writer else None

        def announce(_fut=None) -> None:  # only once the whole record is on disk
            self.notify(E.GameOver(ev.digest, ev.scores, ev.winners, ev.moves, record))

        if done is None:
            announce()
        else:
            done.add_done_callback(lambda fut: loop.call_soon_threadsafe(announce, fut))

    def _dump(self) -> Path | None:
        if self.record_path is None:
            return None
        dump = self.record_path.with_suffix(".diverged.txt")
        with contextlib.suppress(OSError):
            write_text_atomic(dump, "\n".join([*self.core.dump_lines(),
                                               f"record {self.record_path}"]) + "\n")
        return dump

    def _advertise(self) -> None:
        if (self.discovery is None or self.lobby is None or self.core.watching
                or self._closed):
            return  # (a watcher is no way into the game: only members advertise it)
        phase = self.lobby.phase
        if self.game is not None:
            phase = "over" if self.game.is_over else "playing"
        try:
            self.discovery.advertise_soon(
                game_name=self.lobby.name, game_id=self.game_id, peer=self.peer_id,
                player=self.name, phase=phase, taken=len(self.lobby.seats),
                total=self.lobby.total, passphrase=self.lobby.passphrase,
                port=self.address[1], open_seats=len(self.lobby_json().get("open_seats", ())),
                watchable=bool(self.lobby.guests & GUEST_WATCH),
                fresh=phase == "starting" or (phase == "playing"
                                               and time.monotonic() < self._fresh_until))
        except Exception:
            log.exception("advertising failed")

    # ================================================================== game set-up

    async def create_game(self, game_name: str, seats: int, passphrase: str | None = None,
                          colour: str = "", variant: str = "standard") -> bytes:
        """Open a new game in the lobby phase, seated as its first player (`variant`
        "two-colours": 2 players with two colours each, docs/rules.md V1)."""
        self._reset_local()
        self.core.create_game(game_name, seats, passphrase, colour, self._now(),
                              variant=variant)
        self._step()
        return self.game_id

    async def join_game(self, ref: GameRef, passphrase: str | None = None, colour: str = "",
                        timeout: float = 5.0) -> None:
        """Ask a game for a seat; returns once seated, raises JoinRefused otherwise."""
        self._reset_local()
        core = self.core
        core.begin_join(ref.game_id, ref.peer, (ref.host, ref.port), passphrase, colour,
                        self._now())
        self._step()
        ok = await self.wait_for(lambda: core.seated() or core.join_refusal is not None,
                                 timeout, raise_on_timeout=False)
        if core.seated():
            self.notify(E.Joined(self.lobby.name, self.game_id.hex(), False, self.invite()))
            return
        await self._acks_out()
        self._not_let_in(ok, bool(passphrase or ref.passphrase), timeout)

    async def _acks_out(self, timeout: float = 0.5) -> None:
        """Let the acknowledgements still due go out (a REFUSE's) before the node forgets
        its links: a laptop turned away from a full table and gone on to the next one at
        once left the REFUSE unacknowledged, and the table sent it again 16 times, each
        refused here as a datagram for another game."""
        links = self.core.links.links
        await self.wait_for(lambda: all(lk.ack_due is None for lk in links.values()),
                            timeout, raise_on_timeout=False)

    def _not_let_in(self, answered: bool, locked: bool, timeout: float) -> None:
        """A join or a watch that failed: the game's reason, or why there was none (with a
        passphrase, silence most often means a wrong one). Forgets the game; raises."""
        core = self.core
        reason = core.join_refusal or (L.NO_ANSWER_PASSPHRASE if locked else L.NO_ANSWER)
        if not answered:
            reason = (L.NO_ANSWER_WITHIN_PASSPHRASE if locked else L.NO_ANSWER_WITHIN).format(
                seconds=f"{timeout:.0f}")
        silent = locked and (not answered or core.join_refusal is None)
        said = core.join_refusal is not None
        core.abandon()
        raise JoinRefused(reason, silent_lock=silent, answered=said)

    async def watch_game(self, ref: GameRef, passphrase: str | None = None,
                         timeout: float = 5.0) -> None:
        """Watch a game through the member `ref` names; returns once its lobby is here,
        raises JoinRefused otherwise (a table that takes no watchers, a wrong passphrase)."""
        self._reset_local()
        core = self.core
        core.watch_game(ref.game_id, ref.peer, (ref.host, ref.port), passphrase, self._now())
        self._step()
        ok = await self.wait_for(lambda: core.lobby is not None or core.join_refusal is not None,
                                 timeout, raise_on_timeout=False)
        if core.lobby is not None:
            return
        await self._acks_out()
        self._not_let_in(ok, bool(passphrase or ref.passphrase), timeout)

    async def take_seat(self, seat: int, timeout: float = 35.0) -> None:
        """While watching: play seat `seat` (a bot plays it); returns once seated, raises
        JoinRefused with the table's reason otherwise. The table hands the seat over
        between two of its decisions, so this may wait for the seat's turn to pass. A game
        that ends meanwhile is said at once: its table may already be gone and answer
        nothing (a headless node leaves at the end)."""
        core = self.core

        def ended() -> bool:
            return core.watching and self.game is not None and self.game.is_over

        if ended():
            raise JoinRefused(L.GAME_ENDED)
        core.join_refusal = None
        core.take_seat(seat, self._now())
        self._step()
        ok = await self.wait_for(
            lambda: not core.watching or core.join_refusal is not None or ended(), timeout,
            raise_on_timeout=False)
        if not core.watching:
            return
        if ended():
            raise JoinRefused(L.GAME_ENDED)
        raise JoinRefused(core.join_refusal if ok else L.NO_ANSWER_WITHIN.format(
            seconds=f"{timeout:.0f}"))

    def set_guests(self, guests: int) -> None:
        """Who else may come to the table (codec.GUEST_* bits): the host's say."""
        self.core.set_guests(guests, self._now())
        self._step()

    def _reset_local(self) -> None:
        self._close_record()
        self._writer = None
        self._arrival = None
        self._left_for_good = False

    def invite(self, host: str | None = None) -> str:
        """This node's invite for the current game (see GameRef.invite)."""
        if self.lobby is None:
            raise ValueError("not in a game")
        if host is None:
            host = self.address[0]
            if host == "0.0.0.0":
                from tongiaki_lan.net.aio.discovery import local_ipv4
                host = local_ipv4()[0]
        return GameRef(self.game_id, self.peer_id, host, self.address[1]).invite()

    async def resume(self, record_path: str | os.PathLike, passphrase: str | None = None) -> None:
        """Rejoin a game after a crash or restart from our own record and its sidecar."""
        record_path = Path(record_path)
        side = read_sidecar(record_path)
        if side["peer"] != self.peer_id:
            raise ValueError(other_identity(record_path, side, self.profile))
        self._reset_local()
        self.record_path = record_path
        record = read_record(record_path)
        game = replay_record(record)
        self._writer = RecordWriter.open_append(record_path, fsync=False)
        self._names_written = record.seat_names()
        self._bots_written = record.seat_bots() if record.bots else None
        self._seat_bots = dict(enumerate(record.seat_bots()))  # (as the record left them)
        self.core.resume(side["game_id"], passphrase, side["lobby"], record.header.seed, game,
                         list(record.digests), self._now(), contributors=side["contributors"],
                         heads=record.header.commitments, chain_secret=side["chain_secret"],
                         proofs=record.proofs, late_secrets=side["late_secrets"],
                         key=None if passphrase else side["key"])
        self._step()
        if self.discovery is not None:
            self._learn_from_adverts()
            self.discovery.add_listener(self._learn_from_adverts)

    def _learn_from_adverts(self) -> None:
        """Members' current addresses from their zeroconf adverts (a restarted member may
        be on another port): the core contacts them there."""
        if self.lobby is None or self._closed:
            return
        now = self._now()
        try:
            infos = self.discovery.games()
        except Exception:
            return
        for info in infos:
            if info.game_id != self.game_id:
                continue
            for m in info.members:
                for host in getattr(m, "hosts", ()) or ():
                    self.core.learn_address(m.peer, (host, m.port), now)
                    break
        self._step()

    # ================================================================== UI requests

    def set_seat(self, name: str, colour: str = "") -> None:
        self.core.set_seat(name, colour, self._now())
        self._step()

    def set_draw_wait(self, seconds: int) -> None:
        """The table's wait for a missing draw value (lobby phase; the coordinator
        decides, and everyone else who was ready is asked again)."""
        self.core.set_draw_wait(seconds, self._now())
        self._step()

    def set_ready(self, ready: bool = True) -> None:
        self.core.set_ready(ready, self._now())
        self._step()

    def add_bot(self, kind: str = "random", colour: str = "") -> None:
        make_bot(kind)  # refuse unknown kinds here, before anyone else sees them
        self.core.add_bot(kind, colour, self._now())
        self._step()

    def remove_bot(self, colour: str) -> None:
        self.core.remove_bot(colour, self._now())
        self._step()

    def start_game(self) -> None:
        self.core.start_game(self._now())
        self._step()

    def chat(self, text: str) -> None:
        self.core.chat(text, self._now())
        self._step()

    def replace(self, who: str, bot: str | None = None) -> None:
        """Give an absent player's seat to a bot (ValueError says why not, e.g. too soon)."""
        if bot is not None:
            make_bot(bot)
        try:
            self.core.replace(who, self._now(), bot)
        finally:
            self._step()

    def reclaim(self) -> None:
        """Ask for our seat back from the bot that plays it since we did not play
        (`NodeCore.reclaim`; ValueError says why not)."""
        try:
            self.core.reclaim(self._now())
        finally:
            self._step()

    def send_move(self, move: Move) -> None:
        """Play a move for a seat of this node. Raises IllegalMove / ValueError as the engine
        does; nothing is sent then."""
        try:
            self.core.send_move(move, self._now())
        finally:
            self._step()

    # ================================================================== views

    def present(self) -> set[bytes]:
        return self.core.present()

    def hears_nobody(self) -> bool:
        return self.core.hears_nobody()

    def not_playing(self, peer: bytes) -> bool:
        return self.core.not_playing(peer)

    def coordinator(self) -> bytes:
        return self.core.coordinator()

    def my_seats(self) -> list[int]:
        return self.core.my_seats()

    def lobby_json(self) -> dict:
        return self.core.lobby_json()

    def caught_up(self) -> bool:
        return self.core.caught_up()

    def heard_as_member(self) -> bool:
        """A member has spoken to us as to one of the table (`NodeCore.heard_as_member`)."""
        return self.core.heard_as_member()

    def _peer_name(self, peer: bytes | None) -> str:
        return self.core.peer_name(peer)


def _resolve(fut: asyncio.Future) -> None:
    if not fut.done():
        fut.set_result(False)


def write_node_sidecar(record_path: Path, node: Node) -> None:
    write_sidecar(record_path, peer=node.peer_id, game_id=node.game_id, lobby=node.lobby,
                  passphrase=bool(node.core.game_key), port=node.address[1],
                  contributors=node.core.seed_contributors,
                  chain_secret=node.core.chain_secret, key=node.core.game_key,
                  late_secrets=node.core.late_chain_secrets)


__all__ = ["GameRef", "JoinRefused", "Node", "bot_seed", "encode_datagram", "has_sidecar",
           "read_sidecar", "NO_GAME"]

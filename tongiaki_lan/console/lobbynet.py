"""The lobby's network side: its node and the zeroconf browser, what the node's events
say in the lobby, and the actions that need the network (create, join, watch, resume a
seat, settle two tables of one name, the network check).

It runs on the same event loop as the node and the browser, writes what happens into the
lobby's model (lobbymodel.py), and ends the lobby with ("game", node, discovery) once a
LAN game starts. If the network cannot be used (no multicast, no interface) it says so
and the lobby still offers solo play.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path

from tongiaki_lan.i18n import _, ngettext

from .feeds.lanfacts import peer_label, table_moves
from .lobbymodel import COLOUR_NAMES, LobbyModel, WrongPassphrase
from .networds import net_reason

log = logging.getLogger(__name__)

# how long after `create` a table of the same name opened elsewhere is taken for a twin
# of ours (two friends typing `create Lagon` at once), not a second table on purpose
TWIN_S = 10.0
# how long `watch N` of a table still in the lobby follows the table of its name
FOLLOW_S = 3600.0


# the lobby suggests `doctor` once when it has heard of no game for this long
SUGGEST_DOCTOR_AFTER_S = 20.0

# how long `join N` of a game left for good waits for the table's word on the seat before
# it opens the game screen all the same: a newcomer's seat is said at once to the first
# heartbeat of the resumed game, and again every 5 s (net/protocol/watching.py), so this
# covers one lost answer; a table that stays silent is shown by the game screen as gone
RECLAIM_WAIT_S = 8.0



# the table's wait for a vanished player's draw value unless `wait S` changes it
try:
    from tongiaki_lan.net.protocol.codec import DRAW_WAIT_DEFAULT as DEFAULT_DRAW_WAIT
except ImportError:  # (the network extras missing: no table to show it for)
    DEFAULT_DRAW_WAIT = 15


class LobbyNet:
    """The lobby's node and browser, and what it does through them, for `model`."""

    def __init__(self, model: LobbyModel, host: str = "0.0.0.0", port: int = 0,
                 lan: bool = True, interfaces: list[str] | None = None):
        self.m = model
        self.host = host
        self.port = port
        self.want_lan = lan
        self.interfaces = interfaces  # (mDNS only through these addresses; None: all)
        # (the table `create` opened here: its id, when, its passphrase, and how it
        # settles): `settle_twin`
        self.created: tuple[bytes, float, str | None, object] | None = None
        self._moving = False
        self._follow: asyncio.Task | None = None  # `watch N` following a forming table
        self.reclaim_wait_s = RECLAIM_WAIT_S  # how long the table's word is waited for
        self._tasks: set[asyncio.Task] = set()

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def background(self) -> None:
        """The lobby's own watches while it is shown: `doctor` suggested when no game is
        heard, games left unfinished told as they show, twin tables settled."""
        for job in (self.suggest_doctor(), self.watch_yours()):
            self.spawn(job)

    def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    async def start_network(self) -> None:
        if not self.want_lan:
            self.m.lan_error = _("LAN disabled (--no-lan)")
            return
        try:
            from tongiaki_lan.net.aio.discovery import Discovery
            from tongiaki_lan.net.aio.node import Node
        except ImportError as exc:
            self.m.lan_error = _("LAN not available in this build ({module} missing)").format(
                module=exc.name)
            return
        try:
            disc = Discovery(self.interfaces) if self.interfaces else Discovery()
            await disc.start()
        except Exception as exc:  # no multicast, no interface, port in use…
            log.info("zeroconf could not start: %r", exc)
            if "No interfaces" in str(exc):  # (python-zeroconf's words for it)
                # Wi-Fi off, a train, a cabin: say so plainly, not zeroconf's sentence cut
                # at the edge of the header
                self.m.lan_error = _("LAN not available: this laptop is on no network (Wi-Fi "
                                     "off?); solo play works without one")
            else:
                self.m.lan_error = _("LAN not available: zeroconf could not start ({error})"
                                   ).format(error=exc)
            return
        try:
            from tongiaki_lan.net.aio.identity_file import player_identity_path

            profile = (player_identity_path(self.m.record_dir, self.m.name)
                       if self.m.record_dir is not None else None)
            node = Node(self.m.name, host=self.host, port=self.port, discovery=disc,
                        record_dir=self.m.record_dir, profile=profile)
            await node.start()
        except Exception as exc:
            from tongiaki_lan.files import DamagedFile  # (a damaged identity: not a socket's)

            self.m.lan_error = str(exc) if isinstance(exc, DamagedFile) else _(
                "LAN not available: cannot open a UDP socket ({error})").format(error=exc)
            with contextlib.suppress(Exception):
                await disc.close()
            return
        self.attach(node, disc)
        self.find_yours()

    def attach(self, node, discovery) -> None:
        """Use this node and this browser (start_network's, or a test's own)."""
        self.m.discovery, self.m.node = discovery, node
        with contextlib.suppress(AttributeError):  # (a stand-in browser may not tell)
            discovery.add_listener(self.m.changed)
            discovery.add_listener(self.m.tell_yours)  # (with the row marked 'yours')
        node.add_listener(self.on_node_event)

    def find_yours(self) -> None:
        """Games this laptop left unfinished (a crash, Ctrl-C): offered for resuming."""
        from tongiaki_lan.net.aio.resumable import unfinished_games

        if self.m.record_dir is None:
            return
        self.m.yours = unfinished_games(self.m.record_dir)
        self.m._yours_told.clear()
        self.m.tell_yours()

    async def watch_yours(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self.m.tell_yours()
            try:
                await self._settle_twin()
            except Exception:  # noqa: BLE001 - the lobby lives on; the log keeps why
                log.exception("settling a twin table failed")

    def opened(self, node, name: str, passphrase: str | None) -> None:
        """`create` opened a table here: it settles with its twins for a while
        (`_settle_twin`)."""
        from tongiaki_lan.net.protocol.tables import Seeker

        now = time.monotonic()
        self.created = (node.game_id, now, passphrase, Seeker(name, bool(passphrase), now, 0.0))

    async def _settle_twin(self) -> None:
        """Two friends typed `create Lagon` in the same second: neither list showed the
        other's table yet, and the party had two tables of one name (a playtest). While
        the table we opened is new (TWIN_S) and nobody has joined it, it settles as
        `play --game` does (net/aio/matchmaking.py): the twin with the smaller key wins,
        and once our name filled at another table we go on to "Lagon (2)". We move, and
        say so; all laptops see the same tables, so one moves and the other stays."""
        from tongiaki_lan.net.aio.matchmaking import settle_created
        from tongiaki_lan.net.protocol.tables import Join

        node, made = self.m.node, self.created
        lb = node.lobby if node is not None else None
        if (made is None or self._moving or lb is None or node.game_id != made[0]
                or lb.phase != "lobby" or len(lb.members) > 1):
            return
        if time.monotonic() - made[1] > TWIN_S:
            self.created = None
            return
        self._moving = True  # (the move's own line below, not "You are at the table…")
        try:
            done = await settle_created(node, [g for _n, g in self.m.numbered()], made[3],
                                        made[2], self.m.colour)
        finally:
            self._moving = False
        if done is None:
            return
        self.created = (node.game_id, made[1], made[2], made[3]) if node.lobby else None
        if isinstance(done, Join) and done.table.name == lb.name:
            self.m.lines.append(("info", _("Another table named {game} opened at the same "
                                           "moment as yours: you sit at that one now, so the "
                                           "party has one table, not two.").format(
                game=done.table.name)))
        elif node.lobby is not None:  # (on to "Lagon (2)": its name filled elsewhere)
            self.m.lines.append(("info", _("You are at the table {game}.").format(
                game=node.lobby.name)))
        self.m.changed()

    async def close_network(self) -> None:
        if self._follow is not None:
            self._follow.cancel()
        if self.m.node is not None:
            with contextlib.suppress(Exception):
                await self.m.node.leave()
        if self.m.discovery is not None:
            with contextlib.suppress(Exception):
                await self.m.discovery.close()
        self.m.node = self.m.discovery = None

    def on_node_event(self, ev) -> None:
        k, d = ev.kind, ev.data
        if k in ("guest_refused", "request_refused") and self._seat_given(d.get("reason")):
            self.m.changed()
            return
        if k == "chat":
            who = peer_label(self.m.node, d)
            if d.get("watcher"):
                who = _("{name} (watching)").format(name=who)
            self.m.lines.append(("", f"<{who}> {d.get('text', '')}"))
        elif k == "watching":
            self.m.lines.append(("info", _("You are watching {game}: the game screen opens when it "
                                           "runs.").format(game=d.get("game"))))
        elif k == "guest_refused":
            self.m.lines.append(("bad", net_reason(d.get("reason"))))
        elif k == "joined":
            if not self._moving:  # (moving to a twin table of the same name: its own
                # line says so, and "You are at the table Lagon." came twice)
                self.m.lines.append(("info", _("You are at the table {game}.").format(
                    game=d.get("game"))))
            lb = getattr(self.m.node, "lobby", None)
            got = next((x.colour for x in getattr(lb, "seats", ())
                        if x.owner == self.m.node.peer_id and x.kind == "human"), None)
            if self.m.colour and got and got != self.m.colour:  # (given another in silence:
                # a playtest's player who had chosen violet played blue and was not told)
                self.m.lines.append(("info", _("{wanted} was taken at this table: you play "
                                               "{colour} (colour COLOUR changes it).").format(
                    wanted=_(COLOUR_NAMES[self.m.colour]), colour=_(COLOUR_NAMES[got]))))
        elif k in ("request_refused", "error"):
            self.m.lines.append(("bad", net_reason(d.get("reason"))))
        elif k == "turned_away" and d.get("bots"):
            # (a newcomer came to a full table of people and bots, and nobody knew why
            # they could not sit down, nor that the host could free a bot's seat)
            self.m.lines.append(("info", _("{name} wanted to join, but every seat is taken: "
                                           "unbot {colour} frees a bot's seat.").format(
                name=d.get("name", "?"), colour=_(COLOUR_NAMES.get(d["bots"][0],
                                                                   d["bots"][0])))))
        elif k == "warning":
            self.m.lines.append(("bad", str(d.get("text"))))
        elif k == "abort":
            self.m.lines.append(("bad", _("Start aborted: {reason}").format(
                reason=net_reason(d.get("reason")))))
        elif k == "starting":
            self.m.lines.append(("info", _("Everyone is ready: agreeing on the seed…")))
        elif k in ("away", "back") and self._asking():
            pass  # (the table, asked for the seat back, is heard or not: no news here; a
            # playtest's screen flapped "away" and "back" at each refusal of the seat)
        elif k in ("away", "back"):
            if d.get("unconfirmed"):  # (it said "Joe is away.", then "Joe left.", of a
                # laptop that never knew it sat here: its join gave up before our answer)
                text = _("{name}'s laptop did not answer the table: their seat is free "
                         "again.")
            elif d.get("left"):
                text = _("{name} left.")
            else:
                text = _("{name} is away.") if k == "away" else _("{name} is back.")
            self.m.lines.append(("info", text.format(name=peer_label(self.m.node, d))))
        elif k == "lobby":
            self.m.tell_arrivals()
        elif k == "game_start":
            if self.m.reclaiming is None or self.m.reclaiming != self.m.node.game_id:
                self._open_game()
            # (else a game left for good, resumed: the table's word opens it, `_reclaim`)
        self.m.changed()

    def _open_game(self) -> None:
        """Hand over to the game screen (cli/lobby.py builds it from the node)."""
        self.m.finish(("game", self.m.node, self.m.discovery))

    def _asking(self) -> bool:
        """Whether the node's game is one this lobby asks the seat back at, or was told a
        newcomer plays: its table's comings and goings are not this lobby's news."""
        gid = getattr(self.m.node, "game_id", None)
        return gid is not None and (gid == self.m.reclaiming or gid in self.m.seat_gone)

    async def reclaim(self, node, info) -> None:
        """`join N` of a game left for good, resumed: open the game screen once the table
        takes this laptop back as one of its members (`heard_as_member`: its heartbeats
        and moves, which members send to members only), or after `reclaim_wait_s` with no
        word at all (a table gone quiet: the game screen says so, nothing is lost). A
        newcomer's seat keeps the player here (`_seat_given`). A playtest's screen opened
        at once at the record's old state, frozen, flapping "away" and "back", and only
        then said that Dee played the seat now."""
        gid = info.game_id
        await node.wait_for(lambda: (self.m.reclaiming != gid or node.game_id != gid
                                     or node.heard_as_member()),
                            self.reclaim_wait_s, raise_on_timeout=False)
        if self.m.reclaiming != gid:
            return  # a newcomer's seat (said), or another command's table since
        self.m.reclaiming = None
        if node.game_id == gid and node.game is not None:  # (not left meanwhile)
            self._open_game()

    def _seat_given(self, reason) -> bool:
        """REFUSE SEAT_GIVEN to a game resumed after a goodbye for good: a newcomer plays
        the seat. The player stays in the lobby, told who took it and how to follow the
        game; the node forgets the game (it deleted the resume data already) and the row
        no longer says "yours". True when the refusal was this (or a repeat of it: each
        member says it every 5 s until the node has left)."""
        from tongiaki_lan.net.protocol.lobby import is_seat_given

        if not is_seat_given(reason or ""):
            return False
        gid = self.m.reclaiming
        if gid is None or gid != getattr(self.m.node, "game_id", None):
            return self._asking()
        self.m.reclaiming = None
        self.m.seat_gone.add(gid)
        mine = self.m.yours.pop(gid, None)
        number = self.m._numbers.get(gid)
        self.m.lines.append(("bad", net_reason(reason)))
        self.m.lines.append(("info", _("The game goes on without you: watch {game} follows it "
                                       "from the side.").format(
            game=number if number is not None else getattr(mine, "name", ""))))
        self.spawn(self._forget(self.m.node))
        return True

    async def _forget(self, node) -> None:
        """Leave the game whose seat a newcomer plays: the node stops following it."""
        try:
            await node.leave_game()
        except Exception:  # noqa: BLE001 - the lobby lives on; the log keeps why
            log.exception("leaving a game whose seat was given failed")
        self.m.changed()

    async def join(self, node, info, passphrase) -> None:
        from tongiaki_lan.net.aio.matchmaking import refs_of
        from tongiaki_lan.net.aio.node import JoinRefused

        if node.lobby is not None:
            await node.leave_game()
        last, locked = _("no address to reach it"), False
        for ref in refs_of(info):
            try:
                await node.join_game(ref, passphrase, self.m.colour, timeout=4.0)
                return
            except JoinRefused as exc:
                last, locked = net_reason(exc), exc.silent_lock
        raise (WrongPassphrase if locked and passphrase else ValueError)(
            _("could not join {game}: {reason}").format(game=info.name, reason=last))

    async def _watch_any(self, node, info, passphrase) -> None:
        """Watch `info` through the first of its members that answers."""
        from tongiaki_lan.net.aio.matchmaking import refs_of
        from tongiaki_lan.net.aio.node import JoinRefused

        if node.lobby is not None:
            await node.leave_game()
        last, locked = _("no address to reach it"), False
        for ref in refs_of(info):
            try:
                await node.watch_game(ref, passphrase, timeout=4.0)
                return
            except JoinRefused as exc:
                last, locked = net_reason(exc), exc.silent_lock
        raise (WrongPassphrase if locked and passphrase else ValueError)(
            _("could not watch {game}: {reason}").format(game=info.name, reason=last))

    async def watch(self, node, info, passphrase, take: str | None = None) -> None:
        """`watch N` (and `join N` of a running game with a seat open, `take` naming the
        seat): the game screen opens once the game's start is here."""
        self.m.take_wanted = take  # (set first: the game may start before watch_game returns)
        try:
            await self._watch_any(node, info, passphrase)
        except Exception:
            self.m.take_wanted = None
            raise
        if info.phase == "lobby" and self.m.discovery is not None:
            # a table still forming may merge into its twin, or its name fill elsewhere:
            # follow the table of that name until it starts (net/aio/matchmaking.py)
            from tongiaki_lan.net.aio.matchmaking import watch_by_name

            task = asyncio.ensure_future(watch_by_name(
                node, self.m.discovery, info.name, passphrase, FOLLOW_S,
                following=node.game_id))
            self._follow = task  # (kept: a task nobody holds may be collected mid-way)
            task.add_done_callback(lambda t: t.cancelled() or t.exception() is None or log.info(
                "following %s: %s", info.name, t.exception()))

    async def running_note(self, info, passphrase) -> None:
        """`join N` of a running game with no seat open: how many moves in, and `watch N`.
        The count comes from the table itself, looked at for a moment by a node of its own
        (a fresh identity, records in a scratch directory): this laptop's node, and the
        table it may sit at in the lobby, are left as they are."""
        import tempfile
        from pathlib import Path

        from tongiaki_lan.net.aio.node import Node
        from tongiaki_lan.net.protocol.identity import Identity

        number = self.m.number_of(info)
        with tempfile.TemporaryDirectory(prefix="tongiaki-peek-") as tmp:
            peek = Node(self.m.name, host=self.host, record_dir=tmp, identity=Identity.generate(),
                        profile=Path(tmp) / "peek.identity")
            await peek.start()
            try:
                await self._watch_any(peek, info, passphrase)
                # the table's count comes with the feeder's first heartbeat or moves
                await peek.wait_for(lambda: table_moves(peek) > 0, 3.0, raise_on_timeout=False)
                moves = table_moves(peek)
            finally:
                with contextlib.suppress(Exception):
                    await peek.leave()
        raise ValueError(ngettext("join: {game} is running, {n} move in; you may watch: watch "
                                  "{number}",
                                  "join: {game} is running, {n} moves in; you may watch: watch "
                                  "{number}", moves).format(game=info.name, n=moves,
                                                            number=number))

    async def doctor(self) -> None:
        """`doctor`: the network check of `tongiaki-lan doctor`, its lines in the log."""
        from tongiaki_lan.console.doctor import report_lines
        from tongiaki_lan.net.aio.doctor import LISTEN_S, diagnose, verdict

        self.m.lines.append(("info", _("Checking the network ({s:.0f} s)…").format(s=LISTEN_S)))
        self.m.changed()
        facts = await diagnose(name=self.m.name)
        me = getattr(self.m.node, "peer_id", None)
        if me is not None:  # this lobby's own node (advertised at a table) is not someone
            # else on the network: alone at our own table is "alone", not "everything works"
            facts["nodes"] = [n for n in facts.get("nodes", []) if n.get("peer") != me.hex()]
        for style, text in report_lines(facts, verdict(facts)):
            self.m.lines.append(("bad" if style == "bad" else "info", text))

    async def suggest_doctor(self) -> None:
        """Once, when no game has been heard of for a while (and the player sits at no
        table): say that `doctor` may tell why."""
        loop = asyncio.get_running_loop()
        last_heard = loop.time()
        while True:
            await asyncio.sleep(1.0)
            if self.m.discovery is None or self.m.lan_error or self.m.games() or self.m.busy or (
                    self.m.node is not None and getattr(self.m.node, "lobby", None) is not None):
                last_heard = loop.time()
                continue
            if loop.time() - last_heard >= SUGGEST_DOCTOR_AFTER_S:
                # (not "find out why" alone: friends in the lobby who have not created a
                # table yet are not announced, and doctor then blamed the network)
                self.m.lines.append(("info", _("No game heard on the network for {s:.0f} s. "
                                               "Nobody has created one yet? create NAME opens "
                                               "one. If a friend's table is missing, doctor "
                                               "finds out why.").format(
                    s=SUGGEST_DOCTOR_AFTER_S)))
                self.m.changed()
                return

    def unfinished_solo(self):
        """(path, moves) of the latest solo game here left before its end, or None."""
        from tongiaki_lan.records import iter_unfinished_solo_records

        if self.m.record_dir is None:
            return None
        return next(iter_unfinished_solo_records(Path(self.m.record_dir)), None)

"""Guests at a table (protocol/watching.md): people who watch a game without a seat, and
newcomers who take a seat a bot plays.

A watcher is fed by one member, its *feeder*: it sends that member WATCH, gets the lobby,
the game's public start (WATCH_STATE: seed, contributors, chain heads) and then the moves
as LOG chunks — every reveal with its draw's values, which are public once dealt. It
checks all of it with its own engine, as a member checks a LOG, and compares digests.
Nothing a watcher sends reaches the game: it has no seat and no chain, so a member takes
from it only WATCH, HEARTBEAT, FETCH, CHAT, LEAVE and TAKE_SEAT, and refuses (naming it)
anything else. The feeder serves it from its tick, never from the path a move takes to
the players, so watchers cannot slow the table; it tells the members who watches
(WATCHERS), and passes chat both ways (CHAT_FROM) when the table allows it.

A watcher may ask for a seat a bot plays because its player left for good, or a bot the
table added (TAKE_SEAT, to every member; the coordinator decides by the rule of
`lobby.take_seat`). Once a lobby names it a member, it is a player like the others; it
takes part in the draws once the table took a fresh chain of it (`LateChains`).

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from tongiaki_lan.engine import Game
from tongiaki_lan.engine.variant import with_variant
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    GUEST_CHAT,
    GUEST_WATCH,
    MAX_WATCHERS,
    AwayList,
    Chat,
    ChatFrom,
    Fetch,
    Heartbeat,
    Leave,
    Lobby,
    Message,
    Refuse,
    SetGuests,
    TakeSeat,
    Watch,
    Watchers,
    WatchState,
)
from tongiaki_lan.net.protocol.movesync import log_chunks
from tongiaki_lan.net.protocol.settings import HEARTBEAT_S

log = logging.getLogger("tongiaki_lan.net.protocol.watching")

WATCHER_SILENT_S = 10.0  # a watcher not heard this long is gone (it heartbeats every HEARTBEAT_S)
FEEDER_SILENT_S = 4.0  # a watcher whose feeder is this quiet asks the next member
WATCH_RETRY_S = 1.0  # WATCH again while nobody answered
FEED_CHUNKS = 8  # LOG chunks (about 20 moves each) sent to one watcher per tick
WATCHER_RTO_MAX_S = 1.0  # a watcher's link resends at most this seldom (links.Link.rto_max)
TAKE_WAIT_S = 30.0  # a seat request waits this long for the seat's turn to pass
GUESTS_BY_WORD = {"open": 7, "watch": 3, "quiet": 1, "closed": 0}  # console and CLI words


@dataclass(frozen=True)
class _Asking:
    """A watcher asking for a feed again (`Spectators._ask_to_watch`), until a feeder
    answers: how long the laptop had slept (0: its feeder just went quiet), the members
    asked so far, and whether the screen was told it is cut off."""

    slept: float
    asked: frozenset[bytes]
    told: bool = False


@dataclass
class _Watcher:
    """What a feeder keeps of one watcher."""

    name: str
    addr: tuple
    heard: float
    sent: int = 0  # moves sent to it so far (LOG chunks are reliable: they arrive)
    lobby_version: int = -1  # the last lobby sent to it
    state_sent: bool = False
    beat: float = -1e9  # last heartbeat sent to it
    farewells: dict = dataclasses.field(default_factory=dict)  # leaver -> the goodbye it has
    away: tuple | None = None  # the members we last told it were away (AWAY_LIST)
    proofs: set = dataclasses.field(default_factory=set)  # expelled members it has proofs of

    def start_over(self) -> None:
        """Feed it everything again: it asked again (our answer was lost), or restarted
        (it does so after a sleep or a cut: `Spectators._ask_to_watch`)."""
        self.lobby_version, self.state_sent, self.sent = -1, False, 0
        self.farewells, self.away, self.proofs = {}, None, set()


class Spectators:
    # ================================================================== watcher side

    def watch_game(self, game_id: bytes, peer: bytes, addr: tuple[str, int],
                   passphrase: str | None, now: float) -> None:
        """Watch a game through the member `peer`; the lobby, then the game, follow as
        events (`Watching`, `LobbyChanged`, `GameStarted`, moves)."""
        self.now = now
        self._reset_game_state()
        self._enter_game(game_id, passphrase)
        self.feeder = peer
        self._joining = {peer}
        self._watch_sent = now
        self.links.rebirth()  # (watching the same table again: no old sequence numbers)
        self.links.send(peer, addr, Watch(self.name))

    def _ask_to_watch(self, peer: bytes, slept: float = 0.0) -> None:
        """WATCH `peer` again, as a new watcher: on a fresh link, as a fresh incarnation.

        A member that dropped us (we went quiet: a sleep, a long loss) forgot our link,
        its key and sequence numbers; one that restarted never knew them. WATCH on our old
        link reached neither: its sequence number, far past the 1 a new link expects, kept
        it in the member's reorder buffer for good (acknowledged there, so never resent),
        and the rest was refused as a stranger's — a playtest's watcher asked the one
        player it knew every 4 s to the end of the game. So the link to `peer` is forgotten
        (the new one names no incarnation of it: a restarted member takes it too) and every
        link starts over as a new incarnation (`Links.rebirth`): a member that still keeps
        our old link starts it afresh and feeds us from the start, as after a restart."""
        now = self.now
        addr = self._addr_of(peer)
        self.links.now = now  # (after a sleep the links' clock may still be at its start)
        self.links.forget(peer)
        self.links.rebirth()
        self.feeder = peer
        self._joining.add(peer)
        self._watch_sent = now
        self._progress.pop(peer, None)  # caught up again only once it says how far it is
        a = self._asking
        self._asking = (_Asking(slept, frozenset({peer})) if a is None else
                        dataclasses.replace(a, slept=max(a.slept, slept),
                                            asked=a.asked | {peer}))
        self.links.send(peer, addr, Watch(self.name))
        take = self._take_asked
        if take is not None and now - take[1] < TAKE_WAIT_S:
            self._send_take_seat(take[0])  # (the rebirth dropped it, unacknowledged)

    def _feeder_refused(self, feeder: bytes) -> None:
        """Our feeder sent a move our engine refuses (or a state it does not give): we
        said so (a `refused` event naming it), and ask the next member for the game,
        at most every FEEDER_SILENT_S. Its log is checked move by move like any member's,
        so nothing it sends is followed unchecked; another member's feed is the way on."""
        if self.lobby is None or self.now - self._watch_sent < FEEDER_SILENT_S:
            return
        members = [m.peer for m in self.lobby.members if m.peer not in (self.peer_id, feeder)]
        if not members:
            return
        nxt = members[0]
        log.warning("%s sent this laptop a move its rules refuse: watching through %s instead",
                    self.peer_name(feeder), self.peer_name(nxt))
        self._ask_to_watch(nxt)

    def rewatching(self) -> float | None:
        """While a watcher asks for its feed again, until a member answers: how long this
        laptop had slept before it asked (0: its feeder just went quiet); else None. The
        game it shows meanwhile may be behind the table's."""
        return self._asking.slept if self._asking is not None else None

    def _watcher_woke(self, slept: float) -> None:
        """This laptop slept (or the process was stopped) while watching: a feeder drops a
        watcher it has not heard for WATCHER_SILENT_S, so ask it again at once, afresh,
        before anything queued before the sleep goes out (`_check_wake`)."""
        if self.lobby is None or (self.game is not None and self.game.is_over):
            return  # (no answer yet: WATCH is sent again anyway; over: nothing to follow)
        log.info("this computer was asleep for %.0f s: asking %s to feed it again", slept,
                 self.peer_name(self.feeder))
        self._emit(E.Woke(round(slept, 1)))
        self._ask_to_watch(self.feeder, slept)

    def _moves_here(self) -> int:
        return len(self.game.moves) if self.game is not None else 0

    def _feeder_answered(self) -> None:
        """Our feeder sent something after our WATCH again (on the fresh link: nothing
        older reaches us): the screen is told, if it was told anything."""
        a = self._asking
        if a is None:
            return
        self._asking = None
        log.info("%s feeds us again", self.peer_name(self.feeder))
        if a.told:
            self._emit(E.WatchCut(False, self._moves_here()))
        if a.slept:
            self._emit(E.Answered(round(a.slept, 1)))

    def table_away(self) -> set[bytes]:
        """A watcher: the members its feeder counts away (AWAY_LIST). It hears only its
        feeder, so its own presence says nothing of the others."""
        return set(self._table_away) if self.watching else set()

    def _on_away_list(self, peer: bytes, msg: AwayList) -> None:
        """Our feeder says who is away: told as the players' own screens tell it (a
        playtest's watcher read "Waiting for Ben (R): choosing beaches…" for a minute
        while Ben's lid was closed and the players' panels said "Away: Ben")."""
        if not self.watching or peer != self.feeder or self.lobby is None:
            return
        members = {m.peer for m in self.lobby.members}
        new = {p for p in msg.away if p in members and p != self.peer_id}
        old = self._table_away
        self._table_away = new
        for p in sorted(new - old):
            self._emit(E.Away(p.hex(), self.peer_name(p), False))
        for p in sorted(old - new):
            self._emit(E.Back(p.hex(), self.peer_name(p)))

    @property
    def watching(self) -> bool:
        """This node follows a table without a seat at it."""
        return self.feeder is not None

    def table_moves(self) -> int:
        """How many moves the table has played, as far as this node knows: its own game's,
        or more when a member said so (a heartbeat, a LOG chunk). A watcher, or a newcomer
        just seated, may be catching up."""
        n = len(self.game.moves) if self.game is not None else 0
        if self.lobby is None:
            return n
        return max([n, *(k for p, k in self._progress.items() if L.is_member(self.lobby, p))])

    def heard_as_member(self) -> bool:
        """Whether a member of the table has told this node, as one of its own, how far
        the game is (its heartbeat, its moves or a LOG: members send those only to
        members). After a resume this is the table's word that the seat is ours again: a
        player back after a goodbye for good whose seat a newcomer took hears nothing but
        REFUSE SEAT_GIVEN (`_on_guest_message`), and a member merely heard (that refusal)
        is no such word. The lobby waits for it before it opens the game screen."""
        if self.lobby is None or self.watching or self.stopped:
            return False
        return any(p != self.peer_id and L.is_member(self.lobby, p) for p in self._progress)

    def caught_up_with_table(self) -> bool:
        """This node's game has every move a member said it has (a watcher: once its
        feeder has said how far the table is at all)."""
        if self.game is None or self._waking is not None:
            return False  # (holding until the table has said how far it is)
        if self.watching and self.feeder not in self._progress:
            return False
        return len(self.game.moves) >= self.table_moves()

    def take_seat(self, seat: int, now: float) -> None:
        """Ask for seat `seat` (a bot plays it: its player left for good, or the table
        added it). Sent to every member: only the coordinator answers, with a lobby that
        seats us (then we play) or a REFUSE."""
        self.now = now
        if self.lobby is None or not self.watching:
            raise ValueError("not watching a table")
        self._take_asked = (seat, now)
        self._send_take_seat(seat)

    def _send_take_seat(self, seat: int) -> None:
        for m in self.lobby.members:
            addr = self._addr_of(m.peer)
            if addr is not None:
                self._joining.add(m.peer)
                self.links.send(m.peer, addr, TakeSeat(seat, self.name, self.plays))

    def _watch_lobby(self, peer: bytes, msg: Lobby) -> None:
        """A lobby for a watcher (from its feeder, or after TAKE_SEAT from the coordinator):
        followed without any check of our own but the seats' (a watcher has no say in the
        draws or the lobby); one that names us a member makes us a player."""
        cur = self.lobby
        if cur is not None and msg.version <= cur.version:
            return
        if self.game is not None and cur is not None:
            why = L.takeover_refused(cur, msg)
            if why:
                self._refuse_msg(peer, "lobby", why)
                return
        first = cur is None
        if L.is_member(msg, self.peer_id):
            self.feeder = None  # seated: from here on a player
            self._asking = self._take_asked = None
            log.info("took a seat at %s", msg.name)
            # decide nothing before every player has said how far the table is: a decision
            # of our seat that the bot played a moment ago must not come back to us
            self._hold_until_heard(self.now)
        self._install_lobby(msg, broadcast=False)
        if first:
            self._told_watching = False
        self._maybe_watching()

    def _maybe_watching(self) -> None:
        """Say we watch once both the lobby and the feeder's first heartbeat (how far the
        table is) are here, whichever came first."""
        feeder = self.feeder
        if (self._told_watching or feeder is None or self.lobby is None
                or feeder not in self._progress):
            return
        self._told_watching = True
        self._emit(E.Watching(self.lobby.name, self.game_id.hex(), feeder.hex(),
                              self.peer_name(feeder), self._progress[feeder]))

    def _on_watch_state(self, peer: bytes, msg: WatchState) -> None:
        if not self.watching or self.lobby is None or self.game is not None:
            return
        lb = self.lobby
        if len(lb.seats) < 2 or lb.phase == "lobby":
            return
        self.seed = msg.seed
        self.game = with_variant(Game([s.colour for s in lb.seats]), lb.variant)
        self._setup_draws(list(msg.contributors), msg.heads, None)
        self._emit(E.GameStarted(msg.seed.hex(), self._seat_json(), False, 0))
        self._told_expelled_before(lb)
        self.links.send(peer, None, Fetch(0))

    def _watcher_tick(self) -> None:
        """A watcher heartbeats its feeder (which counts it present by that), asks again
        while unanswered, and moves to the next member when its feeder goes quiet."""
        now = self.now
        feeder = self.feeder
        if self.lobby is None:
            if now - self._watch_sent >= WATCH_RETRY_S:
                self._watch_sent = now
                self.links.send(feeder, None, Watch(self.name))
            return
        lk = self.links.links.get(feeder)
        heard = lk.last_heard if lk is not None else -1e9
        members = [m.peer for m in self.lobby.members if m.peer != self.peer_id]
        if (now - heard > FEEDER_SILENT_S and now - self._watch_sent > FEEDER_SILENT_S
                and members):
            nxt = members[(members.index(feeder) + 1) % len(members)] \
                if feeder in members else members[0]
            log.info("%s no longer answers: watching through %s", self.peer_name(feeder),
                     self.peer_name(nxt))
            a = self._asking
            if (a is not None and not a.told and a.asked >= set(members)
                    and not (self.game is not None and self.game.is_over)):
                # every member asked in vain: said once, while it goes on asking
                log.info("no member of the table answers: cut off, or the table ended")
                self._asking = dataclasses.replace(a, told=True)
                self._emit(E.WatchCut(True, self._moves_here()))
            self._ask_to_watch(nxt)
            return
        if now - self._last_hb >= HEARTBEAT_S:
            self._last_hb = now
            self.links.send(feeder, None, self._heartbeat())
        if self.game is not None:
            self._catch_up()

    # ================================================================== member side

    def _guest(self, peer: bytes) -> bool:
        """A node we talk to that is not a member: a watcher we feed, one asking for a
        seat, or a former player whose seat a newcomer took."""
        return (peer in self._watchers or peer in self._take_requests or peer in self._former
                or peer in self.expelled_peers())

    def _on_guest_message(self, peer: bytes, addr: tuple, msg: Message) -> None:
        """Everything a non-member sends a member comes here: what a guest may say is
        answered, the rest is refused and changes nothing."""
        w = self._watchers.get(peer)
        sign = self.links.sign
        if w is not None and sign is not None and (
                sign.proven_at is not None
                or (sign.newer and self.now - w.heard <= self.presence.away_after)):
            # heard as a member is (`NodeCore._alive_at`): a replay of what a watcher
            # silent for a while once sent does not keep it fed
            w.heard = self.now
        if w is not None:
            w.addr = tuple(addr[:2])  # (the link's: it moves only on the watcher's answer)
        if isinstance(msg, Watch):
            self._on_watch(peer, addr, msg)
        elif isinstance(msg, TakeSeat):
            self._on_take_seat(peer, addr, msg)
        elif w is None and peer in self.expelled_peers():  # it missed its expulsion
            self._on_expelled_message(peer, tuple(addr[:2]))
        elif w is None and peer in self._former:  # back after its seat went to a newcomer
            if self.now - self._former_told.get(peer, -1e9) >= 5.0:
                self._former_told[peer] = self.now
                self.links.send(peer, addr, Refuse(L.SEAT_GIVEN.format(
                    name=self._former[peer])))
        elif w is None:
            self._refuse_msg(peer, type(msg).__name__, "not a member of this game")
        elif isinstance(msg, Heartbeat):
            if msg.n_moves < w.sent and self.game is not None:
                w.sent = msg.n_moves  # (it started again, or lost its state: feed anew)
        elif isinstance(msg, Fetch):
            self._on_fetch(peer, msg)
        elif isinstance(msg, Chat):
            self._watcher_chat(peer, w, msg.text)
        elif isinstance(msg, Leave):
            self._drop_watcher(peer, "said goodbye")
        else:
            self._refuse_msg(peer, type(msg).__name__,
                             f"{w.name} watches this table: a watcher has no seat and no "
                             "part in the draws, so its messages change nothing")

    def _on_watch(self, peer: bytes, addr: tuple, msg: Watch) -> None:
        lb = self.lobby
        why = None
        if lb is None:
            why = "not in a game"
        elif not lb.guests & GUEST_WATCH:
            why = L.NO_WATCHERS.format(name=repr(lb.name))
        elif peer not in self._watchers and len(self._watchers) >= MAX_WATCHERS:
            why = L.TOO_MANY_WATCHERS
        if why:
            self._refuse_msg(peer, "watch", why)
            self.links.send(peer, addr, Refuse(why))
            self.links.forget(peer)
            return
        w = self._watchers.get(peer)
        lk = self.links.links.get(peer)
        if lk is not None:
            lk.rto_max = WATCHER_RTO_MAX_S
        if w is None:
            w = _Watcher(msg.name, tuple(addr[:2]), self.now)
            self._watchers[peer] = w
            log.info("%s watches the table through us", msg.name)
            self._announce_watchers()
        else:  # asked again (our answer was lost, or it restarted): start it over
            w.start_over()
        w.beat = self.now  # how far the table is, first: it says "N moves in" at once
        self.links.send(peer, w.addr, self._heartbeat())
        self._feed(peer, w)

    def _feed(self, peer: bytes, w: _Watcher) -> None:
        """Send a watcher what it lacks: the lobby, the game's start, new moves."""
        lb = self.lobby
        addr = w.addr
        g = self.game
        if w.lobby_version >= 0:  # (it needs a lobby to take one: `_on_proof`)
            self._feed_proofs(peer, w)
        if w.state_sent:
            # a goodbye before the lobby it changed: the watcher's screen says "left for
            # good" and then has no "played by a bot until they are back" to say
            self._feed_farewells(peer, w)
            # each lobby it lacks at its place among the moves: a watcher reads who played
            # a move off the lobby it has (the wire does not say). Fed the lobby of now
            # first, it told a bot's moves for Ben, played while Ben's laptop was cut off,
            # as Ben's own: the lobby that gave him his seat back came before them (a test
            # of four laptops, now and then; on the simulated LAN whenever the bot's moves
            # and both lobbies fell between two of the feeder's ticks)
            for at, lobby in self._lobbies if g is not None else ():
                if not w.lobby_version < lobby.version <= lb.version:
                    continue
                upto = min(at, len(g.moves))
                self._feed_moves(peer, w, upto)
                if w.sent < upto:
                    return  # (far behind: the rest of those first, on the next ticks)
                w.lobby_version = lobby.version  # (the lobby of now as it is: its phase)
                self.links.send(peer, addr, self._wire_lobby()
                                if lobby.version == lb.version else lobby)
        if w.lobby_version != lb.version:
            w.lobby_version = lb.version
            self.links.send(peer, addr, self._wire_lobby())
            self._feed_proofs(peer, w)
        away = tuple(sorted(m.peer for m in lb.members
                            if m.peer != self.peer_id and self.presence.is_absent(m.peer)))
        if w.away != away:  # (who the table waits for: the watcher hears only us)
            w.away = away
            self.links.send(peer, addr, AwayList(away))
        if g is None or self.seed is None:
            return
        if not w.state_sent:
            w.state_sent = True
            self.links.send(peer, addr, WatchState(self.seed, tuple(self.seed_contributors),
                                                   self.seed_heads))
            self._feed_farewells(peer, w)
        self._feed_moves(peer, w, len(g.moves))

    def _feed_proofs(self, peer: bytes, w: _Watcher) -> None:
        """The proof behind each expulsion in the lobby, once, before the lobby that makes
        it (and before the game's start, for a watcher that comes later): the watcher's
        screen names it; it checks the proof itself, and acts on nothing."""
        for p, _ in self.lobby.expelled:
            proof = self.proof_against(p)
            if proof is not None and p not in w.proofs:
                w.proofs.add(p)
                self.links.send(peer, w.addr, proof)

    def _feed_moves(self, peer: bytes, w: _Watcher, upto: int) -> None:
        """The moves a watcher lacks, up to `upto` (FEED_CHUNKS chunks at most)."""
        if w.sent < upto:
            for chunk in log_chunks(self._entry, upto, w.sent, FEED_CHUNKS):
                self.links.send(peer, w.addr, chunk)
                w.sent = chunk.start + len(chunk.entries)

    def _feed_farewells(self, peer: bytes, w: _Watcher) -> None:
        for leaver in sorted(self._farewells):  # signed: it checks them itself, and so
            fw = self._farewells[leaver]  # knows which seats a newcomer may take
            if not fw.for_good and not self.presence.has_left(leaver):
                continue  # a 'back soon' of a player who is back: old news
            if not L.is_member(self.lobby, leaver):
                continue  # a newcomer has its seat: refused as "not a member", and shown
            if w.farewells.get(leaver) != fw:  # (a 'back soon', then 'for good': both)
                w.farewells[leaver] = fw
                self.links.send(peer, w.addr, fw)

    def _feeder_tick(self) -> None:
        """Each tick: heartbeats and new moves to our watchers; silent ones are dropped;
        seat requests whose turn came are answered."""
        now = self.now
        for peer in list(self._watchers):
            w = self._watchers[peer]
            if now - w.heard > WATCHER_SILENT_S:
                self._drop_watcher(peer, "went quiet")
                continue
            if now - w.beat >= HEARTBEAT_S:
                w.beat = now
                self.links.send(peer, w.addr, self._heartbeat())
            self._feed(peer, w)
        if self._take_requests:
            self._answer_take_requests()

    def _drop_watcher(self, peer: bytes, why: str) -> None:
        w = self._watchers.pop(peer, None)
        if w is None:
            return
        log.info("%s no longer watches (%s)", w.name, why)
        self.links.forget(peer)
        self._announce_watchers()

    def _announce_watchers(self) -> None:
        """Tell the members who watches through us; our own list counts at once."""
        mine = tuple((p, w.name) for p, w in sorted(self._watchers.items()))
        self._watcher_lists[self.peer_id] = mine
        self._broadcast(Watchers(mine))
        self._watchers_changed()

    def _on_watchers(self, peer: bytes, msg: Watchers) -> None:
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return
        self._watcher_lists[peer] = msg.watchers
        self._watchers_changed()

    def watchers(self) -> list[dict]:
        """Everyone watching the table, as the members we hear tell it (each once).

        A peer that plays a seat is not listed, whatever a member's list still says: a
        feeder's list can lag behind a newcomer's seat (a playtest read "Watching: Eve,
        Kai" to the end while Kai held red and won)."""
        present = self.present()
        seated = {s.owner for s in self.lobby.seats if s.kind == "human"} if self.lobby else set()
        seen: dict[bytes, str] = {}
        for feeder in sorted(self._watcher_lists):
            if feeder in present or feeder == self.peer_id:
                for p, name in self._watcher_lists[feeder]:
                    if p not in seated:
                        seen.setdefault(p, name)
        return [{"peer": p.hex(), "name": n} for p, n in sorted(seen.items(), key=lambda x: x[1])]

    def _watchers_changed(self) -> None:
        now = self.watchers()
        if now != self._watchers_shown:
            self._watchers_shown = now
            self._emit(E.WatchersChanged(now))

    # ------------------------------------------------------------------ chat

    def _watcher_chat(self, peer: bytes, w: _Watcher, text: str) -> None:
        """A watcher's line goes to the table (and every other watcher) when the table
        lets watchers chat; else it is refused, saying so."""
        if not self.lobby.guests & GUEST_CHAT:
            self.links.send(peer, w.addr, Refuse(L.WATCHERS_QUIET))
            return
        line = ChatFrom(peer, w.name, text, True)
        self._emit(E.ChatLine(peer.hex(), w.name, text, True))
        self._broadcast(line)
        self._chat_to_watchers(line, but=peer)

    def _chat_to_watchers(self, line: ChatFrom, but: bytes | None = None) -> None:
        for p, w in self._watchers.items():
            if p != but:
                self.links.send(p, w.addr, line)

    def _on_chat_from(self, peer: bytes, msg: ChatFrom) -> None:
        """A member passes on a line: to a watcher, the table's; to a member, a watcher's
        (which it passes on to its own watchers)."""
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return
        if self.watching:
            if peer == self.feeder and msg.speaker != self.peer_id:
                self._emit(E.ChatLine(msg.speaker.hex(), msg.name, msg.text, msg.watcher))
            return
        if msg.watcher and self.lobby.guests & GUEST_CHAT:
            self._emit(E.ChatLine(msg.speaker.hex(), msg.name, msg.text, True))
            self._chat_to_watchers(msg)

    def _member_chat_to_watchers(self, peer: bytes, text: str) -> None:
        """A player's line (ours or a member's): our watchers read the table's chat too."""
        if self._watchers:
            name = self.name if peer == self.peer_id else self.peer_name(peer).split(" (")[0]
            self._chat_to_watchers(ChatFrom(peer, name[:24] or "?", text, False))

    # ------------------------------------------------------------------ guests' say

    def set_guests(self, guests: int, now: float) -> None:
        """Who else may come to the table (GUEST_* bits): the host's say, in any phase."""
        self.now = now
        self._request(SetGuests(int(guests)))

    def _on_set_guests(self, peer: bytes, addr: tuple, msg: SetGuests) -> None:
        lb = self.lobby
        if lb is None or self.coordinator() != self.peer_id:
            return
        if peer != self.peer_id:
            why = L.NOT_HOST.format(host=self.name)
            self.links.send(peer, addr, Refuse(why))
            return
        if msg.guests != lb.guests:
            self._install_lobby(dataclasses.replace(lb, version=lb.version + 1,
                                                    guests=msg.guests), broadcast=True)

    # ------------------------------------------------------------------ taking a seat

    def _on_take_seat(self, peer: bytes, addr: tuple, msg: TakeSeat) -> None:
        """Every member keeps the request; only the coordinator answers, and it waits
        while the seat's decision is pending (a bot may be deciding it right now: the
        seat changes hands between its turns). Kept by all, a request outlives a change
        of coordinator: one that is gone (or thought here for a moment by a datagram that
        came after its goodbye) would otherwise leave the newcomer unanswered."""
        if self.lobby is None:
            return
        self._take_requests[peer] = (msg.seat, msg.name, msg.plays, tuple(addr[:2]), self.now)
        self._answer_take_requests()

    def _answer_take_requests(self) -> None:
        lb, g = self.lobby, self.game
        coordinating = self.coordinator() == self.peer_id
        for peer, (*_, since) in list(self._take_requests.items()):
            # seated meanwhile (by a coordinator before us); or, kept here in case the
            # coordinator changes, answered by now (it waits TAKE_WAIT_S at most): a
            # later coordinator must not answer it again, or seat a guest who gave up
            if L.is_member(lb, peer) or (not coordinating and self.now - since > TAKE_WAIT_S):
                del self._take_requests[peer]
        if not coordinating:
            return
        for peer in sorted(self._take_requests):
            seat, name, plays, addr, since = self._take_requests[peer]
            left = [p for p in self._farewells if self.left_for_good(p)]
            result = L.take_seat(lb, seat, peer, name, addr, left, plays)
            if isinstance(result, str) or g is None or g.is_over or self.stopped:
                why = result if isinstance(result, str) else L.NOT_RUNNING
                del self._take_requests[peer]
                self._refuse_msg(peer, "take_seat", why)
                self.links.send(peer, addr, Refuse(why))
                continue
            group = L.player_seats(lb, seat)
            d = g.pending
            if d is not None and d.seat in group and self.now - since < TAKE_WAIT_S:
                continue  # its decision now: wait until another seat's
            del self._take_requests[peer]
            self._watchers.pop(peer, None)  # a player from now on
            self._install_lobby(result, broadcast=True)
            lb = self.lobby
        self._watchers_changed()

    def _announce_takeovers(self, old: Lobby, new: Lobby) -> None:
        done: set[int] = set()
        for i, (a, b) in enumerate(zip(old.seats, new.seats, strict=False)):
            if i in done or a.owner == b.owner or b.kind != "human":
                continue
            group = [j for j, s in enumerate(new.seats) if s.owner == b.owner]
            done.update(group)
            log.info("%s takes the seat of %s", b.name, a.name)
            if a.kind == "human" and not L.is_member(new, a.owner):
                self._former[a.owner] = b.name  # (if it comes back, it is told)
            self._watchers.pop(b.owner, None)
            self._emit(E.SeatTaken(group, b.name, a.name.split(" (")[0], b.owner.hex(),
                                   b.owner == self.peer_id))
            if b.owner == self.peer_id:
                self._your_turn = None

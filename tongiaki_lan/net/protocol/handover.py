"""Seat handover of NodeCore: a player away long enough has their seat played by a
bot, driven by a node every remaining node computes alike, until they are back.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state
they share); kept apart so each concern reads on its own."""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.i18n import N_
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    AddBot,
    Fetch,
    Lobby,
    Refuse,
    Watchers,
)
from tongiaki_lan.net.protocol.settings import (
    FORK_GRACE_S,
    HANDOVER_AFTER_S,
    HANDOVER_BOT,
)

log = logging.getLogger("tongiaki_lan.net.protocol.handover")

# Why `replace` cannot give a seat to a bot (yet): English, marked for a console to
# translate by matching (see net.lobby.REFUSALS).
NO_GAME = N_("no game in progress")
NO_PLAYER = N_("no player {who} at this table")
ALREADY_HANDED = N_("{name}'s seat is already played by a bot")
OWN_SEAT = N_("that is your own seat")
IS_HERE = N_("{name} is here: only an absent player's seat can be replaced")
TOO_SOON = N_("{name} has been away {away} s; a seat can be replaced after {limit} s")
NOBODY_PLAYS = N_("no player plays {colour}")
NOT_HANDED = N_("no bot plays your seat")
IS_HERE_SHORT = N_("{name} is here")
HEARD_THROUGH = N_("{name} still plays: their moves and draws reach this laptop through the "
                   "others, though it does not hear their laptop itself")
REFUSALS = (NO_GAME, NO_PLAYER, ALREADY_HANDED, OWN_SEAT, IS_HERE, TOO_SOON, NOBODY_PLAYS,
            IS_HERE_SHORT, HEARD_THROUGH, NOT_HANDED)


def handed(seat) -> bool:
    """A human seat currently played by a bot because its player was away (`replace`)."""
    return seat.kind == "human" and bool(seat.bot)


def seat_kind(seat) -> str:
    """What plays the seat for good, as records and the `game_start` event say it: a
    table bot's kind, the bot its laptop plays it with (`plays`), else "human"; never the
    bot that stands in for an away player. A late arrival opened its record while Ben's
    seat was handed and called Ben a bot ("normal") for the whole game, where every
    other laptop called him a person (a LAN playtest)."""
    if seat.kind != "human":
        return seat.bot or seat.kind
    return seat.plays or "human"


class Handover:
    def replace(self, who: str, now: float, bot: str | None = None) -> None:
        """Give the seat of an absent player (`who`: name or colour) to a bot. Raises
        ValueError with the reason when it cannot be done (yet)."""
        self.now = now
        if self.game is None or self.game.is_over:
            raise ValueError(NO_GAME)
        want = who.strip().lower()
        seat = next((i for i, s in enumerate(self.lobby.seats)
                     if s.kind == "human" and want in (s.name.lower(), s.colour.lower())), None)
        if seat is None:
            raise ValueError(NO_PLAYER.format(who=repr(who)))
        s = self.lobby.seats[seat]
        if handed(s):
            raise ValueError(ALREADY_HANDED.format(name=s.name))
        if s.owner == self.peer_id:
            raise ValueError(OWN_SEAT)
        away = self.presence.away_for(s.owner, now)
        limit = self.handover_limit()
        if away is None:
            raise ValueError(IS_HERE.format(name=s.name))
        if self.plays_through_others(s.owner):
            raise ValueError(HEARD_THROUGH.format(name=s.name))
        if away < limit:
            raise ValueError(TOO_SOON.format(name=s.name, away=int(away),  # (59.6 is not 60)
                                             limit=f"{limit:.0f}"))
        for i, other in enumerate(self.lobby.seats):  # two colours each (V1): both of theirs
            if other.owner == s.owner and other.kind == "human" and not handed(other):
                self._ask_handover(i, bot or self.handover_bot)

    def replace_wait(self, seat: int) -> float | None:
        """Seconds before `replace` may give `seat` to a bot, as of this core's last `now`
        (0: it may now); None when it may not at all (the player is here, or heard through
        the others; a bot's seat; our own). The status line counts it down: players typed
        `replace` early and were refused, the minute being said only in the log."""
        if self.game is None or self.game.is_over or not 0 <= seat < len(self.lobby.seats):
            return None
        s = self.lobby.seats[seat]
        if s.kind != "human" or handed(s) or s.owner == self.peer_id:
            return None
        away = self.presence.away_for(s.owner, self.now)
        if away is None or self.plays_through_others(s.owner):
            return None
        return max(0.0, self.handover_limit() - away)

    def handover_limit(self) -> float:
        """Seconds an absent player's seat waits before `replace` may give it to a bot
        (this laptop's `--handover`, else a minute): what the screens tell."""
        return self.handover_after if self.handover_after is not None else HANDOVER_AFTER_S

    def heard_through(self, peer: bytes) -> float | None:
        """Seconds since something `peer` made (a move of its seat, its value of a draw)
        reached us through the others while we do not hear it; None if nothing did since
        it went away (or it is here). A laptop that cannot hear one other (a one-way fault:
        a firewall, a Wi-Fi link bad in one direction) counts it as away, yet that player
        still plays through the others; within the handover time of such news their seat
        is not for a bot, and nothing waits for them to come back."""
        away = self.presence.away_for(peer, self.now)
        seen = self._seen_through.get(peer)
        if away is None or seen is None or self.now - seen > away or self._idle(peer):
            return None  # (an idle player's laptop follows the game: it does not play)
        return self.now - seen

    def plays_through_others(self, peer: bytes) -> bool:
        heard = self.heard_through(peer)
        return heard is not None and heard < self.handover_limit()

    def _seen_through_others(self, peer: bytes) -> None:
        """Something `peer` made (a move of its seat, its value of a draw) reached us."""
        if self.presence.is_absent(peer):
            self._seen_through[peer] = self.now

    def _ask_handover(self, seat: int, bot: str) -> None:
        colour = self.lobby.seats[seat].colour
        self._handover_asked[seat] = self.now
        coord = self.coordinator()
        if coord == self.peer_id:
            self._handover_request(self.peer_id, ("0.0.0.0", self.port), AddBot(bot, colour))
        else:
            self.links.send(coord, self._addr_of(coord), AddBot(bot, colour))

    def _handover_request(self, peer: bytes, addr: tuple, msg: AddBot) -> None:
        """ADD_BOT during a game: hand the away human seat of that colour to a bot."""
        lb = self.lobby
        seat = next((i for i, s in enumerate(lb.seats) if s.colour == msg.colour), None)
        if (seat is not None and lb.seats[seat].owner == peer and handed(lb.seats[seat])
                and L.is_member(lb, peer)):
            # its player asks for the seat a bot plays since they did not play (`reclaim`):
            # every member hears it; the bot's driver gives it back between two decisions
            self._idle_handed.discard(peer)
            self._give_back(peer)
            return
        why = None
        if self.coordinator() != self.peer_id:
            why = "not the coordinator"
        elif not L.is_member(lb, peer):
            why = L.NOT_MEMBER
        elif seat is None or lb.seats[seat].kind != "human":
            why = NOBODY_PLAYS.format(colour=msg.colour)
        elif handed(lb.seats[seat]):
            return  # already done (two nodes asked)
        elif lb.seats[seat].owner == peer or not self.presence.is_absent(lb.seats[seat].owner):
            why = IS_HERE_SHORT.format(name=lb.seats[seat].name)
        elif self.plays_through_others(lb.seats[seat].owner):
            why = HEARD_THROUGH.format(name=lb.seats[seat].name)
        if why:
            if peer == self.peer_id:
                self._emit(E.RequestRefused(peer.hex(), why))
            else:
                self.links.send(peer, addr, Refuse(why))
            return
        seats = list(lb.seats)
        seats[seat] = dataclasses.replace(seats[seat], bot=msg.bot or HANDOVER_BOT)
        self._install_lobby(dataclasses.replace(lb, version=lb.version + 1, seats=tuple(seats)),
                            broadcast=True)

    def _announce_handovers(self, old: Lobby, new: Lobby) -> None:
        for i, (a, b) in enumerate(zip(old.seats, new.seats, strict=False)):
            if not handed(a) and handed(b):
                driver = self._driver(i)
                idle = self._idle(b.owner, old)  # (here, but did not play: `_idle`)
                again = bool(self._idle_strikes.get(b.owner))
                if idle:
                    self._idle_handed.add(b.owner)
                    self._idle_strikes[b.owner] = self._idle_strikes.get(b.owner, 0) + 1
                if b.owner == self.peer_id:
                    self._asked_back = False
                self._emit(E.SeatHandedOver(i, b.name, b.bot, driver.hex(),
                                            self.peer_name(driver), idle, idle and again))
                log.info("%s's seat is played by a bot (%s) from now on%s", b.name, b.bot,
                         " (they did not play)" if idle else "")
            elif handed(a) and not handed(b) and a.owner == b.owner:  # (else: taken)
                self._idle_handed.discard(b.owner)
                self._emit(E.SeatReclaimed(i, b.name))
                if b.owner == self.peer_id:
                    self._your_turn = None
                    self._asked_back = False

    def reclaim(self, now: float) -> None:
        """Ask for our seat back from the bot that plays it because we did not play
        (`_idle`): said to every member, for the one that drives the bot gives it back,
        between two of its decisions. Raises ValueError when no bot plays our seat."""
        self.now = now
        if self.game is None or self.game.is_over:
            raise ValueError(NO_GAME)
        mine = [s for s in self.lobby.seats if s.owner == self.peer_id and handed(s)]
        if not mine:
            raise ValueError(NOT_HANDED)
        self._idle_handed.discard(self.peer_id)
        self._asked_back = True
        for s in mine:
            self._broadcast(AddBot(s.bot, s.colour))

    def _member_back(self, peer: bytes) -> None:
        """A member is heard again: if a bot plays its seat, the coordinator gives it back."""
        self._farewells_to(peer)
        if self._watchers:  # and who watches through us
            self.links.send(peer, self._addr_of(peer), Watchers(self._watcher_lists.get(
                self.peer_id, ())))
        self._give_back(peer)
        self._after_state_change()

    def _give_back(self, peer: bytes) -> None:
        """The node that drives the bot in a member's seat gives it back — between two of
        its decisions: while one is pending the bot may be deciding it right now, and its
        move and the player's would compete for one move index (`_give_back_to_the_running`
        tries again each tick). The driver, not the coordinator: when the member is the
        coordinator itself (the table's creator, back from a goodbye or a sleep), nobody
        else would, and only the driver knows the bot is between two decisions."""
        lb, g = self.lobby, self.game
        mine = [i for i, s in enumerate(lb.seats) if handed(s) and s.owner == peer]
        if (g is None or not mine or self.watching or self._driver(mine[0]) != self.peer_id
                or peer in self._idle_handed  # (here all along: back when it asks, `reclaim`)
                or self.left_for_good(peer)  # (a goodbye for good stays one)
                or not L.is_member(lb, peer)):  # (an expelled member gets nothing back)
            return
        d = g.pending
        if (d is not None and d.seat is not None and lb.seats[d.seat].owner == peer
                and handed(lb.seats[d.seat])):
            return
        seats = tuple(dataclasses.replace(s, bot="") if handed(s) and s.owner == peer else s
                      for s in lb.seats)
        if seats != lb.seats:
            self._install_lobby(dataclasses.replace(lb, version=lb.version + 1, seats=seats),
                                broadcast=True)

    def _give_back_to_the_running(self) -> None:
        """Each tick: a seat a bot plays for a member that runs is given back by its driver
        (`_give_back`), whether or not anyone saw the member come back, and again when a
        decision of that seat was pending as it came back. Nobody saw it when the whole
        table started again (everyone quit, the party moved rooms): to each new run the
        others were there from the start, never away and back, and a goodbye for good is
        news that no record keeps; the lobby, which is kept, still says a bot plays the
        seat of a player who is here. Not while the member's heartbeats say it is behind
        the game (`_behind`): it could not play the seat yet, and one that hears nobody
        (a draw left its value out and gave its seat to a bot) would have it back, then
        lose it again once it counts as away."""
        if self._waking is not None or self.watching:
            return  # (not before the table has told us how things stand; a watcher,
            # who hears few of the members, drives nothing and gives nothing back)
        for s in self.lobby.seats:
            owner = s.owner
            if (handed(s) and owner != self.peer_id and self.presence.is_running(owner)
                    and not self.left_for_good(owner) and owner not in self._behind
                    and L.is_member(self.lobby, owner)):  # (never an expelled one's)
                self._give_back(owner)

    def _fork_tick(self) -> None:
        held = self._fork_suspect
        if held is not None and not self._may_have_forked(held[0]):
            # the grace is over: what was seen then may be stale (a rewind since); the
            # peer's next heartbeat or move tells afresh, and a difference then stops us
            self._fork_suspect = None
            self._yield_to = None
        if (self._alone_from is not None and held is None
                and self.present() >= {m.peer for m in self.lobby.members}
                and not any(self._may_have_forked(m.peer) for m in self.lobby.members)):
            self._alone_from = None  # back with everyone, and no game of our own: over

    def _cut_off_after_us(self, peer: bytes) -> bool:
        """Was `peer` away from us well after we were last alone? Then it was cut off on
        its own since we are back with the table, and its game is no more the table's
        than ours: yielding to it forked the table. (A laptop back from its own cut kept
        `_alone_from` while a second laptop was cut off for a while; at the second's
        return the first took back 29 moves to follow it, and the creator, which had
        played on with the first, stopped both with "the game forked".)"""
        return self._back_at.get(peer, -1e9) > self._alone_seen_at + FORK_GRACE_S

    def _game_forked(self, peer: bytes, index: int, detail: str, claim: bool = False) -> None:
        """A member's state after move `index` differs from ours: the games forked there
        or before — both sides of a network partition played on, each handing the other
        side's seats to bots. Stop and say so, instead of refusing each other's moves
        for ever. `claim`: all we have is the member's word (a heartbeat's digest, a MOVE's
        `prev`, the state it says it had before its move): a broken laptop says anything,
        so a claim only makes us look at its log, where signed moves show where the
        games part (`MoveSync._log_differs`); only those stop the game."""
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return  # only a member's history counts; a stranger's claim is no evidence
        if self._proven(peer):
            return  # its word is worth nothing: the table expels it (`Expulsions`)
        if peer in self._withholders:
            # left out of the draws while it was here: its game may well differ from the
            # table's, which goes on without it (an absent one's differing game is a fork)
            log.info("%s's state differs after move %d; it was left out of the draws",
                     self.peer_name(peer), index)
            return
        if self._may_have_forked(peer):
            # cut off lately: the lobby that leaves our draw value out may rewind us; if
            # it has not by the end of the grace, this was a fork (`_fork_tick`)
            if self._fork_suspect is None:
                self._fork_suspect = (peer, index, detail, self.now)
            unheard = self.now - self._unheard_at <= FORK_GRACE_S
            if (self._alone_from is not None and (len(self.lobby.members) > 2 or unheard)
                    and self._yield_to is None and not self._cut_off_after_us(peer)):
                # we were alone while the others stayed together (or nobody heard us,
                # even at two: the other never saw our moves): their game is the
                # table's. Their log from where we were cut off shows where we differ.
                self._yield_to = peer
                self._yield_checked = -1  # how far its log agrees with ours
                self.links.send(peer, None, Fetch(min(self._alone_from, index)))
            return
        if claim:
            self._probe_claim(peer, index)
            return
        self._stop(
            f"the game forked at or before move {index}: {self.peer_name(peer)} and this node "
            f"played different games from there ({detail}). This happens when the network "
            "was split for longer than the handover time and both sides went on playing, "
            "each giving the other side's seats to bots; the two games cannot be joined "
            "again, and each record holds its own side's game (tongiaki-lan records lists "
            "it)")  # (no pointer to docs/network.md: a player's installed copy has no docs)

    def _auto_handover(self) -> None:
        """Headless nodes (`--handover S`) ask by themselves for a bot in the seat of a
        player away for S seconds (again every S seconds until it is done). Never while
        every other member of a larger table is away: then we are the one cut off (or
        asleep), and the seats are not ours to give."""
        if self.hears_nobody():  # (goodbyes aside)
            return
        for i, s in enumerate(self.lobby.seats):
            if s.kind != "human" or handed(s) or s.owner == self.peer_id:
                continue
            away = self.away_heard(s.owner)
            if (away is None or away < self.handover_after
                    or self.plays_through_others(s.owner)):
                continue
            if self.now - self._handover_asked.get(i, -1e9) < max(1.0, self.handover_after):
                continue
            self._ask_handover(i, self.handover_bot)



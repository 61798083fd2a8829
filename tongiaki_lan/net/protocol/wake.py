"""Sleep and wake of NodeCore (docs/network.md, "Sleep and wake"): a node whose clock
jumped (the laptop slept, or the process was stopped) behaves as one that was away.

Without this, a node waking from a long sleep finds every other member silent for longer
than the handover time, and at once hands their seats to its own bots and leaves their
draw values out — a game of its own that the table never saw. Here the sleep does not
count against the others: their silence starts again from the wake, the node acts on
nothing (no bot move, no handover, no drop) until it has asked the table what happened
and heard it, then follows the table (the lobby that left it out rewinds it, as after a
restart). If nobody answers, the table finished or broke up meanwhile: the node says so
instead of playing on alone.

What counts as the table's answer: each member still here has acknowledged a request
sent after the wake (a datagram that waited in our socket while we slept may come from a
node gone since), has sent a heartbeat since (its move count and lobby version as they
are now, not as the stale ones from the socket said), and our lobby is at least that
version. An acknowledgement alone ended the hold in playtests while the lobby that had
left this node out of a draw was still on its way (it was dropped by the full socket,
and its resend came after the acknowledgement): the node dealt that draw with its own
value from the values in its socket, a tile the table never drew, struck a moment later.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol.codec import Fetch, Heartbeat, Message

log = logging.getLogger("tongiaki_lan.net.protocol.wake")

# a gap between two calls this long means the node did not run meanwhile: a member is
# taken for away after AWAY_AFTER_S of silence, so a shorter gap changes nothing
WAKE_GAP_S = 3.0
# after waking, how long the node waits to hear the table before it acts anyway
WAKE_HOLD_S = 4.0
# after that, everyone gone quiet this soon means the table was closing as we woke
WAKE_WATCH_S = 30.0
# a member that answered but whose lobby we still lack (lost again and again, or one we
# refuse) holds us this long at most: then we act on what we have, as before the lobby
# and heartbeat were waited for (a tile dealt so is taken back when the lobby comes)
WAKE_HOLD_MAX_S = 30.0


@dataclass
class Hold:
    """A node holding back after a sleep or restart (`Waking`): what it waits for."""

    since: float
    slept: float  # 0 after a restart
    # member -> (its link, the sequence number of our request after the wake): acked, the
    # member is here now
    marks: dict = field(default_factory=dict)
    heard: set[bytes] = field(default_factory=set)  # after a restart: any word proves it
    slept_here: bool = True  # (False: a restart, where silence is no news)
    # member -> the newest lobby version its heartbeats gave since it answered
    told: dict[bytes, int] = field(default_factory=dict)


class Waking:
    def _check_wake(self, now: float) -> None:
        """Called with each new `now`: a jump since the last call is a sleep."""
        last = self._last_call
        self._last_call = now
        if last is None or self.stopped or now - last < WAKE_GAP_S:
            return
        if self.watching:  # it decides nothing, but its feeder may have dropped it
            self._watcher_woke(now - last)
            return
        if self.game is None:
            return
        slept = now - last
        self._shift_clocks(slept)
        self._resumed_at = now  # as after a restart: the table's word on our draws goes
        self._thinking = None
        # (the Woke event tells the player, in their language; the log file keeps this)
        log.info("this computer was asleep for %.0f s: asking the table what happened "
                 "before acting", slept)
        self._emit(E.Woke(round(slept, 1)))
        n = len(self.game.moves)
        # what proves a member is there now: its ack of a request sent after the wake (a
        # datagram that waited in our socket while we slept may come from a node that has
        # gone since)
        marks = {}
        for peer in self._recipients():
            self.links.send(peer, self._addr_of(peer), self._heartbeat())
            self.links.send(peer, self._addr_of(peer), Fetch(n))
            lk = self.links.links.get(peer)
            if lk is not None:
                marks[peer] = (lk, lk.send_next - 1)
        self._waking = Hold(now, slept, marks)

    def _hold_until_heard(self, now: float) -> None:
        """After a restart from our record: the table may have played our seat meanwhile
        (a bot), so we decide nothing before hearing it either; a table that does not
        answer is no news here (the others may be restarting too)."""
        self._last_call = now
        self._waking = Hold(now, 0.0, slept_here=False)

    def _shift_clocks(self, slept: float) -> None:
        """The others' silence during our sleep is not theirs: move every time this node
        measures a wait from forward by the sleep."""
        p = self.presence
        for table in (p._last, p._absent_since, self._handover_asked, self._back_at):
            for k in list(table):
                table[k] += slept
        if self._draw_wait is not None:
            self._draw_wait = (self._draw_wait[0], self._draw_wait[1] + slept)
        self._draw_resent += slept
        self._last_hb = self._last_tick = -1e9

    def waking(self) -> bool:
        """Holding back after a sleep or restart: the table has not answered yet."""
        return self._waking is not None

    def _heard_while_waking(self, peer: bytes, msg: Message) -> None:
        """A member's message while we hold: after a restart any word is its answer (a
        fresh process: nothing stale in its socket); a heartbeat once it answered says how
        far the table is now, and which lobby we need before we act."""
        w = self._waking
        if w is None:
            return
        if not w.slept_here:
            w.heard.add(peer)
        if isinstance(msg, Heartbeat) and peer in self._answered():
            w.told[peer] = max(w.told.get(peer, 0), msg.lobby_version)

    def _table_gone(self, slept: float) -> None:
        n = len(self.game.moves)
        reason = (f"the table did not answer after this computer slept {slept:.0f} s: it "
                  f"finished or broke up meanwhile; this record holds the game up to move {n}")
        log.info("%s", reason)
        self._emit(E.TableGone(n, round(slept, 1)))
        self.stopped = reason

    def _watch_after_wake(self) -> None:
        """The table answered our wake, then every other member went quiet before the game
        was over: it was finishing as we woke (its nodes closed), not a table to play on
        alone with our own bots. Not once the table has played on since it answered: then
        the one who went quiet is away (a lid closed at a table of two), and the game waits
        for them as for anyone (it stopped both laptops as a table gone)."""
        w = self._woke_at
        if w is None:
            return
        if (self.now - w[0] > WAKE_WATCH_S or self.game.is_over
                or len(self.game.moves) > w[2] + 1):
            self._woke_at = None
            return
        others = [m.peer for m in self.lobby.members if m.peer != self.peer_id]
        if others and all(self.presence.is_absent(p) for p in others):
            self._woke_at = None
            self._table_gone(w[1])

    def _answered(self) -> set[bytes]:
        """The members that answered our wake: acknowledged our request (after a restart:
        said anything)."""
        w = self._waking
        out = set(w.heard)
        for peer, (lk, seq) in w.marks.items():
            if self.links.links.get(peer) is lk and seq not in lk.unacked:
                out.add(peer)
        return out

    def _informed(self, heard: set[bytes]) -> set[bytes]:
        """The members that answered whose news we have: a heartbeat of theirs since, and
        their lobby (or a newer one). Before that, the values in our socket may be of a
        draw the table dealt without us, and the lobby that says so is still coming (the
        member sends it again on our heartbeat, which shows our older version)."""
        told = self._waking.told
        return {p for p in heard if p in told and self.lobby.version >= told[p]}

    def _wake_tick(self) -> None:
        """End the hold once every member still here answered and we have its news, or,
        after WAKE_HOLD_S, once we have the news of those that answered (the others may be
        cut off from us; a table where nobody answered a sleeper is gone)."""
        if self._waking is None:
            self._watch_after_wake()
            return
        w = self._waking
        slept, slept_here = w.slept, w.slept_here
        heard = self._answered()
        informed = self._informed(heard)
        others = self._recipients()
        done = bool(informed) and all(p in informed or self.presence.is_absent(p)
                                      for p in others)
        held = self.now - w.since
        if not done and held < WAKE_HOLD_S:
            return
        behind = heard - informed  # (answered, but we lack their lobby or heartbeat)
        if not done and behind and held < WAKE_HOLD_MAX_S:
            return
        self._waking = None
        if behind:
            log.info("acting after %.0f s without the news of %s", held,
                     ", ".join(sorted(self.peer_name(p) for p in behind)))
        if not heard and others and slept_here:
            self._table_gone(slept)
            return
        if slept_here:  # (and how far the table was: `_watch_after_wake`)
            self._woke_at = (self.now, slept, max([len(self.game.moves),
                                                   *self._progress.values()]))
        log.info("the table answered after %.0f s away: following it", slept)
        self._thinking = None  # a bot asked before the sleep is asked again, if still due
        self._emit(E.Answered(round(slept, 1)))
        if self.game.awaiting_reveal and self._deal():  # (a draw whose values came while
            self._after_reveals()  # we held: dealt now, as the table's answer leaves it)
        else:
            self._after_state_change()

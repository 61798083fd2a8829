"""Leaving on purpose (protocol/draws.md, "Leaving on purpose"): a player who quits tells
the table in a FAREWELL signed with its identity key, "back soon" (its seat waits, as
after LEAVE) or "for good" (the table draws without it from then on and a bot takes its
seat at once: nobody waits for a player who said goodbye).

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own.

What a leaver may publish: its value for the draw its game is waiting on (it may send it
anyway: it applied the move that needs it), never a later one. From `from_draw` on the
table leaves its chain out, so its later values decide nothing; withholding them keeps
its chain as secret as a dropped contributor's (the argument is in protocol/draws.md).
"""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.draws import preimage_ok
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import MAX_DRAW, Farewell, Leave, farewell_bytes
from tongiaki_lan.net.protocol.identity import peer_id_of, verify
from tongiaki_lan.net.protocol.settings import LATE_AFTER_GOODBYE_S

log = logging.getLogger("tongiaki_lan.net.protocol.farewell")


class Farewells:
    # ------------------------------------------------------------------ the leaver

    def say_farewell(self, for_good: bool, now: float) -> Farewell | None:
        """Tell the table we leave: for good, or back soon. Outside a running game this is
        LEAVE (the lobby frees the seat). Returns the FAREWELL sent, if any."""
        self.now = now
        if self.lobby is None:
            return None
        g = self.game
        if g is None or g.is_over or self.seed is None:
            self._broadcast(Leave())
            return None
        k = g.draws()
        value = b""
        me = self.my_contributor
        if g.awaiting_reveal and me is not None and me in self._active(k) and self._chain:
            # the draw our game waits on: our value is due anyway (we applied the move that
            # needs it), and it saves the table the wait; no later value ever leaves us
            value = self._chain.preimage(k)
            k += 1
        fw = self._sign_farewell(min(k, MAX_DRAW + 1), for_good, value)
        self._farewells[self.peer_id] = fw
        self._broadcast(fw)
        log.info("said goodbye to the table (%s), no draw value from draw %d on",
                 "for good" if for_good else "back soon", fw.from_draw)
        return fw

    def _sign_farewell(self, from_draw: int, for_good: bool, value: bytes) -> Farewell:
        ident = self.identity
        sig = ident.sign(farewell_bytes(self.game_id, self.peer_id, from_draw, for_good, value))
        return Farewell(self.peer_id, from_draw, for_good, value, ident.public, sig)

    # ------------------------------------------------------------------ the table

    def _on_farewell(self, peer: bytes, msg: Farewell) -> None:
        """A FAREWELL from its leaver or passed on by any member: checked against the
        leaver's key, kept, passed on once, and acted on."""
        lb = self.lobby
        if lb is None or not L.is_member(lb, peer):
            return
        why = self._farewell_refused(msg)
        if why:
            self._refuse_msg(peer, "farewell", why)
            return
        leaver = msg.leaver
        if leaver == self.peer_id:
            return  # our own, passed back
        known = self._farewells.get(leaver)
        if known == msg or (known is not None and known.for_good):
            return  # seen (a for-good goodbye stays for good)
        if msg in self._spent_farewells:
            if peer != leaver or self._run_of(leaver) <= self._spent_farewells[msg]:
                return  # a goodbye back soon of a run that has come back since, late
            # (the same words from a newer run of the leaver, which the links took as
            # its current one: it says goodbye again before another tile was drawn)
            del self._spent_farewells[msg]
        self._farewells[leaver] = msg
        self._farewell_at[leaver] = self.now
        self._farewell_run[leaver] = self._run_of(leaver)
        for other in self._recipients():  # passed on once: a lost datagram of a leaver
            if other not in (peer, leaver):  # that exits a moment later costs nothing
                self.links.send(other, self._addr_of(other), msg)
        self.presence.left(leaver, self.now)
        seats = [i for i, s in enumerate(lb.seats) if s.kind == "human" and s.owner == leaver]
        name = self.peer_name(leaver)
        self._emit(E.Away(leaver.hex(), name, True))
        log.info("%s left the table %s", name, "for good" if msg.for_good else "(back soon)")
        g = self.game
        if g is not None and msg.value and leaver in self.contributors:
            i = self._index_of(leaver)  # (its latest chain: one taken mid-game, if any)
            k = msg.from_draw - 1
            if k >= g.draws():
                why = self._take_values(peer, k, ((i, msg.value),))
                if why:
                    self._refuse_msg(peer, "farewell", why)
        self._emit(E.PlayerLeft(leaver.hex(), name, msg.for_good, seats,
                                self.handover_bot if msg.for_good else "", msg.from_draw - 1))
        self._apply_farewells()
        if g is not None and not self.stopped and not g.is_over:
            if self._deal():
                self._after_reveals()
            else:
                self._after_state_change()

    def _farewell_refused(self, msg: Farewell) -> str | None:
        if not L.is_member(self.lobby, msg.leaver):
            return f"farewell of node {msg.leaver.hex()[:8]}, which is not a member"
        if peer_id_of(msg.public) != msg.leaver:
            return "farewell: the key does not belong to the leaver"
        data = farewell_bytes(self.game_id, msg.leaver, msg.from_draw, msg.for_good, msg.value)
        if not verify(msg.public, msg.signature, data):
            return "farewell: bad signature"
        if msg.value and self.game is not None and msg.leaver in self.contributors:
            i = self._index_of(msg.leaver)
            book = self.draw_book
            k = msg.from_draw - 1
            if k >= self.game.draws() and not preimage_ok(book.last[i], book.last_draw[i],
                                                          msg.value, k):
                return (f"farewell: the value for draw {k} does not hash to the value "
                        f"{self.peer_name(msg.leaver)} committed to")
        return None

    def _apply_farewells(self) -> None:
        """The coordinator turns for-good goodbyes into the lobby: the leaver's contributor
        left out of the draws from its `from_draw` (or the first draw the table has not
        dealt with its value, if later), its seats to a bot. Every node calls it (the
        coordinator may be the one who left: the next one takes over)."""
        lb, g = self.lobby, self.game
        if (lb is None or g is None or g.is_over or self.stopped
                or self.coordinator() != self.peer_id):
            return
        dropped = dict(lb.dropped)
        seats = list(lb.seats)
        changed = False
        for leaver in sorted(self._farewells):
            fw = self._farewells[leaver]
            if not self.left_for_good(leaver) or leaver == self.peer_id:
                continue
            if leaver in self.contributors:
                i = self._index_of(leaver)  # (its latest chain: one taken mid-game, if any)
                if i not in dropped:
                    dropped[i] = min(self._first_draw_without(i, fw.from_draw), MAX_DRAW)
                    changed = True
            for j, s in enumerate(seats):
                if s.kind == "human" and s.owner == leaver and not s.bot:
                    seats[j] = dataclasses.replace(s, bot=self.handover_bot)
                    changed = True
        if len(dropped) >= len(self.contributors) > 0:
            return  # nobody left to draw: the game cannot go on (never drop the last one)
        if changed:
            new = dataclasses.replace(lb, version=lb.version + 1, seats=tuple(seats),
                                      dropped=tuple(sorted(dropped.items())))
            self._install_lobby(new, broadcast=True)

    def _first_draw_without(self, i: int, from_draw: int) -> int:
        """The first draw that may go without contributor i: `from_draw`, unless this node
        holds (or dealt with) its value for a later one — a goodbye never takes back a
        value that was already out."""
        k = from_draw
        for d, (_, values) in self._dealt().items():
            if any(j == i for j, _ in values):
                k = max(k, d + 1)
        for d, pool in self._draw_pool.items():
            if i in pool:
                k = max(k, d + 1)
        return k

    def _farewell_allows(self, i: int, k: int) -> bool:
        """Whether a lobby may leave contributor i out from draw k on because it said
        goodbye for good from that draw or earlier (no wait needed: see `_drops_refused`)."""
        if i >= len(self.contributors):
            return False
        fw = self._farewells.get(self.contributors[i])
        return (fw is not None and fw.for_good and k >= fw.from_draw
                and k >= self.game.draws() and i not in self._draw_pool.get(k, {}))

    def left_for_good(self, peer: bytes) -> bool:
        fw = self._farewells.get(peer)
        return fw is not None and fw.for_good and peer not in self._returned

    def _farewell_restart(self, peer: bytes) -> None:
        """A leaver started again (a new incarnation: the player came back on purpose, not
        a late datagram of the run that said goodbye): its seat may be given back, if a bot
        still plays it; its part in the draws stays dropped (a dropped contributor never
        comes back, `draws.md`)."""
        if self.left_for_good(peer):
            self._returned.add(peer)
        self._back_after_goodbye(peer)

    def _back_after_goodbye(self, peer: bytes) -> None:
        """A member heard again (a new run of it, or the first word of its run to a node
        that started since): a goodbye back soon it said is over. Kept, it was passed to
        every member back from away, and a laptop resumed after a crash read "Dee left
        and will be back soon" with Dee at the table; and Dee's next `quit soon` at the
        same tile, the very same signed words, was taken as seen and told nobody."""
        fw = self._farewells.get(peer)
        if fw is not None and not fw.for_good:
            del self._farewells[peer]
            self._spent_farewells[fw] = self._farewell_run.get(peer, 0)

    def _run_of(self, peer: bytes) -> int:
        """The incarnation of `peer` our link knows (0: none yet)."""
        lk = self.links.links.get(peer)
        return lk.their_inc if lk is not None else 0

    def _late_after_goodbye(self, peer: bytes) -> bool:
        """Whether a message of `peer`, a member, is a late datagram of the run that said
        goodbye for good (sent before it ended, arriving after the goodbye): it must not
        count as hearing from it, or for a few seconds the leaver would be shown back and
        count as present, coordinator and drawer. Long after the goodbye the run has ended
        (`LATE_AFTER_GOODBYE_S`), so a message is a new run's: one we did not see start,
        because we started again ourselves since, or learnt the goodbye from the others
        after it started; it comes back as a restart does (`_farewell_restart`)."""
        if not self.left_for_good(peer):
            return False
        if self.now - self._farewell_at.get(peer, self.now) < LATE_AFTER_GOODBYE_S:
            return True
        log.info("%s is running again after its goodbye", self.peer_name(peer))
        self._farewell_restart(peer)
        return False

    def _farewells_to(self, peer: bytes) -> None:
        """A member back after being away: the goodbyes it may have missed."""
        for leaver in sorted(self._farewells):
            if leaver != peer and L.is_member(self.lobby, leaver):  # (not one whose seat
                # a newcomer took: it would refuse a goodbye of a non-member)
                self.links.send(peer, self._addr_of(peer), self._farewells[leaver])

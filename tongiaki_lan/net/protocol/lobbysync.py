"""Lobby coordination of NodeCore: requests applied by the coordinator, lobbies
adopted from others, members' current addresses published after a restart.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state
they share); kept apart so each concern reads on its own."""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    AddBot,
    Join,
    Leave,
    Lobby,
    Member,
    Message,
    Refuse,
    SetGuests,
)
from tongiaki_lan.net.protocol.drawsync import DEFER
from tongiaki_lan.net.protocol.proofs import lobby_signature_ok, sign_lobby
from tongiaki_lan.net.protocol.settings import SEAT_CONFIRM_S

log = logging.getLogger("tongiaki_lan.net.protocol.lobbysync")

LOBBY_LOG = 16  # lobbies kept with their place in the game, for watchers fed late
# a lobby may skip versions (a member away missed some), but not by more than a table's
# changes in a long evening: a broken laptop's version near 2**32 would freeze the lobby
MAX_LOBBY_JUMP = 1 << 16


class LobbySync:
    def _note_address(self, peer: bytes, addr: tuple) -> None:
        """A member speaks from another address than the lobby lists (it restarted on
        another port): the coordinator publishes it, so members that restarted too, and
        only know the old one, find it again."""
        lb = self.lobby
        if lb.phase == "lobby":
            return
        for m in lb.members:
            if (m.peer == peer and (m.host, m.port) != tuple(addr[:2])
                    and self.coordinator() == self.peer_id):
                members = tuple(Member(x.peer, addr[0], addr[1]) if x.peer == peer else x
                                for x in lb.members)
                self._install_lobby(dataclasses.replace(lb, version=lb.version + 1,
                                                        members=members), broadcast=True)
                return

    def _handle_request(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if self.lobby is None:
            return
        if isinstance(msg, SetGuests):  # the host's say, in any phase (`Spectators`)
            self._on_set_guests(peer, addr, msg)
            return
        if isinstance(msg, Leave) and peer != self.peer_id:
            self.presence.left(peer, self.now)
            self._emit(E.Away(peer.hex(), self.peer_name(peer), True))
        if (isinstance(msg, Join) and self.lobby.phase != "lobby"
                and not L.is_member(self.lobby, peer)):
            why = f"game {self.lobby.name!r} has already started"
            self._refuse_msg(peer, "join", why)
            self.links.send(peer, addr, Refuse(why))
            self.links.forget(peer)  # a stranger's link is not worth keeping
            return
        if isinstance(msg, AddBot) and self.lobby.phase == "playing":
            self._handover_request(peer, addr, msg)
            return
        if self.coordinator() != self.peer_id:
            if isinstance(msg, Join) and peer not in self._answered_join:
                self._answered_join.add(peer)
                self.links.send(peer, addr, self._wire_lobby())  # the joiner finds the coordinator
            return
        result = L.apply_request(self.lobby, peer, addr, msg, present=self.present(),
                                 nonce=self.entropy(8))
        if isinstance(result, str):
            if (isinstance(msg, Join) and result == L.FULL.format(name=repr(self.lobby.name))
                    and peer not in self._turned_away):
                self._turned_away.add(peer)  # (a joiner asks again and again: told once)
                bots = [s.colour for s in self.lobby.seats if s.kind == "bot"]
                if bots:
                    self._emit(E.TurnedAway(msg.name, bots))
            if peer == self.peer_id:
                self._emit(E.RequestRefused(peer.hex(), result))
            elif not isinstance(msg, Leave):
                self.links.send(peer, addr, Refuse(result))
            return
        if isinstance(msg, Join) and result is self.lobby:
            self.links.send(peer, addr, self._wire_lobby())  # a repeated join: resend it
            return
        if result is not self.lobby:
            if isinstance(msg, Join) and not L.is_member(self.lobby, peer):
                self._unconfirmed[peer] = self.now  # (until it acknowledges the lobby)
            self._install_lobby(result, broadcast=True)

    def _free_unconfirmed_seats(self) -> None:
        """The coordinator gives back a seat whose laptop never acknowledged the lobby
        that seated it within SEAT_CONFIRM_S: it gave up on its join (our answer came
        late, or was lost every time) and now sits elsewhere, and its seat would keep the
        table full, and unstarted, for ever. An acknowledgement of anything we sent it
        since confirms the seat: a laptop that holds the lobby acknowledges it at once."""
        lb = self.lobby
        for peer, since in list(self._unconfirmed.items()):
            if (lb is None or lb.phase != "lobby" or not L.is_member(lb, peer)
                    or self.links.acked_at(peer) >= since):
                del self._unconfirmed[peer]
            elif self.now - since >= SEAT_CONFIRM_S and self.coordinator() == self.peer_id:
                del self._unconfirmed[peer]
                name = self.peer_name(peer)
                freed = L.apply_request(lb, peer, ("0.0.0.0", 0), Leave(),
                                        present=self.present(), nonce=self.entropy(8))
                if isinstance(freed, str):
                    continue
                log.info("%s's seat is free again: its laptop never acknowledged the lobby "
                         "that seated it within %.0f s (it gave up waiting and went "
                         "elsewhere)", name, SEAT_CONFIRM_S)
                self.links.forget(peer)
                self.presence.left(peer, self.now)  # (as if it had said LEAVE: it did not
                self._emit(E.Away(peer.hex(), name, True,  # know it sat here)
                                  unconfirmed=True))
                self._install_lobby(freed, broadcast=True)
                lb = self.lobby

    def _install_lobby(self, new: Lobby, broadcast: bool) -> None:
        """Take `new` as our lobby: one we wrote (`broadcast`: we sign it and send it to
        every member) or one we took from another member (as its author signed it)."""
        old = self.lobby
        if broadcast:
            new = sign_lobby(self.identity, self.game_id, self.links.incarnation, new)
        self.lobby = new
        self._lobby_signed = new
        if self.game is not None:  # (where it came in the game: `Spectators._feed`)
            self._lobbies = [*self._lobbies[-(LOBBY_LOG - 1):], (len(self.game.moves), new)]
        if (self.game is not None and (old is None or old.chains != new.chains)
                and self._sync_chains()):
            self._remember_dealt()  # (a resumed record's values of those chains)
        if broadcast:
            self._broadcast(new)
        self._lobby_changed(old)

    def _on_lobby(self, peer: bytes, addr: tuple, msg: Lobby) -> None:
        # the sender's own entry carries a placeholder address: use where it came from
        # (the author's signature leaves the addresses out: `Lobby.fields_wire`)
        members = tuple(Member(m.peer, addr[0], addr[1]) if m.peer == peer else m
                        for m in msg.members)
        msg = dataclasses.replace(msg, members=members)
        if not L.is_member(msg, peer):
            self._refuse_msg(peer, "lobby", "lobby from a node that is not in it")
            return
        cur = self.lobby
        why = self._lobby_author_refused(msg, cur)
        if why:
            self._refuse_msg(peer, "lobby", why)
            return
        self.links.keys[msg.author] = msg.author_key  # (it hashes to the author's id)
        if self.watching:
            self._watch_lobby(peer, msg)
            return
        if cur is None:
            if peer not in self._joining:
                self._refuse_msg(peer, "lobby", "unsolicited lobby")
                return
        elif msg.version <= cur.version:
            if msg.version == cur.version and cur.sig:
                self._note_lobby(peer, msg)  # (two of one version by one author: a proof)
            return
        if cur is not None and msg.version > cur.version + MAX_LOBBY_JUMP:
            self._refuse_msg(peer, "lobby", f"lobby version {msg.version} jumps too far ahead "
                             f"of {cur.version}")
            return
        self._note_lobby(peer, msg)
        if cur is None or self.game is None:
            pass
        elif self._expulsion_refused(peer, cur, msg):
            self._refuse_msg(peer, "lobby", self._expulsion_refused(peer, cur, msg))
            return
        elif L.takeover_refused(cur, msg):
            self._refuse_msg(peer, "lobby", L.takeover_refused(cur, msg))
            return
        elif msg.dropped != cur.dropped:
            why = self._drops_refused(peer, cur, msg)
            if why == DEFER:  # not waited long enough here yet: look again later
                if self._deferred_lobby is None or self._deferred_lobby[2].version < msg.version:
                    self._deferred_lobby = (peer, addr, msg)
                return
            if why:
                self._refuse_msg(peer, "lobby", why)
                return
        if self.game is not None and cur is not None and msg.chains != cur.chains:
            why = self._chains_refused(peer, cur, msg)
            if why:
                self._refuse_msg(peer, "lobby", why)
                return
        if (not L.is_member(msg, self.peer_id) and not self.seated()
                and self.peer_id not in {p for p, _ in msg.expelled}):
            # not seated yet: ask the coordinator (and anyone we have not asked) for a seat
            self.lobby = None
            for m in msg.members:
                if m.peer not in self._join_sent:
                    self._join_sent.add(m.peer)
                    self._joining.add(m.peer)
                    self.links.send(m.peer, (m.host, m.port),
                                    Join(self.name, self._join_colour, self.plays))
            return
        if cur is not None:
            for m in msg.members:  # addresses the others learnt (a restarted member's)
                if m.peer != self.peer_id and m.peer != peer and m.host != "0.0.0.0":
                    old = next((x for x in cur.members if x.peer == m.peer), None)
                    if old is not None and (old.host, old.port) != (m.host, m.port):
                        self.links.try_address(m.peer, (m.host, m.port))
        self._install_lobby(msg, broadcast=False)

    def _lobby_author_refused(self, msg: Lobby, cur: Lobby | None) -> str | None:
        """A lobby counts as its author's word only: signed by a member (of ours, or of the
        lobby itself while we have none), whoever passed it on."""
        if not msg.author_key:
            return "unsigned lobby"
        if not lobby_signature_ok(self.game_id, msg):
            return "lobby: its author's signature does not hold"
        author = msg.author
        if not (L.is_member(msg, author) if cur is None else L.is_member(cur, author)
                or L.is_member(msg, author) and author not in {p for p, _ in cur.expelled}):
            return f"lobby written by {self.peer_name(author)}, who is not a member"
        return None

    def _lobby_changed(self, old: Lobby | None) -> None:
        lb = self.lobby
        self._emit(E.LobbyChanged(self.lobby_json()))
        if old is not None and self.game is not None:
            if old.expelled != lb.expelled:  # (first: its seats' handover is part of it)
                self._announce_expulsions(old, lb)
                if self.stopped:
                    return
            self._announce_handovers(old, lb)
            self._announce_takeovers(old, lb)
            if old.dropped != lb.dropped or old.chains != lb.chains:
                if old.dropped != lb.dropped:
                    self._announce_drops(old, lb)
                self._rewind_to_drops()
                if self._deal():
                    self._after_reveals()
                    return
        if self.watching:
            return  # (a watcher has no part in the start, and decides nothing)
        if lb.phase == "starting" and (self._round is None or self._round.nonce != lb.start_nonce):
            self._begin_seed_round()
        if lb.phase == "lobby" and self._round is not None:
            self._round = None
        if self.coordinator() == self.peer_id and L.should_autostart(lb):
            self._install_lobby(L.start(lb, self.entropy(8)), broadcast=True)
        if self.game is not None:
            self._after_state_change()


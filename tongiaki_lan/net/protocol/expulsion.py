"""Expel and play on (protocol/security.md, "Proof of misbehaviour" and "Expelled"): a
member proven to have sent what no honest laptop sends is expelled by the others, its
seats played by the table's bot, and the game goes on.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state they
share); kept apart so each concern reads on its own. The statements and the proof check
are pure and live in `net.protocol.proofs`.

How it goes:
1. A node that meets a proof — a signed move the rules refuse (`_refused_move_proof`), or
   a member's statement that contradicts another of the same run (`_note_statement`) —
   keeps it and sends it to every member but the accused (PROOF). A member checks a
   PROOF with the accused's key and its own game alone, keeps it, and sends its own copy
   on: so each member learns who holds one.
2. The coordinator (the first present member in join order, the accused left out) expels
   once a majority of the seated laptops hold a proof (at a table of three: both others;
   at two: the one other, alone — a proof needs no vote, and the only one who could
   disagree is the accused): a LOBBY whose `expelled` names the member and the move index
   `E` from which the table's bot plays its seats, which hands those seats to the table's
   bot, drops it from the members and leaves its chain out of every draw from the first
   one dealt at or after `E`. It also sends the accused the proof and that lobby.
3. Every member takes such a lobby only if it holds a valid proof against the member
   itself (a lobby that expels without one is refused, naming its sender: nobody is
   expelled on someone's word). It then takes back any move from `E` on that the expelled
   member signed (the bot decides those again) and any draw dealt with its value from
   then on, and plays on.
4. The expelled laptop checks the proof against itself like anyone, and stops: its record
   is cut back to `E`, so it holds the table's game up to its expulsion. It may watch.
"""

from __future__ import annotations

import dataclasses
import logging

from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    PROOF_REFUSED_MOVE,
    PROOF_TWO_LOBBIES,
    PROOF_TWO_MOVES,
    Lobby,
    MoveStatement,
    Proof,
)
from tongiaki_lan.net.protocol.identity import peer_id_of
from tongiaki_lan.net.protocol.proofs import (
    KIND_NAMES,
    check_proof,
    contradiction,
    describe,
    lobby_statement,
    proof_index,
)

log = logging.getLogger("tongiaki_lan.net.protocol.expulsion")

STATEMENTS_KEPT = 64  # move statements kept per signer (by index), to catch contradictions
PENDING_PROOFS = 16  # refused-move proofs kept until this node's game reaches their move
TELL_EXPELLED_S = 5.0  # an expelled member that still talks is told again this often


def quorum(seated: int) -> int:
    """How many seated laptops must hold a proof before the table expels: a majority; at
    a table of two, the one that is not accused."""
    return 1 if seated <= 2 else seated // 2 + 1


class Expulsions:
    def _reset_expulsions(self) -> None:
        self._proofs: dict[bytes, Proof] = {}  # accused member -> the proof we hold
        self._proof_from: dict[bytes, set[bytes]] = {}  # accused -> members that sent one
        self._statements: dict[bytes, dict[int, MoveStatement]] = {}  # signer -> index -> st
        # (author, run, version) -> that lobby's statement, as first seen
        self._lobby_statements: dict[tuple[bytes, int, int], tuple] = {}
        self._pending_proofs: list[tuple[bytes, Proof]] = []
        self._against_me: Proof | None = None  # a valid proof against this laptop
        self._told_expelled: dict[bytes, float] = {}

    # ------------------------------------------------------------------ views

    def _key_of(self, peer: bytes) -> bytes | None:
        """A member's Ed25519 key, as its signed datagrams (or a lobby it wrote) showed."""
        if peer == self.peer_id:
            return self.identity.public
        return self.links.keys.get(peer)

    def _proven(self, peer: bytes) -> bool:
        """Do we hold a proof against `peer`? Its word then counts for nothing here."""
        return peer in self._proofs

    def _expelled_from(self, peer: bytes) -> int | None:
        """The move index from which the table's bot plays `peer`'s seats (None: it was
        not expelled)."""
        if self.lobby is None:
            return None
        for p, first in self.lobby.expelled:
            if p == peer:
                return first
        return None

    def proof_against(self, peer: bytes) -> Proof | None:
        """The proof this node holds against `peer` (against this laptop: the one it was
        expelled on), for the record (`protocol/record.md`, `expelled`)."""
        return self._against_me if peer == self.peer_id else self._proofs.get(peer)

    def expelled_peers(self) -> set[bytes]:
        return {p for p, _ in self.lobby.expelled} if self.lobby is not None else set()

    # ------------------------------------------------------------------ finding proofs

    def _note_statement(self, signer: bytes, st: MoveStatement) -> bool:
        """A move statement said to be `signer`'s: compared with what it signed before for
        the same move index or the ones beside it. True when the two cannot both be true
        and both signatures hold (checked only then: most moves contradict nothing): a
        proof, now held."""
        if signer == self.peer_id or self.game is None:
            return False
        known = self._statements.setdefault(signer, {})
        for j in (st.index, st.index - 1, st.index + 1):
            others = [known.get(j)]
            stamp = self._stamps.get(j)
            if stamp is not None and stamp.signer == signer and j < len(self._digest_list):
                others.append(MoveStatement(stamp.inc, j, self.digest_before(j),
                                            self.game.moves[j].to_wire(),
                                            self._digest_list[j], stamp.sig))
            for other in others:
                if other is None or other == st or not contradiction(other, st):
                    continue
                if not self._statement_ok(signer, other):
                    if known.get(j) is other:  # (kept unchecked, and no statement: forget)
                        del known[j]
                    continue
                if self._statement_ok(signer, st):
                    key = self._key_of(signer)
                    first, second = (other, st) if other.index <= st.index else (st, other)
                    self._hold_proof(Proof(PROOF_TWO_MOVES, signer, key, first, second), None)
                    return True
        if st.index not in known:
            known[st.index] = st
            if len(known) > STATEMENTS_KEPT:
                del known[min(known)]
        return False

    def _refused_move_proof(self, signer: bytes, st: MoveStatement) -> None:
        """`signer` signed a move for our game's state that the rules refuse, or that does
        not give the state it claims."""
        key = self._key_of(signer)
        if key is not None and signer != self.peer_id:  # (its signature checked: `_as_proof`)
            self._hold_proof(Proof(PROOF_REFUSED_MOVE, signer, key, st, None), None)

    def _note_lobby(self, sender: bytes, lobby: Lobby) -> bool:
        """A signed lobby (checked by the caller): two of one version from one run of their
        author cannot both be its word. True when this one makes a proof."""
        author = lobby.author
        if not author or author == self.peer_id:
            return False
        st = lobby_statement(lobby)
        key = (author, lobby.inc, lobby.version)
        seen = self._lobby_statements.get(key)
        if seen is None:
            if len(self._lobby_statements) > 256:
                self._lobby_statements.clear()
            self._lobby_statements[key] = (st, lobby.author_key)
            return False
        if seen[0].body_hash == st.body_hash:
            return False
        self._hold_proof(Proof(PROOF_TWO_LOBBIES, author, lobby.author_key, seen[0], st), None)
        return True

    # ------------------------------------------------------------------ holding and passing on

    def _hold_proof(self, proof: Proof, sender: bytes | None) -> None:
        """Keep a proof (checked), tell every member but the accused once, and see whether
        the table can expel. `sender`: the member that sent it (it holds one too)."""
        accused = proof.accused
        lb = self.lobby
        if accused == self.peer_id:
            if self._against_me is None:
                self._against_me = proof
                log.warning("the table holds a proof against this laptop: it sent %s",
                            describe(proof))
            return
        if lb is None or self.watching or not (L.is_member(lb, accused)
                                               or accused in self.expelled_peers()):
            return
        if sender is not None:
            self._proof_from.setdefault(accused, set()).add(sender)
        held = self._proofs.get(accused)
        if held is None or _earlier(proof, held):
            self._proofs[accused] = proof
            name = self.peer_name(accused)
            log.warning("proof that %s sent %s", name, describe(proof))
            if held is None:
                self._emit(E.ProofHeld(accused.hex(), name, KIND_NAMES[proof.kind],
                                       describe(proof),
                                       len(self.game.moves) if self.game is not None else 0))
            for peer in self._recipients():
                if peer != accused:
                    self.links.send(peer, self._addr_of(peer), proof)
        self._maybe_expel()

    def _on_proof(self, peer: bytes, msg: Proof) -> None:
        """A member passes a proof on: checked with the accused's key and our own game."""
        lb, g = self.lobby, self.game
        if self.watching and peer == self.feeder and lb is not None:
            # the proof behind an expulsion in the lobby we are fed: checked, then kept
            # for the screen only (a watcher is member of nothing: it decides nothing)
            why = check_proof(msg, self.game_id, self._state_at)
            if why is None or (msg.kind == PROOF_REFUSED_MOVE and peer_id_matches(msg) and (
                    g is None or msg.first.index > len(g.moves))):  # (not checkable yet)
                self._proofs.setdefault(msg.accused, msg)
            else:
                self._refuse_msg(peer, "proof", why)
            return
        if lb is None or g is None or self.watching or not L.is_member(lb, peer):
            return
        why = check_proof(msg, self.game_id, self._state_at)
        if why is not None and msg.kind == PROOF_REFUSED_MOVE and msg.first.index > len(
                g.moves) and peer_id_matches(msg):
            # our game has not reached that move yet: checked when it has
            if len(self._pending_proofs) < PENDING_PROOFS:
                self._pending_proofs.append((peer, msg))
            return
        if why is not None:
            self._refuse_msg(peer, "proof", why)
            return
        self.links.keys.setdefault(msg.accused, msg.public)
        self._hold_proof(msg, peer)

    def _recheck_pending(self) -> None:
        pending, self._pending_proofs = self._pending_proofs, []
        for peer, msg in pending:
            if msg.first.index > len(self.game.moves):
                self._pending_proofs.append((peer, msg))
            else:
                self._on_proof(peer, msg)

    # ------------------------------------------------------------------ expelling

    def _maybe_expel(self) -> None:
        """The coordinator expels a proven member once enough seated laptops hold a proof
        (`quorum`); every node calls it, the coordinator acts."""
        lb, g = self.lobby, self.game
        if (lb is None or g is None or g.is_over or self.stopped or self.watching
                or self._waking is not None or not self._proofs
                or self.coordinator() != self.peer_id):
            return
        seated = [m.peer for m in lb.members if not self.left_for_good(m.peer)]
        expelled = dict(lb.expelled)
        for accused in sorted(self._proofs):
            proof = self._proofs[accused]
            if accused in expelled:
                # a proof of two moves found later, below the move it was expelled from:
                # members followed either of those two moves, so both are taken back
                if proof.kind == PROOF_TWO_MOVES and proof_index(proof) < expelled[accused]:
                    self._expel(accused)
                    lb = self.lobby
                continue
            if not L.is_member(lb, accused) or len(lb.expelled) >= len(lb.members) - 1:
                continue
            holders = ({self.peer_id} | self._proof_from.get(accused, set())) & (
                set(seated) - {accused})
            if len(holders) < quorum(len(seated)):
                continue
            self._expel(accused)
            lb = self.lobby

    def _expel(self, accused: bytes) -> None:
        """The lobby that expels `accused` (or moves its expulsion earlier, to the move of
        a proof of two moves found since)."""
        lb, g = self.lobby, self.game
        proof = self._proofs[accused]
        first = len(g.moves)
        if proof.kind == PROOF_TWO_MOVES:
            # members may have followed either of its two moves: both are taken back
            first = min(first, proof_index(proof))
        before = dict(lb.expelled).get(accused)
        if before is not None:
            first = min(first, before)
        seats = tuple(dataclasses.replace(s, bot=s.bot or self.handover_bot)
                      if s.kind == "human" and s.owner == accused else s for s in lb.seats)
        dropped = dict(lb.dropped)
        i = self._index_of(accused)
        k = sum(1 for j in self._proof_of if j < first)
        if i is not None and (i in dropped and before is not None and dropped[i] > k
                              or i not in dropped and len(dropped) + 1 < len(self.contributors)):
            dropped[i] = k  # (its draws from then on: void, as its moves)
        new = dataclasses.replace(
            lb, version=lb.version + 1, seats=seats,
            members=tuple(m for m in lb.members if m.peer != accused),
            dropped=tuple(sorted(dropped.items())),
            expelled=tuple(sorted({**dict(lb.expelled), accused: first}.items())))
        log.warning("expelling %s from move %d on: it sent %s", self.peer_name(accused), first,
                    describe(proof))
        self._install_lobby(new, broadcast=True)
        self._tell_expelled(accused)

    def _tell_expelled(self, peer: bytes) -> None:
        """The expelled laptop gets the proof and the lobby that expels it (again, at most
        every few seconds, while it talks to us)."""
        proof = self._proofs.get(peer)
        addr = self._addr_of(peer) or next(
            ((m.host, m.port) for m in self._members_before(peer)), None)
        if proof is None or addr is None:
            return
        self._told_expelled[peer] = self.now
        self.links.send(peer, addr, proof)
        self.links.send(peer, addr, self._wire_lobby())

    def _members_before(self, peer: bytes):
        return [m for _, lb in self._lobbies for m in lb.members
                if m.peer == peer and m.host != "0.0.0.0"]

    def _on_expelled_message(self, peer: bytes, addr: tuple) -> None:
        """An expelled member still talks (it missed the lobby): it is told again."""
        if self.now - self._told_expelled.get(peer, -1e9) >= TELL_EXPELLED_S:
            self._told_expelled[peer] = self.now
            proof = self._proofs.get(peer)
            if proof is not None:
                self.links.send(peer, addr, proof)
                self.links.send(peer, addr, self._wire_lobby())

    def _expulsion_refused(self, peer: bytes, cur: Lobby, new: Lobby) -> str | None:
        """Whether to take a lobby that expels someone: only on a proof this node holds
        (against us: one we checked ourselves); an expulsion is never undone nor moved
        later."""
        old = dict(cur.expelled)
        now = dict(new.expelled)
        for p, first in old.items():
            if p not in now:
                return f"it takes {self.peer_name(p)} back after its expulsion"
            if now[p] > first:
                return f"it moves {self.peer_name(p)}'s expulsion later"
        for p, first in now.items():
            if old.get(p) == first:
                continue
            if p == self.peer_id:
                if self._against_me is None:
                    return "it expels this laptop without a proof this laptop could check"
            elif p not in self._proofs:
                return (f"it expels {self.peer_name(p)} without a proof this node holds "
                        "(nobody is expelled on someone's word)")
        return None

    def _announce_expulsions(self, old: Lobby, new: Lobby) -> None:
        """Each expulsion the lobby adds: told, and what the expelled member signed from
        its move on taken back (the table's bot decides those again)."""
        before = dict(old.expelled)
        for p, first in new.expelled:
            if before.get(p) == first:
                continue
            proof = self._proofs.get(p) if p != self.peer_id else self._against_me
            name = self.peer_name(p)
            seats = [i for i, s in enumerate(new.seats) if s.owner == p]
            bot = next((new.seats[i].bot for i in seats if new.seats[i].bot), self.handover_bot)
            kind = KIND_NAMES[proof.kind] if proof is not None else ""
            detail = describe(proof) if proof is not None else ""
            you = p == self.peer_id
            if you and self.watching:
                continue  # (expelled earlier, and watching the game since: old news)
            g = self.game
            self._emit(E.Expelled(p.hex(), name, seats, first, kind, detail, bot,
                                  len(g.moves) if g is not None else 0, you,
                                  p in before))
            if you:
                self._expelled_here(first, detail)
                return
            log.info("%s is expelled from the table: the table's bot (%s) plays its seats "
                     "from move %d on", name, bot, first)
            if g is None:
                continue
            undo = [i for i, st in self._stamps.items() if i >= first and st.signer == p]
            undo += [i for i in range(first, len(g.moves))
                     if i not in self._stamps and self._movers.get(i) in seats]
            if undo:
                self._take_back_to(min(undo), f"{name} was expelled from move {first} on",
                                   expelled=name)

    def _told_expelled_before(self, lb: Lobby) -> None:
        """A watcher that comes after an expulsion is told of it too (its first lobby
        already lists it; the feeder sent the proof before it): the panel alone showed
        the seat as a bot's, with no word why."""
        for p, first in lb.expelled:
            if p == self.peer_id:
                continue
            proof = self._proofs.get(p)
            seats = [i for i, s in enumerate(lb.seats) if s.owner == p]
            bot = next((lb.seats[i].bot for i in seats if lb.seats[i].bot), self.handover_bot)
            self._emit(E.Expelled(p.hex(), self.peer_name(p), seats, first,
                                  KIND_NAMES[proof.kind] if proof is not None else "",
                                  describe(proof) if proof is not None else "", bot, 0))

    def _expelled_here(self, first: int, detail: str) -> None:
        """This laptop was expelled: its record keeps the table's game up to `first`, and
        it stops (it may watch)."""
        g = self.game
        if g is not None and len(g.moves) > first:
            self._take_back_to(first, "this laptop was expelled", expelled=self.name)
        reason = (f"this laptop was expelled from the table: the others hold a proof, signed "
                  f"with its key, that it sent {detail or 'what no honest laptop sends'} "
                  "(a broken or modified copy of the program?). The table's bot plays its "
                  f"seat from move {first} on; this laptop may watch the game")
        if not self.stopped:
            self.stopped = reason
            log.warning("%s", reason)

    def _expulsion_tick(self) -> None:
        if self._pending_proofs and self.game is not None:
            self._recheck_pending()
        self._maybe_expel()


def peer_id_matches(proof: Proof) -> bool:
    return peer_id_of(proof.public) == proof.accused


def _earlier(a: Proof, b: Proof) -> bool:
    """Is proof `a` about an earlier move than `b` (so the table takes back less)? Lobby
    proofs name no move."""
    ia, ib = proof_index(a), proof_index(b)
    if a.kind == PROOF_TWO_LOBBIES or ia is None:
        return False
    if b.kind == PROOF_TWO_LOBBIES or ib is None:
        return a.kind == PROOF_TWO_MOVES
    return a.kind == PROOF_TWO_MOVES and (b.kind != PROOF_TWO_MOVES or ia < ib)

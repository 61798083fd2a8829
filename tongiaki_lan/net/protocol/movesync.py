"""Move sync of NodeCore: play and check moves, deal reveals from the seed, keep
moves that came early, fetch what is missing, stop on a differing digest.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state
they share); kept apart so each concern reads on its own."""

from __future__ import annotations

import dataclasses
import hashlib
import logging

import msgpack

from tongiaki_lan.draws import Chain, preimage_ok
from tongiaki_lan.engine import Game, IllegalMove, Move, move_from_wire
from tongiaki_lan.engine.variant import winner_labels, with_variant
from tongiaki_lan.i18n import N_
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    Draw,
    Fetch,
    Log,
    MoveMsg,
    MoveStatement,
    Stamp,
    entry_parts,
)
from tongiaki_lan.net.protocol.drawsync import WAITING
from tongiaki_lan.net.protocol.handover import handed
from tongiaki_lan.net.protocol.proofs import move_signature_ok, refused_why, sign_move
from tongiaki_lan.net.protocol.settings import (
    FETCH_RETRY_S,
    FORK_GRACE_S,
    LOG_CHUNK_BYTES,
    PREV_MOVES,
)

log = logging.getLogger("tongiaki_lan.net.protocol.movesync")


def bot_seed(seed: bytes, seat: int, index: int) -> int:
    """A bot's randomness for one decision, fixed by the game: whichever node drives the
    seat computes the same move, so a hand-over between drivers can never fork the game."""
    h = hashlib.blake2b(seed + bytes([seat]) + index.to_bytes(4, "big"), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def log_chunks(entry, total: int, start: int, max_chunks: int = 32):
    """LOG messages holding moves start.. in order (`entry(i)` as `DrawSync._entry`),
    each under LOG_CHUNK_BYTES."""
    i = start
    sent = 0
    while i < total and sent < max_chunks:
        entries, size = [], 0
        while i < total:
            e = entry(i)
            wire, _, values, stamp = entry_parts(e)
            sz = (len(msgpack.packb(wire)) + 36 + (36 * len(values) if values else 0)
                  + (85 if stamp is not None else 0))
            if entries and size + sz > LOG_CHUNK_BYTES:
                break
            entries.append(e)
            size += sz
            i += 1
        yield Log(i - len(entries), total, tuple(entries))
        sent += 1

# Why a typed move is not sent: shown translated by the console (net.lobby.REFUSALS).
NO_GAME = N_("no game in progress")
STOPPED = N_("game stopped: {reason}")
REVEALING = N_("a tile is being revealed")
BOT_PLAYS_YOURS = N_("a bot plays your seat until the others see you are back")
# (a seat handed because its player did not play: nobody waits for them to be seen back)
BOT_PLAYS_IDLE = N_("a bot plays your seat since you did not play: resume plays it again")
BOT_ENDS_ITS_DECISION = N_("you asked for your seat back: the bot makes this decision, the "
                           "next is yours")
NOT_YOURS = N_("it is {name}'s decision, not yours")
WAKING = N_("asking the table what happened while this computer was away")
REFUSALS = (NO_GAME, STOPPED, REVEALING, BOT_PLAYS_YOURS, NOT_YOURS, WAKING, BOT_PLAYS_IDLE,
            BOT_ENDS_ITS_DECISION)


class MoveSync:
    def send_move(self, move: Move, now: float) -> None:
        """Play a move for a seat of this node. Raises IllegalMove / ValueError as the engine
        does; nothing is sent then."""
        self.now = now
        # (keys typed at a frozen screen come first on the thaw, before any datagram or
        # timer shows the jump: a playtest's move was played, dealt and struck at once)
        self._check_wake(now)
        if self.game is None or self.game.is_over:
            raise ValueError(NO_GAME)
        if self.stopped:
            raise ValueError(STOPPED.format(reason=self.stopped))
        if self._waking is not None:
            raise ValueError(WAKING)
        d = self.game.pending
        if d is None or d.seat is None:
            raise ValueError(REVEALING)
        seat = self.lobby.seats[d.seat]
        if self._driver(d.seat) != self.peer_id:
            if handed(seat) and seat.owner == self.peer_id and self._asked_back:
                raise ValueError(BOT_ENDS_ITS_DECISION)
            if handed(seat) and seat.owner == self.peer_id and self.peer_id in self._idle_handed:
                raise ValueError(BOT_PLAYS_IDLE)  # (a typed move read "until the others see
                # you are back" to a player who had been at the table all along)
            if handed(seat) and seat.owner == self.peer_id:
                raise ValueError(BOT_PLAYS_YOURS)
            raise ValueError(NOT_YOURS.format(name=seat.name))
        self._play_local(move)

    def bot_move(self, index: int, move: Move, now: float) -> None:
        """The move a `BotTurn` asked for; ignored if the game moved on meanwhile."""
        self.now = now
        self._check_wake(now)  # (a bot that thought across a sleep: the table first)
        if self.game is None or len(self.game.moves) != index or self.stopped:
            return
        if self._waking is not None or self._thinking != index:
            if self._waking is not None:
                self._thinking = None  # asked again once the table has answered
            return  # (asked before a sleep or a rewind: the table may have moved on)
        if self._thinking == index:
            self._thinking = None
        d = self.game.pending
        if d is None or d.seat is None or self._driver(d.seat) != self.peer_id:
            return  # (the seat changed hands while the bot thought: a newcomer plays it)
        try:
            self._play_local(move)
        except (IllegalMove, ValueError) as exc:
            self._emit(E.Error(f"bot chose an illegal move: {exc}"))

    def _begin_game(self, seed: bytes, contributors: list[bytes], heads: tuple[bytes, ...],
                    chain: Chain) -> None:
        lb = self.lobby
        self.seed = seed
        self.game = with_variant(Game([s.colour for s in lb.seats]), lb.variant)
        self._setup_draws(contributors, heads, chain)
        self.lobby = dataclasses.replace(lb, phase="playing")
        self._emit(E.GameStarted(seed.hex(), self._seat_json(), False, 0))
        self._deal()
        self._replay_early_draws()
        if self.coordinator() == self.peer_id:
            self._install_lobby(dataclasses.replace(self.lobby, version=lb.version + 1),
                                broadcast=True)
        self._drain_buffer()
        self._after_state_change()

    def _after_state_change(self) -> None:
        """Called after anything that might make this node the one to move."""
        g = self.game
        if (g is None or self.stopped or self.closing or g.is_over or self._waking is not None
                or self.watching):
            return  # (just awake: nothing is decided before the table has answered)
        d = g.pending
        if d is None or d.seat is None:  # a reveal: the dealer's, never a seat's
            return
        seat = self.lobby.seats[d.seat]
        idx = len(g.moves)
        if self._driver(d.seat) != self.peer_id:
            self._note_waiting(d.seat)
            return
        if self._catch_up():  # the table went on without us (a cut, a handover): never
            return  # play a decision it has already taken
        if seat.kind == "bot" or handed(seat):
            kind = seat.bot
        elif not self.autoplay:
            if self._your_turn != idx:
                self._your_turn = idx
                self._emit(E.YourTurn(idx, d.seat, d.kind))
            return
        else:
            kind = self.autoplay
        if self._thinking == idx:
            return
        self._thinking = idx
        self._emit(E.BotTurn(d.seat, idx, kind, bot_seed(self.seed, d.seat, idx)))

    def _catch_up(self) -> bool:
        """Fetch from a member we hear that has more moves than we do; True if one has."""
        n = len(self.game.moves)
        present, dropped = self.present(), self.dropped_peers()
        ahead = [p for p, k in self._progress.items()
                 if k > n and p in present and p not in dropped and not self._proven(p)]
        if ahead:
            # (a member whose log we refused lately is asked last: a broken laptop's
            # word on how far the game is holds nothing up for long — its next
            # heartbeat says again)
            ahead.sort(key=lambda p: self.now - self._distrusted.get(p, -1e9) < 5.0)
            self._fetch(ahead[0], n)
        return bool(ahead)

    def _note_waiting(self, seat: int) -> None:
        s = self.lobby.seats[seat]
        if (s.kind == "human" and not handed(s) and self.presence.is_absent(s.owner)
                and not self.plays_through_others(s.owner)):
            # (one heard through the others plays: nothing waits for them to come back)
            idx = len(self.game.moves)
            if self._waiting_noted != idx:
                self._waiting_noted = idx
                self._emit(E.Waiting(seat, s.name, self.not_playing(s.owner)))

    def _play_local(self, move: Move) -> None:
        g = self.game
        idx = len(g.moves)
        seat = g.pending.seat
        start = len(g.events)
        before = self.digest_before(idx)
        g.apply(move)  # raises on an illegal move; nothing sent then
        digest = g.digest()
        self._digest_list.append(digest)
        wire = move.to_wire()
        # signed as a statement of its own: passed on by anyone, it stays our word
        inc = self.links.incarnation
        sig = sign_move(self.identity, self.game_id, inc, idx, before, digest, wire)
        self._stamps[idx] = Stamp(self.peer_id, inc, sig)
        self._movers[idx] = seat
        s = self.lobby.seats[seat] if seat is not None else None  # (another's human seat
        # played here: as the bot that drives it while they are away)
        by_bot = s is not None and s.kind == "human" and s.owner != self.peer_id
        self._emit(E.RecordMove(idx, move, digest, seat=seat, by_bot=by_bot))
        self.move_times[idx] = self.sent_at[idx] = self.now
        self._broadcast_move(idx, wire, digest, before, sig)
        self._applied(idx, seat, move, by=self.peer_id, by_bot=by_bot, events_from=start)

    def digest_before(self, index: int) -> bytes | None:
        """The state digest after the game's first `index` moves (before move `index`),
        as this node has it; None beyond its game."""
        if index == 0:
            if self._initial_digest is None and self.game is not None:
                fresh = Game(self.game.colours)
                fresh.owners = self.game.owners  # (the table variant)
                self._initial_digest = fresh.digest()
            return self._initial_digest
        if 0 < index <= len(self._digest_list):
            return self._digest_list[index - 1]
        return None

    def _state_at(self, index: int) -> Game | None:
        """A copy of this node's game after its first `index` moves (None beyond it): what
        a proof of a refused move is checked against."""
        g = self.game
        if g is None or index > len(g.moves):
            return None
        fresh = Game(g.colours)
        fresh.owners = g.owners
        for m in g.moves[:index]:
            fresh.apply(m)
        return fresh

    def _statement_of(self, index: int) -> MoveStatement | None:
        """The statement behind move `index` of our game, if we know who signed it (and its
        signature holds: checked here the first time it matters, `_stamp_ok`)."""
        if not self._stamp_ok(index):
            return None
        stamp = self._stamps[index]
        return MoveStatement(stamp.inc, index, self.digest_before(index),
                             self.game.moves[index].to_wire(), self._digest_list[index],
                             stamp.sig)

    def _stamp_ok(self, index: int) -> bool:
        """Whether we hold a valid stamp for move `index`. A MOVE that was legal and gave
        the state it claimed is applied without checking its own signature (its datagram
        came from its sender all the same: a check on every move cost the table a third of
        a millisecond a move), so its stamp is checked when it is first needed — passed on,
        or compared as evidence — and dropped if it does not hold."""
        stamp = self._stamps.get(index)
        if stamp is None or index >= len(self._digest_list):
            return False
        if index in self._unchecked:
            self._unchecked.discard(index)
            key = self._key_of(stamp.signer)
            if key is None or not move_signature_ok(
                    key, self.game_id, stamp.signer, stamp.inc, index,
                    self.digest_before(index), self._digest_list[index],
                    self.game.moves[index].to_wire(), stamp.sig):
                del self._stamps[index]
                return False
        return True

    def _as_proof(self, signer: bytes | None, st: MoveStatement | None) -> str:
        """A move the rules refuse, or that does not give the state it claims: a proof
        against its signer when its signature holds (`Expulsions`); what to add to the
        refusal's words either way."""
        if st is None:
            return ""
        if not self._statement_ok(signer, st):
            return " (its signature does not hold: it proves nothing, and stops nothing)"
        self._refused_move_proof(signer, st)
        return f" (signed by {self.peer_name(signer)}: a proof that its laptop is broken)"

    def _statement_ok(self, signer: bytes, st: MoveStatement) -> bool:
        key = self._key_of(signer)
        return key is not None and move_signature_ok(key, self.game_id, signer, st.inc,
                                                     st.index, st.before, st.after, st.move,
                                                     st.sig)

    def _broadcast_move(self, idx: int, wire: list, digest: bytes, before: bytes,
                        sig: bytes) -> None:
        """MOVE to every member; to a peer over a lossy link with the moves before it
        (`prev`), so one lost datagram does not hold it up. A clean link gets the move
        alone: repeating the last moves there only costs both ends time on every move."""
        bare = MoveMsg(idx, wire, digest, (), before, sig)
        full = None
        for peer in self._recipients():
            lk = self.links.links.get(peer)
            msg = bare
            if lk is None or lk.copies() > 1 or self.presence.is_away(peer):
                if full is None:
                    full = MoveMsg(idx, wire, digest, tuple(
                        self._entry(i) for i in range(max(0, idx - PREV_MOVES), idx)),
                        before, sig)
                msg = full
            self.links.send(peer, self._addr_of(peer), msg)

    def _applied(self, idx: int, seat: int, move: Move, by: bytes,
                 by_bot: bool | None = None, events_from: int = -1) -> None:
        s = self.lobby.seats[seat]
        self._gatherer = by  # (the draws this move calls for: see DrawSync._send_value)
        if s.kind == "human" and not handed(s) and by != s.owner:
            self._seen_through_others(s.owner)  # (its own move, passed on by `by`)
        self._emit(E.MoveApplied(idx, seat, s.colour, s.name, str(move), by.hex(), by_bot,
                                 events_from))
        self._deal()
        if self.game.is_over:
            self._game_over()
        else:
            self._after_state_change()

    def _game_over(self) -> None:
        self._broadcast(self._heartbeat())  # tell everyone at once that we are done
        g = self.game
        winners = g.winners() if g.owners is None else winner_labels(g)  # V1: "blue+green"
        self._emit(E.GameOver(g.digest().hex(), g.scores(), winners, len(g.moves)))

    def _stop(self, reason: str) -> None:
        """Our state differs from a peer's: stop playing (the glue keeps the evidence)."""
        if self.stopped:
            return
        self.stopped = reason
        log.info("game stopped: %s", reason)  # the Mismatch event tells the player
        self._emit(E.Mismatch(reason))

    def dump_lines(self) -> list[str]:
        """What a stopped game leaves next to its record, to compare with a peer's."""
        lines = [f"game {self.game_id.hex()} stopped: {self.stopped}",
                 f"seed {self.seed.hex() if self.seed else '-'}"]
        if self.game is not None:
            lines += [f"{i:4d} {m}" for i, m in enumerate(self.game.moves)]
            lines.append(f"digest after last move {self.game.digest().hex()}")
        return lines

    def _on_early_move(self, peer: bytes, addr: tuple, msg: MoveMsg | Draw) -> None:
        """A MOVE or DRAW that overtook an earlier message of its link (that one was lost):
        use it now rather than after the resend. The in-order copy later finds it used."""
        if self.closing or self.game is None or self.lobby is None:
            return
        if not L.is_member(self.lobby, peer):
            return
        if isinstance(msg, Draw):  # values prove themselves and may come in any order
            self._on_message(peer, addr, msg)
        elif msg.index >= len(self.game.moves):
            self._on_message(peer, addr, msg, early=True)

    def _on_move(self, peer: bytes, msg: MoveMsg, early: bool = False) -> None:
        g = self.game
        if g is None:
            if self.lobby is not None and self.lobby.phase in ("starting", "playing"):
                self._keep(peer, msg)  # overtook the last reveal: keep it for later
                return
            self._refuse_msg(peer, f"move {msg.index}", "no game in progress here")
            return
        st = self._move_statement(peer, msg)  # (its signature checked when it matters)
        # (one that contradicts what the same laptop signed before is a proof, kept: the
        # move itself is still taken if it is the game's, as its sender's other one was not)
        self._note_statement(peer, st)
        n = len(g.moves)
        self._progress[peer] = max(self._progress.get(peer, 0), msg.index + 1)
        k = self._first_difference(msg)
        if k is None and msg.index <= n and msg.index > 0 and msg.before != self.digest_before(
                msg.index):
            k = msg.index - 1  # its state before the move is not ours
        if k is not None:
            if self._may_have_forked(peer):
                self._keep(peer, msg)  # kept for after we took back what the table never saw
            else:
                self._refuse_msg(peer, f"move {msg.index}", "its sender's state before it "
                                 "is not this game's (a game of its own, or a broken "
                                 "laptop): its signed log is asked for, to see where")
            self._game_forked(peer, k, f"their state after move {k} differs from ours",
                              claim=True)
            return
        if msg.index < n:
            if g.moves[msg.index].to_wire() != msg.move:
                # refused only: one MOVE is no proof of a fork (a member may send anything);
                # the state digests of heartbeats and LOGs are compared for that
                self._refuse_msg(peer, f"move {msg.index}",
                                 f"conflicts with the move already played ({g.moves[msg.index]})")
            return
        start = msg.index - len(msg.prev)
        if msg.index > n and start <= n:  # the moves we missed ride along: relayed moves,
            for k, entry in enumerate(msg.prev):  # checked like a LOG's
                if start + k < len(g.moves):
                    continue
                why = self._check_entry(peer, entry)
                if why == WAITING:
                    break
                if why:
                    self._refuse_msg(peer, f"move {start + k}", why)
                    return
            self._drain_buffer()
            n = len(g.moves)
            if msg.index < n:
                return
        if msg.index > n:
            if not early:
                self._keep(peer, msg)
                self._fetch(peer, n)
            return
        why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True, statement=st)
        if why == WAITING:
            self._keep(peer, msg)
        elif why:
            self._refuse_msg(peer, f"move {msg.index}", why)
        self._drain_buffer()

    def _move_statement(self, peer: bytes, msg: MoveMsg) -> MoveStatement:
        """The statement a MOVE carries, as its sender's current run: its signature is
        not checked here, only where it is evidence (`_statement_ok`)."""
        return MoveStatement(self._run_of(peer), msg.index, msg.before, msg.move, msg.digest,
                             msg.sig)

    def _check_entry(self, peer: bytes, entry: tuple) -> str | None:
        """A move that rides in a LOG or a MOVE's `prev`, at our next index."""
        wire, digest, values, stamp = entry_parts(entry)
        return self._check_and_apply(peer, wire, digest, values, check_sender=False,
                                     stamp=stamp)

    def _may_have_forked(self, peer: bytes) -> bool:
        """Were we cut off from `peer` (or down) until a moment ago? Then the table may
        have left a draw value of ours out while we dealt with it, and its lobby, on its
        way, takes our moves back: a differing state is held for FORK_GRACE_S rather than
        taken for a fork that stops the game."""
        since = max(self._back_at.get(peer, -1e9),
                    self._resumed_at if self._resumed_at is not None else -1e9,
                    # (a tile dealt with a late value, or a drop of one: the two sides'
                    # lobbies settle which counts, and one of them rewinds)
                    self._late_deal_at, self._dropped_at, self._unheard_at,
                    # (alone until a moment ago: a move we played as the cut began never
                    # reached the table, and the first we hear of it may come before any
                    # member counts as back: a laptop stopped the game at once)
                    self._alone_seen_at)
        return self.now - since <= FORK_GRACE_S

    def _first_difference(self, msg: MoveMsg) -> int | None:
        """The first move this MOVE repeats after which its sender's state differs from
        ours: their game went another way (a partition, or a node cut off while the table
        left its draw value out — then the coming lobby makes one side take moves back)."""
        start = msg.index - len(msg.prev)
        for k, e in enumerate(msg.prev):
            if 0 <= start + k < len(self._digest_list) and e[1] != self._digest_list[start + k]:
                return start + k
        return None

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
            if all(self._first_difference(msg) is not None for _, msg in slot):
                self._buffer[n] = slot
                return
            for peer, msg in slot:
                if len(self.game.moves) != n:
                    break
                if self._first_difference(msg) is not None:
                    continue
                st = self._move_statement(peer, msg)
                why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True,
                                            statement=st)
                if why == WAITING:
                    self._buffer[n] = slot
                    return
                if why:
                    self._refuse_msg(peer, f"move {msg.index}", why)
            if len(self.game.moves) == n:
                return

    def _check_and_apply(self, peer: bytes, wire: list, digest: bytes, values=None, *,
                         check_sender: bool, stamp: Stamp | None = None,
                         statement: MoveStatement | None = None) -> str | None:
        """Apply the move at our next index if it is legal and gives the state it claims;
        else why not. `statement`: a MOVE's, already checked against its sender's key
        (`check_sender`); `stamp`: a relayed move's mover and signature, checked here. A
        signed move whose state before is ours but which the rules refuse, or which does
        not give the state it claims, is a proof against its signer (`Expulsions`):
        no honest node signs one. An unsigned difference stops nothing: it is refused."""
        g = self.game
        if self.stopped:
            return f"game stopped here: {self.stopped}"
        if g.is_over:
            return "the game is over"
        idx = len(g.moves)
        d = g.pending
        if d is None or d.seat is None:
            if check_sender:
                return "a tile reveal is dealt from the draw values, never sent as a move"
            return self._reveal_entry(peer, wire, digest, values)
        seat = self.lobby.seats[d.seat]
        before = self.digest_before(idx)
        signer = peer if statement is not None else None
        if statement is not None and statement.before != before:
            return "its state before the move is not this game's"
        if statement is None and stamp is not None:
            key = self._key_of(stamp.signer)
            if key is not None:
                if not move_signature_ok(key, self.game_id, stamp.signer, stamp.inc, idx, before,
                                         digest, wire, stamp.sig):
                    return ("its mover's signature does not hold for this game's state: "
                            "forged, garbled, or a move of another game")
                statement = MoveStatement(stamp.inc, idx, before, wire, digest, stamp.sig)
                signer = stamp.signer
                self._note_statement(signer, statement)
        if signer is not None:
            expelled = self._expelled_from(signer)
            if expelled is not None and idx >= expelled:
                return (f"{self.peer_name(signer)} was expelled from the table: the table's "
                        f"bot plays its seats from move {expelled} on")
        if check_sender:
            if seat.kind == "human" and not handed(seat) and seat.owner != peer:
                return (f"it is {seat.name}'s ({seat.colour}) decision, "
                        f"not {self.peer_name(peer)}'s")
            if (seat.kind == "bot" or handed(seat)) and not L.is_member(self.lobby, peer):
                return "bot move from a node outside the game"
            if (seat.kind == "bot" or handed(seat)) and peer in self.dropped_peers():
                # (its game is not the table's since the draws went on without it)
                return "bot move from a node left out of the draws"
        try:
            move = move_from_wire(wire)
        except ValueError as exc:
            return f"malformed move: {exc}" + self._as_proof(signer, statement)
        start = len(g.events)
        try:
            g.apply(move)
        except IllegalMove as exc:
            return (f"illegal move {move} for {seat.name} ({getattr(exc, 'clause', '?')}): "
                    f"{exc}" + self._as_proof(signer, statement))
        except ValueError as exc:
            return (f"illegal move {move} for {seat.name}: {exc}"
                    + self._as_proof(signer, statement))
        mine = g.digest()
        if mine != digest:
            g.pop()
            why = (f"digest mismatch after move {idx} ({move}) from {self.peer_name(peer)}: "
                   f"ours {mine.hex()[:16]}, theirs {digest.hex()[:16]}")
            if statement is not None:  # the rules say otherwise than its signer: a proof
                return why + self._as_proof(signer, statement)
            if self._may_have_forked(peer):
                return WAITING  # rather than refuse: the lobby that settles it is on its way
            return why + " (unsigned: refused, it stops nothing)"
        self.move_times[idx] = self.now  # applied and verified
        self._digest_list.append(mine)
        self._movers[idx] = d.seat
        if statement is not None:
            self._stamps[idx] = Stamp(signer, statement.inc, statement.sig)
            if check_sender:  # (a MOVE's own: checked when first needed, `_stamp_ok`)
                self._unchecked.add(idx)
        if seat.kind != "human":
            by_bot = False
        elif seat.owner == self.peer_id:  # our own seat's move, not played here: a bot's
            by_bot = True  # while we were away
        elif check_sender:  # sent by someone else than its player: the bot that drove it
            by_bot = peer != seat.owner
        else:
            by_bot = None  # (from a log: who sent it first is not known here)
        self._emit(E.RecordMove(idx, move, mine, seat=d.seat, by_bot=by_bot))
        self._applied(idx, d.seat, move, by=peer, by_bot=by_bot, events_from=start)
        return None

    def _fetch(self, peer: bytes, start: int) -> None:
        if self.now - self._fetch_at < FETCH_RETRY_S:
            return
        self._fetch_at = self.now
        # from the move before: its digest, compared with ours, shows a forked game
        self.links.send(peer, self._addr_of(peer), Fetch(max(0, start - 1)))

    def _on_fetch(self, peer: bytes, msg: Fetch) -> None:
        g = self.game
        if g is None:
            return
        if self.now - self._served.get((peer, msg.start), -10.0) < FETCH_RETRY_S / 2:
            return  # the same request again within half a second: already on its way
        self._served[(peer, msg.start)] = self.now
        if len(self._served) > 4096:
            self._served.clear()
        for chunk in log_chunks(self._entry, len(g.moves), msg.start):
            self.links.send(peer, None, chunk)

    def _on_log(self, peer: bytes, msg: Log) -> None:
        g = self.game
        if g is None:
            return
        self._progress[peer] = max(self._progress.get(peer, 0), msg.total)  # it has that many
        for k, entry in enumerate(msg.entries):
            idx = msg.start + k
            n = len(g.moves)
            if idx < n:
                if idx < len(self._digest_list) and entry[1] != self._digest_list[idx]:
                    if (self._yield_to == peer and k == 0 and msg.start > 0
                            and self._yield_checked < msg.start - 1):
                        # the difference may begin earlier than this log does: look further
                        self.links.send(peer, None, Fetch(max(0, msg.start - 16)))
                        return
                    if self._yield_to == peer:  # we were alone: the table's game wins
                        self._yield_to = self._alone_from = None
                        self._take_back_to(idx)
                        g = self.game
                        n = len(g.moves)
                    else:
                        self._log_differs(peer, msg, k, entry)
                        return
                else:
                    if self._yield_to == peer:
                        self._yield_checked = max(self._yield_checked, idx)
                    continue
            if idx > n or self.stopped:
                return
            why = self._check_entry(peer, entry)
            if why == WAITING:
                return
            if why:
                self._refuse_msg(peer, f"logged move {idx}", why)
                self._distrust(peer)
                return
        self._probe_low.pop(peer, None)  # (every entry it sent agreed with our game)
        self._drain_buffer()
        if len(g.moves) < msg.total and msg.start + len(msg.entries) == len(g.moves):
            self._fetch_at = -1e9

    def _log_differs(self, peer: bytes, msg: Log, k: int, entry: tuple) -> None:
        """A member's log says another state after move `msg.start + k` than ours. Only a
        signed move shows where two games part: a move signed by someone for the very state
        ours has before it (the signature holds only with our state), or a draw whose values
        prove themselves. Then two honest nodes played different games (a network split:
        the game forked) — or one laptop signed two moves for one (a proof against it).
        Anything else is a claim nothing backs (a broken laptop's heartbeat or log): it is
        refused and stops nothing."""
        idx = msg.start + k
        wire, digest, values, stamp = entry_parts(entry)
        before = self.digest_before(idx)
        agreed_before = k > 0 or msg.start == 0  # (the entry before this one matched ours)
        signed = False
        if stamp is not None:
            key = self._key_of(stamp.signer)
            if key is not None and move_signature_ok(key, self.game_id, stamp.signer, stamp.inc,
                                                     idx, before, digest, wire, stamp.sig):
                st = MoveStatement(stamp.inc, idx, before, wire, digest, stamp.sig)
                if self._note_statement(stamp.signer, st):
                    return  # one laptop signed both games' moves: a proof, not a fork
                if refused_why(self._state_at(idx), st) is None:
                    self._refused_move_proof(stamp.signer, st)  # no move of any game
                    return
                ours = self._stamps.get(idx) if self._stamp_ok(idx) else None
                # (passed on by another laptop than its signer: a laptop that signs a move
                # for a position the table played otherwise, and shows it itself, is no
                # evidence of a split; its side of a real split passes its moves on too.
                # At a table of two there is nobody else to pass them on)
                relayed = stamp.signer != peer or len(self.lobby.members) <= 2
                if (ours is not None and relayed and not self._proven(stamp.signer)
                        and not self._proven(ours.signer)):
                    signed = True  # two laptops signed different legal moves for one state
        elif values is not None and agreed_before and self._values_prove(idx, values):
            signed = True
        if not signed:
            if not agreed_before:
                # the games may part earlier than this log begins: ask from further back
                self._probe_low[peer] = max(0, msg.start - 16)
                self._probed.pop(peer, None)
                self._probe_claim(peer, self._probe_low[peer])
                return
            self._refuse_msg(peer, f"logged move {idx}",
                             "its state after this move differs from ours, and nothing signed "
                             "shows where the games part: ignored (it stops nothing)")
            self._distrust(peer)
            return
        self._game_forked(peer, idx, f"their state after move {idx} is {digest.hex()[:16]}, "
                          f"ours {self._digest_list[idx].hex()[:16]}")

    def _values_prove(self, idx: int, values) -> bool:
        """Do a reveal's values, for the draw our game has reached at move `idx`, all hash
        back to their chains, with another set of contributors than the one we dealt it
        with? Then the other game dealt this draw otherwise: a differing state it proves."""
        ours = self._proof_of.get(idx)
        book = self.draw_book
        if ours is None or book is None:
            return False  # (our game had a decision there: theirs was no reveal of this state)
        k = sum(1 for j in self._proof_of if j < idx)
        for i, v in values:
            if i >= len(book.commitments) or not preimage_ok(book.commitments[i],
                                                              book.firsts[i] - 1, v, k):
                return False
        return [i for i, _ in ours] != [i for i, _ in values]

    def _probe_claim(self, peer: bytes, index: int) -> None:
        """A member says its game differs from ours at or before move `index`: ask for its
        log from there (at most once a second per member), which shows, signed, where.
        Once a log showed the games part before where it began, we ask from earlier."""
        low = self._probe_low.get(peer)
        if low is not None:
            index = min(index, low)
        if self.now - self._probed.get(peer, -1e9) < FETCH_RETRY_S:
            return
        self._probed[peer] = self.now
        self.links.send(peer, None, Fetch(max(0, index - 1)))

    def _distrust(self, peer: bytes) -> None:
        """A member sent a log we refused: fetch from others first for a while. A watcher
        whose feeder sent it a move its own engine refuses asks the next member instead
        (`Spectators._feeder_refused`): a broken laptop must not keep it from the game."""
        self._distrusted[peer] = self.now
        if self.watching and peer == self.feeder:
            self._feeder_refused(peer)

"""Move sync of NodeCore: play and check moves, deal reveals from the seed, keep
moves that came early, fetch what is missing, stop on a differing digest.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state
they share); kept apart so each concern reads on its own."""

from __future__ import annotations

import dataclasses
import hashlib
import logging

import msgpack

from tongiaki_lan.engine import Dealer, Game, IllegalMove, Move, move_from_wire
from tongiaki_lan.net import events as E
from tongiaki_lan.net import lobby as L
from tongiaki_lan.net.codec import (
    Fetch,
    Log,
    MoveMsg,
)
from tongiaki_lan.net.handover import handed
from tongiaki_lan.net.settings import (
    FETCH_RETRY_S,
    LOG_CHUNK_BYTES,
    PREV_MOVES,
)

log = logging.getLogger("tongiaki_lan.net.movesync")


def bot_seed(seed: bytes, seat: int, index: int) -> int:
    """A bot's randomness for one decision, fixed by the game: whichever node drives the
    seat computes the same move, so a hand-over between drivers can never fork the game."""
    h = hashlib.blake2b(seed + bytes([seat]) + index.to_bytes(4, "big"), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def log_chunks(moves, digests, start: int, max_chunks: int = 32):
    """LOG messages holding moves start.. in order, each under LOG_CHUNK_BYTES."""
    total = len(moves)
    i = start
    sent = 0
    while i < total and sent < max_chunks:
        entries, size = [], 0
        while i < total:
            w = moves[i].to_wire()
            sz = len(msgpack.packb(w)) + 36
            if entries and size + sz > LOG_CHUNK_BYTES:
                break
            entries.append((w, digests[i]))
            size += sz
            i += 1
        yield Log(i - len(entries), total, tuple(entries))
        sent += 1

class MoveSync:
    def send_move(self, move: Move, now: float) -> None:
        """Play a move for a seat of this node. Raises IllegalMove / ValueError as the engine
        does; nothing is sent then."""
        self.now = now
        if self.game is None or self.game.is_over:
            raise ValueError("no game in progress")
        if self.stopped:
            raise ValueError(f"game stopped: {self.stopped}")
        d = self.game.pending
        if d is None or d.seat is None:
            raise ValueError("a tile is being revealed")
        seat = self.lobby.seats[d.seat]
        if self._driver(d.seat) != self.peer_id:
            if handed(seat) and seat.owner == self.peer_id:
                raise ValueError("a bot plays your seat until the others see you are back")
            raise ValueError(f"it is {seat.name}'s decision, not yours")
        self._play_local(move)

    def bot_move(self, index: int, move: Move, now: float) -> None:
        """The move a `BotTurn` asked for; ignored if the game moved on meanwhile."""
        self.now = now
        if self.game is None or len(self.game.moves) != index or self.stopped:
            return
        if self._thinking == index:
            self._thinking = None
        try:
            self._play_local(move)
        except (IllegalMove, ValueError) as exc:
            self._emit(E.Error(f"bot chose an illegal move: {exc}"))

    def _begin_game(self, seed: bytes) -> None:
        lb = self.lobby
        self.seed = seed
        self.game = Game([s.colour for s in lb.seats])
        self.dealer = Dealer(seed)
        self.lobby = dataclasses.replace(lb, phase="playing")
        self._emit(E.GameStarted(seed.hex(), self._seat_json(), False, 0))
        self._deal()
        if self.coordinator() == self.peer_id:
            self._install_lobby(dataclasses.replace(self.lobby, version=lb.version + 1),
                                broadcast=True)
        self._drain_buffer()
        self._after_state_change()

    def _after_state_change(self) -> None:
        """Called after anything that might make this node the one to move."""
        g = self.game
        if g is None or self.stopped or self.closing or g.is_over:
            return
        d = g.pending
        if d is None or d.seat is None:  # a reveal: the dealer's, never a seat's
            return
        seat = self.lobby.seats[d.seat]
        idx = len(g.moves)
        if self._driver(d.seat) != self.peer_id:
            self._note_waiting(d.seat)
            return
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

    def _note_waiting(self, seat: int) -> None:
        s = self.lobby.seats[seat]
        if s.kind == "human" and not handed(s) and self.presence.is_absent(s.owner):
            idx = len(self.game.moves)
            if self._waiting_noted != idx:
                self._waiting_noted = idx
                self._emit(E.Waiting(seat, s.name))

    def _play_local(self, move: Move) -> None:
        g = self.game
        idx = len(g.moves)
        seat = g.pending.seat
        g.apply(move)  # raises on an illegal move; nothing sent then
        digest = g.digest()
        self._digest_list.append(digest)
        self._emit(E.RecordMove(idx, move, digest))
        self.move_times[idx] = self.sent_at[idx] = self.now
        prev = tuple((g.moves[i].to_wire(), self._digest_list[i])
                     for i in range(max(0, idx - PREV_MOVES), idx))
        self._broadcast(MoveMsg(idx, move.to_wire(), digest, prev))
        self._applied(idx, seat, move, by=self.peer_id)

    def _deal(self) -> None:
        """Reveal the tiles the last move calls for. Until fair draws (issue 10) every peer
        deals the same tiles from the agreed seed, so reveals are never sent; each is
        recorded like a move."""
        def on_reveal(move: Move) -> None:
            digest = self.game.digest()
            idx = len(self.game.moves) - 1
            self._digest_list.append(digest)
            self._emit(E.RecordMove(idx, move, digest))
            self.move_times.setdefault(idx, self.now)
            self._emit(E.TileRevealed(idx, str(move)))

        self.dealer.deal(self.game, on_reveal)

    def _applied(self, idx: int, seat: int, move: Move, by: bytes) -> None:
        s = self.lobby.seats[seat]
        self._emit(E.MoveApplied(idx, seat, s.colour, s.name, str(move), by.hex()))
        self._deal()
        if self.game.is_over:
            self._broadcast(self._heartbeat())  # tell everyone at once that we are done
            g = self.game
            self._emit(E.GameOver(g.digest().hex(), g.scores(), g.winners(), len(g.moves)))
        else:
            self._after_state_change()

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

    def _on_early_move(self, peer: bytes, addr: tuple, msg: MoveMsg) -> None:
        """A MOVE that overtook an earlier message of its link (that one was lost): use it
        now rather than after the resend. The in-order copy later finds it played."""
        if self.closing or self.game is None or self.lobby is None:
            return
        if not L.is_member(self.lobby, peer) or msg.index < len(self.game.moves):
            return
        self._on_message(peer, addr, msg, early=True)

    def _on_move(self, peer: bytes, msg: MoveMsg, early: bool = False) -> None:
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
                # refused only: one MOVE is no proof of a fork (a member may send anything);
                # the state digests of heartbeats and LOGs are compared for that
                self._refuse_msg(peer, f"move {msg.index}",
                                 f"conflicts with the move already played ({g.moves[msg.index]})")
            return
        start = msg.index - len(msg.prev)
        known = max(0, min(n, len(self._digest_list)) - start)
        for k, (_, digest) in enumerate(msg.prev[:known]):
            if start + k >= 0 and digest != self._digest_list[start + k]:
                self._forked(peer, start + k, f"their state after move {start + k} is "
                             f"{digest.hex()[:16]}, ours "
                             f"{self._digest_list[start + k].hex()[:16]}")
                return
        if msg.index > n and start <= n:  # the moves we missed ride along: relayed moves,
            for k, (wire, digest) in enumerate(msg.prev):  # checked like a LOG's
                if start + k < len(g.moves):
                    continue
                why = self._check_and_apply(peer, wire, digest, check_sender=False)
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
        if d is None or d.seat is None:
            return "a tile reveal is dealt by every node itself, never sent"
        seat = self.lobby.seats[d.seat]
        if check_sender:
            if seat.kind == "human" and not handed(seat) and seat.owner != peer:
                return (f"it is {seat.name}'s ({seat.colour}) decision, "
                        f"not {self.peer_name(peer)}'s")
            if (seat.kind == "bot" or handed(seat)) and not L.is_member(self.lobby, peer):
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
        self.move_times[idx] = self.now  # applied and verified
        self._digest_list.append(mine)
        self._emit(E.RecordMove(idx, move, mine))
        if mine != digest:
            self._stop(f"digest mismatch after move {idx} ({move}) from {self.peer_name(peer)}: "
                       f"ours {mine.hex()[:16]}, theirs {digest.hex()[:16]}")
        self._applied(idx, d.seat, move, by=peer)
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
        for chunk in log_chunks(g.moves, self._digest_list, msg.start):
            self.links.send(peer, None, chunk)

    def _on_log(self, peer: bytes, msg: Log) -> None:
        g = self.game
        if g is None:
            return
        for k, (wire, digest) in enumerate(msg.entries):
            idx = msg.start + k
            n = len(g.moves)
            if idx < n:
                if idx < len(self._digest_list) and digest != self._digest_list[idx]:
                    self._forked(peer, idx, f"their state after move {idx} is "
                                 f"{digest.hex()[:16]}, ours {self._digest_list[idx].hex()[:16]}")
                    return
                continue
            if idx > n or self.stopped:
                return
            why = self._check_and_apply(peer, wire, digest, check_sender=False)
            if why:
                self._refuse_msg(peer, f"logged move {idx}", why)
                return
        self._drain_buffer()
        if len(g.moves) < msg.total and msg.start + len(msg.entries) == len(g.moves):
            self._fetch_at = -1e9


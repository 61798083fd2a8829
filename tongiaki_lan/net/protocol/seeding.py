"""Seed agreement of NodeCore: the commit-reveal round (protocol/seed-agreement.md)
as messages; the rules of the round itself are in net.seed.

A part of `net.core.NodeCore` (which mixes the parts together and owns the state
they share); kept apart so each concern reads on its own."""

from __future__ import annotations

import logging

from tongiaki_lan.draws import Chain
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import (
    Abort,
    Commit,
    Reveal,
    SeedOk,
)
from tongiaki_lan.net.protocol.settings import (
    MAX_EARLY,
)

log = logging.getLogger("tongiaki_lan.net.protocol.seeding")


class SeedAgreement:
    def _begin_seed_round(self) -> None:
        lb = self.lobby
        self._chain = Chain(self.entropy(32))  # fresh every start: its secret never leaves us
        self._round = self.new_round(self.game_id, lb.start_nonce, self.peer_id, L.seed_order(lb),
                                     secret=self.entropy(32), chain=self._chain.commitment)
        self._start_seen = self.now
        self._emit(E.Starting(lb.start_nonce.hex(), [p.hex() for p in self._round.order]))
        self._broadcast(Commit(lb.start_nonce, self._round.my_commitment,
                               self._chain.commitment))
        early, self._early = self._early, []
        for peer, msg in early:
            self._on_seed_message(peer, msg)
        self._seed_progress()

    def _on_seed_message(self, peer: bytes, msg: Commit | Reveal | Abort | SeedOk) -> None:
        rnd = self._round
        if isinstance(msg, Abort):
            if rnd is not None and msg.nonce == rnd.nonce:
                self._abort_start(msg.reason, tell=False)
            return
        if rnd is None or msg.nonce != rnd.nonce:
            if self.game is None and len(self._early) < MAX_EARLY:
                self._early.append((peer, msg))  # may overtake the lobby that announces it
            return
        if isinstance(msg, SeedOk):
            why = rnd.add_ok(peer, msg.check)
            if why:
                self._refuse_msg(peer, "seed confirmation", why)
                self._abort_start(f"{self.peer_name(peer)}: {why}", tell=True)
                return
        elif isinstance(msg, Commit):
            why = rnd.add_commit(peer, msg.commitment, msg.chain)
            if why:
                self._refuse_msg(peer, "commit", why)
                return
        else:
            why = rnd.add_reveal(peer, msg.secret)
            if why:
                self._refuse_msg(peer, "reveal", why)
                self._abort_start(f"{self.peer_name(peer)}: {why}", tell=True)
                return
        self._seed_progress()

    def _seed_progress(self) -> None:
        rnd = self._round
        if rnd is None:
            return
        if rnd.all_committed() and not rnd.revealed:
            rnd.revealed = True
            self._broadcast(Reveal(rnd.nonce, rnd.secret))
        if rnd.revealed and rnd.complete() and not rnd.ok_sent:
            rnd.ok_sent = True
            for p, check in list(rnd.oks.items()):  # confirmations that came early
                why = rnd.add_ok(p, check)
                if why:
                    self._abort_start(f"{self.peer_name(p)}: {why}", tell=True)
                    return
            self._broadcast(SeedOk(rnd.nonce, rnd.check()))
        if rnd.ok_sent and rnd.confirmed() and self.game is None:
            self._begin_game(rnd.seed(), list(rnd.order), rnd.chain_heads(), self._chain)

    def _abort_start(self, reason: str, tell: bool) -> None:
        rnd = self._round
        if rnd is None:
            return
        if tell:
            self._broadcast(Abort(rnd.nonce, reason[:300]))
        self._round = None
        self._buffer.clear()  # nothing said for the void attempt may leak into the next one
        self._early.clear()
        self._emit(E.Aborted(reason))
        if self.coordinator() == self.peer_id and self.lobby.phase == "starting":
            self._install_lobby(L.abort_start(self.lobby), broadcast=True)


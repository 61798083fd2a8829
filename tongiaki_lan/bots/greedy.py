"""`greedy`: look one decision ahead and take the move whose outcome looks best.

"Outcome" is averaged over chance: a move that reveals tiles (a departure into the
unknown, a New Colony) is tried with several tiles at the engine's chance decision,
one per distinct tile that could come up next (or a sample of them), later reveals
drawn at random, so a crossing that fails on most tiles left scores accordingly. Every
move is judged against the same imagined tiles, so the comparison is fair. A decision
that hands the turn straight back to us with no chance involved (which beaches get the
expansion ships, how a landing group spreads) is looked through with the same
evaluation, one level deep, so that `expand Samoa` is judged by the best way to finish it.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from tongiaki_lan.engine import Game, Move, Reveal, deal_randomly
from tongiaki_lan.engine import decisions as D

from .evaluation import DEFAULT, Weights, utilities
from .view import PublicView

# Decisions we look through when they follow our own move at once.
_FOLLOW_UP = (D.EXPAND_BEACHES, D.T1A_SOURCE, D.LANDING, D.COLONY_SHIP)


class GreedyBot:
    kind = "greedy"

    def __init__(self, seed: int = 0, chance_samples: int = 12, tile_samples: int = 48,
                 weights: Weights = DEFAULT, temper: float = 0.0,
                 value: Callable[[Game, int], float] | None = None):
        self._rng = random.Random(seed)
        self.chance_samples = chance_samples
        self.tile_samples = tile_samples
        self.weights = weights
        # > 0: choose at random, each move weighted exp(value / temper) (values are in
        # points), so the bot slips among moves that look alike to it and now and then
        # misses a clearly better one: the `easy` level (bots/levels.py). 0: the best.
        self.temper = temper
        # how a settled position is judged for a seat: the evaluation's utility unless told
        # otherwise (the search's root priors use its win model, so that they are on the
        # scale of its rewards)
        self.value = value

    # -- entry point ------------------------------------------------------------------

    def choose(self, view: PublicView) -> Move:
        moves = candidate_moves(view, self._rng, self.tile_samples)
        if len(moves) == 1:
            return moves[0]
        seat = view.pending.seat
        worlds = self._worlds(view)
        base = view.game()
        if self.temper > 0:
            values = [self.move_value(base, worlds, m, seat) for m in moves]
            return _tempered(moves, values, self.temper, self._rng)
        best: list[Move] = []
        best_value = float("-inf")
        for move in moves:
            value = self.move_value(base, worlds, move, seat)
            if value > best_value + 1e-9:
                best, best_value = [move], value
            elif value > best_value - 1e-9:
                best.append(move)
        return best[0] if len(best) == 1 else self._rng.choice(best)

    # -- pieces, reused by the search bot ---------------------------------------------

    def _worlds(self, view: PublicView) -> list[tuple[int, int]]:
        """Imagined chance: (the next tile, a seed for the reveals after it), a different
        next tile in each."""
        tops = list(view.unrevealed_tiles())
        self._rng.shuffle(tops)
        return [(t, self._rng.getrandbits(32)) for t in tops[: self.chance_samples]]

    def move_value(self, base: Game, worlds: list[tuple[int, int]], move: Move,
                   seat: int) -> float:
        child = base.copy(undo=False)
        child.apply(move)
        if not child.awaiting_reveal or not worlds:
            return self.settle_value(child, seat, random.Random(0))
        total = 0.0
        for top, seed in worlds:
            world = child.copy(undo=False)
            world.apply(Reveal(top))
            rng = random.Random(seed)
            deal_randomly(world, rng)
            total += self.settle_value(world, seat, rng)
        return total / len(worlds)

    def settle_value(self, game: Game, seat: int, rng: random.Random) -> float:
        """Value after our move, looking through an immediate follow-up of ours."""
        pending = game.pending
        if pending is None or pending.seat != seat or pending.kind not in _FOLLOW_UP:
            return self.static_value(game, seat, rng)
        if pending.kind == D.LANDING and game.legal_move_count() > 24:
            child = game.copy(undo=False)
            child.apply(game.default_landing())
            deal_randomly(child, rng)
            return self.static_value(child, seat, rng)
        best = float("-inf")
        for move in game.legal_moves():
            child = game.copy(undo=False)
            child.apply(move)
            deal_randomly(child, rng)
            best = max(best, self.static_value(child, seat, rng))
        return best

    def static_value(self, game: Game, seat: int, rng: random.Random) -> float:
        pending = game.pending
        if pending is not None and pending.kind == D.LANDING:
            game = game.copy(undo=False)
            game.apply(game.default_landing())
            deal_randomly(game, rng)
        if self.value is not None:
            return self.value(game, seat)
        return utilities(game, self.weights)[seat]


def _tempered(moves: list[Move], values: list[float], temper: float,
              rng: random.Random) -> Move:
    """A move drawn with weights exp((value - best) / temper)."""
    top = max(values)
    weights = [math.exp((v - top) / temper) for v in values]
    return rng.choices(moves, weights)[0]


def candidate_moves(view: PublicView | Game, rng: random.Random, limit: int) -> list[Move]:
    """All legal moves, or for a New Colony tile (6 per free hex) a random sample."""
    n = view.legal_move_count()
    if n <= limit:
        return view.legal_moves() if n > 1 else [view.legal_move(0)]
    return [view.legal_move(i) for i in sorted(rng.sample(range(n), limit))]

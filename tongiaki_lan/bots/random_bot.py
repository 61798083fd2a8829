"""A bot that picks uniformly among the legal moves: the baseline every other bot must beat."""

from __future__ import annotations

import random

from tongiaki_lan.engine import Game, Move


class RandomBot:
    """Uniform over `legal_moves()`, which never reveals the stack's order.

    Its own `random.Random` instance (never the global one) makes a seeded bot
    repeatable, so a self-play game is reproducible from its seeds alone.
    """

    kind = "random"

    def __init__(self, seed: int = 0):
        self._rng = random.Random(seed)

    def choose(self, game: Game) -> Move:
        return game.legal_move(self._rng.randrange(game.legal_move_count()))

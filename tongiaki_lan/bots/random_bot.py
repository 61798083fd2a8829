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
        self._bits = self._rng.getrandbits

    def choose(self, game: Game) -> Move:
        n = game.legal_move_count()  # self.index(n), inline: it runs at every decision
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return game.legal_move(r)

    def index(self, n: int) -> int:
        """The same number `self._rng.randrange(n)` draws (n > 0), by the same rejection
        sampling over `getrandbits` that CPython 3.10-3.13 use, without randrange's checks:
        it runs at every decision of every random game (tests/bots/test_play.py holds the
        two equal, so a Python that changes randrange fails a test, not a golden game)."""
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

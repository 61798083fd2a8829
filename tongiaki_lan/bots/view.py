"""What a bot is allowed to know: the game with the order of the stack erased.

A real `Game` holds the shuffled stack and the seed it came from; either one tells
the future. A `PublicView` is built from a copy whose unrevealed tiles are put back
in sorted order (`Game.with_stack_order`) and whose seed is blanked, so no trace of
the true order survives and two games that differ only in that order give the very
same view, byte for byte. Bots only ever see views (see `fair.py`), which makes
"bots play on public information" a property of the construction rather than of
each bot's good manners.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from tongiaki_lan.engine import Game, Move
from tongiaki_lan.engine.decisions import Decision

BLANK_SEED = bytes(32)


class PublicView:
    """A read-only, order-free picture of a game, plus the means to imagine orders.

    Bots get fresh `Game` objects from it (`game()`, `determinise()`), which they may
    mutate freely: the view itself is never handed out.
    """

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        canonical = game.with_stack_order(game.unrevealed_tiles())
        canonical.seed = BLANK_SEED  # the seed alone would rebuild the true order
        self._game = canonical

    # -- what every player at the table can see ------------------------------------

    @property
    def pending(self) -> Decision | None:
        return self._game.pending

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def n_seats(self) -> int:
        return self._game.n_seats

    def legal_moves(self) -> list[Move]:
        return self._game.legal_moves()

    def legal_move_count(self) -> int:
        return self._game.legal_move_count()

    def legal_move(self, index: int) -> Move:
        return self._game.legal_move(index)

    def unrevealed_tiles(self) -> tuple[int, ...]:
        return self._game.unrevealed_tiles()

    def scores(self) -> dict[str, int]:
        return self._game.scores()

    # -- imagined futures ----------------------------------------------------------

    def game(self) -> Game:
        """A private copy with the stack in sorted order (a fixed, arbitrary guess)."""
        return self._game.copy()

    def determinise(self, order: Sequence[int]) -> Game:
        """A private copy whose stack comes out in `order` (a permutation of the
        unrevealed tiles): one possible world consistent with what is known."""
        return self._game.with_stack_order(order)

    def sample(self, rng: random.Random) -> Game:
        """A private copy with a uniformly random stack order drawn from `rng`."""
        order = list(self._game.unrevealed_tiles())
        rng.shuffle(order)
        return self._game.with_stack_order(order)

    # -- evidence for tests and logs -----------------------------------------------

    def encode(self) -> bytes:
        """The engine's canonical encoding of the view (stack in sorted order)."""
        return self._game.encode() + self._game.seed

    def digest(self) -> bytes:
        return hashlib.blake2b(self.encode(), digest_size=32).digest()


def public_view(game: Game | PublicView) -> PublicView:
    return game if isinstance(game, PublicView) else PublicView(game)

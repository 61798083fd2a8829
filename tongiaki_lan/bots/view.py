"""What a bot is allowed to know: the game, which since rules version 2 holds no secret.

The engine keeps no stack order and no seed: a tile is revealed only when a dealer
answers the engine's chance decision. So a `PublicView` is simply a private copy of
the game's public state, and a bot imagines what is still hidden by drawing tiles at
chance decisions itself (`deal_randomly`). Bots only ever see views (see `fair.py`).
"""

from __future__ import annotations

import hashlib

from tongiaki_lan.engine import Game, Move
from tongiaki_lan.engine.decisions import Decision


class PublicView:
    """A read-only window on a game. Bots get fresh `Game` copies from it (`game()`),
    which they may mutate freely; the view offers no way to change the game it shows, and
    copies only when asked (a random bot never asks: most decisions cost no copy)."""

    __slots__ = ("_game",)

    def __init__(self, game: Game):
        self._game = game

    @property
    def pending(self) -> Decision | None:
        return self._game.pending

    @property
    def is_over(self) -> bool:
        return self._game.is_over

    @property
    def n_seats(self) -> int:
        return self._game.n_seats

    @property
    def owners(self) -> tuple[int, ...] | None:
        """Seat -> player under a table variant (two colours each, V1), else None: a bot
        for one colour plays for its owner (bots/evaluation.py); copies from `game()`
        carry it too."""
        return self._game.owners

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

    def game(self) -> Game:
        """A private scratch copy (no undo history) to try moves on."""
        return self._game.copy(undo=False)

    def encode(self) -> bytes:
        """The engine's canonical encoding of what the bot sees."""
        return self._game.encode()

    def digest(self) -> bytes:
        return hashlib.blake2b(self.encode(), digest_size=32).digest()


def public_view(game: Game | PublicView) -> PublicView:
    return game if isinstance(game, PublicView) else PublicView(game)

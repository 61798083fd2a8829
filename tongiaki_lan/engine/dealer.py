"""Who answers the engine's chance decisions when play is local.

The engine never draws a tile: when one must be revealed it waits for a `Reveal`
move. For solo play, self-play, tests and bots a `Dealer` supplies it from a fixed
order — for a seed, the stack of protocol/shuffle.md — so the same seed still gives
the same game. (Peers in a LAN game that must not know the next tile use a joint
draw instead; that is the network's business, not the engine's.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .decisions import REVEAL
from .game import Game
from .moves import REVEALS, Move, Reveal
from .shuffle import shuffled_stack
from .tiles import STACK_IDS, TILES


class Dealer:
    """Deals tiles in a fixed order: the first tile of `order` not yet revealed.

    With tiles taken in order from the start, this is draw k = order[k]; the rule "first
    one still in the stack" also serves games set up from a position, where some tiles
    are already out.
    """

    def __init__(self, seed: bytes | None = None, order: Sequence[int] | None = None):
        if (seed is None) == (order is None):
            raise ValueError("a dealer deals from a seed or from an order, not both")
        if order is not None:
            tail = [t for t in STACK_IDS if t not in order]
            self.order: tuple[int, ...] = (*order, *tail)
        else:
            self.order = shuffled_stack(seed)
        # After dealing order[i], the stack left (that very tuple: tuples never change)
        # holds none of order[:i + 1]; the next search for that stack starts there.
        self._after: tuple[int, ...] | None = None
        self._start = 0

    def tile_for(self, game: Game) -> int:
        left = game.unrevealed_tiles()
        order = self.order
        i = self._start if left is self._after else 0
        while i < len(order):
            if order[i] in left:
                return order[i]
            i += 1
        raise ValueError("no tile left to reveal")  # pragma: no cover - E1 ends it first

    def deal(self, game: Game, on_move: Callable[[Move], None] | None = None) -> None:
        """Answer every pending reveal; `on_move` hears each one once it is applied
        (a record writer appends it)."""
        own = type(self).tile_for is Dealer.tile_for  # subclasses deal their own way
        while game._kind == REVEAL:  # game.awaiting_reveal, read directly: every step asks
            tile = self.tile_for(game)
            reveal = REVEALS[tile]
            game.apply(reveal)
            if own:
                self._after, self._start = game.unrevealed_tiles(), self.order.index(tile) + 1
            if on_move is not None:
                on_move(reveal)

    def apply(self, game: Game, move: Move,
              on_move: Callable[[Move], None] | None = None) -> None:
        """Play a player's move, then deal whatever it reveals."""
        game.apply(move)
        if on_move is not None:
            on_move(move)
        if game._kind == REVEAL:  # as deal() would check first: most moves reveal nothing
            self.deal(game, on_move)

    def check(self, game: Game, move: Move) -> str | None:
        """Why `move` is not the reveal this dealer would make now, or None."""
        if not isinstance(move, Reveal) or not game.awaiting_reveal:
            return None
        want = self.tile_for(game)
        if move.tile != want:
            return (f"reveals {TILES[move.tile].name} where the seed's stack has "
                    f"{TILES[want].name}")
        return None


def deal_randomly(game: Game, rng: random.Random) -> None:
    """Answer every pending reveal with a uniformly drawn tile: how bots imagine the
    tiles nobody knows yet."""
    while game.awaiting_reveal:
        tiles = game.unrevealed_tiles()
        game.apply(Reveal(tiles[rng.randrange(len(tiles))]))

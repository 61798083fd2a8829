"""Positions for the bot tests, reached by seeded random play (no hidden state read)."""

from __future__ import annotations

import random

from tongiaki_lan.engine import COLOURS, Dealer, Game


def midgame(seed: int = 3, players: int = 4, plies: int = 45) -> Game:
    """A game some way in: tiles revealed, many still in the stack."""
    rng = random.Random(seed)
    game = Game(COLOURS[:players])
    dealer = Dealer(seed.to_bytes(32, "big"))
    for _ in range(plies):
        if game.is_over:
            break
        dealer.apply(game, game.legal_move(rng.randrange(game.legal_move_count())))
    assert not game.is_over and len(game.unrevealed_tiles()) > 5
    return game

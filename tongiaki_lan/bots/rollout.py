"""The quick policy `search` plays on with after its tree: a casual player's moves.

A rollout only has to make the evaluation at its end say something true about the
position it started from, so the policy is cheap and plausible rather than good:
expand somewhere (islands where the seat already has ships more often, as a player
would), found a Royal Island when one is there for the taking, rarely start a New
Colony; land with the engine's default; everything else uniformly.
"""

from __future__ import annotations

import random

from tongiaki_lan.engine import Colony, Expand, Game, Move, Royal
from tongiaki_lan.engine import decisions as D


def rollout_move(game: Game, rng: random.Random, keen: bool = False) -> Move:
    """A quick, plausible move for the pending decision (never a chance decision).
    `keen`: expansions are drawn weighted by the seat's ships on the island plus one."""
    kind = game.pending.kind
    if kind == D.ACTION:
        moves = game.legal_moves()
        royals = [m for m in moves if isinstance(m, Royal)]
        if royals and rng.random() < 0.5:
            return rng.choice(royals)
        expands = [m for m in moves if isinstance(m, Expand)]
        if expands and rng.random() < 0.97:
            if keen and len(expands) > 1:
                me = game.colour_ids()[game.pending_seat]
                weights = [1 + sum(b.count(me) for b in game.ships_on(m.island))
                           for m in expands]
                return rng.choices(expands, weights)[0]
            return rng.choice(expands)
        others = [m for m in moves if not isinstance(m, (Expand, Royal, Colony))]
        if others and rng.random() < 0.9:
            return rng.choice(others)
        return rng.choice(moves)
    if kind == D.LANDING:
        return game.default_landing()
    return game.legal_move(rng.randrange(game.legal_move_count()))

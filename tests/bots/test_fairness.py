"""Bots decide from public information only, by construction (issue 5, scope 1)."""

from __future__ import annotations

import pytest

from tongiaki_lan.bots import bot_kinds, make_bot
from tongiaki_lan.bots.fair import FairBot
from tongiaki_lan.bots.view import PublicView

from .helpers import midgame

# Fixed work budgets: a time budget would make the compared moves depend on speed.
OPTIONS = {"search": {"iterations": 60}}


def _twin_worlds(seed: int = 3):
    """The same game twice, differing only in the order of the unrevealed tiles."""
    game = midgame(seed)
    left = list(game.unrevealed_tiles())
    twin = game.with_stack_order(list(reversed(left)))
    assert game.digest() != twin.digest()  # the real states differ (the stack)...
    assert game.moves == twin.moves and game.placed_tiles() == twin.placed_tiles()
    return game, twin


def test_views_of_games_differing_only_in_stack_order_are_identical():
    game, twin = _twin_worlds()
    a, b = PublicView(game), PublicView(twin)
    assert a.encode() == b.encode()
    assert a.digest() == b.digest()
    # Every attribute of the games bots get to copy is equal, not just the encoding.
    ga, gb = vars(a.game()), vars(b.game())
    assert ga.keys() == gb.keys()
    assert all(ga[k] == gb[k] for k in ga if k != "events")


def test_view_carries_neither_the_seed_nor_the_order():
    game, _ = _twin_worlds()
    view = PublicView(game)
    copy = view.game()
    assert copy.seed != game.seed
    left = game.unrevealed_tiles()
    assert copy.unrevealed_tiles() == left
    # Revealing from the view's game yields the tiles in sorted order, whatever the truth.
    assert view.determinise(left).encode() == copy.encode()


@pytest.mark.parametrize("kind", bot_kinds())
def test_every_bot_chooses_the_same_move_in_both_worlds(kind):
    for seed in (3, 8, 21):
        game, twin = _twin_worlds(seed)
        m1 = make_bot(kind, seed=11, **OPTIONS.get(kind, {})).choose(game)
        m2 = make_bot(kind, seed=11, **OPTIONS.get(kind, {})).choose(twin)
        assert m1 == m2
        assert game.is_legal(m1)


def test_bots_are_handed_a_view_never_the_game():
    seen = []

    class Spy:
        def choose(self, view):
            seen.append(view)
            return view.legal_move(0)

    game, _ = _twin_worlds()
    FairBot("spy", Spy()).choose(game)
    assert isinstance(seen[0], PublicView)
    assert not hasattr(seen[0], "apply") and not hasattr(seen[0], "seed")


@pytest.mark.parametrize("kind", bot_kinds())
def test_make_bot_always_wraps(kind):
    assert isinstance(make_bot(kind, seed=1), FairBot)

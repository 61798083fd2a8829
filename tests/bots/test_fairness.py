"""Bots decide from public information only, by construction (issue 5, scope 1).

Since rules version 2 the engine holds no secret at all — no seed, no stack order; a
tile exists only once a dealer reveals it — so "public information" is exactly the
position text, and a bot must choose the same move from the game and from its text.
"""

from __future__ import annotations

import pytest

from tongiaki_lan.bots import bot_kinds, make_bot
from tongiaki_lan.bots.fair import FairBot
from tongiaki_lan.bots.view import PublicView
from tongiaki_lan.engine import Dealer, Game

from .helpers import midgame

# Fixed work budgets: a time budget would make the compared moves depend on speed. The
# levels that search get few iterations here (their fixed forms: tests/bots/test_levels.py).
OPTIONS = {"search": {"iterations": 60}, "search1": {"iterations": 60},
           "normal": {"iterations": 60}, "hard": {"iterations": 60}}


def test_a_game_holds_nothing_that_tells_the_next_tile():
    game = midgame(3)
    seed = (3).to_bytes(32, "big")  # midgame(3)'s dealer seed
    order = Dealer(seed).order
    for name, value in vars(game).items():
        assert not (isinstance(value, bytes) and value == seed), name
        assert value != order and value != list(order), name
    # The same public moves on a fresh game give the same state: nothing else is kept.
    again = Game.replay(game.colours, game.moves)
    assert again.digest() == game.digest()
    # And the position text alone rebuilds it (history aside).
    assert Game.from_position(game.position()).digest() == game.digest()


def test_the_view_is_the_public_position():
    game = midgame(3)
    view = PublicView(game)
    assert view.encode() == game.encode()
    assert not hasattr(view, "apply") and not hasattr(view, "seed")
    assert view.game().position() == game.position()


@pytest.mark.parametrize("kind", bot_kinds())
def test_every_bot_chooses_the_same_move_from_the_game_and_from_its_text(kind):
    for seed in (3, 8, 21):
        game = midgame(seed)
        twin = Game.from_position(game.position())
        m1 = make_bot(kind, seed=11, **OPTIONS.get(kind, {})).choose(game)
        m2 = make_bot(kind, seed=11, **OPTIONS.get(kind, {})).choose(twin)
        assert m1 == m2
        assert game.is_legal(m1)


def test_every_kind_has_a_fixed_budget_here():
    """A new kind that thinks against the clock must get a budget in OPTIONS (or be fixed
    by nature), or the test above would compare moves that depend on the machine."""
    timed = {"search", "search1", "normal", "hard"}
    assert timed <= set(bot_kinds())
    assert all(k in OPTIONS for k in timed)
    assert set(bot_kinds()) - timed == {"random", "greedy", "easy"}


def test_bots_are_handed_a_view_never_the_game():
    seen = []

    class Spy:
        def choose(self, view):
            seen.append(view)
            return view.legal_move(0)

    FairBot("spy", Spy()).choose(midgame(3))
    assert isinstance(seen[0], PublicView)
    assert not hasattr(seen[0], "apply") and not hasattr(seen[0], "seed")


@pytest.mark.parametrize("kind", bot_kinds())
def test_make_bot_always_wraps(kind):
    assert isinstance(make_bot(kind, seed=1), FairBot)

"""Levels for people (issue 19 item 5, issue 20 part 4): what each level is, both forms."""

from __future__ import annotations

import pytest

from tongiaki_lan.bots import LEVELS, bot_kinds, make_bot
from tongiaki_lan.bots.entries import parse_entry
from tongiaki_lan.bots.levels import fixed_options, level, level_options
from tongiaki_lan.engine import Game

from .helpers import midgame


def test_the_levels_are_kinds_too():
    assert LEVELS == ("easy", "normal", "hard")
    assert set(LEVELS) <= set(bot_kinds())
    for name in LEVELS:
        assert make_bot(name, seed=1).kind == name  # the seat's label says the level


def test_a_fixed_level_never_asks_the_clock():
    for name in LEVELS:
        kind, options = level_options(name, deterministic=True)
        assert kind in bot_kinds() and "think" not in options
        if kind == "search":
            assert options["iterations"] > 0
    assert level_options("normal")[1]["think"] <= level_options("hard")[1]["think"]
    assert level_options("easy")[0] == "greedy"
    with pytest.raises(ValueError, match="levels: easy, normal, hard"):
        level("expert")


@pytest.mark.parametrize("name", ["normal", "easy"])
def test_the_fixed_form_gives_the_same_move_from_a_game_and_its_text(name):
    game = midgame(8)
    twin = Game.from_position(game.position())
    one = make_bot(name, seed=5, deterministic=True).choose(game)
    assert make_bot(name, seed=5, deterministic=True).choose(twin) == one
    assert game.is_legal(one)


def test_fixed_options_make_any_kind_repeatable():
    assert fixed_options("hard") == {"deterministic": True}
    assert "iterations" in fixed_options("search") and "iterations" in fixed_options("search1")
    assert fixed_options("greedy") == {} and fixed_options("random") == {}
    for kind in bot_kinds():  # every kind takes them
        make_bot(kind, seed=2, **fixed_options(kind))


def test_think_or_iterations_replace_a_levels_budget():
    inner = make_bot("hard", seed=1, think=0.2).inner
    assert inner.think == 0.2 and inner.iterations is None
    inner = make_bot("normal", seed=1, deterministic=True, iterations=30).inner
    assert inner.iterations == 30
    assert make_bot("easy", seed=1, think=3).inner.temper > 0  # greedy ignores think


def test_search_decides_from_the_seed_and_the_position_alone():
    """The same bot asked twice, or a fresh one, picks the same move: what a LAN table's
    drivers need (any of them may compute a bot seat's move)."""
    game = midgame(21)
    bot = make_bot("search", seed=9, iterations=40)
    first = bot.choose(game)
    bot.choose(midgame(3))  # another decision in between changes nothing
    assert bot.choose(game) == first
    assert make_bot("search", seed=9, iterations=40).choose(game) == first


def test_entries_name_kinds_levels_and_budgets():
    known = bot_kinds()
    assert parse_entry("search@0.3s", known=known).options == {"think": 0.3}
    assert parse_entry("search1@800i", known=known).options == {"iterations": 800}
    assert parse_entry("search", think=0.5, known=known).options == {"think": 0.5}
    assert parse_entry("search", 0.5, 200, known=known).options == {"iterations": 200}
    assert parse_entry("greedy", think=0.5, known=known).options == {}
    assert parse_entry("hard", think=0.5, deterministic=True, known=known).options == \
        {"deterministic": True}
    for bad in ("greedy@1s", "search@fast", "search@0s", "oracle"):
        with pytest.raises(ValueError):
            parse_entry(bad, known=known)


def test_any_integer_seeds_a_search():
    game = midgame(3)
    for seed in (-1, 0, 1 << 64, 1 << 200):
        assert game.is_legal(make_bot("search", seed=seed, iterations=5).choose(game))

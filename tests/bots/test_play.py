"""Bots play whole games: every move they return is legal, in every seat count."""

from __future__ import annotations

import pytest

from tongiaki_lan.bots import best_bot_kind, bot_kinds, make_bot
from tongiaki_lan.engine import COLOURS, Dealer, Game


def _play(kinds: list[str], seed: int, **options) -> Game:
    game = Game(COLOURS[: len(kinds)])
    dealer = Dealer(seed.to_bytes(32, "big"))
    bots = [make_bot(k, seed=seed * 10 + s, **options.get(k, {})) for s, k in enumerate(kinds)]
    while not game.is_over:
        move = bots[game.pending.seat].choose(game)
        assert game.is_legal(move), f"{kinds[game.pending.seat]} chose illegal {move}"
        dealer.apply(game, move)
    return game


@pytest.mark.parametrize("players", [2, 4, 6])
def test_greedy_and_random_finish_games_with_legal_moves(players):
    kinds = (["greedy", "random"] * 3)[:players]
    for seed in range(2):
        game = _play(kinds, seed + players)
        assert game.end_reason in ("E1", "X3")
        assert sum(game.scores().values()) > 0


def test_search_finishes_a_game_with_legal_moves():
    game = _play(["search", "greedy", "random"], 5, search={"iterations": 15})
    assert game.is_over


def test_search_is_reproducible_with_a_fixed_iteration_budget():
    def moves(seed):
        return _play(["search", "random"], seed, search={"iterations": 12}).moves

    assert moves(2) == moves(2)


def test_every_kind_accepts_think_and_refuses_unknown_options():
    for kind in bot_kinds():
        make_bot(kind, seed=1, think=0.5)
        with pytest.raises(ValueError, match=kind):
            make_bot(kind, seed=1, colour_blind=True)
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("oracle")


def test_the_best_bot_is_a_known_kind_and_not_random():
    assert best_bot_kind() in bot_kinds()
    assert best_bot_kind() != "random"

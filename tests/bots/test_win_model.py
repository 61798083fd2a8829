"""The search's win model: chances that add up, that read a table as a player does, and a
fit that finds the weights the chances were drawn with."""

from __future__ import annotations

import math
import random
from dataclasses import astuple

from tongiaki_lan.bots import make_bot
from tongiaki_lan.bots.evaluation import TABLE_MODELS, WIN_MODEL, WIN_MODEL_TWO, win_chances
from tongiaki_lan.bots.winfit import features, fit, log_loss, play
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.engine import decisions as D


def _greedy_positions(players: int, seed: int) -> list[Game]:
    game = Game(COLOURS[:players], undo=False)
    dealer = Dealer(seed.to_bytes(32, "big"))
    bots = [make_bot("greedy", seed=seed + s) for s in range(players)]
    out = []
    while not game.is_over:
        if game.pending.kind == D.ACTION:
            out.append(game.copy(undo=False))
        dealer.apply(game, bots[game.pending.seat].choose(game))
    return out


def test_the_chances_are_the_fitted_softmax_of_what_the_fit_was_given():
    """The features the fit learns from are the ones the model weighs, in the same order:
    a refit's weights mean the same in the bot. Each table size has its model."""
    for players in (2, 4, 6):
        weights = astuple(TABLE_MODELS.for_seats(players))
        for game in _greedy_positions(players, players)[::5]:
            chances = win_chances(game)
            strengths = [sum(a * b for a, b in zip(x, weights, strict=True))
                         for x in features(game)]
            top = max(strengths)
            expected = [math.exp(v - top) for v in strengths]
            total = sum(expected)
            assert len(chances) == players
            assert abs(sum(chances) - 1.0) < 1e-9
            for got, e in zip(chances, expected, strict=True):
                assert abs(got - e / total) < 1e-9


def test_late_in_the_game_the_leader_on_points_is_the_favourite():
    positions = _greedy_positions(4, 11)
    late = positions[-1]
    scores = late.scores()
    points = [scores[c] for c in late.colours]  # 24, 19, 22, 23 with a few tiles left
    chances = win_chances(late)
    assert max(range(4), key=chances.__getitem__) == points.index(max(points))
    assert min(range(4), key=chances.__getitem__) == points.index(min(points))


def test_at_the_start_nobody_is_far_ahead():
    game = _greedy_positions(4, 11)[0]  # after the setup ships, before any turn
    chances = win_chances(game)
    assert max(chances) - min(chances) < 0.1


def test_the_fit_finds_the_weights_outcomes_were_drawn_with():
    rng = random.Random(5)
    true = [0.3, -0.2, 0.5]
    samples, outcomes = [], []
    for _ in range(3000):
        n = rng.choice([2, 4, 6])
        xs = [[rng.uniform(-2, 2) for _ in true] for _ in range(n)]
        v = [sum(a * b for a, b in zip(x, true, strict=True)) for x in xs]
        top = max(v)
        e = [math.exp(x - top) for x in v]
        winner = rng.choices(range(n), e)[0]
        samples.append(xs)
        outcomes.append([1.0 if s == winner else 0.0 for s in range(n)])
    w = fit(samples, outcomes)
    for got, want in zip(w, true, strict=True):
        assert abs(got - want) < 0.08


def test_a_duel_is_read_better_by_the_two_seat_fit_than_by_the_mixed_one():
    """WIN_MODEL_TWO earns its place: on 2-seat games it was not fitted on (winfit's
    own 2-seat games, numbered past the 800 of the fit), it predicts the winner better."""
    rows = [row for g in range(800, 830) for row in play(g, seats=2)[1]]
    xs = [f for f, _, _ in rows]
    ys = [y for _, _, y in rows]
    two = log_loss(xs, ys, list(astuple(WIN_MODEL_TWO)))
    mixed = log_loss(xs, ys, list(astuple(WIN_MODEL)))
    assert two < mixed


def test_the_search_judges_a_duel_by_the_two_seat_model_and_a_bigger_table_by_the_other():
    for players, model in ((2, WIN_MODEL_TWO), (4, WIN_MODEL)):
        positions = _greedy_positions(players, 3)[4:40:6]
        by_table = make_bot("search", seed=9, iterations=60)
        pinned = make_bot("search", seed=9, iterations=60, model=model)
        other = make_bot("search", seed=9, iterations=60,
                         model=WIN_MODEL if model is WIN_MODEL_TWO else WIN_MODEL_TWO)
        chosen = [by_table.choose(g) for g in positions]
        assert chosen == [pinned.choose(g) for g in positions]
        assert chosen != [other.choose(g) for g in positions]  # the choice of model shows


def test_the_fit_can_be_checked_on_the_positions_of_other_bots(capsys):
    """`winfit --bots` plays the entries given, each at every seat in turn, and says how
    often each won beside the fit (how WIN_MODEL_TWO was checked on strong play)."""
    from tongiaki_lan.bots.winfit import main

    assert main(["--seats", "2", "--games", "4", "--jobs", "1", "--bots", "greedy,random"]) == 0
    out = capsys.readouterr().out
    wins = {line.split(":")[0]: float(line.split()[1])
            for line in out.splitlines() if " wins of 4 games" in line}
    assert set(wins) == {"greedy", "random"}
    assert sum(wins.values()) == 4
    assert wins["greedy"] > wins["random"]
    assert "held-out log-loss" in out


def test_bots_without_a_table_size_is_refused(capsys):
    import pytest

    from tongiaki_lan.bots.winfit import main

    with pytest.raises(SystemExit):
        main(["--games", "4", "--bots", "greedy,random"])
    assert "--bots needs --seats" in capsys.readouterr().err

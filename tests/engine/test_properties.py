"""Property tests over random games: invariants hold at every step, every game ends,
scores match the board, and moves round-trip through text and wire forms."""

import hashlib
import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tongiaki_lan.engine import (
    COLOURS,
    Colony,
    Dealer,
    Game,
    IllegalMove,
    Land,
    PlaceTile,
    Sail,
    move_from_wire,
    parse_move,
)

from .invariants import check, check_new_events, recomputed_scores

games = st.tuples(st.binary(min_size=32, max_size=32), st.integers(2, 6), st.integers(0, 2**32))


def play(seed, players, bot_seed, each_move=None):
    rng = random.Random(bot_seed)
    g = Game(COLOURS[:players])
    dealer = Dealer(seed)
    check(g)
    while not g.is_over:
        moves = g.legal_moves()
        move = moves[rng.randrange(len(moves))]
        start = len(g.events)
        if each_move:
            each_move(g, move)
        dealer.apply(g, move)
        check(g)
        check_new_events(g, start)
    return g


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_invariants_hold_at_every_step_and_every_game_ends(params):
    g = play(*params)
    assert g.is_over and g.end_reason in ("E1", "X3")
    assert g.scores() == recomputed_scores(g)
    assert set(g.winners()) <= set(g.colours)


def _roundtrip(g, move):
    assert parse_move(str(move)) == move, str(move)
    wire = msgpack.unpackb(msgpack.packb(move.to_wire()), raw=False)
    assert move_from_wire(wire) == move


@settings(max_examples=25, deadline=None)
@given(games)
def test_every_legal_move_round_trips_through_text_and_wire(params):
    def each(g, move):
        for m in g.legal_moves()[:40]:
            _roundtrip(g, m)
        if g.pending.kind == "landing":
            _roundtrip(g, g.default_landing())

    play(*params, each_move=each)


WRONG = [Colony(), Sail(0, 0, 0), Land(((0, (0,)),)), PlaceTile(40, 40, 0), Sail(15, 2, 5)]


@settings(max_examples=20, deadline=None)
@given(games)
def test_illegal_moves_are_refused_with_a_clause_and_change_nothing(params):
    def each(g, move):
        before = g.digest()
        legal = set(g.legal_moves())
        for wrong in WRONG:
            if wrong in legal or (g.pending.kind == "landing" and isinstance(wrong, Land)
                                  and g.landing_violation(wrong) is None):
                continue
            try:
                g.apply(wrong)
            except IllegalMove as exc:
                assert exc.clause and str(exc)
            else:
                raise AssertionError(f"{wrong} was accepted at {g.pending}")
            assert g.digest() == before

    play(*params, each_move=each)


def test_a_thousand_random_four_player_games_keep_every_invariant():
    """Done-means of the engine issue: 1000 games, no exception, invariants intact."""
    for i in range(1000):
        seed = hashlib.blake2b(f"thousand/{i}".encode(), digest_size=32).digest()
        rng = random.Random(i)
        g = Game(COLOURS[:4])
        dealer = Dealer(seed)
        while not g.is_over:
            dealer.apply(g, g.legal_move(rng.randrange(g.legal_move_count())))
            if g.pending is not None and g.pending.kind == "action":
                check(g)
        check(g)
        assert g.scores() == recomputed_scores(g)

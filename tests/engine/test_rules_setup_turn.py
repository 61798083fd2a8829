"""S1–S4, T0–T2: setup and the normal turn, each from an explicit position."""

import pytest

from tongiaki_lan.engine import (
    COLOURS,
    ChooseBeaches,
    Colony,
    Expand,
    Game,
    IllegalMove,
    Place,
    Royal,
    Sail,
    Take,
    TakeNothing,
    shuffled_stack,
)
from tongiaki_lan.engine import decisions as D

from .builder import beach, build, tid


def test_S1_tonga_at_centre_and_the_stack_follows_the_seed():
    g = Game(COLOURS[:3])
    assert g.placed_tiles() == {(0, 0): (0, 0)}
    assert g.stack_left() == 31
    assert shuffled_stack(bytes(32)) == shuffled_stack(bytes(32))
    assert shuffled_stack(bytes(32)) != shuffled_stack(bytes([1]) + bytes(31))
    assert sorted(shuffled_stack(bytes(32))) == list(range(1, 32))


def test_S2_S3_setup_goes_round_twice_from_seat_0():
    g = Game(COLOURS[:4])
    seats = []
    for _ in range(8):
        seats.append(g.pending.seat)
        assert g.pending.kind == D.SETUP
        g.apply(g.legal_moves()[0])
    assert seats == [0, 1, 2, 3, 0, 1, 2, 3]
    tonga = g.ships_on(0)
    for cid in range(4):
        assert sum(b.count(cid) for b in tonga) == 2


def test_S3_placement_that_fills_a_tonga_beach_is_illegal():
    g = Game(COLOURS[:4])
    g.apply(Place(0, (2,)))
    g.apply(Place(0, (2,)))
    before = g.digest()
    with pytest.raises(IllegalMove) as err:
        g.apply(Place(0, (2,)))
    assert err.value.clause == "S3"
    assert g.digest() == before


def test_S3_six_players_leave_exactly_two_on_every_beach():
    g = Game(COLOURS)
    while g.pending.kind == D.SETUP:
        g.apply(g.legal_moves()[-1])
    assert [len(b) for b in g.ships_on(0)] == [2] * 6


def test_S4_seat_0_takes_the_first_turn():
    g = Game(COLOURS[:3])
    while g.pending.kind == D.SETUP:
        g.apply(g.legal_moves()[0])
    assert g.pending.kind == D.ACTION and g.pending.seat == 0


def test_T0_one_of_normal_turn_royal_or_colony():
    g = build(ships={"Tonga": ["B", "R", "", "", "", ""], "Samoa": ["B", "", ""]},
              tiles={(0, -1): ("Samoa", 0)})
    moves = {str(m) for m in g.legal_moves()}
    assert moves == {"expand Tonga", "expand Samoa", "royal Samoa", "colony"}
    with pytest.raises(IllegalMove) as err:
        g.apply(Sail(0, 0, 0))
    assert err.value.clause == "T0"


def test_T1_adds_min_of_ships_beaches_reserve_and_the_player_chooses_beaches():
    g = build(tiles={(0, -1): ("Samoa", 0)},
              ships={"Tonga": ["R", "", "", "", "", ""], "Samoa": ["BB", "", ""]})
    g.apply(Expand(tid("Samoa")))
    p = g.pending
    assert (p.kind, p.count) == (D.EXPAND_BEACHES, 2)  # n=2 < 3 beaches
    assert len(g.legal_moves()) == 3  # C(3, 2)
    with pytest.raises(IllegalMove) as err:
        g.apply(ChooseBeaches((1,)))  # adding k is mandatory (Decision)
    assert err.value.clause == "T1"
    assert str(err.value).endswith("choose exactly 2 beaches")  # (not "2 beach(es)")
    g.apply(ChooseBeaches((1, 2)))
    assert [beach(g, "Samoa", b) for b in range(3)] == ["BB", "B", "B"]
    assert g.reserve(0) == 15 - 4
    assert g.pending.seat == 1  # no beach full: the turn ended (T2)


def test_T1_when_every_beach_gets_one_there_is_nothing_to_choose():
    g = build(tiles={(0, -1): ("Tubuai", 0)},
              ships={"Tonga": ["R", "", "", "", "", ""], "Tubuai": ["B", "B"]})
    g.apply(Expand(tid("Tubuai")))
    assert [beach(g, "Tubuai", b) for b in range(2)] == ["BB", "BB"]
    assert g.pending.kind == D.ACTION and g.pending.seat == 1


def test_T1a_empty_reserve_moves_one_ship_from_another_island():
    g = build(tiles={(0, -1): ("Samoa", 0)},
              ships={"Tonga": ["BB"] * 6, "Samoa": ["B", "B", "B"]})
    assert g.reserve(0) == 0
    g.apply(Expand(tid("Samoa")))
    assert g.pending.kind == D.T1A_SOURCE
    assert {str(m) for m in g.legal_moves()} == {f"take Tonga {b}" for b in range(1, 7)} | {
        "take nothing"}
    with pytest.raises(IllegalMove) as err:
        g.apply(Take(tid("Samoa"), 0))
    assert err.value.clause == "T1a"
    g.apply(Take(0, 1))
    assert g.pending.kind == D.EXPAND_BEACHES and g.pending.count == 1
    g.apply(ChooseBeaches((0,)))
    assert beach(g, "Tonga", 1) == "B" and beach(g, "Samoa", 0) == "BB"
    assert g.reserve(0) == 0


def test_T1a_taking_nothing_is_allowed_and_ends_the_turn():
    """000: "può scegliere di prendere" — the player may take a ship, or take none."""
    g = build(tiles={(0, -1): ("Samoa", 0)},
              ships={"Tonga": ["BB"] * 6, "Samoa": ["B", "B", "B"]})
    g.apply(Expand(tid("Samoa")))
    before = [beach(g, "Tonga", b) for b in range(6)] + [beach(g, "Samoa", b) for b in range(3)]
    g.apply(TakeNothing())
    after = [beach(g, "Tonga", b) for b in range(6)] + [beach(g, "Samoa", b) for b in range(3)]
    assert after == before and g.reserve(0) == 0
    assert g.pending.kind == D.ACTION and g.pending.seat == 1  # no beach full: turn over
    assert any(e.kind == "expand" and e.data[2] == () for e in g.events)


def test_T1b_too_few_ships_in_reserve_adds_what_there_is():
    # blue: 14 ships on the board, 1 in reserve; 3 ships on Samoa would allow 3
    g = build(tiles={(0, -1): ("Samoa", 0)},
              ships={"Tonga": ["BB"] * 5 + ["B"], "Samoa": ["BB", "B", ""]})
    assert g.reserve(0) == 1
    g.apply(Expand(tid("Samoa")))
    assert g.pending.kind == D.EXPAND_BEACHES and g.pending.count == 1


def test_T2_a_full_beach_after_expansion_starts_migration():
    g = build(tiles={(0, -1): ("Tubuai", 0)},
              ships={"Tonga": ["R", "", "", "", "", ""], "Tubuai": ["BB", "B"]})
    g.apply(Expand(tid("Tubuai")))
    # beach 1 of Tubuai is full (3 berths): its ships must leave through pier 1 or 2
    assert g.pending.kind == D.DEPARTURE and g.pending.seat == 0
    assert {str(m) for m in g.legal_moves()} == {"sail Tubuai 1 SW", "sail Tubuai 1 NW"}


def test_T0_colony_is_always_offered():
    g = build(ships={"Tonga": ["B", "R", "", "", "", ""]})
    assert Colony() in g.legal_moves()
    assert Royal(0) not in g.legal_moves()

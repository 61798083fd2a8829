"""M1–M4, L1, K1–K4: migration, voyages, landings and Royal Islands."""

from itertools import product

import pytest

from tongiaki_lan.engine import (
    COLOURS,
    Expand,
    IllegalMove,
    Land,
    Royal,
    Sail,
    parse_move,
)
from tongiaki_lan.engine import decisions as D

from .builder import at_landing, beach, build, ships_total, tid

FIVE = COLOURS[:5]  # blue red green yellow orange


def test_M1_every_full_beach_must_leave_in_the_order_the_player_picks():
    g = build(tiles={(0, -1): ("Tubuai", 0)},
              ships={"Tonga": ["G", "", "", "", "", ""], "Tubuai": ["BBR", "RRB"]},
              migrate=True)
    assert g.pending.kind == D.DEPARTURE
    assert {str(m) for m in g.legal_moves()} == {
        "sail Tubuai 1 SW", "sail Tubuai 1 NW", "sail Tubuai 2 NE", "sail Tubuai 2 SE"}
    with pytest.raises(IllegalMove) as err:
        g.apply(Sail(0, 0, 0))  # Tonga beach 1 is not full
    assert err.value.clause == "M1"


def test_M2_an_empty_hex_gets_the_top_tile_with_its_red_mark_against_the_pier():
    g = build(tiles={(0, -1): ("Tubuai", 0)},
              ships={"Tonga": ["G", "", "", "", "", ""], "Tubuai": ["BBR", ""]},
              stack=["S13", "Samoa"], migrate=True)
    g.apply(parse_move("sail Tubuai 1 NW"))
    # S13 at (-1,-1): red mark (edge 0) faces SE, back towards Tubuai
    assert g.tile_at((-1, -1)) == (tid("S13"), 5)
    # its route 0-5 (no number) leads NE to (0,-2), where Samoa is revealed, red mark SW
    assert g.tile_at((0, -2)) == (tid("Samoa"), 1)
    p = g.pending
    assert (p.kind, p.island, p.group) == (D.LANDING, tid("Samoa"), (0, 0, 1))
    assert len(g.legal_moves()) == 3  # one ship per beach; which beach gets red


def test_M3_worked_example_three_colours_fail_a_danger_4_route():
    g = build(colours=FIVE, tiles={(0, -2): ("Tuamotu", 0), (0, -3): ("S07", 0)},
              ships={"Tonga": ["G", "", "", "", "", ""], "Tuamotu": ["YYOR", ""]},
              migrate=True)
    g.apply(parse_move("sail Tuamotu 1 N"))
    fail = [e for e in g.events if e.kind == "fail"]
    assert fail and fail[0].data[:3] == (tid("S07"), 4, 3)
    assert beach(g, "Tuamotu", 0) == ""
    assert [g.reserve(s) for s in (1, 3, 4)] == [15, 15, 15]  # all back to the reserves
    assert g.pending.kind == D.ACTION and g.pending.seat == 1


def test_M3_worked_example_with_a_blue_instead_of_a_yellow_it_crosses():
    g = build(colours=FIVE, tiles={(0, -2): ("Tuamotu", 0), (0, -3): ("S07", 0)},
              ships={"Tonga": ["G", "", "", "", "", ""], "Tuamotu": ["BYOR", ""]},
              stack=["Samoa"], migrate=True)
    g.apply(parse_move("sail Tuamotu 1 N"))
    assert any(e.kind == "cross" and e.data == (tid("S07"), 4, 4) for e in g.events)
    assert g.tile_at((0, -4)) == (tid("Samoa"), 0)
    assert g.pending.kind == D.LANDING and g.pending.island == tid("Samoa")


def test_M3a_a_failed_crossing_ends_only_its_own_departure():
    """Decision (001, 003, 004; 000 alone ends the turn): the other full beach still sails."""
    g = build(colours=FIVE, tiles={(0, -2): ("Tuamotu", 0), (0, -3): ("S07", 0)},
              ships={"Tonga": ["GGB", "", "", "", "", ""], "Tuamotu": ["YYOR", ""]},
              migrate=True)
    assert {"sail Tuamotu 1 N", "sail Tonga 1 S"} <= {str(m) for m in g.legal_moves()}
    g.apply(parse_move("sail Tuamotu 1 N"))  # three colours fail S07's danger 4
    kinds = [e.kind for e in g.events]
    assert "fail" in kinds
    # the turn goes on: Tonga's full beach sails next (its only option, so at once)
    departs = [e.data[:2] for e in g.events if e.kind == "depart"]
    assert departs == [(tid("Tuamotu"), 0), (0, 0)] and kinds.index("fail") < len(kinds) - 1
    assert beach(g, "Tonga", 0) == ""


def test_M4_a_landing_that_fills_beaches_sets_off_a_chain_reaction():
    g = build(tiles={(0, -1): ("Tubuai", 0), (-1, -1): ("Nauru", 0)},
              ships={"Tonga": ["G", "", "", "", "", ""], "Tubuai": ["BBR", ""],
                     "Nauru": ["R", "RR", ""]},
              migrate=True)
    g.apply(parse_move("sail Tubuai 1 NW"))
    assert g.pending.kind == D.LANDING
    g.apply(parse_move("land 1:B 2:B 3:R"))
    assert [beach(g, "Nauru", b) for b in range(3)] == ["BR", "BRR", "R"]
    assert g.pending.kind == D.DEPARTURE and g.pending.seat == 0
    assert {m.island for m in g.legal_moves()} == {tid("Nauru")}


# ---------------------------------------------------------------- L1


def test_L1_every_free_beach_first_gets_one_ship():
    g = at_landing("Samoa", "BBRG", tiles={(0, -1): ("Samoa", 0)},
                   ships={"Tonga": ["G"] + [""] * 5})
    with pytest.raises(IllegalMove) as err:
        g.apply(parse_move("land 1:BB 2:RG"))
    assert err.value.clause == "L1" and "beach 3" in str(err.value)
    g.apply(parse_move("land 1:BB 2:R 3:G"))
    assert [beach(g, "Samoa", b) for b in range(3)] == ["BB", "R", "G"]


def test_L1_a_small_group_puts_at_most_one_ship_per_beach():
    g = at_landing("Samoa", "BR", tiles={(0, -1): ("Samoa", 0)},
                   ships={"Tonga": ["G"] + [""] * 5})
    with pytest.raises(IllegalMove, match="at most one ship per beach"):
        g.apply(parse_move("land 3:BR"))
    assert len(g.legal_moves()) == 6  # 3 pairs of beaches x 2 ways round


def test_L1_surplus_ships_go_home_and_the_player_picks_which():
    g = at_landing("Muroroa", "BBRRG", tiles={(0, -1): ("Muroroa", 0)},
                   ships={"Tonga": ["G"] + [""] * 5, "Muroroa": ["B", "R", "BR"]})
    # 3 free berths, 5 ships
    with pytest.raises(IllegalMove, match="exactly 3"):
        g.apply(parse_move("land 1:B 2:R"))
    # (said in words, not "1 free berth(s)": a newcomer's playtest)
    with pytest.raises(IllegalMove, match="beach 1 has only one free berth$"):
        g.apply(parse_move("land 1:BG 2:R"))
    before = [g.reserve(s) for s in range(4)]
    g.apply(parse_move("land 1:G 2:B 3:R"))
    after = [g.reserve(s) for s in range(4)]
    assert [a - b for a, b in zip(after, before, strict=True)] == [1, 1, 0, 0]


def _brute_force(g):
    """Every assignment of each ship to a beach or home, filtered by the validator."""
    group = g.pending.group
    n_beaches = len(g.ships_on(g.pending.island))
    out = set()
    for targets in product(range(-1, n_beaches), repeat=len(group)):
        per = {}
        for c, t in zip(group, targets, strict=True):
            if t >= 0:
                per.setdefault(t, []).append(c)
        move = Land(tuple((b, tuple(sorted(cs))) for b, cs in sorted(per.items())))
        if g.landing_violation(move) is None:
            out.add(move)
    return out


@pytest.mark.parametrize("island,ships,group", [
    ("Samoa", ["", "", ""], "BBRG"),
    ("Muroroa", ["B", "", "BR"], "BRGY"),
    ("Tonga", ["", "B", "", "RR", "", ""], "BRGYY"),
    ("Nauru", ["", "", ""], "BR"),
])
def test_L1_enumeration_is_exactly_the_legal_set(island, ships, group):
    layout = {"Tonga": ["G"] + [""] * 5}
    tiles = {}
    if island != "Tonga":
        tiles[(0, -1)] = (island, 0)
        layout[island] = ships
    else:
        layout["Tonga"] = ships
    g = at_landing(island, group, tiles=tiles, ships=layout)
    legal = g.legal_moves()
    assert len(legal) == len(set(legal))
    assert set(legal) == _brute_force(g)
    assert g.default_landing() in set(legal)


# ---------------------------------------------------------------- K1–K4


def test_K1_only_an_island_held_alone_can_become_royal_and_at_most_two():
    g = build(tiles={(0, -1): ("Samoa", 0), (1, -1): ("Oahu", 0), (2, -1): ("Hawaii", 0)},
              ships={"Tonga": ["B", "R"] + [""] * 4, "Samoa": ["B", "", ""],
                     "Oahu": ["B", "R", ""], "Hawaii": ["BB", "", ""]})
    legal = {str(m) for m in g.legal_moves()}
    assert {"royal Samoa", "royal Hawaii"} <= legal
    assert "royal Oahu" not in legal and "royal Tonga" not in legal
    for island, why in (("Oahu", "must be yours"), ("Tonga", "Tonga")):
        with pytest.raises(IllegalMove, match=why) as err:
            g.apply(Royal(tid(island)))
        assert err.value.clause == "K1"
    g2 = build(tiles={(0, -1): ("Samoa", 0), (1, -1): ("Oahu", 0), (2, -1): ("Hawaii", 0)},
               ships={"Tonga": ["B", "R"] + [""] * 4, "Samoa": ["B", "", ""]},
               kings={"Oahu": "blue", "Hawaii": "blue"})
    with pytest.raises(IllegalMove, match="2 Royal Islands") as err:
        g2.apply(Royal(tid("Samoa")))
    assert err.value.clause == "K1"


def test_K2_all_but_one_ship_go_home_and_the_last_becomes_king():
    g = build(tiles={(0, -1): ("Samoa", 0)},
              ships={"Tonga": ["B", "R"] + [""] * 4, "Samoa": ["BB", "B", ""]})
    reserve = g.reserve(0)
    g.apply(Royal(tid("Samoa")))
    assert g.king_of(tid("Samoa")) == 0
    assert g.ships_on(tid("Samoa")) == ((), (), ())
    assert g.reserve(0) == reserve + 2
    assert ships_total(g, 0) == 15
    assert g.pending.seat == 1  # the turn ends


def test_K3_no_expansion_on_a_royal_island_and_a_voyage_onto_one_turns_back():
    g = build(tiles={(0, -1): ("Tubuai", 0), (0, -2): ("Nauru", 0)},
              ships={"Tonga": ["G"] + [""] * 5, "Tubuai": ["BBR", ""]},
              kings={"Nauru": "red"}, stack=["S13"], migrate=True)
    assert all(m.island != tid("Nauru") for m in g.legal_moves())
    g.apply(parse_move("sail Tubuai 1 NW"))  # S13 is revealed, its route leads onto Nauru
    assert any(e.kind == "turn_back" for e in g.events)
    p = g.pending
    assert (p.kind, p.island) == (D.LANDING, tid("Tubuai"))
    with pytest.raises(IllegalMove) as err:
        build(kings={"Nauru": "blue"}, tiles={(0, -1): ("Nauru", 0)},
              ships={"Tonga": ["B"] + [""] * 5}).apply(Expand(tid("Nauru")))
    assert err.value.clause == "K3"


def test_K4_the_king_scores_its_island_and_counts_as_a_ship():
    g = build(tiles={(0, -1): ("Samoa", 0), (1, -1): ("Hawaii", 0)},
              ships={"Tonga": ["B", "R"] + [""] * 4, "Hawaii": ["R", "", ""]},
              kings={"Samoa": "blue"})
    assert g.scores()["blue"] == 5 and g.scores()["red"] == 5
    # equal points, equal islands (Tonga + one), equal ships (king counts as one)
    assert g.ranking_keys()["blue"] == g.ranking_keys()["red"] == (5, 2, -2)
    assert ships_total(g, 0) == 15

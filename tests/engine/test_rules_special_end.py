"""C1–C3, X1–X3, E1–E4: New Colony, special situations and the end of the game."""

import pytest

from tongiaki_lan.engine import (
    TONGA,
    Colony,
    Expand,
    Game,
    IllegalMove,
    Place,
    PlaceTile,
    Reveal,
    Sail,
    parse_move,
)
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.tiles import TILES

from .builder import beach, build, ships_total, tid


def test_C1_colony_takes_the_players_ships_home_but_kings_stay():
    g = build(tiles={(0, -1): ("Samoa", 0), (1, -1): ("Hawaii", 0)},
              ships={"Tonga": ["BR", "B"] + [""] * 4, "Samoa": ["B", "R", ""]},
              kings={"Hawaii": "blue"}, stack=["Oahu"])
    g.apply(Colony())
    assert beach(g, "Tonga", 0) == "R" and beach(g, "Tonga", 1) == ""
    assert beach(g, "Samoa", 1) == "R"
    assert g.king_of(tid("Hawaii")) == 0
    assert g.reserve(0) == 14  # 15 minus the king


def test_C2_tiles_are_revealed_and_placed_anywhere_adjacent_until_an_island():
    g = build(ships={"Tonga": ["B", "R"] + [""] * 4}, stack=["S13", "S01", "Oahu"])
    g.apply(Colony())
    p = g.pending
    assert (p.kind, p.tile) == (D.COLONY_TILE, tid("S13"))
    assert g.legal_move_count() == 36  # 6 hexes around Tonga x 6 rotations
    for bad, why in (("tile 0,0 S", "taken"), ("tile 3,3 S", "not next to")):
        with pytest.raises(IllegalMove, match=why) as err:
            g.apply(parse_move(bad))
        assert err.value.clause == "C2"
    g.apply(parse_move("tile 0,-1 NE"))
    assert g.tile_at((0, -1)) == (tid("S13"), 4)
    assert g.pending.tile == tid("S01")
    g.apply(PlaceTile(0, -2, 2))  # next to the sea tile only: still adjacent to a placed tile
    assert g.pending.kind == D.COLONY_TILE and g.pending.tile == tid("Oahu")
    g.apply(parse_move("tile 1,-3 S"))
    assert g.pending.kind == D.COLONY_SHIP and g.pending.island == tid("Oahu")


def test_C3_one_ship_on_any_beach_of_the_new_island_then_the_turn_ends():
    g = build(ships={"Tonga": ["B", "R"] + [""] * 4}, stack=["Oahu"])
    g.apply(Colony())
    g.apply(parse_move("tile 1,0 N"))
    assert {str(m) for m in g.legal_moves()} == {"place Oahu 1", "place Oahu 2", "place Oahu 3"}
    with pytest.raises(IllegalMove) as err:
        g.apply(Place(0, (1,)))
    assert err.value.clause == "C3"
    g.apply(parse_move("place Oahu 2"))
    assert beach(g, "Oahu", 1) == "B"
    assert g.reserve(0) == 14 and g.pending.seat == 1


def test_X1_no_ships_on_the_board_two_on_tonga_or_one_elsewhere_or_colony():
    g = build(tiles={(0, -1): ("Samoa", 0)}, ships={"Tonga": ["R", "RR"] + [""] * 4},
              kings={"Samoa": "green"})
    legal = {str(m) for m in g.legal_moves()}
    assert "colony" in legal and "place Tonga 1 3" in legal and "place Tonga 3 3" in legal
    assert "place Tonga 2 2" not in legal  # beach 2 has one free berth only
    assert not any(m.startswith(("expand", "royal", "place Samoa")) for m in legal)
    with pytest.raises(IllegalMove) as err:
        g.apply(Expand(0))
    assert err.value.clause == "X1"
    g.apply(parse_move("place Tonga 1 1"))  # fills beach 1: migration follows
    # beach 1 has a single pier (S): that departure involves no choice and happens at once
    departs = [e.data for e in g.events if e.kind == "depart"]
    assert departs[0] == (0, 0, 0, (0, 0, 1))


def test_X1_without_tonga_only_one_ship_elsewhere_or_colony():
    g = build(removed=["Tonga"], tiles={(0, -1): ("Samoa", 0)}, ships={"Samoa": ["R", "", ""]})
    legal = {str(m) for m in g.legal_moves()}
    assert legal == {"place Samoa 1", "place Samoa 2", "place Samoa 3", "colony"}


# Royal Islands around Muroroa (2,0): SW (1,1), NW (1,0), NE (3,-1), SE (3,0) — every
# pier of every Muroroa beach runs onto one of them, so every pier returns (X2b).
RING = {(2, 0): ("Muroroa", 0), (1, 1): ("Nauru", 0), (1, 0): ("Tubuai", 0),
        (3, -1): ("Rarotonga", 0), (3, 0): ("Tokelau", 0)}
RING_KINGS = {"Nauru": "red", "Tubuai": "red", "Rarotonga": "green", "Tokelau": "green"}


def test_X2b_a_closed_island_with_a_full_beach_leaves_the_game_before_any_option():
    g = build(tiles=RING, kings=RING_KINGS,
              ships={"Tonga": ["B", "Y"] + [""] * 4, "Muroroa": ["B", "", "R"]})
    g.apply(Expand(tid("Muroroa")))  # one blue ship there: k = 1, three beaches to choose
    g.apply(parse_move("beaches 1"))  # beach 1 (2 berths) is full now
    removed = [e.data for e in g.events if e.kind == "removed"]
    assert removed == [(tid("Muroroa"), (0, 0, 1))]  # B, B, R back to their owners
    assert g.tile_at((2, 0)) is None and g.removed_tiles() == (tid("Muroroa"),)
    assert ships_total(g, 0) == 15 and ships_total(g, 1) == 15
    # blue still has a ship on Tonga: no New Colony, the turn simply ends
    assert g.pending.kind == D.ACTION and g.pending.seat == 1


def test_X2b_a_player_left_without_ships_founds_a_new_colony_taking_nothing_off():
    g = build(tiles=RING, kings=RING_KINGS, stack=["Oahu"],
              ships={"Tonga": ["Y", "R"] + [""] * 4, "Muroroa": ["B", "", "R"]})
    g.apply(Expand(tid("Muroroa")))
    g.apply(parse_move("beaches 1"))
    assert g.removed_tiles() == (tid("Muroroa"),)
    colony = [e.data for e in g.events if e.kind == "colony"]
    assert colony == [(0, 0)]  # blue, nothing taken off
    assert g.pending.kind == D.COLONY_TILE and g.pending.tile == tid("Oahu")
    g.apply(parse_move("tile 0,-1 S"))
    g.apply(parse_move("place Oahu 1"))
    assert g.pending.seat == 1 and beach(g, "Tonga", 0) == "Y"


def test_X2b_tonga_with_one_route_looping_home_is_not_closed():
    """The issue's Tonga: a route that leads back does not make an island closed while
    other piers face the open sea (v1 removed Tonga here)."""
    # Tonga N -> S13 (route 0-5) -> S14 (route 1-2, needs 2 colours) -> back onto Tonga
    g = build(tiles={(0, -1): ("S13", 0), (1, -1): ("S14", 0)},
              ships={"Tonga": ["", "", "", "BB", "", ""]})
    assert g.preview(Sail(TONGA, 3, 3)).outcome == "fail"  # one colour cannot cross S14
    g = build(tiles={(0, -1): ("S13", 0), (1, -1): ("S14", 0)},
              ships={"Tonga": ["GGY", "", "", "BRR", "", ""]}, migrate=True)
    preview = g.preview(Sail(TONGA, 3, 3))
    assert (preview.outcome, preview.island, preview.path) == ("back", TONGA,
                                                               ((0, -1), (1, -1), (0, 0)))
    # X2a: only beach 1 may sail, and with one option it sails at once
    assert [e.data[:3] for e in g.events if e.kind == "depart"] == [(TONGA, 0, 0)]
    g = build(tiles={(0, -1): ("S13", 0), (1, -1): ("S14", 0)},
              ships={"Tonga": ["", "", "", "BRR", "", ""]}, migrate=True)
    assert g.hex_of(TONGA) == (0, 0) and g.removed_tiles() == ()
    # X2c: the only option leads back: the group sails (no choice) and lands at home
    assert [e.data for e in g.events if e.kind == "depart"] == [(TONGA, 3, 3, (0, 1, 1))]
    assert g.pending.kind == D.LANDING and g.pending.island == TONGA


def test_X2a_an_option_leading_back_is_illegal_while_another_leads_on():
    # Muroroa beach 1 (pier SW) leads onto royal Nauru -> back onto Muroroa
    g = build(tiles={(2, 0): ("Muroroa", 0), (1, 1): ("Nauru", 0)},
              ships={"Tonga": ["G"] + [""] * 5, "Muroroa": ["BR", "", "BBR"]},
              kings={"Nauru": "red"}, migrate=True)
    legal = {str(m) for m in g.legal_moves()}
    assert legal == {"sail Muroroa 3 NE", "sail Muroroa 3 SE"}
    with pytest.raises(IllegalMove) as err:
        g.apply(parse_move("sail Muroroa 1 SW"))
    assert err.value.clause == "X2a"


def test_X2a_holds_across_islands():
    """003/001/002: the option that ends the loop may be on another island's beach."""
    g = build(tiles={(2, 0): ("Muroroa", 0), (1, 1): ("Nauru", 0), (-2, 0): ("Tubuai", 0)},
              ships={"Tonga": ["G"] + [""] * 5, "Muroroa": ["BR", "", ""],
                     "Tubuai": ["GGB", ""]},
              kings={"Nauru": "red"}, migrate=True)
    assert {str(m) for m in g.legal_moves()} == {"sail Tubuai 1 SW", "sail Tubuai 1 NW"}


def test_X2c_when_every_option_leads_back_the_group_lands_home_and_the_chain_goes_on():
    g = build(tiles={(2, 0): ("Muroroa", 0), (1, 1): ("Nauru", 0)},
              ships={"Tonga": ["G"] + [""] * 5, "Muroroa": ["BR", "R", "B"]},
              kings={"Nauru": "red"}, migrate=True)
    # the only full beach's only pier runs onto royal Nauru: it leads back (K3); with no
    # other option the group sails at once (a single option is no choice)
    assert any(e.kind == "turn_back" for e in g.events)
    assert g.pending.kind == D.LANDING and g.pending.island == tid("Muroroa")
    g.apply(parse_move("land 1:B 3:R"))  # every beach with a free berth gets one first
    # beach 3 (3 berths) now holds BR... and beach 1 one ship: beach 3 is not full
    assert [beach(g, "Muroroa", b) for b in range(3)] == ["B", "R", "BR"]
    assert g.pending.kind == D.ACTION and g.pending.seat == 1
    assert g.removed_tiles() == ()


def test_X2d_a_repeated_position_does_not_offer_the_option_taken_in_it_again():
    """Muroroa and Nauru face each other (Muroroa beach 1 NW lands on Nauru; Nauru beach 3
    SE lands on Muroroa), every other beach of both is full. BR sails to Nauru's only free
    beach and back to Muroroa's: the very same position again. The option taken there
    before is not offered again, so the player must try another one."""
    g = build(tiles={(0, -1): ("Muroroa", 1), (-1, -1): ("Nauru", 0)},
              ships={"Tonga": ["Y"] + [""] * 5, "Muroroa": ["BR", "GG", "GGG"],
                     "Nauru": ["RR", "RRR", ""]}, migrate=True)
    start = g.position_key()
    assert "sail Muroroa 1 NW" in {str(m) for m in g.legal_moves()}
    g.apply(parse_move("sail Muroroa 1 NW"))  # lands on Nauru beach 3: no choice
    assert beach(g, "Nauru", 2) == "BR"
    g.apply(parse_move("sail Nauru 3 SE"))  # back onto Muroroa beach 1, the only free one
    assert g.position_key() == start and g.pending.kind == D.DEPARTURE
    legal = {str(m) for m in g.legal_moves()}
    assert "sail Muroroa 1 NW" not in legal and "sail Muroroa 2 N" in legal
    with pytest.raises(IllegalMove) as err:
        g.apply(parse_move("sail Muroroa 1 NW"))
    assert err.value.clause == "X2d"
    # the record of the turn is part of the position: it survives the text form
    again = Game.from_position(g.position())
    assert again.digest() == g.digest() and again.legal_moves() == g.legal_moves()


def test_X2d_when_no_option_is_left_in_a_repeated_position_the_chain_is_endless():
    """All seven options of this position were taken from it this turn (the record is in
    the position text); the group lands back into it: the ships on every full beach go
    home and the turn ends. No island is removed for this."""
    kw = dict(tiles={(0, -1): ("Muroroa", 1), (-1, -1): ("Nauru", 0)},
              ships={"Tonga": ["Y"] + [""] * 5, "Muroroa": ["BR", "GG", "GGG"],
                     "Nauru": ["RR", "RRR", ""]})
    start = build(migrate=True, **kw)
    key = start.position_key().hex()
    seen = ",".join(f"{key}>{o.replace('sail ', '').replace(' ', '/')}"
                    for o in map(str, start.legal_moves()))
    kw["ships"] = {**kw["ships"], "Muroroa": ["", "GG", "GGG"]}
    g = build(pending="landing:Muroroa:BR", group="BR", seen=seen, **kw)
    assert g.pending.kind == D.ACTION and g.pending.seat == 1
    endless = [e.data for e in g.events if e.kind == "endless"]
    assert endless == [((0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2),)]  # BR, RR, RRR, GG, GGG
    assert [beach(g, "Muroroa", b) for b in range(3)] == ["", "", ""]
    assert [beach(g, "Nauru", b) for b in range(3)] == ["", "", ""]
    assert g.removed_tiles() == () and g.reserve(2) == 15


def test_X3_the_game_ends_after_1000_turns():
    g = build(tiles={(0, -1): ("Tubuai", 0)}, turn=999,
              ships={"Tonga": ["R", "", "", "", "", ""], "Tubuai": ["B", "B"]})
    g.apply(Expand(tid("Tubuai")))
    assert g.is_over and g.end_reason == "X3"
    assert g.pending is None


ISLANDS = [t.name for t in TILES[1:16]]
SEAS = [t.name for t in TILES[16:]]


def _far(names):
    return {(20, 2 * i): (n, 0) for i, n in enumerate(names)}


def test_E1_E2_after_the_last_island_the_group_lands_and_the_turn_is_completed():
    """000 "verrà svolta una fase di sbarco … completa comunque le sue fasi": the group
    lands on the last island, full beaches still sail over placed tiles, a group that
    would need a new tile is lost, and the game ends with the turn."""
    others = [n for n in ISLANDS if n not in ("Tubuai", "Samoa")]
    tiles = {(0, -1): ("Tubuai", 0), **_far(others)}
    g = build(tiles=tiles, ships={"Tonga": ["G"] + [""] * 5, "Tubuai": ["BBR", "RR"]},
              stack=["Samoa"], migrate=True, deal=False)
    g.apply(parse_move("sail Tubuai 1 NW"))
    assert g.pending.kind == D.REVEAL and g.pending.hex == (-1, -1)
    g.apply(Reveal(tid("Samoa")))  # the 15th island
    assert g.revealed_counts()[0] == 15 and g.last_tile_out() and not g.is_over
    g.apply(parse_move("land 1:B 2:B 3:R"))
    assert g.is_over and g.end_reason == "E1"


def test_E2_in_the_middle_of_a_chain_the_last_island_lets_the_chain_go_on():
    others = [n for n in ISLANDS if n not in ("Tubuai", "Samoa", "Nauru")]
    tiles = {(0, -1): ("Tubuai", 0), (5, -5): ("Nauru", 0), **_far(others)}
    # Tubuai beach 1 sails NW into the unknown (Samoa, the last island); Nauru beach 1
    # is full too: after the landing it still sails, but its piers face the unknown
    g = build(tiles=tiles, stack=["Samoa"], migrate=True,
              ships={"Tonga": ["G"] + [""] * 5, "Tubuai": ["BBR", "RR"],
                     "Nauru": ["YY", "", ""]})
    g.apply(parse_move("sail Tubuai 1 NW"))
    g.apply(parse_move("land 1:B 2:B 3:R"))
    assert not g.is_over and g.pending.kind == D.DEPARTURE  # the turn goes on
    assert {m.island for m in g.legal_moves()} == {tid("Nauru")}
    assert g.preview(g.legal_moves()[0]).outcome == "lost"
    g.apply(g.legal_moves()[0])
    assert any(e.kind == "lost" and e.data == ((3, 3),) for e in g.events)
    assert g.reserve(3) == 15 and g.is_over and g.end_reason == "E1"


def test_E2_the_last_sea_tile_loses_the_sailing_group_and_ends_the_game_at_once():
    """001 "resteranno per mare, e quindi la partita termina": whatever lies beyond, the
    group is lost and other full beaches do not sail."""
    tiles = {(0, -1): ("Tubuai", 0), (0, -2): ("Samoa", 0),
             **_far([n for n in SEAS if n != "S13"])}
    g = build(tiles=tiles, stack=["S13"], migrate=True,
              ships={"Tonga": ["GGG"] + [""] * 5, "Tubuai": ["BBR", ""], "Samoa": ["", "", ""]})
    assert {str(m) for m in g.legal_moves()} >= {"sail Tubuai 1 NW", "sail Tonga 1 S"}
    g.apply(parse_move("sail Tubuai 1 NW"))  # S13 would lead on to Samoa: lost all the same
    assert g.tile_at((-1, -1)) == (tid("S13"), 5)
    assert g.is_over and g.end_reason == "E1"
    assert any(e.kind == "lost" for e in g.events)
    assert beach(g, "Samoa", 0) == "" and beach(g, "Tonga", 0) == "GGG"  # nobody sailed on
    assert g.reserve(0) == 15 and ships_total(g, 1) == 15


def test_E2_a_colony_that_reveals_the_last_sea_tile_places_no_ship():
    tiles = _far([n for n in SEAS if n != "S13"])
    g = build(tiles=tiles, ships={"Tonga": ["B", "R"] + [""] * 4}, stack=["S13"])
    g.apply(Colony())
    g.apply(parse_move("tile 1,0 N"))
    assert g.is_over and g.reserve(0) == 15


def test_E3_islands_score_their_value_for_every_colour_present():
    g = build(tiles={(0, -1): ("Samoa", 0), (1, -1): ("Oahu", 0), (2, -1): ("Nauru", 0)},
              ships={"Tonga": ["B", "R", "G"] + [""] * 3, "Samoa": ["BR", "", ""],
                     "Oahu": ["B", "", ""]},
              kings={"Nauru": "green"})
    assert g.scores() == {"blue": 9, "red": 5, "green": 2, "yellow": 0}


def test_E4_ties_break_on_islands_then_fewer_ships_then_shared():
    tiles = {(0, -1): ("Samoa", 0), (1, -1): ("Nauru", 0), (2, -1): ("Tubuai", 0),
             (3, -1): ("Muroroa", 0)}
    # blue: Samoa 5; red: Nauru 2 + Tubuai 2 + Muroroa... equal points, more islands wins
    g = build(players=2, tiles=tiles,
              ships={"Samoa": ["B", "", ""], "Nauru": ["R", "", ""], "Tubuai": ["R", ""]})
    assert g.scores() == {"blue": 5, "red": 4}
    g = build(players=2, tiles=tiles,
              ships={"Samoa": ["BB", "", ""], "Nauru": ["", "RR", ""], "Muroroa": ["R", "", ""],
                     "Tubuai": ["", ""]})
    assert g.scores()["red"] == 4
    g = build(players=2, tiles=tiles,
              ships={"Samoa": ["B", "", ""], "Nauru": ["R", "", ""], "Tubuai": ["R", ""],
                     "Muroroa": ["", "", "R"]})
    assert g.scores() == {"blue": 5, "red": 6} and g.winners() == ["red"]
    # equal points (4 and 4), red on more islands
    g = build(players=2, tiles={(6, 6): ("Oahu", 0), **tiles},
              ships={"Oahu": ["B", "", ""], "Nauru": ["R", "", ""], "Tubuai": ["R", ""]})
    assert g.winners() == ["red"]
    # equal points and islands: fewer ships wins
    g = build(players=2, tiles={(0, -1): ("Oahu", 0), (5, 5): ("Tahiti", 0)},
              ships={"Oahu": ["BB", "", ""], "Tahiti": ["R", "", ""]})
    assert g.winners() == ["red"]
    # all equal: shared
    g = build(players=2, tiles={(0, -1): ("Oahu", 0), (5, 5): ("Tahiti", 0)},
              ships={"Oahu": ["B", "", ""], "Tahiti": ["R", "", ""]})
    assert g.winners() == ["blue", "red"]

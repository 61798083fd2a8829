"""Which board element a click on which plays a move (console/targets.py), against real
games: every legal move of every kind names elements that the drawing has, at the place
a player looks for them (a sail's pier points the way the group sails), and the last
move's highlight marks what it changed."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from tests.engine.builder import at_landing, build, tid
from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.console.targets import move_targets, touched
from tongiaki_lan.engine import (
    COLOURS,
    TILES,
    TONGA,
    ChooseBeaches,
    Colony,
    Dealer,
    Expand,
    Game,
    Land,
    Place,
    PlaceTile,
    Reveal,
    Royal,
    Sail,
    Take,
    TakeNothing,
)
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.selfplay import game_seed
from tongiaki_lan.svgboard import board_svg, edge_angle, hex_centre

SVG = "{http://www.w3.org/2000/svg}"


def kind_of(move) -> str:
    if isinstance(move, Land) and not move.placements:
        return "land -"
    if isinstance(move, Place) and len(move.beaches) == 2:
        return "place two"
    return type(move).__name__


def drawn_targets(game: Game, frontier: bool) -> dict[str, ET.Element]:
    root = ET.fromstring(board_svg(game, frontier=frontier).encode())
    out: dict[str, ET.Element] = {}
    for node in root.iter():
        target = node.get("data-target")
        if target and node.get("class") != "hit":
            assert target not in out, f"{target} drawn twice"
            out[target] = node
    return out


def check_drawn(game: Game, move, targets: tuple[str, ...], drawn: dict[str, ET.Element]):
    """Each target is an element of the drawing, and the one a player would click."""
    for target in targets:
        assert target in drawn, f"{move}: {target} is not on the board"
        kind, *nums = target.split(":")
        node = drawn[target]
        if kind == "pier":  # the pier runs from its island's centre the way it sails
            t, _b, d = map(int, nums)
            cx, cy = hex_centre(*game.hex_of(t))
            x2, y2 = float(node.get("x2")), float(node.get("y2"))
            angle = math.degrees(math.atan2(y2 - cy, x2 - cx)) % 360
            assert abs(angle - edge_angle(d) % 360) < 1, (move, target, DIRECTION_NAMES[d])
        elif kind == "beach":  # the berths in it are that beach's, as many as it has
            t, b = map(int, nums)
            berths = [c for c in node.iter(f"{SVG}circle") if c.get("data-beach")]
            assert {c.get("data-beach") for c in berths} == {str(b + 1)}
            assert len(berths) == TILES[t].beaches[b].berths
        elif kind == "island":
            assert "island-tile" in node.get("class")
            assert node.get("data-tile") == TILES[int(nums[0])].name
        elif kind == "place":
            q, r = map(int, nums)
            assert (q, r) in game.frontier() and game.tile_at((q, r)) is None


def test_every_legal_move_of_every_kind_names_elements_the_board_draws():
    seen: Counter[str] = Counter()
    for i, players in enumerate((2, 3, 4, 5)):
        game = Game(COLOURS[:players])
        dealer = Dealer(game_seed("targets", i))
        bots = [RandomBot(10 * i + s) for s in range(players)]
        while not game.is_over:
            pending = game.pending
            drawn = drawn_targets(game, frontier=pending.kind == "colony_tile")
            for move in game.legal_moves():
                targets = move_targets(game, move)
                seen[kind_of(move)] += 1
                if isinstance(move, (Colony, TakeNothing)):
                    assert targets == ()
                else:
                    assert targets, move
                check_drawn(game, move, targets, drawn)
            dealer.apply(game, bots[game.pending_seat].choose(game))
    for kind in ("Place", "place two", "Expand", "Royal", "Colony", "ChooseBeaches", "Take",
                 "Sail", "Land", "PlaceTile"):
        assert seen[kind], f"no {kind} in these games"


def test_each_kind_of_move_names_the_element_a_player_points_at():
    game = Game(COLOURS[:3])
    # setup (S3): a beach of Tonga
    assert move_targets(game, Place(TONGA, (2,))) == ("beach:0:2",)
    # two ships at once (X1): both beaches, and one beach named twice once
    assert move_targets(game, Place(TONGA, (1, 4))) == ("beach:0:1", "beach:0:4")
    assert move_targets(game, Place(TONGA, (3, 3))) == ("beach:0:3",)
    samoa = tid("Samoa")
    assert move_targets(game, Expand(samoa)) == (f"island:{samoa}",)
    assert move_targets(game, Royal(samoa)) == (f"island:{samoa}",)
    assert move_targets(game, Take(samoa, 1)) == (f"beach:{samoa}:1",)
    # a departure: the pier (board direction), and the beach it leaves from
    assert move_targets(game, Sail(samoa, 2, 4)) == (f"pier:{samoa}:2:4", f"beach:{samoa}:2")
    assert move_targets(game, PlaceTile(1, -2, 3)) == ("place:1:-2",)
    assert move_targets(game, Colony()) == ()
    assert move_targets(game, TakeNothing()) == ()
    assert move_targets(game, Reveal(5)) == ()


def test_a_landing_names_the_beaches_of_the_island_it_lands_on():
    game = at_landing("Muroroa", "BR", tiles={(0, -1): ("Muroroa", 0)})
    land = Land(((0, (0,)), (2, (1,))))
    assert game.is_legal(land)
    m = tid("Muroroa")
    assert move_targets(game, land) == (f"beach:{m}:0", f"beach:{m}:2")
    assert move_targets(game, Land(())) == ()


def test_a_choice_of_beaches_names_the_expanded_islands_beaches():
    game = build(players=2, tiles={(0, -1): ("Tuvalu", 0)},
                 ships={"Tuvalu": ["B", "", ""]}, pending="beaches:Tuvalu:2")
    t = tid("Tuvalu")
    moves = game.legal_moves()
    assert ChooseBeaches((1, 2)) in moves
    assert move_targets(game, ChooseBeaches((1, 2))) == (f"beach:{t}:1", f"beach:{t}:2")


def test_the_last_moves_marks_are_what_it_changed():
    game = Game(COLOURS[:2])
    assert touched(game, Place(TONGA, (4,))).targets == ("beach:0:4",)
    assert touched(game, Reveal(7)).tiles == (7,)
    # a New Colony tile placed: the tile in hand (its place is no longer empty)
    g = build(ships={"Tonga": ["B", "R"] + [""] * 4}, stack=["S13", "Oahu"])
    g.apply(Colony())
    move = PlaceTile(0, -1, 4)
    assert move_targets(g, move) == ("place:0:-1",)
    marks = touched(g, move)
    assert marks.tiles == (tid("S13"),) and marks.targets == ()
    g.apply(move)
    assert g.tile_at((0, -1)) == (tid("S13"), 4)
    assert "data-target=\"place:" not in board_svg(g, frontier=False)


@pytest.mark.parametrize("move", [Expand(0), Sail(0, 1, 1)])
def test_targets_never_change_the_game(move):
    game = Game(COLOURS[:2])
    before = game.position()
    move_targets(game, move)
    touched(game, move)
    assert game.position() == before

"""The board drawing the page and `export --svg` share (svgboard): what can be clicked,
the last move marked, the places a New Colony tile may take, colours any player can
tell apart with their letters beside them, and the same bytes for the same board."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.console.terminal.theme import build_style
from tongiaki_lan.engine import COLOURS, LETTERS, TILES, Dealer, Game
from tongiaki_lan.palette import PLAYER_PAINT, contrast
from tongiaki_lan.selfplay import game_seed
from tongiaki_lan.svgboard import board_svg

SVG = "{http://www.w3.org/2000/svg}"
REPO = Path(__file__).resolve().parents[2]


def finished(players: int = 4, seed: str = "drawing") -> Game:
    game = Game(COLOURS[:players])
    dealer = Dealer(game_seed(seed, 0))
    bots = [RandomBot(s) for s in range(players)]
    while not game.is_over:
        dealer.apply(game, bots[game.pending_seat].choose(game))
    return game


def parse(text: str) -> ET.Element:
    return ET.fromstring(text.encode())


def test_every_island_beach_and_pier_carries_its_target():
    game = finished()
    root = parse(board_svg(game))
    targets = [n.get("data-target") for n in root.iter() if n.get("data-target")
               and n.get("class") != "hit"]
    assert len(targets) == len(set(targets))
    for t, rot in game.placed_tiles().values():
        tile = TILES[t]
        if tile.is_sea:
            continue
        assert f"island:{t}" in targets
        for b, beach in enumerate(tile.beaches):
            # a Royal Island has no berths (nobody lands there, K2/K3)
            assert (f"beach:{t}:{b}" in targets) == (game.king_of(t) is None)
            for p in beach.piers:
                assert f"pier:{t}:{b}:{(p + rot) % 6}" in targets
    # and each pier has a wider invisible line over its outer end, to be clicked
    hits = [n.get("data-target") for n in root.iter() if n.get("class") == "hit"]
    assert sorted(hits) == sorted(x for x in targets if x.startswith("pier:"))
    # no empty places unless asked for: the export shows none
    assert not any(x.startswith("place:") for x in targets)


def test_the_empty_places_are_drawn_when_a_tile_is_in_hand():
    game = finished(players=3, seed="frontier")
    root = parse(board_svg(game, frontier=True))
    places = sorted(n.get("data-target") for n in root.iter()
                    if (n.get("data-target") or "").startswith("place:"))
    assert places == sorted(f"place:{q}:{r}" for q, r in game.frontier())
    coords = {"".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "coord"}
    assert coords == {f"{q},{r}" for q, r in game.frontier()}  # as typed in `tile Q,R DIR`
    # the picture grows to hold them: every place lies inside the viewBox
    x0, y0, w, h = (float(v) for v in root.get("viewBox").split())
    for g in root.iter(f"{SVG}polygon"):
        if g.get("class") == "spot":
            for point in g.get("points").split():
                x, y = map(float, point.split(","))
                assert x0 <= x <= x0 + w and y0 <= y <= y0 + h


def test_the_last_move_is_marked_and_nothing_else():
    game = finished()
    t = next(t for t in game.islands() if t != 0 and game.king_of(t) is None)
    sea = next(t for t, _r in game.placed_tiles().values() if TILES[t].is_sea)
    rot = dict((tt, r) for tt, r in game.placed_tiles().values())[t]
    pier = (TILES[t].beaches[0].piers[0] + rot) % 6
    marks = (f"beach:{t}:0", f"pier:{t}:0:{pier}")
    root = parse(board_svg(game, marks=marks, marked_tiles=(sea,)))
    last = sorted(n.get("data-target") for n in root.iter()
                  if "last" in (n.get("class") or "").split())
    assert last == sorted(marks)
    outlines = [p for p in root.iter(f"{SVG}polygon") if p.get("class") == "mark"]
    assert len(outlines) == 1  # the marked tile, outlined inside its edge
    plain = parse(board_svg(game))
    assert not [n for n in plain.iter() if "last" in (n.get("class") or "").split()]


def test_the_same_board_gives_the_same_bytes_in_any_process():
    """One drawing for the page and the export, byte for byte, whatever the hash seed."""
    script = ("import hashlib;"
              "from tests.web.test_board_drawing import finished;"
              "from tongiaki_lan.svgboard import board_svg;"
              "g = finished();"
              "print(hashlib.sha256(board_svg(g, {'blue': 'Ana'}, 'x', marks=('beach:0:1',),"
              " frontier=True).encode()).hexdigest())")
    here = hashlib.sha256(board_svg(finished(), {"blue": "Ana"}, "x", marks=("beach:0:1",),
                                    frontier=True).encode()).hexdigest()
    for seed in ("0", "1", "random"):
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             env={**os.environ, "PYTHONHASHSEED": seed,
                                  "PYTHONPATH": str(REPO)}, cwd=REPO)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == here


def test_each_players_colour_carries_its_letter_everywhere():
    game = finished()
    root = parse(board_svg(game, {"blue": "Ana", "red": "Hina"}))
    ships = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "ship"]
    letters = [t for t in root.iter(f"{SVG}text") if t.get("class") in ("letter", "keyletter")]
    crowns = [p for p in root.iter(f"{SVG}polygon") if "king" in (p.get("class") or "")]
    # a letter on every ship disc (board and legend) and on every crown
    assert len(letters) == len(ships) + len(crowns)
    paint = {fill: LETTERS[COLOURS.index(c)] for c, (fill, _ink) in PLAYER_PAINT.items()}
    fills = [s.get("fill") for s in ships] + [p.get("fill") for p in crowns]
    assert sorted(paint[f] for f in fills) == sorted("".join(t.itertext()) for t in letters)
    legend = [t for t in root.iter(f"{SVG}text") if t.get("class") == "keyletter"]
    assert ["".join(t.itertext()) for t in legend] == [LETTERS[COLOURS.index(c)]
                                                      for c in game.colours]


def test_the_colours_are_okabe_itos_and_their_letters_stand_out():
    fills = {fill for fill, _ink in PLAYER_PAINT.values()}
    assert fills == {"#0072b2", "#d55e00", "#009e73", "#f0e442", "#e69f00", "#cc79a7"}
    for colour, (fill, ink) in PLAYER_PAINT.items():
        assert contrast(fill, ink) >= 5, colour


def test_the_console_paints_players_as_the_page_does_on_any_terminal():
    """A letter on a chip of its colour, in its ink: as readable on a dark terminal as on
    a light one, and the same colour as on the page."""
    rules = dict(build_style().style_rules)
    for colour, (fill, ink) in PLAYER_PAINT.items():
        style = rules[f"ship.{colour}"]
        assert f"bg:{fill}" in style and ink in style, (colour, style)

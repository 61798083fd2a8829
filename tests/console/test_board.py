"""The board as text: golden snapshots of fixed positions, and every tile face fits."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.terminal.board import (
    C_W,
    COMPACT,
    FULL,
    ROW_SPAN,
    BoardView,
    board_extent,
    compact_face,
    compact_title,
    render_text,
    tile_face,
)
from tongiaki_lan.engine import TILES, Dealer, Game, parse_move
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n.islands import island_name

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("UPDATE_SNAPSHOTS") == "1"


def _seed(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=32).digest()


def _play(seed: str, players: int, until) -> Game:
    """Random bots from a fixed seed until `until(game)` holds: a fixed position."""
    game = Game(["blue", "red", "green", "yellow", "orange", "purple"][:players])
    dealer = Dealer(_seed(seed))
    bot = make_bot("random", seed=7)
    while not game.is_over and not until(game):
        dealer.apply(game, bot.choose(game))
    return game


def _check(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        path.write_text(text, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"snapshot {path.name} was missing and has been written; run again")
    assert text == path.read_text(encoding="utf-8"), f"board differs from {path.name}"


def test_snapshot_setup_done():
    game = Game(["blue", "red", "green", "yellow"])
    dealer = Dealer(_seed("snap-setup"))
    for text in ["place Tonga 1", "place Tonga 2", "place Tonga 3", "place Tonga 4",
                 "place Tonga 4", "place Tonga 5", "place Tonga 6", "place Tonga 1"]:
        dealer.apply(game, parse_move(text))
    text = render_text(game)
    assert "Tonga" in text and "S1BY·" in text and "N4BY·" in text
    _check("setup_done", text)


def test_snapshot_midgame():
    game = _play("snap-mid", 4, lambda g: len(g.placed_tiles()) >= 12)
    _check("midgame", render_text(game))


def test_snapshot_full_board_with_royal_island():
    game = _play("snap-full-1", 4, lambda g: False)
    assert game.is_over and len(game.placed_tiles()) >= 20
    text = render_text(game)
    if game.kings():
        assert "ROYAL ISLAND" in text
    _check("full_board", text)


def test_snapshot_80x24_window_of_full_board():
    game = _play("snap-full-1", 4, lambda g: False)
    text = render_text(game, 52, 21)
    assert len(text.splitlines()) <= 21 and max(len(x) for x in text.splitlines()) <= 52
    _check("full_board_80x24", text)


def test_snapshot_colony_frontier_shows_coordinates():
    game = _play("snap-colony", 3, lambda g: g.pending is not None
                 and g.pending.kind == "colony_tile" and len(g.placed_tiles()) >= 5)
    assert game.pending.kind == "colony_tile"
    text = render_text(game, frontier=True)
    for q, r in game.legal_moves()[0:1] and [(m.q, m.r) for m in game.legal_moves()]:
        assert f"{q},{r}" in text  # every free hex shows the coordinates to type
    _check("colony_frontier", text)


@pytest.mark.parametrize("tid", range(len(TILES)))
def test_every_tile_face_fits_in_every_rotation(tid):
    """Nothing is cut off: names, every beach full of ships, every pier and route."""
    tile = TILES[tid]
    for rot in range(6) if tid else [0]:  # Tonga is never turned (S1)
        ships = tuple(tuple([0] * b.berths) for b in tile.beaches)
        face = tile_face(tid, rot, ships, None)
        rows: dict[int, str] = {}
        for dx, dy, _, text in face:
            if dy:
                lo, width = ROW_SPAN[dy - 1]
                assert lo <= dx and dx + len(text) <= lo + width, (tile.name, rot, text)
            rows[dy] = rows.get(dy, "") + text
        if tile.is_island:
            assert island_name(tid).replace(" ", "") in rows[0].replace(" ", "")
            for b, beach in enumerate(tile.beaches):
                full = f"{b + 1}{'B' * beach.berths}"
                line = next(v for v in rows.values() if full in v)
                piers = [DIRECTION_NAMES[(p + rot) % 6] for p in beach.piers]
                if tid == 0:  # Tonga: one pier per beach, written before its number
                    assert piers[0] + full in line
                else:
                    assert line.split(full)[1].split()[: len(piers)] == piers
        else:
            for route in tile.routes:
                a, b = DIRECTION_NAMES[(route.a + rot) % 6], DIRECTION_NAMES[(route.b + rot) % 6]
                expected = f"{a}-{b}" + (f" {route.danger}" if route.danger else "")
                assert any(v.strip() == expected for k, v in rows.items() if k), expected


def test_view_pans_and_recentres():
    game = _play("snap-full-1", 4, lambda g: False)  # fits neither drawing: full size, scrolled
    view = BoardView()
    centred = view.render(game, 52, 21).text()
    view.pan(1, 0)
    panned = view.render(game, 52, 21).text()
    assert panned != centred
    view.pan(-1, 0)
    assert view.render(game, 52, 21).text() == centred
    view.pan(0, 2)
    view.recentre()
    assert view.render(game, 52, 21).text() == centred


def test_a_pan_on_the_compact_board_shows_full_size_hexes_and_home_brings_it_back():
    """The compact board has no piers: panning is how a player reads them."""
    game = _play("snap-mid", 4, lambda g: len(g.placed_tiles()) >= 12)
    view = BoardView()
    fitted = view.render(game, 52, 21).text()
    assert view.geometry is COMPACT and "Tonga" in fitted
    view.pan(1, 0)
    panned = view.render(game, 52, 21).text()
    assert view.geometry is FULL and "/" in panned and panned != fitted
    view.recentre()
    assert view.render(game, 52, 21).text() == fitted


def test_a_board_larger_than_the_window_keeps_the_island_in_question_in_view():
    game = _play("snap-full-1", 4, lambda g: False)
    view = BoardView()
    centred = view.render(game, 52, 21).text()
    hidden = [t for t in game.islands() if TILES[t].name not in centred]
    assert hidden, "every island fits: nothing to prove"
    for tid in hidden:
        text = BoardView().render(game, 52, 21, focus=tid).text()
        assert island_name(tid) in text.replace("_", " ")


def test_free_hexes_drawn_faintly_and_full_beaches_stand_out():
    # a departure decision: some beach is full
    game = _play("snap-full-1", 4,
                 lambda g: g.pending is not None and g.pending.kind == "departure")
    canvas = BoardView().render(game, 300, 80)
    styles = {st for row in canvas.styles for st in row}
    assert "class:hex.frontier" in styles  # the hexes where the board may grow
    q, r = game.frontier()[0]
    assert f"{q},{r}" not in canvas.text()  # coordinates only during a New Colony
    full = [(t, b) for t in game.islands() for b, ships in enumerate(game.ships_on(t))
            if ships and len(ships) == TILES[t].beaches[b].berths]
    empty = [(t, b) for t in game.islands() for b, ships in enumerate(game.ships_on(t))
             if not ships and game.king_of(t) is None]
    assert full and empty
    for tid, beach in full + empty:
        tile, rot = game.placed_tiles()[game.hex_of(tid)]
        face = tile_face(tile, rot, game.ships_on(tid), game.king_of(tid))
        number = [s for s in face if s[2].startswith("class:beach") and s[3] == str(beach + 1)]
        want = "class:beach.full" if (tid, beach) in full else "class:beach"
        assert number and number[0][2] == want


def _late_board() -> Game:
    """A whole 31-tile board that is wider than a 120x40 screen's map at full size."""
    game = _play("fit-3", 4, lambda g: False)
    assert len(game.placed_tiles()) == 31
    return game


def test_snapshot_compact_whole_board():
    game = _late_board()
    text = render_text(game, compact=True)
    x0, y0, x1, y1 = board_extent(game.placed_tiles(), FULL)
    assert x1 - x0 > 79  # the full-size drawing does not fit the map of a 120x40 screen
    lines = text.splitlines()
    assert len(lines) <= 38 and max(len(x) for x in lines) <= 79
    for tid, _rot in game.placed_tiles().values():
        assert compact_title(tid) in text
    _check("full_board_compact", text)


def test_compact_titles_tell_every_tile_apart():
    titles = [compact_title(t) for t in range(len(TILES))]
    assert len(set(titles)) == len(TILES) and all(len(t) <= C_W for t in titles)


@pytest.mark.parametrize("tid", range(len(TILES)))
def test_every_compact_face_fits_in_every_rotation(tid):
    """Inside the walls: the title, every beach full of ships, every route and danger."""
    tile = TILES[tid]
    for rot in range(6) if tid else [0]:
        ships = tuple(tuple([0] * b.berths) for b in tile.beaches)
        face = compact_face(tid, rot, ships, None)
        rows: dict[int, str] = {}
        for dx, dy, _, text in face:
            assert 1 <= dx and dx + len(text) <= 1 + C_W, (tile.name, rot, text)
            rows[dy] = rows.get(dy, "") + text
        assert rows[0] == compact_title(tid)
        if tid == 0:
            assert [rows[r] for r in (1, 2, 3)] == ["BBBBBB"] * 3
        elif tile.is_island:
            for b, beach in enumerate(tile.beaches):
                assert f"{b + 1}{'B' * beach.berths}" in rows.values()
        else:
            for route in tile.routes:
                a, b = DIRECTION_NAMES[(route.a + rot) % 6], DIRECTION_NAMES[(route.b + rot) % 6]
                danger = str(route.danger) if route.danger else ""
                assert any(v.replace(" ", "") == f"{a}-{b}{danger}" for v in rows.values())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_no_ship_letter_touches_a_pier_label(size):
    """`5BGYNE` (ships B G Y, pier NE) cannot be read: on the map of an 80x24 and a 120x40
    screen, in every position of whole games, a pier's letters never sit next to a ship's
    (nor a pier's next to another pier's without a space)."""
    cols, rows = size
    width = cols - 1 - (32 if cols < 100 else min(48, cols // 3))  # as the game screen
    height = rows - 3
    checked = 0
    for seed, players in (("sep-1", 4), ("sep-2", 6), ("sep-3", 2)):
        game = Game(["blue", "red", "green", "yellow", "orange", "purple"][:players])
        dealer = Dealer(_seed(seed))
        bot = make_bot("random", seed=11)
        while not game.is_over:
            canvas = BoardView().render(game, width, height)
            for y, styles in enumerate(canvas.styles):
                for x in range(len(styles) - 1):
                    pair = (styles[x], styles[x + 1])
                    kinds = {s.split(".")[0] for s in pair}
                    touching = ("class:pier" in pair and "class:ship" in kinds
                                and canvas.chars[y][x] != " " and canvas.chars[y][x + 1] != " ")
                    assert not touching, "".join(canvas.chars[y])
            checked += 1
            dealer.apply(game, bot.choose(game))
    assert checked > 200

"""The board fitted to the window: a whole late board on a 120x40 screen, and clicks on it.

Each test runs the real prompt_toolkit Application into an in-memory VT100 terminal of
the given size and reads what the renderer put on that screen, cell by cell.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import re

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.board import (
    COMPACT,
    FULL,
    board_extent,
    compact_face,
    fitting_geometry,
)
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import TILES, Dealer, Game, Sail

from .conftest import wait_until

MAP_COLUMNS = 120 - 40 - 1  # a 120-column screen: the side column is 40 wide, then a rule


def _play(seed: str, until=lambda g: False) -> Game:
    game = Game(["blue", "red", "green", "yellow"])
    dealer = Dealer(hashlib.blake2b(seed.encode(), digest_size=32).digest())
    bot = make_bot("random", seed=7)
    while not game.is_over and not until(game):
        dealer.apply(game, bot.choose(game))
    return game


def _screen(game: Game) -> GameScreen:
    seat = game.pending.seat if game.pending is not None else 0
    seats = [Seat(n, c, local=(i == seat))
             for i, (n, c) in enumerate(zip(["Ana", "Ben", "Cy", "Di"], game.colours,
                                            strict=False))]
    return GameScreen(GameSession(game, seats), colour=False)


def _mouse(x: int, y: int) -> str:
    """A left click at screen cell (x, y), as an xterm SGR mouse report (press, release)."""
    return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"


def _rows(screen: GameScreen) -> list[str]:
    """The terminal's cells as the renderer last drew them."""
    drawn = screen.app.renderer._last_screen
    if drawn is None:
        return []
    return ["".join(drawn.data_buffer[y][x].char for x in range(120)) for y in range(40)]


async def _run(screen: GameScreen, inp, until) -> asyncio.Future:
    await screen.session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    await wait_until(lambda: until(_rows(screen)), what="the screen to show the board")
    return task


def _tonga_origin(rows: list[str]) -> tuple[int, int]:
    """Screen cell of Tonga's hex box (Tonga's title is centred on its top wall)."""
    for y, row in enumerate(rows):
        x = row.find("Tonga")
        if 0 <= x < MAP_COLUMNS:
            return x - 1, y
    raise AssertionError("Tonga is not on the map:\n" + "\n".join(rows))


def _session_output():
    stream = io.StringIO()
    return Vt100_Output(stream, lambda: Size(rows=40, columns=120), term="xterm")


async def test_a_whole_late_board_shows_every_tile_on_a_120x40_screen():
    game = _play("fit-3")
    placed = game.placed_tiles()
    assert len(placed) == 31
    x0, _y0, x1, _y1 = board_extent(placed, FULL)
    assert x1 - x0 > MAP_COLUMNS  # the full-size hexes would be cut off
    with create_pipe_input() as inp, create_app_session(input=inp, output=_session_output()):
        screen = _screen(game)
        task = await _run(screen, inp, lambda rows: any("Tonga" in r for r in rows)
                          or any("Final score" in r for r in rows))
        inp.send_text("map\r")  # the game is over: from the final table to the map
        await wait_until(lambda: any("Tonga" in r[:MAP_COLUMNS] for r in _rows(screen)),
                         what="the map")
        rows = _rows(screen)
        inp.send_text("\x03\x03")  # (over: the first one leaves)
        assert await asyncio.wait_for(task, 30) == 0
    tx, ty = _tonga_origin(rows)
    tonga_x, tonga_y = COMPACT.origin(game.hex_of(0))
    for h, (tid, rot) in placed.items():
        hx, hy = COMPACT.origin(h)
        x, y = tx + hx - tonga_x, ty + hy - tonga_y
        ships = game.ships_on(tid) if tid < 16 else ()
        king = game.king_of(tid) if tid < 16 else None
        for dx, dy, _style, text in compact_face(tid, rot, ships, king):
            # every character of every tile is on the screen, left of the side column
            assert 0 <= x + dx and x + dx + len(text) <= MAP_COLUMNS, (TILES[tid].name, text)
            assert rows[y + dy][x + dx:x + dx + len(text)] == text, (TILES[tid].name, text)


async def test_clicks_on_the_compact_board_put_the_right_move_on_the_line():
    # Departures late in a game, whose board fits the 120x40 map only in compact hexes:
    # one from a two-pier beach of Tokelau, one from Tonga's beach 3 (left half, row 2).
    for moves, island, beach in ((54, 6, 2), (68, 0, 2)):
        game = _play("fit-3", lambda g, n=moves: len(g.moves) >= n)
        assert game.pending.kind == "departure"
        sails = [str(m) for m in game.legal_moves()
                 if isinstance(m, Sail) and (m.island, m.beach) == (island, beach)]
        assert sails
        with create_pipe_input() as inp, create_app_session(input=inp,
                                                            output=_session_output()):
            screen = _screen(game)
            task = await _run(screen, inp, lambda rows: any("Tonga" in r for r in rows))
            assert screen.view.geometry is COMPACT
            tx, ty = _tonga_origin(_rows(screen))
            ix, iy = COMPACT.origin(game.hex_of(island))
            zx, zy = COMPACT.origin(game.hex_of(0))
            x, y = tx + ix - zx, ty + iy - zy
            if island == 0:  # Tonga: beaches 2k+1 | 2k+2 on row k+1
                cell = (x + 2, y + 1 + beach // 2)
            else:
                first = 1 if len(TILES[island].beaches) >= 3 else 2
                cell = (x + 1, y + first + beach)
                assert _rows(screen)[cell[1]][cell[0]] == str(beach + 1)
            inp.send_text(_mouse(*cell))
            want = sails[0] if len(sails) == 1 else f"sail {TILES[island].name} {beach + 1} "
            await wait_until(lambda w=want, s=screen: s.buffer.text == w, what=f"the move {want!r}")
            if len(sails) > 1:  # the menu then lists that beach's piers with their effect
                await wait_until(lambda s=screen: s.buffer.complete_state is not None,
                                 what="the menu of piers")
                offered = {c.text for c in screen.buffer.complete_state.completions}
                assert offered == set(sails)
            inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
            assert await asyncio.wait_for(task, 30) == 0


async def test_a_new_colony_on_a_late_board_shows_every_free_hex_and_a_click_picks_one():
    """With its ring of free hexes the board fits no drawing whole: the tiles are drawn
    compact and the ring as far as it fits, every hex the tile may go to labelled."""
    game = _play("fit-3", lambda g: len(g.moves) >= 120 and g.pending.kind == "colony_tile")
    assert game.pending.kind == "colony_tile" and len(game.placed_tiles()) >= 29
    hexes = sorted({(m.q, m.r) for m in game.legal_moves()})
    with create_pipe_input() as inp, create_app_session(input=inp, output=_session_output()):
        screen = _screen(game)
        task = await _run(screen, inp, lambda rows: any("Tonga" in r for r in rows))
        assert screen.view.geometry is COMPACT
        rows = [r[:MAP_COLUMNS] for r in _rows(screen)]
        where = {}
        for q, r in hexes:
            label = f"|{f'{q},{r}':^6}|"  # a compact free hex's label between its walls
            found = [(row.find(label), y) for y, row in enumerate(rows) if label in row]
            assert found, f"{q},{r} is not on the map"
            where[q, r] = found[0]
        (q, r), (x, y) = hexes[len(hexes) // 2], where[hexes[len(hexes) // 2]]
        inp.send_text(_mouse(x + 3, y))
        await wait_until(lambda: screen.buffer.text == f"tile {q},{r} ", what="the free hex")
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0


def test_a_french_line_never_starts_with_the_punctuation_its_space_comes_before():
    """French writes "place ; un bot" and "tuile : S04": the log broke a line at that
    space, and the next began "  ; un bot (normal) joue sa place" (a playtest)."""
    from tongiaki_lan.console.terminal.widgets import wrap_fragments

    text = "Cy a quitté la table pour de bon ; un bot (normal) joue sa place désormais."
    for width in range(20, 60):
        rows = ["".join(t for _c, t in row) for row in wrap_fragments([("info", text)], width)]
        assert not any(r.lstrip().startswith((";", ":", "!", "?")) for r in rows), rows
        assert "".join(rows).replace("\u00a0", " ").replace("  ", " ").startswith("Cy a")


def test_a_turn_header_too_wide_for_the_panel_drops_its_rules_not_its_colour():
    """At 33 columns "── turn 22: Ben — bot (normal) (R) ──" broke before "(R) ──", the
    letter that says whose colour the turn is on a line of its own."""
    from tongiaki_lan.console.terminal.widgets import wrap_fragments

    header = ("turn", "── turn 22: Ben — bot (normal) (R) ──")
    rows = ["".join(t for _c, t in row) for row in wrap_fragments([header], 33)]
    assert rows == ["turn 22: Ben — bot (normal) (R)"]
    wide = ["".join(t for _c, t in row) for row in wrap_fragments([header], 60)]
    assert wide == [header[1]]  # (with room, the rules stay)


def test_a_summary_line_never_cuts_a_move_between_two_rows():
    """"Since your last move" broke "Hina: expand Tonga, beaches 4 5" as "beaches 4" and
    "5" on the next row (a playtest): a move reads as one piece."""
    from tongiaki_lan.console.terminal.widgets import wrap_fragments

    moves = ["expand Tonga", "beaches 4 5", "sail Rapa Nui 2 SW", "land 3 on beach 2"]
    line = ("summary", "  Hina: " + ", ".join(moves))
    for width in range(24, 70):
        rows = [" ".join("".join(t for _c, t in row).split())
                for row in wrap_fragments([line], width)]
        pieces = [p.strip() for r in rows for p in r.removeprefix("Hina:").split(",")]
        assert [p for p in pieces if p] == moves, (width, rows)


async def test_the_log_says_once_why_the_map_turned_compact_and_what_size_shows_it_whole():
    """A newcomer saw the hexes shrink and lose their piers between two moves, with no
    word of why: the log now says so, with the window size that shows the full map."""
    game = _play("fit-3", lambda g: len(g.moves) >= 54)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_session_output()):
        screen = _screen(game)
        task = await _run(screen, inp, lambda rows: any("Tonga" in r for r in rows))
        assert screen.view.geometry is COMPACT
        said = re.compile(r"The map is drawn compact, without piers .*: the board no longer "
                          r"fits this window at full size\. A window of at least (\d+)×(\d+) "
                          r"shows it full size\.")
        await wait_until(lambda: "at least" in " ".join(_rows(screen)), what="the note")
        told = [t for _s, t in screen.session.lines if said.match(t)]
        assert len(told) == 1, screen.session.lines
        cols, rows = map(int, said.match(told[0]).groups())
        # at that size the whole board is drawn full size; a column less, it is not
        side = GameScreen._side_for(cols)
        assert fitting_geometry(game.placed_tiles(), cols - side - 1, rows - 3) is FULL
        x0, y0, x1, y1 = board_extent(game.placed_tiles(), FULL)
        assert x1 - x0 > cols - 1 - GameScreen._side_for(cols - 1) - 1  # (the least)
        assert rows == max(24, y1 - y0 + 3)
        inp.send_text("help\r")  # more drawings of the same compact map: said once only
        await wait_until(lambda: any("Goal" in t for _s, t in screen.session.lines))
        await wait_until(lambda: any("Goal" in r for r in _rows(screen)), what="the help")
        assert len([t for _s, t in screen.session.lines if said.match(t)]) == 1
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

"""The map keeps its drawing while a longer reason or status takes a row from it.

A real prompt_toolkit Application on an in-memory 80x24 VT100 terminal, read cell by cell.
"""

from __future__ import annotations

import asyncio
import hashlib
import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.terminal.board import COMPACT, fitting_geometry
from tongiaki_lan.engine import Dealer, Game

from .conftest import duel_seats, start_screen, terminal_rows, wait_until

MAP_COLUMNS, MAP_ROWS = 80 - 32 - 1, 24 - 3  # with a one-row status and message line


def _rows(screen) -> list[str]:
    return terminal_rows(screen, 80, 24)


async def test_a_two_row_reason_does_not_switch_the_map_to_the_other_drawing():
    """A 2-player board that fits the 80x24 map only compact, and just: a refusal two rows
    long took a row from the map, which then switched to hexes until the reason went
    (and back to boxes after), turn after turn, with nothing said."""
    game = Game(["blue", "red"])
    dealer = Dealer(hashlib.blake2b(b"flip-3", digest_size=32).digest())
    bot = make_bot("random", seed=3)
    while not (len(game.moves) >= 50 and game.pending.kind == "action"):
        dealer.apply(game, bot.choose(game))
    placed = game.placed_tiles()
    assert fitting_geometry(placed, MAP_COLUMNS, MAP_ROWS) is COMPACT
    assert fitting_geometry(placed, MAP_COLUMNS, MAP_ROWS - 1) is not COMPACT  # (just fits)
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        screen, task = await start_screen(GameSession(game, duel_seats(game)))
        await wait_until(lambda: any("Tonga" in r[:MAP_COLUMNS] for r in _rows(screen)),
                         what="the map")
        assert screen.view.geometry is COMPACT
        inp.send_text("z" * 40 + "\r")  # an unknown command: its reason takes two rows
        await wait_until(lambda: any("unknown command" in r for r in _rows(screen)),
                         what="the reason on screen")
        assert len(screen._message_rows()) == 2
        assert screen.view.geometry is COMPACT  # the same drawing, one row shorter
        assert any("Tonga" in r[:MAP_COLUMNS] for r in _rows(screen))
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

"""The island the pending decision is about stays on the map, also after `centre`.

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
from tongiaki_lan.console.terminal.board import FULL
from tongiaki_lan.engine import Dealer, Game, Sail
from tongiaki_lan.i18n.islands import island_name

from .conftest import duel_seats, start_screen, terminal_rows, wait_until

MAP_COLUMNS, MAP_ROWS = 80 - 32 - 1, 24 - 3  # beside the side column, above status/message/prompt
RIGHT = "\x1b[C"


def _departure() -> Game:
    """A 2-player board too big for the 80x24 map in either drawing, at a departure from
    one island only (Rarotonga), which the map centred on the whole board leaves out."""
    game = Game(["blue", "red"])
    dealer = Dealer(hashlib.blake2b(b"off-map-8", digest_size=32).digest())
    bot = make_bot("random", seed=3)
    while not (len(game.moves) >= 90 and game.pending.kind == "departure"):
        dealer.apply(game, bot.choose(game))
    return game


def _map(screen) -> str:
    return "\n".join(terminal_rows(screen, MAP_COLUMNS, MAP_ROWS))


async def test_a_departures_island_is_on_the_map_and_centre_comes_back_to_it():
    """"Your decision: Rarotonga 1 is full" while Rarotonga was off the map, and `centre`
    went back to Tonga: a departure has no island of its own in the engine's decision."""
    game = _departure()
    islands = {m.island for m in game.legal_moves() if isinstance(m, Sail)}
    assert len(islands) == 1
    name = island_name(islands.pop())
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        screen, task = await start_screen(GameSession(game, duel_seats(game)))
        await wait_until(lambda: "Tonga" in _map(screen) or name in _map(screen),
                         what="the map")
        assert f"Your decision: {name} 2 is full" in screen.status_text()
        assert screen.view.geometry is FULL  # scrolled: the board fits no drawing whole
        assert name in _map(screen), _map(screen)
        inp.send_text(RIGHT * 3)  # panned away, then back with `centre`
        await wait_until(lambda: screen.view.offset is not None
                         and screen.view._drawn == screen.view.offset, what="the pan")
        panned = screen.view._drawn
        inp.send_text("centre\r")
        await wait_until(lambda: screen.view.offset is None and screen.view._drawn != panned,
                         what="the map drawn re-centred")
        assert name in _map(screen), _map(screen)
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

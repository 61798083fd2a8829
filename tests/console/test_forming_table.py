"""The table as it forms (console/forming.py): the lobby's screen and the board page
draw one value, so the page shows what the console lists — not a story of its own."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from tongiaki_lan.console.forming import forming_table
from tongiaki_lan.console.web.payload import state_json

from .conftest import wait_until
from .test_lobby_texts import FakeLan, _lobby, _output, rows_of


def _seat(name, owner, colour, kind="human", ready=False, bot="", plays=""):
    return SimpleNamespace(kind=kind, name=name, colour=colour, owner=owner, ready=ready,
                           bot=bot, plays=plays)


async def test_the_lobby_screen_and_the_page_draw_one_forming_table():
    import json

    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        table = SimpleNamespace(
            seats=(_seat("Tester", b"me", "blue", ready=True),
                   _seat("Ana", b"ana", "red"),
                   _seat("Maui (easy)", b"me", "green", kind="bot", ready=True, bot="easy")),
            name="Reef", total=4, passphrase=True, phase="lobby", variant="standard",
            members=())
        lobby.node = SimpleNamespace(lobby=table, game_id=b"g", peer_id=b"me",
                                     coordinator=lambda: b"me", present=lambda: {b"me"})
        lobby.app.invalidate()
        await wait_until(lambda: any("Your table: Reef" in r for r in rows_of(lobby)),
                         what="the table drawn")
        rows = rows_of(lobby)
        page = json.loads(state_json(forming_table(lobby.node)))
        assert page["type"] == "forming" and page["title"] == "Reef"
        assert page["heading"] == "Your table: Reef (lobby, 3/4 seats, passphrase)"
        assert " " + page["heading"] in rows
        assert page["open_text"] == "1 seat open"
        for seat, want in zip(page["seats"], (("Tester", "human", "ready", ["you"]),
                                              ("Ana", "human", "not ready", ["away"]),
                                              ("Maui", "bot easy", "ready", [])),
                              strict=True):
            assert (seat["name"], seat["kind"], seat["ready_text"], seat["flags"]) == want
            row = next(r for r in rows if r.startswith(f"  {seat['number']}. "))
            for words in (seat["colour_name"], seat["name"], seat["kind"], seat["ready_text"],
                          *seat["flags"]):
                assert words in row, (words, row)
        assert [s["this_laptop"] for s in page["seats"]] == [True, False, False]
        assert [s["letter"] for s in page["seats"]] == ["B", "R", "G"]
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


def test_no_table_no_forming_table():
    assert forming_table(None) is None
    assert forming_table(SimpleNamespace(lobby=None)) is None


def test_a_lobbys_page_shows_the_next_table_then_its_game_then_the_last_board():
    """The lobby's page (served since a game) between games: the table this laptop sits
    at as it forms, the last board again once it sits at none, and a game shown is never
    covered by a table."""
    from tongiaki_lan.console.boardlink import BoardLink
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.input import TableInput
    from tongiaki_lan.console.model import TableModel
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import Game

    link = BoardLink()
    game = Game(["blue", "red"])
    model = TableModel(GameSession(game, [Seat("Ana", "blue"), Seat("Ben", "red")]))
    link.attach(model, TableInput(model))
    node = SimpleNamespace(lobby=SimpleNamespace(
        seats=(_seat("Tester", b"me", "blue"),), name="Reef", total=2, passphrase=False,
        phase="lobby", variant="standard", members=()), peer_id=b"me",
        present=lambda: {b"me"})
    link.forming(forming_table(node))
    assert link.state() is model.state  # (a game on the page: no table over it)
    link.detach()  # back in the lobby
    last = link.state()
    link.forming(forming_table(node))
    assert link.state() == forming_table(node)
    link.forming(None)  # left the table
    assert link.state() is last

"""`create NAME 2 --two-colours` in the lobby (docs/rules.md V1): the table option reaches
the node, wrong seat counts are refused with a reason, and the table line says it."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from .conftest import wait_until
from .test_lobby_texts import FakeLan, _lobby, _output, rows_of


async def test_V1_create_two_colours_reaches_the_node_and_the_table_line_says_it():
    created = []

    async def create_game(name, seats, passphrase, colour, variant="standard"):
        created.append((name, seats, variant))

    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        lobby.node = SimpleNamespace(lobby=None, game_id=None, peer_id=b"me",
                                     create_game=create_game)
        inp.send_text("create Duo 3 --two-colours\r")
        await wait_until(lambda: lobby.message.startswith("create: --two-colours is for 2"),
                         what=f"the refusal, got {lobby.message!r}")
        inp.send_text("create Duo --two-colours\r")  # SEATS may be left out: 2
        await wait_until(lambda: created, what="the game to be created")
        inp.send_text("create Quad 4\r")
        await wait_until(lambda: len(created) == 2, what="a standard game")
        assert created == [("Duo", 2, "two-colours"), ("Quad", 4, "standard")]
        seat = SimpleNamespace(kind="human", name="Tester", colour="blue", owner=b"me", plays="",
                               ready=False, bot="")
        table = SimpleNamespace(seats=(seat,), name="Duo", total=2, passphrase=False,
                                phase="lobby", variant="two-colours", members=())
        lobby.node = SimpleNamespace(lobby=table, game_id=b"g", peer_id=b"me",
                                     coordinator=lambda: b"me", present=lambda: {b"me"})
        lobby.app.invalidate()
        await wait_until(lambda: any("two colours each" in r for r in rows_of(lobby)),
                         what="the table line")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_the_table_line_says_a_changed_tile_wait():
    """`wait 30` said nothing, to the player who typed it or to the others: the table's
    line now says it whenever it is not the default."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        seat = SimpleNamespace(kind="human", name="Tester", colour="blue", owner=b"me", plays="",
                               ready=False, bot="")
        table = SimpleNamespace(seats=(seat,), name="Reef", total=3, passphrase=False,
                                phase="lobby", variant="standard", members=(), draw_wait=15)
        lobby.node = SimpleNamespace(lobby=table, game_id=b"g", peer_id=b"me",
                                     coordinator=lambda: b"me", present=lambda: {b"me"},
                                     set_draw_wait=lambda s: setattr(table, "draw_wait", s))
        lobby.app.invalidate()
        await wait_until(lambda: any("Your table: Reef (lobby, 1/3 seats)" in r
                                     for r in rows_of(lobby)), what="the table line")
        assert not any("tiles wait" in r for r in rows_of(lobby))
        inp.send_text("wait 30\r")  # (the one who typed it is told in words, too)
        await wait_until(lambda: any("a tile now waits 30 s for a player who vanished" in t
                                     for _s, t in lobby.lines), what="the wait told")
        await wait_until(lambda: any("Reef (lobby, 1/3 seats, tiles wait 30 s)" in r
                                     for r in rows_of(lobby)), what="the wait said")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)

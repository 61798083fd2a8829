"""Leaving a LAN table from the console: for good (Enter, Ctrl-C again) or back soon
(`quit soon`), and what the other node is told."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.cli.lobby import back_soon
from tongiaki_lan.console.lan import LanSession
from tongiaki_lan.console.screen import GameScreen
from tongiaki_lan.net.lab.loopback import close_all, make_table

from .conftest import wait_until


@pytest.mark.parametrize(("keys", "for_good"), [
    (("\x03", "\x03"), True), (("quit soon\r",), False),
    # the question puts `quit` on the line and says "type 'quit soon'": a space continues
    # the offered word (it replaced it, and ` soon` was "soon: unknown command")
    (("\x03", " soon\r"), False)])
async def test_leaving_a_lan_table_says_for_good_or_back_soon(tmp_path, keys, for_good):
    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        me, other = nodes
        await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        heard = []
        other.add_listener(lambda ev: heard.append(ev) if ev.kind == "left" else None)
        session = LanSession(me)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen = GameScreen(session, colour=False)
            await session.start()
            task = asyncio.ensure_future(screen.app.run_async())
            await wait_until(lambda: screen.app.is_running, what="the application to start")
            if len(keys) > 1:
                inp.send_text(keys[0])
                await wait_until(lambda: "a bot takes your seat at once" in screen.message[1]
                                 and "'quit soon'" in screen.message[1], what="the question")
                inp.send_text(keys[1])
            else:
                inp.send_text(keys[0])
            assert await asyncio.wait_for(task, 30) == 0
        # back soon: the terminal's last line says how to come back (only "Record saved")
        assert back_soon(session) is not for_good
        await session.close()
        await other.wait_for(lambda: bool(heard), 30)
        (ev,) = heard
        assert ev.for_good is for_good and ev.peer == me.peer_id.hex()
        seat = me.core.my_seats()[0] if me.lobby else 0
        if for_good:  # a bot plays the seat at once; back soon: it waits
            await other.wait_for(lambda: other.lobby.seats[seat].bot != "", 30)
        else:
            assert other.lobby.seats[seat].bot == ""
    finally:
        await close_all(nodes)

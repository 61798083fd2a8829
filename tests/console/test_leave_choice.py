"""Leaving a LAN table from the console: for good (Enter, Ctrl-C again) or back soon
(`quit soon`), and what the other node is told."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.cli.lobby import back_soon
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.terminal.screen import GameScreen
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


@pytest.mark.parametrize("keys", [("\x03", "\r"), ("quit soon\r",)])
async def test_a_table_of_this_laptop_and_its_bots_says_leaving_ends_the_game(tmp_path, keys):
    """At a table where no other laptop plays (a creator and the table's bot), the
    leaving question promised "your seat waits — run tongiaki-lan again and join the
    game marked 'yours'", and so did the last line after `quit soon`; back in the lobby
    the list was empty: nobody had played on. It says the game ends here."""
    (me,) = await make_table(1, tmp_path, autoplay=None, bots=1)
    try:
        await me.wait_for(lambda: me.game is not None, 30)
        session = LanSession(me)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen = GameScreen(session, colour=False)
            await session.start()
            task = asyncio.ensure_future(screen.app.run_async())
            await wait_until(lambda: screen.app.is_running, what="the application to start")
            await wait_until(session.my_decision, what="our decision")
            inp.send_text("\x03")
            await wait_until(lambda: "the game is not over" in screen.message[1],
                             what="the question")
            said = screen.message[1]
            assert "no other laptop plays at this table, so the game ends here" in said
            assert "quit soon" not in said and "seat waits" not in said
            inp.send_text("\x15")  # (the line cleared: staying after all)
            await wait_until(lambda: "the game is not over" not in screen.message[1])
            for key in keys:
                inp.send_text(key)
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
        assert not back_soon(session)  # (no "Your seat waits for you" as the screen goes)
    finally:
        await close_all([me])

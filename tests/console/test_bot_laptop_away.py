"""A bot laptop (`play --headless --bot`) that drops off the network at its own decision.

Its seat is labelled a bot's ("p1 — bot (random)"), and the status line read "p1 — bot
(random) is thinking…" with a spinner while the game in fact waited for that laptop to
come back (a LAN playtest): the player never learnt that `replace` was the way on.
"""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.net.lab.loopback import close_all

from .conftest import start_screen, wait_until
from .test_draw_countdown import _table


async def test_a_bot_laptop_gone_at_its_decision_is_waited_for_and_replace_is_offered(tmp_path):
    nodes, rule = await _table(tmp_path, handover_after=30.0, their_bot="random")
    me, bot = nodes
    try:
        def mine() -> bool:
            p = me.game.pending
            return p is not None and p.seat in me.my_seats()

        # the setup, the bot laptop playing its own ships, up to our first action
        while not (mine() and me.game.pending.kind == "action"):
            n = len(me.game.moves)
            if mine():
                me.send_move(me.game.legal_moves()[0])
            await me.wait_for(lambda n=n: len(me.game.moves) > n, 30)
        session = LanSession(me)
        assert "p1 — bot (random)" in session.labels
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            rule.drop = 1.0  # the bot laptop drops off the network
            while True:  # our turn, to its end (a tile it reveals is drawn without
                # the cut-off laptop, after the table's draw wait): its decision
                p = me.game.pending
                if p is not None and p.seat is not None and p.seat not in me.my_seats():
                    break
                n = len(me.game.moves)
                if mine():
                    me.send_move(me.game.legal_moves()[0])
                await me.wait_for(lambda n=n: len(me.game.moves) > n, 60)
            await wait_until(lambda: "Waiting for p1 to come back" in screen.status_text(),
                             what="the wait for the bot laptop")
            assert "replace p1 gives the seat to a bot" in screen.status_text()
            assert "thinking" not in screen.status_text()
            inp.send_text("\x03\x03")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all(nodes)

"""The board page of a player who waits for another who does not play (protocol/
transport.md, "A player who does not play"): the wait and its countdown, once, with the
seconds the page counts. Real nodes on 127.0.0.1, their consoles' sessions, the table
model's page served by a real BoardServer, in a real Chromium."""

from __future__ import annotations

import re
from types import SimpleNamespace

from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.net.lab.loopback import close_all, make_table
from tongiaki_lan.net.protocol import core

from .conftest import serving


async def test_the_wait_for_a_player_who_does_not_play_counts_down_once(browser, tmp_path,
                                                                        monkeypatch):
    """Ana's page read "Waiting for Ben to come back — in 42 s replace Ben gives the seat
    to a bot — Ben (R)" above "Waiting for Ben to come back — in 42 s replace Ben gives
    the seat to a bot (29 s)": the seconds as of the state the page was sent, twice, and
    its own count beside them (a LAN playtest). It says the wait once and counts it."""
    monkeypatch.setattr(core, "IDLE_AFTER_S", 3.0)
    nodes = await make_table(3, tmp_path)
    idle, host = nodes[2], nodes[0]
    session = None
    try:
        await host.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        session = LanSession(host)
        for nd in nodes:
            nd.bot_delay = 0.05
        idle.core.autoplay = None
        seat = idle.core.my_seats()[0]
        await host.wait_for(lambda: (host.core.replace_wait(seat) or 0) > 0, 60)
        model = TableModel(session)

        async def command(text: str):
            return "error", "not here"

        table = SimpleNamespace(state=lambda: model.state, on_command=command)
        async with serving(table) as server:
            model.subscribe(server.publish)
            page = await browser.new_page()
            await page.goto(server.url)
            countdown = page.locator("#countdowns li")
            await countdown.wait_for()
            said = await countdown.inner_text()
            assert re.fullmatch(r"in \d+ s replace p2 gives the seat to a bot", said), said
            heading = await page.locator("#decision").inner_text()
            # (once: the page added whom it waits for after a line that named them)
            assert heading == "Waiting for p2 — bot (random) (G) to play", heading
            assert not re.search(r"\d+ s", heading), heading
    finally:
        if session is not None:
            await session.close()
        await close_all(nodes)

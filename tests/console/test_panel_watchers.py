"""At 80x24 the LAN game's side panel keeps what it says of the seats ("Kai — bot
(random)") when people watch: the watchers' names go first, and how many watch stays on
the panel's "Drawn:" line (a LAN playtest: the bot's line was what the cut took).

Real nodes on 127.0.0.1, Kai's laptop playing with a bot (`play --headless --bot`), two
watchers, and Ana's game screen: a real prompt_toolkit Application on an in-memory 80x24
VT100 terminal, read cell by cell."""

from __future__ import annotations

import asyncio
import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.net.aio.node import GameRef, Node
from tongiaki_lan.net.lab.loopback import close_all

from .conftest import start_screen, terminal_rows, wait_until


async def _table(tmp_path, watchers: tuple[str, ...]) -> tuple[list[Node], list[Node]]:
    """Ana, Ben and Cy at the keyboard, Kai a laptop that plays with a bot, and watchers."""
    ana, ben, cy = (Node(n, host="127.0.0.1", record_dir=tmp_path / n)
                    for n in ("Ana", "Ben", "Cy"))
    kai = Node("Kai", host="127.0.0.1", record_dir=tmp_path / "Kai", autoplay="random")
    lookers = [Node(n, host="127.0.0.1", record_dir=tmp_path / n) for n in watchers]
    table = [ana, ben, cy, kai]
    for node in (*table, *lookers):
        await node.start()
    await ana.create_game("Reef", 4)
    ref = GameRef(ana.game_id, ana.peer_id, "127.0.0.1", ana.address[1], False)
    for node in (ben, cy, kai):
        await node.join_game(ref, timeout=20)
    for node in table:
        node.set_ready(True)
    await ana.wait_for(lambda: all(nd.game is not None for nd in table), 30)
    for node in lookers:
        await node.watch_game(ref)
    return table, lookers


async def test_at_80x24_the_watchers_go_before_the_bots_line(tmp_path):
    table, lookers = await _table(tmp_path, ("Dan", "Eve"))
    try:
        session = LanSession(table[0])
        output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
        with create_pipe_input() as inp, create_app_session(input=inp, output=output):
            screen, task = await start_screen(session)

            def panel() -> list[str]:
                return [r[-32:] for r in terminal_rows(screen, 80, 24)]

            await wait_until(lambda: sorted(session.watcher_names()) == ["Dan", "Eve"],
                             what="the watchers known")
            screen.app.invalidate()
            await wait_until(lambda: any("Drawn:" in r for r in panel()), what="the panel")
            rows = panel()
            assert sum(" 15   0   0   0 0/2" in r for r in rows) == 4  # every seat's row
            assert any(r.startswith("Kai — bot (random)") for r in rows), rows
            assert not any("Dan" in r for r in rows), rows
            assert any(r.startswith("Drawn: 0 tiles · 2 watching") for r in rows), rows
            assert any(r.startswith("Left: 15 islands") for r in rows), rows
            # with room, the names
            full = ["".join(t for _s, t in line) for line in screen.draw_panel(32, 40)]
            assert "Watching: Dan, Eve" in full and "Drawn: 0 tiles" in full, full
            inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
            await asyncio.wait_for(task, 30)
    finally:
        await close_all([*table, *lookers])

"""`tongiaki-lan bench board`: how long a move takes from the table to the page's DOM.

The real path, end to end: a solo table (`SoloSession`) whose every seat is played from
here, its table model and its input path, and the board page on the real server
(`BoardLink`, as `solo --board` serves it) open in headless Chromium, driven by
Playwright as the tests do. Random bots choose the moves, which go in as typed text
(`TableInput.submit`, the path of a typed or clicked move); the clock runs from there
until the page reports the state after that move on its screen (its "shown" message,
sent right after the new board and panels are in the DOM). So the figure holds
everything a player waits for: the engine applying the move (and dealing its tiles),
the model making the new state (the legal moves with their previews and click
targets, the last move, the story), the state as JSON with the board drawn as SVG, the
WebSocket, the page parsing it and replacing its view. It is reported, never asserted
(docs/board.md).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import platform
import shutil
import statistics
import tempfile
import time

from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.engine import COLOURS
from tongiaki_lan.i18n.islands import shown_move

from .payload import state_json

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


# resolves once the page has drawn two frames: the last state is on the screen
IDLE = "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(1))))"


class BenchError(Exception):
    """The bench cannot run here (no Chromium, no Playwright): the message says why."""


def find_chromium(path: str | None = None) -> str:
    if path is not None:
        if os.access(path, os.X_OK) and os.path.isfile(path):
            return path
        raise BenchError(f"--chromium {path}: no such program")
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"),
                      shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    raise BenchError("no Chromium found (apt-get install chromium, or --chromium PATH)")


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100) of `values`."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def bench_table(players: int, number: int, seed: str = "bench-board"):
    """A solo table of `players` seats all played from this keyboard (the bench types
    for each), its model and its input path."""
    from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text
    from tongiaki_lan.console.input import TableInput
    from tongiaki_lan.console.model import TableModel
    from tongiaki_lan.console.seats import Seat

    seats = [Seat(f"p{i}", COLOURS[i], "human", local=True) for i in range(players)]
    session = SoloSession(seed_from_text(f"{seed}/{number}"), seats, record_path=None,
                          pace=0, hint_kind="random")
    model = TableModel(session)
    return session, model, TableInput(model)


async def run_bench_board(moves: int = 300, players: int = 4,
                          chromium: str | None = None) -> dict:
    try:
        from playwright.async_api import async_playwright
    except ImportError as exc:
        raise BenchError("Playwright for Python is not installed (pip install "
                         "'tongiaki-lan[test]')") from exc
    from tongiaki_lan.console.boardlink import BoardLink

    path = find_chromium(chromium)
    shown_at: dict[int, float] = {}
    wanted: list = [None, None]  # (version, future): the state a move waits for

    def shown(version: int) -> None:
        shown_at[version] = time.perf_counter()
        at, future = wanted
        if future is not None and not future.done() and version >= at:
            future.set_result(shown_at[version])

    link = BoardLink(on_shown=shown)
    latencies: list[float] = []
    submits: list[float] = []
    builds: list[float] = []
    sizes: list[int] = []
    browser_version = ""
    loop = asyncio.get_running_loop()
    await link.start()
    tables = []
    try:
        async with async_playwright() as pw:
            with tempfile.TemporaryDirectory(prefix="tongiaki-bench-") as profile:
                context = await pw.chromium.launch_persistent_context(
                    profile, executable_path=path, headless=True, args=CHROMIUM_FLAGS,
                    viewport={"width": 1400, "height": 900})
                try:
                    if context.browser is not None:
                        browser_version = context.browser.version
                    page = await context.new_page()
                    for number in itertools.count():
                        session, model, table = bench_table(players, number)
                        tables.append(session)
                        await session.start()
                        link.attach(model, table)
                        if number == 0:
                            await page.goto(link.url)
                        await page.wait_for_selector(
                            f"html[data-version='{model.version}']", state="attached")
                        bots = [RandomBot(s) for s in range(players)]
                        while not session.game.is_over and len(latencies) < moves:
                            game = session.game
                            text = shown_move(str(bots[game.pending.seat].choose(game)))
                            before = len(game.moves)
                            future = loop.create_future()
                            wanted[:] = [model.version + 1, future]
                            start = time.perf_counter()
                            await table.submit(text)
                            if len(session.game.moves) == before:  # (colony: confirmed
                                await table.submit(text)  # by a second Enter)
                            submits.append(time.perf_counter() - start)
                            wanted[0] = model.version
                            latencies.append(await asyncio.wait_for(future, 30) - start)
                            state = model.state
                            t = time.perf_counter()
                            sizes.append(len(state_json(state)))
                            builds.append(time.perf_counter() - t)
                            # the page drawn and idle again (untimed), as when the next
                            # move comes at a table: not queued behind this one
                            while table.hinting:  # (a landing's offer: its own state)
                                await asyncio.sleep(0.01)
                            await page.wait_for_selector(
                                f"html[data-version='{model.version}']", state="attached")
                            await page.evaluate(IDLE)
                        link.detach()
                        await session.close()
                        if len(latencies) >= moves:
                            break
                finally:
                    await context.close()
    finally:
        for session in tables:
            await session.close()
        await link.close()
    ms = [x * 1000 for x in latencies]
    return {
        "target": "board",
        "moves": len(ms),
        "players": players,
        "p50_ms": round(percentile(ms, 50), 2),
        "p90_ms": round(percentile(ms, 90), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2),
        "mean_ms": round(statistics.fmean(ms), 2),
        # of which: the move applied and the table's new state made (engine and model)
        "model_p50_ms": round(percentile([x * 1000 for x in submits], 50), 2),
        # and that state as JSON with the board drawn (in Python, before sending)
        "build_p50_ms": round(percentile([x * 1000 for x in builds], 50), 2),
        "message_kb_mean": round(statistics.fmean(sizes) / 1024, 1),
        "chromium": browser_version,
        "python": platform.python_version(),
    }

"""`tongiaki-lan bench board`: how long a move takes from the table to the page's DOM.

Games between random bots are replayed move by move; each state is published to a real
board page in headless Chromium (driven by Playwright, as the tests do), and the clock
runs from `publish()` until the page reports that state on its screen (its "shown"
message, sent right after the new board and panels are in the DOM). So the figure holds
everything a player waits for: the state turned into JSON with the board drawn as SVG,
the WebSocket, the page parsing it and replacing its view. It is reported, never
asserted (docs/board.md).

The states are made here from the game alone (seats, the legal moves with their
targets, the last move, a story of move lines): the size and drawing work of the real
table's states, without needing a console.
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
from tongiaki_lan.console.state import (
    DecisionView,
    LastMove,
    MoveOption,
    SeatView,
    TableState,
)
from tongiaki_lan.console.targets import move_targets, touched
from tongiaki_lan.engine import COLOURS, LETTERS, Dealer, Game, Reveal
from tongiaki_lan.selfplay import game_seed

from .payload import state_json
from .server import BoardServer

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


def _state(game: Game, version: int, story: list[tuple[str, str]],
           last: LastMove | None) -> TableState:
    seat = game.pending_seat
    moves = tuple(MoveOption(str(m), str(m), "", move_targets(game, m))
                  for m in game.legal_moves()) if seat is not None else ()
    scores = game.scores()
    seats = tuple(SeatView(i, f"bot-{i}", f"bot-{i} (random)", c, LETTERS[cid], c, "bot",
                           local=i == 0, viewer=i == 0, score=scores[c],
                           ships_in_reserve=game.reserve(i))
                  for i, (c, cid) in enumerate(zip(game.colours, game.colour_ids(),
                                                   strict=True)))
    kind = game.pending.kind if game.pending is not None else ""
    return TableState(
        version=version, kind="solo", lang="en", title="bench", move_index=len(game.moves),
        seats=seats,
        decision=DecisionView(seat, kind, mine=seat == 0, text=kind, moves=moves),
        board=game.copy(), frontier=kind == "colony_tile" and seat == 0, last_move=last,
        story=tuple(story[-80:]), status=kind, over=game.is_over)


def percentile(values: list[float], p: float) -> float:
    """The nearest-rank percentile (p in 0..100) of `values`."""
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * p // 100))
    return ordered[int(rank) - 1]


def game_states(players: int, seed: str = "bench-board"):
    """The states of games between random bots, one per move, game after game: the
    first of each game (move 0) flagged True."""
    version = 0
    for number in itertools.count():
        game = Game(COLOURS[:players])
        dealer = Dealer(game_seed(seed, number))
        bots = [RandomBot(s) for s in range(players)]
        story: list[tuple[str, str]] = []
        yield True, _state(game, version, story, None)
        while not game.is_over:
            move = bots[game.pending_seat].choose(game)
            marks = touched(game, move)
            revealed: list[int] = []
            dealer.apply(game, move, revealed.append)
            tiles = (*marks.tiles, *(m.tile for m in revealed if isinstance(m, Reveal)))
            story.append(("", str(move)))
            version += 1
            last = LastMove(len(game.moves) - 1, None, str(move), marks.targets, tiles)
            yield False, _state(game, version, story, last)


async def run_bench_board(moves: int = 300, players: int = 4,
                          chromium: str | None = None) -> dict:
    try:
        from playwright.async_api import async_playwright
    except ImportError as exc:
        raise BenchError("Playwright for Python is not installed (pip install "
                         "'tongiaki-lan[test]')") from exc
    path = find_chromium(chromium)
    current: list[TableState | None] = [None]
    waiting: dict[int, asyncio.Future] = {}

    def shown(version: int) -> None:
        future = waiting.pop(version, None)
        if future is not None and not future.done():
            future.set_result(time.perf_counter())

    async def no_commands(_text: str) -> tuple[str, str]:
        return "error", "the bench takes no commands"

    server = BoardServer(lambda: current[0], no_commands, on_shown=shown)
    await server.start()
    latencies: list[float] = []
    builds: list[float] = []
    sizes: list[int] = []
    browser_version = ""
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
                    states = game_states(players)
                    _first, current[0] = next(states)
                    await page.goto(server.url)
                    await page.wait_for_selector("html[data-move-index='0']", state="attached")
                    for _first, state in states:
                        if len(latencies) >= moves:
                            break
                        t = time.perf_counter()
                        sizes.append(len(state_json(state)))
                        builds.append(time.perf_counter() - t)
                        future = asyncio.get_running_loop().create_future()
                        waiting[state.version] = future
                        start = time.perf_counter()
                        current[0] = state
                        server.publish(state)
                        latencies.append(await asyncio.wait_for(future, 30) - start)
                        # the page drawn and idle again (untimed), as when the next move
                        # comes at a table: not queued behind this one
                        await page.evaluate(IDLE)
                finally:
                    await context.close()
    finally:
        await server.close()
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
        # of which: the state as JSON with the board drawn (in Python, before sending)
        "build_p50_ms": round(percentile([x * 1000 for x in builds], 50), 2),
        "message_kb_mean": round(statistics.fmean(sizes) / 1024, 1),
        "chromium": browser_version,
        "python": platform.python_version(),
    }

"""Helpers for console tests: waiting on conditions (never on fixed sleeps)."""

from __future__ import annotations

import asyncio
import time

from tongiaki_lan.net.aio.discovery import GameInfo


async def wait_until(condition, timeout: float = 60.0, what: str = "condition") -> None:
    """Yield to the event loop until `condition()` holds; fail after a generous timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


async def start_screen(session):
    """A game screen for `session` in a real app (on whatever input and output the test's
    app session has), running: (screen, the app's task)."""
    from tongiaki_lan.console.terminal.screen import GameScreen

    screen = GameScreen(session, colour=False)
    await session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    return screen, task


def terminal_rows(screen, columns: int, rows: int) -> list[str]:
    """What an in-memory terminal shows, cell by cell: the top-left `columns` x `rows` of
    the screen's last drawing (empty before the first)."""
    drawn = screen.app.renderer._last_screen
    if drawn is None:
        return []
    return ["".join(drawn.data_buffer[y][x].char for x in range(columns)) for y in range(rows)]


def duel_seats(game) -> list:
    """Ana and Ben at a 2-player `game`, the keyboard's the seat whose decision it is."""
    from tongiaki_lan.console.seats import Seat

    return [Seat(n, c, local=(i == game.pending.seat))
            for i, (n, c) in enumerate(zip(["Ana", "Ben"], game.colours, strict=True))]


class FakeLan:
    """Stands in for the zeroconf browser where a test decides what the lobby lists (real
    discovery is tested between namespaces): the games, in the order their adverts came."""

    def __init__(self, *games: GameInfo):
        self.listed = list(games)

    def games(self):
        return list(self.listed)

    async def close(self):
        return None

"""The real consoles with their board page, for the page's tests: `run_game_screen` — the
prompt_toolkit application `solo --board` and `replay --board` run — typed to through a
pipe and drawn into an in-memory 120x40 terminal, serving its page on a `BoardLink` as
`--board` does. Only the browser it would open is replaced: the address is kept for the
test's own Chromium instead. Nothing here sleeps: every wait is for a condition."""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.console.boardlink import BoardLink
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import TableInput
from tongiaki_lan.console.model import TableModel

COLUMNS, ROWS = 120, 40
KILL_LINE = "\x15"  # Ctrl-U: clears the command line (an offer on it)


async def wait_until(condition, timeout: float = 60.0, what: str = "condition") -> None:
    """Yield to the event loop until `condition()` holds; fail after a generous timeout
    (a condition polled, not a synchronisation by sleeping)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


def solo(seed: str = "web", bots: int = 2, record: Path | None = None) -> SoloSession:
    """Ana against random bots that answer at once."""
    return SoloSession(seed_from_text(seed), solo_seats(bots, "Ana", "random"),
                       record_path=record, pace=0, hint_kind="random")


class Console:
    """A running console: type on it, read its terminal, and its page's address."""

    def __init__(self, inp, screen, link: BoardLink, task: asyncio.Task, opened: list[str]):
        self.inp = inp
        self.screen = screen
        self.session = screen.session
        self.model = screen.model
        self.link = link
        self.task = task
        self.opened = opened

    @property
    def url(self) -> str:
        return self.link.url

    def type(self, text: str) -> None:
        """A line typed and Enter (over whatever was offered on the line)."""
        self.inp.send_text(KILL_LINE + text + "\r")

    def rows(self) -> list[str]:
        """The terminal's cells as the renderer last drew them."""
        drawn = self.screen.app.renderer._last_screen
        if drawn is None:
            return []
        return ["".join(drawn.data_buffer[y][x].char for x in range(COLUMNS))
                for y in range(ROWS)]

    def side(self) -> str:
        """The side column (panel and log) as one line of words: a wrapped log line
        reads whole again."""
        return " ".join(" ".join(row[COLUMNS - 40:] for row in self.rows()).split())

    def status(self) -> str:
        return self.screen.status_text()

    async def play_mine(self, until, pick=lambda moves: moves[0]) -> None:
        """Type this keyboard's decisions (`pick` among the legal moves' texts) until
        `until(game)` holds, each one waited for on the table."""
        s = self.session
        while not until(s.game):
            await wait_until(lambda: until(s.game) or s.my_decision() or s.game.is_over,
                             what="our decision")
            if until(s.game) or s.game.is_over:
                break
            before = len(s.game.moves)
            texts = [o.text for o in self.model.state.decision.moves]
            text = pick(texts)
            self.type(text)
            if text == "colony":  # (confirmed by a second Enter when ships go home)
                await wait_until(lambda b=before: len(s.game.moves) > b
                                 or "Enter again" in self.screen.message[1],
                                 what="colony asked or played")
                if len(s.game.moves) == before:
                    self.inp.send_text("\r")
            await wait_until(lambda b=before: len(s.game.moves) > b, what="our move played")


@contextlib.asynccontextmanager
async def console(monkeypatch, session, page: bool = True):
    """`session` on the real game screen with its board page (`--board`), until the
    block ends (then left as `quit` leaves)."""
    from tongiaki_lan.console.terminal import screen as screen_module

    screens = []
    real = screen_module.GameScreen

    def kept(*args, **kw):
        screens.append(real(*args, **kw))
        return screens[-1]

    monkeypatch.setattr(screen_module, "GameScreen", kept)
    opened: list[str] = []

    async def browser(url: str) -> bool:  # (the test's Chromium opens it instead)
        opened.append(url)
        return True

    link = BoardLink(opener=browser)
    out = Vt100_Output(io.StringIO(), lambda: Size(rows=ROWS, columns=COLUMNS), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        task = asyncio.ensure_future(screen_module.run_game_screen(
            session, colour=False, board=link, page=page))
        await wait_until(lambda: screens and screens[0].app.is_running
                         and (opened or not page), what="the console and its page")
        con = Console(inp, screens[0], link, task, opened)
        try:
            yield con
        finally:
            if not task.done():
                con.screen.app.exit(result=0)
            await asyncio.wait_for(task, 30)
            await link.close()


def table(seed: str = "web", bots: int = 2) -> tuple[SoloSession, TableModel, TableInput]:
    """A solo table with no screen: its model and input path (a game played to a point
    before its console opens)."""
    session = solo(seed, bots)
    model = TableModel(session)
    return session, model, TableInput(model)

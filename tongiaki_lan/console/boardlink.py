"""The board page of the table on show: one server for a whole run, handed the table's
model and input path, so the page is one more view of the table the console shows.

    link = BoardLink(host="127.0.0.1")
    url = await link.start()          # in the program's own loop; BoardServerError
    link.attach(model, input)         # the table shown now (a lobby: the next game's)
    link.forming(table)               # before a game: the table as it forms (or None)
    await link.open_browser()         # the system's browser, never blocking
    await link.close()

A click on the page reaches the same `TableInput.submit` as a line typed in the
console, so a move made either way shows on both, and the page's refusals are the
console's. The page cannot leave the game (`quit`, `lobby`): that is the console's.
Between two games of a lobby the page keeps the last board it showed, and says so
when clicked; its address stays the same for the whole run, so an open tab follows the
next game by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable

from tongiaki_lan.i18n import _

from .forming import FormingTable
from .input import TableInput
from .model import TableModel
from .state import TableState

log = logging.getLogger(__name__)

# what only the console does: a page may not end the game screen it is a view of
CONSOLE_ONLY = ("quit", "exit", "q", "lobby")
OPEN_WAIT = 20.0  # seconds a browser's launcher may take to say it opened the page

# The browser is opened by a child Python (`webbrowser`), with no terminal and its
# output thrown away: a browser's chatter on stderr, or a text browser (lynx, w3m) that
# `webbrowser` picks where there is no display, would otherwise land in the middle of
# the full-screen console, or take its terminal. Its exit status says whether a browser
# was there: 0 opened, 3 none (or only a text browser), 4 it refused.
_OPENER = r"""
import sys, webbrowser
TEXT = {"www-browser", "links", "links2", "elinks", "lynx", "w3m"}
try:
    b = webbrowser.get()
except webbrowser.Error:
    sys.exit(3)
if isinstance(b, webbrowser.UnixBrowser) and not b.background:
    sys.exit(3)
if type(b) is webbrowser.GenericBrowser and getattr(b, "name", "") in TEXT:
    sys.exit(3)
sys.exit(0 if b.open(sys.argv[1], new=2) else 4)
"""


async def open_in_browser(url: str) -> bool:
    """Open `url` in the system's browser; whether one opened it. Never raises, never
    waits long, leaves no process of its own behind."""
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", _OPENER, url, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            **({"start_new_session": True} if os.name == "posix" else {}))
    except OSError as exc:
        log.info("board: no browser started: %s", exc)
        return False
    try:
        code = await asyncio.wait_for(proc.wait(), OPEN_WAIT)
    except asyncio.TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await proc.wait()
        log.info("board: the browser's launcher did not answer within %.0f s", OPEN_WAIT)
        return False
    except asyncio.CancelledError:
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        raise
    log.info("board: the browser launcher ended with %s", code)
    return code == 0


class BoardLink:
    """The board page of this run (module docstring). `opener(url)` opens a browser
    (the system's by default; tests hand in their own)."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, *,
                 opener: Callable[[str], Awaitable[bool]] | None = None,
                 token: str | None = None,
                 on_shown: Callable[[int], None] | None = None) -> None:
        self.host = host
        self.port = port
        self.token = token
        self.on_shown = on_shown  # (a page drew that state version: `bench board`)
        self.server = None  # a BoardServer once started
        self._opener = opener or open_in_browser
        self._model: TableModel | None = None
        self._input: TableInput | None = None
        self._last: TableState | None = None
        self._forming: FormingTable | None = None
        self.opened = 0  # browsers opened on the page

    @property
    def url(self) -> str | None:
        return None if self.server is None else self.server.url

    async def start(self) -> str:
        """Serve the page (once; again: its address). Raises BoardServerError saying which
        address and why it cannot."""
        if self.server is None:
            from .web import BoardServer  # (aiohttp: only once a page is asked for)

            server = BoardServer(self.state, self._command, host=self.host, port=self.port,
                                 token=self.token, on_shown=self.on_shown)
            await server.start()
            self.server = server
            # the whole address, key included, for whoever reads this laptop's log
            log.info("board page: %s", server.url)
        return self.server.url

    def attach(self, model: TableModel, input: TableInput) -> None:
        """Show this table on the page from now on (its clicks go to `input`)."""
        self.detach()
        self._forming = None
        self._model, self._input = model, input
        model.subscribe(self._publish)
        self._publish(model.state)

    def detach(self) -> None:
        """The table is left: the page keeps its last board, and takes no command."""
        if self._model is not None:
            self._last = self._model.state
            self._model.unsubscribe(self._publish)
        self._model = self._input = None

    def forming(self, table: FormingTable | None) -> None:
        """Show the table this laptop sits at as it forms, before its game (None: it
        sits at none; the page shows the last board again, if there was one). A game
        shown takes the page: a table is not shown over it."""
        if self._model is not None or table == self._forming:
            return
        self._forming = table
        shown = self.state()
        if shown is not None:
            self._publish(shown)

    def state(self) -> TableState | FormingTable | None:
        if self._model is not None:
            return self._model.state
        return self._forming if self._forming is not None else self._last

    def _publish(self, state: TableState | FormingTable) -> None:
        if self.server is not None:
            self.server.publish(state)

    async def _command(self, text: str) -> tuple[str, str]:
        """A click (or a button) of the page, taken as a typed line: its reply is the
        notice the table shows for it, in the page's words."""
        model, inp = self._model, self._input
        if model is None or inp is None:
            return "error", _("No game is on this page now: the console shows the lobby.")
        word = text.split()[0].lower() if text.split() else ""
        if word in CONSOLE_ONLY:
            return "error", _("{command}: only the console leaves the game").format(
                command=word)
        if inp.enter(text) is None:  # (what Enter settles first: an old notice goes)
            await inp.submit(text)
        shown = model.notice_shown
        if shown is None:
            return "info", ""
        return shown[0] or "info", shown[1]

    async def open_browser(self) -> bool:
        """Open the page in a browser (never blocking the table); whether one opened."""
        url = self.url
        if url is None:
            return False
        try:
            opened = await self._opener(url)
        except Exception:  # noqa: BLE001 - a browser that fails must not stop the game
            log.exception("board: opening a browser failed")
            opened = False
        self.opened += bool(opened)
        return bool(opened)

    async def close(self) -> None:
        self.detach()
        if self.server is not None:
            server, self.server = self.server, None
            await server.close()

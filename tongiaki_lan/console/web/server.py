"""The board page's server: the live board of the game this node shows, in a browser.

    server = BoardServer(get_state, on_command)          # host="127.0.0.1", port=0
    url = await server.start()                           # http://127.0.0.1:PORT/#TOKEN
    server.publish(state)                                # on every change of the table
    await server.close()

It runs inside the node's own asyncio loop (aiohttp, no thread), serves one static
page (`static/`, shipped in the wheel) and talks to it over a WebSocket: every
`publish` pushes the new `TableState` (as `payload.state_json`; before a LAN game, the
table as it forms: a `FormingTable`) to every open page, a
page that opens or comes back gets the current state at once, and what a player clicks
comes back as the text a player would type (`place Tonga 3`, `undo`, `goto 12`) to
`on_command(text)`, whose reply `(style, text)` — "ok", or the refusal with its rule —
goes back to that page. The page holds no rules: the table model behind these two
callables is the same one the console draws, so a click and a typed move take one path.

The door (`door.py`): 127.0.0.1 unless told otherwise, the Host header must name this
machine, a WebSocket's Origin must be the page's own, and the page must present the
run's token; a request that fails any check gets a bare 403 or 421 and nothing of the
game. docs/board.md says what a player risks with `--board-host`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from tongiaki_lan.console.forming import FormingTable
from tongiaki_lan.console.state import TableState

from .door import (
    PROTOCOL,
    WILDCARDS,
    host_allowed,
    host_literal,
    new_token,
    offered_token,
    origin_allowed,
    token_matches,
)
from .payload import state_json

log = logging.getLogger(__name__)

Reply = tuple[str, str]
MAX_COMMAND = 200  # characters: the longest landing is far shorter
MAX_MESSAGE = 4096  # bytes a page may send in one message
# seconds the pages may take what is on its way to them when the server closes: the last
# state of a game (a headless node closes right after its end)
CLOSE_FLUSH = 5.0
CLOSE_WAIT = 2.0  # seconds the pages may take to end their connections themselves
CLOSED = '{"type":"closed"}'  # the game closes the page (its end, its console quit)
STATIC = {  # path -> (file in static/, content type)
    "/": ("index.html", "text/html; charset=utf-8"),
    "/board.js": ("board.js", "text/javascript; charset=utf-8"),
    "/board.css": ("board.css", "text/css; charset=utf-8"),
}
HEADERS = {
    # the page's own files only: no script, style or picture from anywhere else, no frame
    # around it (a page that framed ours could trick clicks onto the board)
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'"),
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class BoardServerError(Exception):
    """The server could not start (the address is taken, or not this machine's): the
    message says which address and why."""


class _Page:
    """One open page: its WebSocket and what is waiting to be sent to it."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.wake = asyncio.Event()
        self.idle = asyncio.Event()  # everything there is to send has been sent
        self.gone = asyncio.Event()  # its connection has ended
        self.replies: deque[str] = deque()
        self.sent: str | None = None  # the state text it has
        self.writer: asyncio.Task | None = None


class BoardServer:
    """A live board page for one game (module docstring).

    `get_state()` returns the table's current state (or None before there is one): a
    page that opens gets it. `on_command(text)` is awaited with each command a page
    sends, one at a time per page, and returns the reply `(style, text)` the page shows
    on its notice line. `on_shown(version)`, if given, hears each state version a page
    has put on its screen (`tongiaki-lan bench board` times it).
    """

    def __init__(self, get_state: Callable[[], TableState | FormingTable | None],
                 on_command: Callable[[str], Awaitable[Reply]],
                 host: str = "127.0.0.1", port: int = 0, *,
                 token: str | None = None,
                 on_shown: Callable[[int], None] | None = None) -> None:
        self._get_state = get_state
        self._on_command = on_command
        self._on_shown = on_shown
        self.host = host
        self.port = port
        self.token = token or new_token()
        self.refusals: Counter[str] = Counter()  # why requests were refused, for the log
        self._state: TableState | FormingTable | None = None
        self._text: str | None = None
        self._pages: set[_Page] = set()
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._files: dict[str, bytes] = {}
        self._closing = False

    # ------------------------------------------------------------------ life

    @property
    def url(self) -> str:
        """The page's address, with the token in its fragment."""
        shown = "127.0.0.1" if self.host in WILDCARDS else host_literal(self.host)
        return f"http://{shown}:{self.port}/#{self.token}"

    @property
    def pages(self) -> int:
        """How many pages are open now."""
        return len(self._pages)

    async def start(self) -> str:
        """Listen (in the running loop) and return the page's URL."""
        self._loop = asyncio.get_running_loop()
        static = resources.files(__package__) / "static"
        self._files = {path: (static / name).read_bytes() for path, (name, _t) in STATIC.items()}
        sock = self._bind()
        self.port = sock.getsockname()[1]
        app = web.Application(middlewares=[self._door], client_max_size=MAX_MESSAGE)
        for path in STATIC:
            app.router.add_get(path, self._static)
        app.router.add_get("/ws", self._websocket)
        app.on_response_prepare.append(self._headers)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        try:
            await web.SockSite(self._runner, sock).start()
        except OSError as exc:  # pragma: no cover - the socket is bound already
            await self._runner.cleanup()
            raise BoardServerError(f"cannot serve the board: {exc}") from exc
        log.info("board: serving on %s", self.url.split("#")[0])
        return self.url

    def _bind(self) -> socket.socket:
        host = None if self.host in WILDCARDS and self.host != "::" else self.host
        try:
            infos = socket.getaddrinfo(host or "0.0.0.0", self.port, type=socket.SOCK_STREAM,
                                       flags=socket.AI_PASSIVE)
        except OSError as exc:
            raise BoardServerError(
                f"cannot serve the board on {self.host}: {exc.strerror or exc}") from exc
        infos.sort(key=lambda info: info[0] != socket.AF_INET)  # IPv4 first ("localhost")
        family, kind, proto, _name, address = infos[0]
        sock = socket.socket(family, kind, proto)
        try:
            if os.name == "posix":  # (on Windows this would let another program take it)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
            sock.listen(64)
            sock.setblocking(False)
        except OSError as exc:
            sock.close()
            raise BoardServerError(
                f"cannot serve the board on {host_literal(self.host)}:{self.port}: "
                f"{exc.strerror or exc}") from exc
        return sock

    async def close(self) -> None:
        """Close every page's connection and stop listening. A page is handed the newest
        state first: a headless node that ends right after the last move closed its
        page before the end of the game reached it."""
        self._closing = True
        pages = list(self._pages)
        for page in pages:  # (each page's writer sends what it has, the newest state last)
            page.replies.append(CLOSED)  # (said in a message too: a close frame cut short
            self._wake(page)  # reads as a lost line)
        if pages:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(p.idle.wait() for p in pages)),
                                       CLOSE_FLUSH)
            # A page told "closed" ends its connection itself, after reading everything
            # sent to it. Closed from here while it still talked (its "shown"), the
            # connection could be reset, and a browser drops what it had not read yet:
            # the end of the game, 1 time in 5 (tests/web/test_headless.py).
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.gather(*(p.gone.wait() for p in pages)),
                                       CLOSE_WAIT)
        for page in pages:
            if page.writer is not None:
                page.writer.cancel()
            if not page.gone.is_set():  # (a page that did not end it: an older one)
                await page.ws.close(code=WSCloseCode.GOING_AWAY,
                                    message=b"the game has closed")
        self._pages.clear()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------------ states

    def publish(self, state: TableState | FormingTable) -> None:
        """The table changed: every open page gets `state` (only the newest, if a page
        is slow to take them). From another thread it is handed to the loop."""
        loop = self._loop
        if loop is not None:
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is not loop:
                loop.call_soon_threadsafe(self._set_state, state)
                return
        self._set_state(state)

    def _set_state(self, state: TableState | FormingTable) -> None:
        self._state, self._text = state, None
        for page in self._pages:
            self._wake(page)

    @staticmethod
    def _wake(page: _Page) -> None:
        page.idle.clear()
        page.wake.set()

    def _state_text(self) -> str | None:
        if self._text is None and self._state is not None:
            self._text = state_json(self._state)
        return self._text

    # ------------------------------------------------------------------ the door

    def _refuse(self, status: int, why: str, request: web.Request) -> web.Response:
        self.refusals[why] += 1
        log.info("board: refused a request from %s (%s)", request.remote, why)
        return web.Response(status=status, text=f"{status}\n")

    @web.middleware
    async def _door(self, request: web.Request, handler) -> web.StreamResponse:
        if not host_allowed(request.headers.get("Host"), self.host, self.port):
            return self._refuse(421, "host", request)
        return await handler(request)

    async def _headers(self, _request: web.Request, response: web.StreamResponse) -> None:
        for key, value in HEADERS.items():
            response.headers.setdefault(key, value)

    async def _static(self, request: web.Request) -> web.Response:
        _name, kind = STATIC[request.path]
        return web.Response(body=self._files[request.path], headers={"Content-Type": kind})

    # ------------------------------------------------------------------ the page

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        if not origin_allowed(request.headers.get("Origin"), request.headers.get("Host")):
            return self._refuse(403, "origin", request)
        offered = offered_token(request.headers.get("Sec-WebSocket-Protocol"))
        if not token_matches(offered, self.token):
            return self._refuse(403, "no token" if offered is None else "token", request)
        if self._closing:
            return web.Response(status=503, text="503\n")
        # (uncompressed: on a laptop's own loopback it only costs time, and aiohttp
        # compresses a large message in a task of its own, which a page closed meanwhile
        # left failing with nobody to hear it)
        ws = web.WebSocketResponse(protocols=(PROTOCOL,), heartbeat=20.0,
                                   max_msg_size=MAX_MESSAGE, compress=False)
        await ws.prepare(request)
        page = _Page(ws)
        self._pages.add(page)
        try:
            current = self._get_state()
        except Exception:  # noqa: BLE001 - the last published state serves meanwhile
            log.exception("board: the table's state could not be read")
            current = None
        if current is not None and current is not self._state:
            self._state, self._text = current, None
        page.writer = asyncio.create_task(self._write(page))
        self._wake(page)  # catch up at once
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    break
                await self._receive(page, msg.data)
        finally:
            self._pages.discard(page)
            page.writer.cancel()
            page.gone.set()
        return ws

    async def _write(self, page: _Page) -> None:
        """Send a page its replies and the newest state, as they come."""
        try:
            while not page.ws.closed:
                await page.wake.wait()
                page.wake.clear()
                try:
                    text = self._state_text()
                except Exception:  # noqa: BLE001 - a bug in drawing one state: the next may do
                    log.exception("board: a state could not be turned into the page's "
                                  "message")
                    text = None
                try:
                    while page.replies and page.replies[0] is not CLOSED:
                        await page.ws.send_str(page.replies.popleft())
                    if text is not None and text is not page.sent:
                        page.sent = text
                        await page.ws.send_str(text)
                    if page.replies and page.replies[0] is CLOSED:  # (after the newest)
                        await page.ws.send_str(page.replies.popleft())
                except (ConnectionError, RuntimeError) as exc:  # the page went away
                    log.debug("board: a page went away: %s", exc)
                    return
                if not page.wake.is_set():
                    page.idle.set()
        finally:
            page.idle.set()  # (nothing more will be sent: a closing server waits no more)

    def _say(self, page: _Page, message: dict[str, Any]) -> None:
        page.replies.append(json.dumps(message, ensure_ascii=False))
        self._wake(page)

    async def _receive(self, page: _Page, data: str) -> None:
        """One message from a page: a command, or which state it shows. Anything else is
        left unanswered (and changes nothing)."""
        try:
            message = json.loads(data)
        except ValueError:
            log.info("board: a page sent something that is not JSON; ignored")
            return
        if not isinstance(message, dict):
            return
        kind = message.get("type")
        if kind == "shown":
            version = message.get("version")
            if self._on_shown is not None and type(version) is int:
                self._on_shown(version)
            return
        if kind != "command":
            return
        text, ident = message.get("text"), message.get("id")
        if type(ident) is not int:
            ident = None
        if (not isinstance(text, str) or not text.strip() or len(text) > MAX_COMMAND
                or not text.isprintable()):
            self._say(page, {"type": "reply", "id": ident, "style": "error",
                             "text": "not a command", "command": ""})
            return
        try:
            style, said = await self._on_command(text.strip())
        except Exception:  # noqa: BLE001 - a bug behind the page must not close it
            log.exception("board: the command %r failed", text)
            style, said = "error", "the game could not take this command (see the log)"
        self._say(page, {"type": "reply", "id": ident, "style": str(style), "text": str(said),
                         "command": text.strip()})

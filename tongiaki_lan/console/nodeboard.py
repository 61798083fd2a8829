"""The board page of a node with no console: `play --headless --board` (a laptop whose
bot plays its seat) and `watch --board`.

The table is made exactly as a console makes it — the LAN feed reading the node, the
table model, the input path — only no terminal draws it: the page is its one view. A
watcher's page steps back through the moves so far while the game goes on (the
model's look back); a bot laptop's page shows its bot playing and takes no move for
the seat (the bot has it).
"""

from __future__ import annotations

import asyncio
import logging

from .boardlink import BoardLink
from .feeds.base import GameSession
from .feeds.lan import LanSession
from .forming import forming_table
from .input import TableInput
from .model import TableModel

log = logging.getLogger(__name__)


class NodeBoard:
    """Puts `node`'s table on `link`'s page as soon as the node has a game (at once for
    a resumed one, else at its start)."""

    def __init__(self, node, link: BoardLink) -> None:
        self.node = node
        self.link = link
        self.session: LanSession | None = None
        self.model: TableModel | None = None
        self.input: TableInput | None = None
        self._start: asyncio.Task | None = None
        node.add_listener(self._on_event)
        self._begin()

    def _on_event(self, _ev) -> None:
        if self.session is None:
            self._begin()

    def _begin(self) -> None:
        node = self.node
        if node.game is None or node.lobby is None:
            # the table as it forms, as the console's lobby lists it: who sat down in
            # which colour, who is ready, how many seats are open (the page said only
            # "Waiting for the game to start…")
            try:
                table = forming_table(node)
            except Exception:  # noqa: BLE001 - the node plays on; only its page waits
                log.exception("board: the forming table could not be read for the page")
                return
            self.link.forming(table)
            return
        try:
            session = LanSession(node, own_bot=bool(getattr(node.core, "autoplay", None)))
        except Exception:  # noqa: BLE001 - the node plays on; only its page is missing
            log.exception("board: the table could not be made for the page")
            return
        session.from_lobby = False  # (no lobby, no console: `lobby` goes nowhere here)
        self.session = session
        self.model = TableModel(session)
        self.input = TableInput(self.model)
        self._start = asyncio.ensure_future(session.start())
        self.link.attach(self.model, self.input)

    async def close(self) -> None:
        """Stop the table's own tasks (a hint asked for); the node is the command's to
        leave or close, not this page's."""
        self.link.detach()
        if self._start is not None and not self._start.done():
            self._start.cancel()
        if self.session is not None:
            await GameSession.close(self.session)

"""The plain line mode (`--plain`): a table told one line per event, for screen readers,
braille displays and pipes.

No full-screen drawing, no cursor moved about: each line of the story is printed once, as
it happens; when the decision is the player's, its words and its legal moves are printed
and the cursor waits on `> ` for a line. A line read goes through the same input path as
the terminal's command line (input.py): moves in their short form, `hint`, `help`,
`rules`, `quit`; an empty line plays what is offered (a hint's move, a landing's hint,
`quit` asked about). Lines are read when the game asks for one, so a script piped in is
read decision by decision (`hint` then an empty line plays the hint's move).
"""

from __future__ import annotations

import asyncio
import sys
import threading
from typing import TextIO

from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import _

from .feeds.base import GameSession
from .input import InputLine, TableInput
from .model import TableModel, decision_key
from .state import TableState
from .status import status_line

MOVES_SHOWN = 30  # of the legal moves, those listed at the prompt (`moves` lists them too)


class _Offer(InputLine):
    """The line mode's line: nothing typed on it between two reads; an offer is what an
    empty line plays."""

    def __init__(self) -> None:
        self.offer_text: str | None = None

    def offered(self) -> str | None:
        return self.offer_text

    def offer(self, text: str) -> None:
        self.offer_text = text or None

    def withdraw(self) -> None:
        self.offer_text = None


class _Lines:
    """Lines of a text stream, read by a thread of their own (a terminal's input cannot be
    awaited on every platform), handed to the event loop; None at the end."""

    def __init__(self, stream: TextIO) -> None:
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def read() -> None:
            while True:
                try:
                    line = stream.readline()
                except (OSError, ValueError):  # (the stream closed under us)
                    line = ""
                loop.call_soon_threadsafe(self._queue.put_nowait, line or None)
                if not line:
                    return

        # a daemon: a read still waiting when the game ends must not keep the program
        threading.Thread(target=read, name="tongiaki-plain-input", daemon=True).start()

    async def next(self) -> str | None:
        return await self._queue.get()

    def end(self) -> None:
        """No more lines: the player leaves (a signal) while one is awaited."""
        self._queue.put_nowait(None)


class LineView:
    """A view of `model` that prints, and reads its lines for `input` from `stdin`."""

    def __init__(self, model: TableModel, input: TableInput, out: TextIO | None = None,
                 stdin: TextIO | None = None):
        self.model = model
        self.input = input
        self.out = out or sys.stdout
        self.stdin = stdin or sys.stdin
        self._line = _Offer()
        input.line = self._line
        self._told: set[int] = set()  # the story lines printed (by identity)
        self._kept: list = []  # (and kept alive, so that no identity is used again)
        self._notice: tuple[str, str] = ("", "")
        self._asked: tuple | None = None  # the decision whose words were printed last
        self._changed = asyncio.Event()
        self._leave = False
        self._lines: _Lines | None = None
        try:  # a terminal shows what is typed; a pipe does not
            self._echoes = self.stdin.isatty()
        except (AttributeError, ValueError, OSError):
            self._echoes = False
        model.subscribe(self._on_change)

    # ---------------------------------------------------------------- printing

    def _say(self, text: str, end: str = "\n") -> None:
        try:
            self.out.write(text.replace("\u00a0", " ") + end)
            self.out.flush()
        except (OSError, ValueError):  # (the reader went away: nothing more to say)
            self._leave = True

    def _on_change(self, state: TableState) -> None:
        for line in state.story:
            if id(line) not in self._told:
                self._told.add(id(line))
                self._kept.append(line)
                self._say(line[1])
        notice = state.notice or ("", "")
        if notice != self._notice:
            self._notice = notice
            if notice[1] and notice[1] != _("Thinking…"):
                self._say(notice[1])
        self._changed.set()

    def _prompt(self, state: TableState) -> None:
        """The decision in words and its legal moves, once per decision; then `> `."""
        key = (decision_key(self.model.game), state.decision.text)
        if key != self._asked:
            self._asked = key
            self._say(status_line(state)[1])
            moves = [o.text for o in state.decision.moves]
            shown = ", ".join(moves[:MOVES_SHOWN])
            if len(moves) > MOVES_SHOWN:
                shown += " " + _("… ({n} in all)").format(n=len(moves))
            if moves:
                self._say(_("Legal moves: {moves}").format(moves=shown))
        self._say("> ", end="")

    # ---------------------------------------------------------------- the game

    def leave(self) -> None:
        """Leave as `quit` confirmed leaves (a signal, the input's end)."""
        self._leave = True
        self._changed.set()
        if self._lines is not None:
            self._lines.end()

    async def _until_asked(self) -> TableState:
        """Wait until the table asks this keyboard for a line (its decision, its landing's
        hint there), or the game is over, or the player left."""
        while True:
            state = self.model.state
            landing_thinking = (state.decision.kind == D.LANDING
                                and self._line.offered() is None and not self.input.quit_asked)
            asked = state.decision.mine and not state.waking and not landing_thinking
            if self._leave or state.over or state.seat_lost or asked:
                return state
            self._changed.clear()
            await self._changed.wait()

    async def run(self) -> int:
        """Play until the game ends (0) or the player leaves (the Reply's exit)."""
        lines = self._lines = _Lines(self.stdin)
        self._on_change(self.model.state)
        while True:
            state = await self._until_asked()
            if self._leave:
                return 0
            if state.seat_lost:
                self._say(status_line(state)[1])
                return 0
            if state.over:  # (the story's last line said who won: the table says how)
                for _kind, row in state.final:
                    self._say(row)
                return 0
            self._prompt(state)
            line = await lines.next()
            if line is None:  # the input ended: the game is left as `quit` leaves it
                self._say("")
                return 0
            if not self._echoes:  # (a pipe: what was read, after its prompt, as typed)
                self._say(line.rstrip("\r\n"))
            text = line.strip() or (self._line.offered() or "")
            self._line.withdraw()
            reply = self.input.enter(text)
            if reply is not None:  # a question first (quit mid-game): Enter again confirms
                self._line.offer(text)
                continue
            if not text:
                continue
            reply = await self.input.submit(text)
            if reply.exit is not None:
                return reply.exit


async def run_plain(session: GameSession, out: TextIO | None = None,
                    stdin: TextIO | None = None, on_leave=None) -> int:
    """Run the line mode until the game ends or the player leaves; the session is always
    closed. `on_leave(leave)`: a context in which the OS's requests to stop (a signal)
    call `leave` (the command line's LeaveOnSignals)."""
    import contextlib

    model = TableModel(session)
    view = LineView(model, TableInput(model), out=out, stdin=stdin)
    try:
        await session.start()
        with on_leave(view.leave) if on_leave is not None else contextlib.nullcontext():
            return await view.run()
    finally:
        await session.close()

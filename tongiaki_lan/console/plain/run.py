"""The line mode's loop: a table model, the console's input path, the lines of `LineView`
on stdout, the player's lines from stdin.

Nothing here knows a rule or a story: a line read goes to `TableInput` as the terminal's
Enter sends it, and what is said comes from the states the model hands on. What is the
mode's own: the prompt, written only on a terminal and only when the table waits for a
person; an empty line, which plays the move offered (a hint's, a landing's) or says the
decision again; `moves`, which lists the decision's moves from the state (the terminal's
Tab); and, when lines come from a pipe into a solo game, each line held until the game
asks this keyboard again, as a player reads before typing, so that a script of moves
means the same however fast the bots are.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import signal
import sys

from tongiaki_lan.i18n import N_, _

from ..feeds.base import GameSession
from ..input import InputLine, Reply, TableInput
from ..model import TableModel
from ..state import TableState
from .lines import LineView, all_moves_line, islands_lines, plain_help, said_status
from .stdin import EOF, StdinLines

READY = ("ready",)  # on the queue: the game asks this keyboard again (held lines go on)
STOP = ("stop",)  # on the queue: leave now
BROKEN_PIPE = 141  # the status of a writer whose reader went away, as a shell has it


class PlainLine(InputLine):
    """The line typed on, as the input path sees it: what the input path offers (a hint's
    move, `quit` after the question) is played by Enter alone; any line typed replaces
    it. What is being typed the terminal keeps to itself until Enter: nothing, here."""

    tab = False

    def __init__(self) -> None:
        self.offer_text: str | None = None

    def text(self) -> str:
        return self.offer_text or ""

    def offered(self) -> str | None:
        return self.offer_text

    def offer(self, text: str) -> None:
        self.offer_text = text

    def withdraw(self) -> None:
        self.offer_text = None


class PlainRun:
    """One table in the line mode, from `start` to the player leaving; `run()` returns
    the exit status."""

    def __init__(self, session: GameSession, out=None, stdin=None,
                 model: TableModel | None = None, input: TableInput | None = None,
                 tty_in: bool | None = None, tty_out: bool | None = None):
        self.session = session
        self.out = sys.stdout if out is None else out
        self.stdin = sys.stdin if stdin is None else stdin
        self.model = model or TableModel(session)
        self.line = PlainLine()
        if input is None:
            input = TableInput(self.model, self.line)
        else:
            input.line = self.line
        self.input = input
        self.view = LineView()
        self.tty_in = _isatty(self.stdin) if tty_in is None else tty_in
        self.tty_out = _isatty(self.out) if tty_out is None else tty_out
        self.queue: asyncio.Queue = asyncio.Queue()
        self.code = 0
        self._stopping = False
        self._scheduled = False
        self._prompted = False  # the prompt is on the terminal's last line
        self._busy = False  # a command is being answered
        self._ready = True
        self._held: collections.deque = collections.deque()
        self._gone = False  # stdout was closed by its reader
        self.model.subscribe(self._changed)

    # ---------------------------------------------------------------- the loop

    async def run(self) -> int:
        """Until the player leaves or the input ends; the session is always closed. (The
        ways an OS asks a program to stop are the command's to hand to `stop`: cli's
        `LeaveOnSignals`; Ctrl-C is a key this mode asks about, as the console does.)"""
        try:
            with self._ctrl_c():
                self.write([self._help()])
                await self.session.start()
                self.flush()
                StdinLines(self.queue, self.stdin, tty=self.tty_in).start()
                await self._consume()
        finally:
            if self._prompted:  # (what is said at exit goes on a line of its own)
                self._send("\n")
                self._prompted = False
            self.model.unsubscribe(self._changed)
            await self.session.close()
        return self.code

    async def _consume(self) -> None:
        while not self._stopping:
            item = await self.queue.get()
            if item is STOP:
                return
            if item is READY:
                while self._held and self._ready and not self._stopping:
                    await self._take(self._held.popleft())
                continue
            if self._held or not self._ready:
                self._held.append(item)
                continue
            await self._take(item)

    async def _take(self, item: str | None) -> None:
        if item is EOF:
            self._end_of_input()
        else:
            await self.enter(item)
        self.flush()

    def stop(self, code: int | None = None) -> None:
        """Leave now (SIGTERM, a closed window, the input path's answer)."""
        if code is not None:
            self.code = code
        if not self._stopping:
            self._stopping = True
            self.queue.put_nowait(STOP)

    def _end_of_input(self) -> None:
        """The input ended. From a pipe, that is the end: the game is left as `quit`
        leaves it, recorded. On a terminal it is Ctrl-D, which asks first mid-game as in
        the console (and again leaves)."""
        if not self.tty_in:
            self.stop(0)
            return
        self._answer(self.input.leave(N_("Ctrl-D")))

    # ---------------------------------------------------------------- a line typed

    async def enter(self, typed: str) -> None:
        """One line from the player, as the console's Enter sends it."""
        text = typed.strip()
        if self.tty_in:
            self._prompted = False  # (their Enter took the cursor to a new line)
        elif self._prompted:  # read from a pipe: the output says what it answers, after
            self._prompted = False  # the prompt on a terminal, else as `> LINE`
            self._send(text + "\n")
        else:
            self.write([f"> {text}"])
        state = self.model.state
        if not text:
            offer = self.line.offer_text
            if offer is None and state.replay is None:
                self.write(self.again(state))
                return
            text = offer or ""
        self.line.withdraw()  # (a line typed replaces the offer; Enter took it)
        word, _sep, rest = text.partition(" ")
        if word.lower() == "moves":  # (what Tab lists on the full screen)
            listing = all_moves_line(state, rest.strip())
            if listing is not None:
                self.write([listing])
                return
        if word.lower() == "islands" and not rest.strip():  # (what its map shows)
            self.write(islands_lines(state))
            return
        self.view.forget_notice()  # (a command's answer is said, even the last one again)
        asked = self.input.enter(text)
        if asked is not None:  # a question first (leaving mid-game): Enter again confirms
            self.line.offer(text)
            return
        self._busy = True  # (no prompt under "Thinking…": the answer comes first)
        try:
            self._answer(await self.input.submit(text))
        finally:
            self._busy = False
        if word.lower() in ("help", "?") and not rest.strip():
            self.flush()
            self.write([self._help()])

    def _help(self) -> str:
        return plain_help(replay=self.session.kind == "replay")

    def again(self, state: TableState) -> list[str]:
        """Enter alone with nothing offered: the decision again, and its moves."""
        if state.decision.mine:
            return self.view.decision_lines(state)
        status = said_status(state)
        return [status] if status else []

    def _answer(self, reply: Reply) -> None:
        if reply.exit is not None:
            self.stop(reply.exit)

    @contextlib.contextmanager
    def _ctrl_c(self):
        """Ctrl-C, as in the console: mid-game it asks, and again leaves."""
        loop = asyncio.get_running_loop()
        undo = None
        if os.name == "posix":
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(signal.SIGINT, self._on_ctrl_c)
                undo = lambda: loop.remove_signal_handler(signal.SIGINT)  # noqa: E731
        else:
            with contextlib.suppress(ValueError, OSError):
                before = signal.signal(signal.SIGINT,
                                       lambda _s, _f: loop.call_soon_threadsafe(self._on_ctrl_c))
                undo = lambda: signal.signal(signal.SIGINT, before)  # noqa: E731
        try:
            yield
        finally:
            if undo is not None:
                with contextlib.suppress(Exception):
                    undo()

    def _on_ctrl_c(self) -> None:
        if self.tty_in:  # (the terminal wrote ^C where the cursor was)
            self._prompted = True
        reply = self.input.leave(N_("Ctrl-C"))
        if reply.exit is None:  # (the question, said even if said before)
            self.view.forget_notice()
        # else it leaves: the question said a moment ago was said again before the
        # goodbye, as if the second Ctrl-C had not been heard
        self._answer(reply)
        self.flush()

    # ---------------------------------------------------------------- saying

    def _changed(self, state: TableState) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        """Say what the state as of now adds; the prompt when the table waits for a
        person; held lines go on once the game asks this keyboard."""
        self._scheduled = False
        state = self.model.state
        self.write(self.view.lines(state))
        if (self.tty_out and not self._prompted and not self._busy and not self._stopping
                and self._waits(state)):
            self._send(_("watching> ") if state.kind == "watch" else "> ")
            self._prompted = True
        ready = self.tty_in or self._asks_us(state)
        if ready and not self._ready:
            self.queue.put_nowait(READY)
        self._ready = ready

    def _asks_us(self, state: TableState) -> bool:
        """Whether a line held from a pipe may go now: in a solo game, once our decision
        was said (or the game is over); elsewhere nobody here decides for the player."""
        return state.kind != "solo" or state.over or self.view.announced

    @staticmethod
    def _waits(state: TableState) -> bool:
        """Whether the table waits for a person (not a bot, not a tile)."""
        d = state.decision
        return state.over or not (state.bot_thinking or (d.seat is None and d.kind))

    def write(self, lines: list[str]) -> None:
        if not lines:
            return
        text = "\n".join(lines) + "\n"
        if self._prompted:  # (not after the prompt: on a line of its own)
            text = "\n" + text
            self._prompted = False
        self._send(text)

    def _send(self, text: str) -> None:
        if self._gone:
            return
        try:
            self.out.write(text)
            self.out.flush()
        except (OSError, ValueError):  # the reader went away (`| head`), or closed it
            self._reader_gone()

    def _reader_gone(self) -> None:
        """stdout was closed: the game is left as `quit` leaves it, quietly, and what
        Python still writes at exit goes nowhere rather than fail again."""
        self._gone = True
        if self.out is sys.stdout:
            with contextlib.suppress(OSError, ValueError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, sys.stdout.fileno())
                os.close(null)
        self.stop(BROKEN_PIPE)


def _isatty(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError):
        return False


async def run_plain(session: GameSession, model: TableModel | None = None,
                    input: TableInput | None = None) -> int:
    """Play (or watch, or step through) `session` in the line mode on stdin and stdout
    until the player leaves or the input ends; the session is always closed. Returns
    the exit status (0; 141 when stdout was closed by its reader)."""
    return await PlainRun(session, model=model, input=input).run()

"""The player's lines from stdin, read without blocking the game.

Why a thread reading the raw stream rather than prompt_toolkit or the event loop: a
`PromptSession`, even without full screen, redraws its line on every key and asks the
terminal where its cursor is, which a screen reader reads out as noise; the terminal's
own line editing (cooked mode) is what screen readers know. Reading stdin from the event
loop (`connect_read_pipe`, `add_reader`) fails for a file redirected to stdin (epoll
refuses regular files), is not there on Windows, and on a terminal makes the descriptor
non-blocking, which stdout usually shares. A daemon thread blocked in the raw stream's
`read` does none of this, holds no lock of `sys.stdin` (a buffered reader held at exit
stops the interpreter with a fatal error), and ends with the process.
"""

from __future__ import annotations

import asyncio
import codecs
import sys
import threading

EOF = None  # what the queue holds when the input ended


class StdinLines:
    """Lines of `stream` (stdin by default) put on `queue` in the event loop, each
    without its line end; `EOF` when the input ends. On a terminal the input goes on
    after an end (Ctrl-D on an empty line): each one is put, and reading goes on."""

    def __init__(self, queue: asyncio.Queue, stream=None, tty: bool | None = None):
        self.queue = queue
        self.stream = sys.stdin if stream is None else stream
        self.tty = _isatty(self.stream) if tty is None else tty
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        threading.Thread(target=self._read, name="plain-stdin", daemon=True).start()

    def _put(self, item: str | None) -> bool:
        """Hand `item` to the loop; False once the loop is gone (the game ended)."""
        try:
            self._loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:
            return False
        return True

    def _read(self) -> None:
        raw = _raw(self.stream)
        if raw is None:  # (no stdin at all: a GUI launch, or closed)
            self._put(EOF)
            return
        encoding = getattr(self.stream, "encoding", None) or "utf-8"
        try:
            decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
        except LookupError:
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        pending = ""
        while True:
            try:
                data = raw.read(4096)
            except (OSError, ValueError):  # closed under us: the end
                data = b""
            if data is None:  # (a non-blocking stream with nothing yet)
                continue
            pending += decoder.decode(data, final=not data)
            *lines, pending = pending.split("\n")
            for line in lines:
                if not self._put(line.rstrip("\r")):
                    return
            if data:
                continue
            if pending:  # (a last line without its line end)
                if not self._put(pending.rstrip("\r")):
                    return
                pending = ""
            if not self._put(EOF) or not self.tty:
                return


def _raw(stream):
    """The unbuffered stream under `stream`, or None."""
    if stream is None:
        return None
    buffer = getattr(stream, "buffer", stream)
    return getattr(buffer, "raw", buffer)


def _isatty(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (OSError, ValueError):
        return False

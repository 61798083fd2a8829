"""A `tongiaki-lan … --plain` process driven line by line through pipes, as a script or a
screen reader's user would: each line it writes is read as it comes, each answer written
when the line it answers has been read."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DONE = None  # on the queue: stdout ended


class PlainProcess:
    """One process; `lines` is everything it wrote on stdout so far, line by line."""

    def __init__(self, args: list[str], home: Path, timeout: float = 120.0):
        env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(home)}
        self.timeout = timeout
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tongiaki_lan", *args], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
        self.lines: list[str] = []
        self.stderr = b""
        self.raw = b""  # stdout as written, bytes and all (escape codes would show here)
        self._queue: queue.Queue = queue.Queue()
        self._read = 0  # of `lines`, how many `until` has handed out
        self._threads = [threading.Thread(target=self._pump, daemon=True),
                         threading.Thread(target=self._pump_err, daemon=True)]
        for t in self._threads:
            t.start()

    def _pump(self) -> None:
        for raw in self.proc.stdout:
            self.raw += raw
            self._queue.put(raw.decode("utf-8").rstrip("\n"))
        self._queue.put(DONE)

    def _pump_err(self) -> None:
        self.stderr = self.proc.stderr.read()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, text: str) -> None:
        self.proc.stdin.write((text + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def close_input(self) -> None:
        self.proc.stdin.close()

    def until(self, predicate, what: str) -> list[str]:
        """The lines written from the last call on, up to the first for which
        `predicate(line)` holds (included); fails when the output ends first, or after a
        generous time without it."""
        out = []
        while True:
            try:
                line = self._queue.get(timeout=self.timeout)
            except queue.Empty:
                raise AssertionError(f"no {what} within {self.timeout} s; last lines: "
                                     f"{self.lines[-8:]}") from None
            if line is DONE:
                self._queue.put(DONE)
                raise AssertionError(f"the output ended before {what}; last lines: "
                                     f"{self.lines[-8:]}\nstderr: {self.stderr[-1500:]!r}")
            self.lines.append(line)
            out.append(line)
            if predicate(line):
                return out

    def finish(self) -> int:
        """Wait for the end; the rest of the output is read into `lines`."""
        code = self.proc.wait(timeout=self.timeout)
        for t in self._threads:
            t.join(timeout=self.timeout)
        while True:
            line = self._queue.get(timeout=self.timeout)
            if line is DONE:
                break
            self.lines.append(line)
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

"""A command run as a child process whose JSON-line output the test follows as it comes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


class Proc:
    """One command in a namespace; its JSON lines are collected as they arrive."""

    def __init__(self, argv: list[str], cwd: Path, **popen):
        self.argv = argv
        self.cwd = cwd
        self.popen = popen  # e.g. creationflags on Windows
        self.events: list[dict] = []
        self.arrived: list[float] = []  # when each of `events` came (loop clock)
        self.stderr = b""
        self.changed = asyncio.Event()
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task | None = None

    async def start(self) -> Proc:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv, cwd=self.cwd, env=env, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, **self.popen)
        self._reader = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        err = asyncio.create_task(self.proc.stderr.read())
        async for line in self.proc.stdout:
            with contextlib.suppress(ValueError):
                self.events.append(json.loads(line))
                self.arrived.append(asyncio.get_running_loop().time())
            self.changed.set()
        self.stderr = await err
        await self.proc.wait()
        self.changed.set()

    def count(self, kind: str) -> int:
        return sum(1 for e in self.events if e.get("event") == kind)

    async def wait(self, cond, timeout: float) -> None:
        async def loop():
            while not cond():
                self.changed.clear()
                await self.changed.wait()
        try:
            await asyncio.wait_for(loop(), timeout)
        except asyncio.TimeoutError:
            raise AssertionError(f"timed out; last events: {self.events[-5:]}\n"
                                 f"stderr: {self.stderr[-2000:]!r}") from None

    async def finish(self, timeout: float) -> int:
        await self.wait(lambda: self._reader.done(), timeout)
        return self.proc.returncode

    def kill(self, sig=None) -> None:
        """Send `sig`, or kill outright (SIGKILL on POSIX, TerminateProcess on Windows)."""
        if self.proc.returncode is None:
            if sig is None:
                self.proc.kill()
            else:
                self.proc.send_signal(sig)


async def kill_all(procs) -> None:
    for p in procs:
        if p.proc is not None and p.proc.returncode is None:
            p.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(p.proc.wait(), 10)


def one_verified_game(procs) -> list[dict]:
    """Each process's last event is the game's end, all with one digest, and each record
    verifies to it; returns those last events for what a test checks beyond."""
    from .helpers import verify_record

    finals = [p.events[-1] for p in procs]
    assert all(f["event"] == "game_over" for f in finals), finals
    assert len({f["digest"] for f in finals}) == 1
    for f in finals:
        assert verify_record(f["record"]).hex() == f["digest"]
    return finals

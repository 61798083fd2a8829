"""The processes a command leaves behind, read from Linux's /proc (no psutil).

A command under test is started in a session of its own (`start_new_session=True`), so
it and every process it starts (pool workers, node processes, multiprocessing's helpers)
share one process group whose id is the command's pid; they keep it even when their
parent is gone. What is left of that group after the command has ended is what the
command left running.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time


def members(pgid: int) -> dict[int, str]:
    """pid -> command line of each live (not zombie) process of the group."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read().decode(errors="replace")
            with open(f"/proc/{entry}/cmdline", "rb") as fh:
                cmdline = fh.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # (gone meanwhile)
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            out[int(entry)] = cmdline
    return out


def survivors(pgid: int, within: float) -> dict[int, str]:
    """The group's processes still running after waiting up to `within` seconds in all
    for each to end (a pidfd per process: woken by its end, not by a clock)."""
    deadline = time.monotonic() + within
    left = members(pgid)
    for pid in list(left):
        try:
            fd = os.pidfd_open(pid)
        except ProcessLookupError:
            left.pop(pid)
            continue
        except (AttributeError, OSError):  # no pidfds here: look again until the deadline
            pause = threading.Event()
            while pid in members(pgid) and time.monotonic() < deadline:
                pause.wait(0.05)
            if pid not in members(pgid):
                left.pop(pid)
            continue
        try:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
        finally:
            os.close(fd)
        if ready:
            left.pop(pid)
    return {pid: cmd for pid, cmd in left.items() if pid in members(pgid)}


def wait_members(pgid: int, count: int, within: float) -> dict[int, str]:
    """The group once it has at least `count` live processes (or when `within` is up)."""
    deadline = time.monotonic() + within
    pause = threading.Event()
    found = members(pgid)
    while len(found) < count and time.monotonic() < deadline:
        pause.wait(0.05)
        found = members(pgid)
    return found


def kill_group(pgid: int) -> None:
    """End whatever is left of the group (a test must leave nothing running)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)

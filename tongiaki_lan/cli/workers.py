"""Games played in worker processes, each worker on a pipe of its own, and every worker
gone when the command ends, however it ends.

Why not `multiprocessing.Pool`: its workers share one task queue guarded by a lock. A
closed terminal window sends SIGHUP to every process of the terminal; a worker killed
while it held that lock (waiting for its next game) left the command's own clean-up
(`Pool.terminate`) waiting on the lock for ever, and a tournament stayed behind its closed
window with its workers dead. Here nothing is shared: the command hands one call at a time
to each worker over that worker's pipe and waits on the pipes and on the workers' ends
together, so a worker that dies is noticed at once, and stopping is terminating each
worker, which needs no lock.

Why not `concurrent.futures`: on Ctrl-C an executor first finishes the games its workers
are playing (minutes at 1 s a move); these workers are terminated at once. They ignore
SIGINT (the command, which gets it too, stops them: no traceback from each), and each one
ends by itself when its command is gone without a word (`lifeline.exit_with_parent`: an
out-of-memory kill, `kill -9`). Spawned on every system: Windows and macOS can only
spawn, so Linux (and its tests) start them the same way players' laptops do.
"""

from __future__ import annotations

import multiprocessing
import signal
import traceback
from collections.abc import Callable, Iterable
from multiprocessing.connection import wait
from typing import Any

# how long a terminated worker may take to go before it is killed
TERMINATE_GRACE_S = 5.0


class WorkerFailed(RuntimeError):
    """A worker's call raised, or the worker ended without an answer."""


def run_in_workers(function: Callable[..., Any], calls: Iterable[tuple], jobs: int,
                   each: Callable[[Any], None]) -> None:
    """`function(*call)` for every call, in up to `jobs` spawned processes; `each(result)`
    as each one comes back, in whatever order they end. `function` must be importable by
    name (a module's function). Whatever ends this (the last result, an exception in
    `each`, KeyboardInterrupt, lifeline.Stopped), no worker is left running."""
    spawn = multiprocessing.get_context("spawn")
    todo = iter(calls)
    workers: list[tuple[Any, Any]] = []  # (process, the parent's end of its pipe)
    busy: dict[Any, tuple[Any, tuple]] = {}  # pipe -> (process, the call it plays)
    try:
        for _ in range(jobs):
            call = next(todo, None)
            if call is None:
                break
            ours, theirs = spawn.Pipe()
            process = spawn.Process(target=_serve, args=(theirs, function), daemon=True)
            process.start()
            theirs.close()
            workers.append((process, ours))
            ours.send(call)
            busy[ours] = (process, call)
        while busy:
            sentinels = {p.sentinel: (conn, p) for conn, (p, _c) in busy.items()}
            for ready in wait([*busy, *sentinels]):
                if ready in sentinels:
                    conn, process = sentinels[ready]
                    if conn in busy and not conn.poll():
                        raise WorkerFailed(f"a worker process ended (exit code "
                                           f"{process.exitcode}) in the middle of a game")
                    continue
                if ready not in busy:
                    continue
                process, call = busy.pop(ready)
                try:
                    kind, value = ready.recv()
                except EOFError:
                    raise WorkerFailed("a worker process ended in the middle of a game") \
                        from None
                if kind == "error":
                    raise WorkerFailed(f"a game failed in a worker: {value}")
                each(value)
                call = next(todo, None)
                if call is not None:
                    ready.send(call)
                    busy[ready] = (process, call)
        for _process, conn in workers:
            conn.send(None)  # (done: each worker returns)
    finally:
        _end(workers)


def _end(workers: list[tuple[Any, Any]]) -> None:
    for process, _conn in workers:
        if process.is_alive():
            process.terminate()
    for process, conn in workers:
        process.join(TERMINATE_GRACE_S)
        if process.is_alive():
            process.kill()
            process.join()
        conn.close()


def _serve(conn, function: Callable[..., Any]) -> None:
    """A worker: calls from `conn` until None, each answered ("ok", result) or ("error",
    what went wrong)."""
    from tongiaki_lan.lifeline import exit_with_parent

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # (the command stops us: see above)
    exit_with_parent()
    while True:
        try:
            call = conn.recv()
        except EOFError:  # the command is gone
            return
        if call is None:
            return
        try:
            answer = ("ok", function(*call))
        except Exception as exc:  # noqa: BLE001 - said to the command, which stops
            answer = ("error", f"{exc!r}\n{traceback.format_exc(limit=-3)}")
        conn.send(answer)

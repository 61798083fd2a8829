"""A command's helper processes end with it, however it ends.

`tournament` and `ladder` play their games in worker processes, and `bench net` runs each
node in a process of its own. A walk through the options left 39 such workers computing
after the commands were gone: a command killed outright (an out-of-memory kill, a crashed
terminal, `kill -9`) cannot tell its workers anything, and one stopped by SIGTERM or a
closed window (SIGHUP) died before its cleanup ran.

Two halves:

- `Stopped` / `stop_on_signals()`, in the command: SIGTERM, SIGHUP (and Windows'
  SIGBREAK) are raised as `Stopped`, a KeyboardInterrupt, so the cleanup that Ctrl-C
  already runs (terminate the pool, say what was kept) runs for them too, and the command
  ends with the shell's status for that signal (128 + its number).
- `exit_with_parent()`, in each helper: a daemon thread waits for the parent process to
  be gone and then ends this process at once. A pool worker waits on its parent's
  sentinel (`multiprocessing.parent_process()`: a pipe the parent holds open, closed by
  the OS when the parent dies, however it dies); a plain child process started with
  `subprocess` waits on the parent's process handle on Windows, and on POSIX notices
  that it was handed to another parent.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator

# how often a POSIX child started by `subprocess` looks whether its parent is still its
# parent (it has no handle to wait on); a helper outliving its command by this much is
# no process left behind
PARENT_CHECK_S = 0.5


class Stopped(KeyboardInterrupt):
    """The command was asked to stop by a signal (SIGTERM, SIGHUP, SIGBREAK): handled as
    Ctrl-C is, ending with `status`."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.status = 128 + signum


def _stopping_signals() -> list[int]:
    names = ("SIGTERM", "SIGHUP", "SIGBREAK")
    return [getattr(signal, n) for n in names if hasattr(signal, n)]


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within: SIGTERM, SIGHUP and SIGBREAK raise `Stopped` in the main thread, once: the
    clean-up it sets going is not cut short by the next one (a closed terminal window
    sends SIGHUP twice, the kernel's and the shell's, and the second one broke off a
    pool's clean-up, which then waited for ever). Elsewhere, or where a signal cannot be
    handled, nothing changes."""
    stopping: list[int] = []

    def raise_stopped(signum, _frame):
        if stopping:  # (stopping already)
            return
        stopping.append(signum)
        raise Stopped(signum)

    before = {}
    for sig in _stopping_signals():
        try:
            before[sig] = signal.signal(sig, raise_stopped)
        except (ValueError, OSError):  # not the main thread
            continue
    try:
        yield
    finally:
        for sig, handler in before.items():
            with contextlib.suppress(ValueError, OSError, TypeError):
                # stopping: the rest of the way out is not cut short either
                signal.signal(sig, signal.SIG_IGN if stopping else handler)


def exit_with_parent(status: int = 1) -> threading.Thread | None:
    """End this process (at once, with `status`) when its parent is gone; call it first
    thing in a helper process. Returns the watching thread (None if nothing can be
    watched)."""
    import multiprocessing

    parent = multiprocessing.parent_process()
    if parent is not None:  # a multiprocessing child: the parent's sentinel
        wait = parent.join
    elif os.name == "nt":
        wait = _windows_parent_waiter()
        if wait is None:
            return None
    else:
        wait = _posix_parent_waiter()

    def watch() -> None:
        wait()
        os._exit(status)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


def _posix_parent_waiter():
    first = os.getppid()
    gone = threading.Event()  # never set: its wait is the pause between two looks

    def wait() -> None:
        while os.getppid() == first:
            gone.wait(PARENT_CHECK_S)

    return wait


def _windows_parent_waiter():  # pragma: no cover - Windows
    try:
        import ctypes

        kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    except (ImportError, AttributeError, OSError):
        return None
    synchronize, infinite = 0x00100000, 0xFFFFFFFF
    handle = kernel32.OpenProcess(synchronize, False, os.getppid())
    if not handle:
        return None

    def wait() -> None:
        kernel32.WaitForSingleObject(handle, infinite)

    return wait

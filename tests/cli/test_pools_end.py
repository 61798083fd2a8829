"""Worker pools end with their command, however it ends: Ctrl-C (SIGINT), kill (SIGTERM),
a closed terminal window (SIGHUP, to the command alone or to the terminal's whole process
group, as a terminal sends it), or killed outright (SIGKILL: an out-of-memory kill, a
crashed terminal), when the workers must notice by themselves that their command is gone.
A walk through the options left 39 tournament and ladder workers computing.

Real commands with two real worker processes (or node processes for `bench net`), each in
a session of its own; what is left of its process group afterwards is read from /proc.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading

import pytest

from .procgroup import kill_group, members, survivors, wait_members

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the processes left from Linux's /proc")

RUNS = {
    # (command line, a line on stderr that says the workers are playing)
    "tournament": (["tournament", "--seats", "greedy,random", "--games", "20000",
                    "--jobs", "2"], b"tournament: 2/20000"),
    "ladder": (["ladder", "--entries", "greedy,random", "--games", "20000", "--jobs", "2"],
               b"ladder: 2/20000"),
    # no progress line: it is playing once its two node processes are up
    "bench net": (["bench", "net", "--peers", "2", "--moves", "1000000"], None),
}
# how each way of ending reaches the command (the signal; to the whole process group;
# twice), and the status it ends with
ENDINGS = {
    "SIGINT": (signal.SIGINT, False, 1, 130),
    "SIGTERM": (signal.SIGTERM, False, 1, 143),
    "SIGTERM to the group": (signal.SIGTERM, True, 1, 143),  # kill -TERM -PGID
    "SIGHUP": (signal.SIGHUP, False, 1, 129),
    # a terminal window closed: the kernel's SIGHUP to the terminal's foreground group,
    # and a moment later the shell's own to its job. The second one broke off the pool's
    # clean-up, which then waited for ever on a lock a killed worker held (seen in tmux:
    # the tournament stayed behind its closed window)
    "window closed": (signal.SIGHUP, True, 2, 129),
    "SIGKILL": (signal.SIGKILL, False, 1, -signal.SIGKILL),
}
SHELL_AFTER_KERNEL_S = 0.005  # between the two SIGHUPs of a closed window


def _default_sigint() -> None:
    # SIGINT as a terminal leaves it: a shell starts background jobs with it ignored
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("command", RUNS)
def test_no_worker_outlives_its_command(command, ending, tmp_path):
    argv, playing = RUNS[command]
    sig, to_group, times, status = ENDINGS[ending]
    proc = subprocess.Popen([sys.executable, "-m", "tongiaki_lan", *argv], cwd=tmp_path,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True, preexec_fn=_default_sigint)
    seen = b""
    try:
        if playing is not None:
            while playing not in seen:
                chunk = os.read(proc.stderr.fileno(), 4096)
                assert chunk, seen[-2000:]
                seen += chunk
        else:  # the command and its two nodes
            assert len(wait_members(proc.pid, 3, 120)) >= 3, members(proc.pid)
        before = members(proc.pid)
        assert len(before) >= 3, before  # the command and (at least) two workers
        for again in range(times):
            if again:
                threading.Event().wait(SHELL_AFTER_KERNEL_S)  # (the shell's, after)
            with contextlib.suppress(ProcessLookupError):
                (os.killpg if to_group else os.kill)(proc.pid, sig)
        code = proc.wait(timeout=120)
        left = survivors(proc.pid, within=60)
    finally:
        kill_group(proc.pid)
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err = seen + proc.stderr.read()
    proc.stderr.close()
    assert not left, f"left running after {ending}: {left}"
    assert code == status, err[-2000:]
    assert b"Traceback" not in err, err[-3000:]

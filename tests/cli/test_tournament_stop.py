"""Ctrl-C in a long tournament: the games already played stay in its --log, the run
ends at once with the shell's status for an interrupt and no traceback, and the same
command then continues from them. A real process with two worker processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(os.name != "posix",
                                reason="sends SIGINT to a process (POSIX signals)")


def test_ctrl_c_keeps_the_finished_games_for_the_next_run(tmp_path):
    log = tmp_path / "long.jsonl"
    cmd = [sys.executable, "-m", "tongiaki_lan", "tournament", "--seats", "greedy,random",
           "--seed", "stop", "--jobs", "2", "--log", str(log)]
    # SIGINT as a terminal leaves it: a shell starts background jobs (a CI script run
    # with `&`) with SIGINT ignored, and Python keeps an ignored SIGINT ignored
    proc = subprocess.Popen([*cmd, "--games", "400"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # the progress line on stderr says when a game has ended (and so is in the log)
        seen = b""
        while b"tournament: 2/400" not in seen:
            chunk = os.read(proc.stderr.fileno(), 4096)
            assert chunk, seen
            seen += chunk
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    err = seen + err
    assert proc.returncode == 130 and b"Traceback" not in err, err[-2000:]
    assert b"stopped;" in err and str(log).encode() in err
    kept = log.read_bytes().count(b"\n") - 1  # the first line names the run
    assert 2 <= kept < 400
    again = subprocess.run([*cmd, "--games", str(kept + 1), "--json", "--quiet"],
                           capture_output=True, timeout=300, check=True)
    report = json.loads(again.stdout)
    assert report["from_log"] == kept and report["games"] == kept + 1

"""`tongiaki-lan verify FILE | head`: a reader that stops early ends the command quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tongiaki_lan.records import SUFFIX

REPO = Path(__file__).resolve().parents[2]


def test_a_closed_pipe_ends_verify_without_a_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    made = subprocess.run([sys.executable, "-m", "tongiaki_lan", "selfplay", "--players", "2",
                           "--games", "1", "--seed", "pipe", "--records", str(tmp_path),
                           "--json"], capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    (record,) = tmp_path.glob(f"*{SUFFIX}")
    read_end, write_end = os.pipe()
    os.close(read_end)  # like `| head` that has already exited: every write fails
    try:
        done = subprocess.run([sys.executable, "-m", "tongiaki_lan", "verify", str(record)],
                              stdout=write_end, stderr=subprocess.PIPE, text=True, env=env)
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr and "BrokenPipeError" not in done.stderr, done.stderr
    assert done.returncode == 141

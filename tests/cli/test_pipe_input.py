"""The console fed from a pipe (commands in a file, a script): when the input ends the
game ends as `quit` ends it — recorded, said, no traceback — in the player's language."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tongiaki_lan.records import read_record

REPO = Path(__file__).resolve().parents[2]


def test_solo_from_a_pipe_that_ends_leaves_a_record_and_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tongiaki_lan", "solo", "--bots", "1", "--bot", "random",
         "--lang", "it", "--seed", "pipe", "--pace", "0"],
        input=b"place Tonga 1\nquit\n", capture_output=True, env=env, timeout=120)
    out, err = done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    assert done.returncode == 0 and "Traceback" not in err + out, err[-1500:]
    (record,) = (tmp_path / "records").glob("solo-*.tgrec")
    assert f"Partita registrata: {record}" in out
    assert [str(m) for m in read_record(record).moves][:1] == ["place Tonga 1"]

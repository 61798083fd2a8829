"""The repository holds the program and its checks, never files a run leaves behind: a
process id file (`auto.pid`) sat tracked at the top of a fresh clone."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _git(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(REPO), *args], capture_output=True, text=True,
                          timeout=60)


@pytest.fixture(scope="module", autouse=True)
def _a_checkout():
    if shutil.which("git") is None or _git("rev-parse", "--git-dir").returncode != 0:
        pytest.skip("not a git checkout (an unpacked sdist, say)")


def test_run_time_files_are_ignored_and_none_is_tracked():
    for left_by_a_run in ("auto.pid", "node.pid", "game.tgrec", "records/x.tgrec"):
        assert _git("check-ignore", "-q", "--no-index", left_by_a_run).returncode == 0, \
            left_by_a_run
    tracked = _git("ls-files", "--cached", "--ignored", "--exclude-standard").stdout.split()
    assert tracked == [], f"tracked, though ignored: {tracked}"

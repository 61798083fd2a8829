"""`tongiaki-lan bench board`: it runs, and reports its figures (which no test judges)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.conftest import chromium_path

REPO = Path(__file__).resolve().parents[2]


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", "bench", "board", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(REPO)})


def test_bench_board_reports_the_time_from_a_move_to_the_page():
    if chromium_path() is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run does)")
    pytest.importorskip("playwright", reason="Playwright for Python is not installed")
    out = bench("--moves", "6", "--players", "3", "--json")
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert figures["target"] == "board" and figures["moves"] == 6
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]
    assert figures["message_kb_mean"] > 0 and figures["chromium"]


def test_bench_board_refuses_what_it_cannot_run_saying_why(tmp_path):
    missing = tmp_path / "no-such-chromium"
    out = bench("--moves", "3", "--chromium", str(missing))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert str(missing) in out.stderr and "no such file" in out.stderr
    out = bench("--moves", "0")
    assert out.returncode == 2 and "argument --moves: '0'" in out.stderr

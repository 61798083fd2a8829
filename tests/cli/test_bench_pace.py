"""What a solo player waits for a bot's move: README says it as `bench pace` measures it
(the level's thinking and the console's pace), not the thinking alone ("a quarter of a
second", where a player waited 0.69 s on average). Figures are reported, never asserted."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from tongiaki_lan.bots.levels import level
from tongiaki_lan.cli import build_parser

REPO = Path(__file__).resolve().parents[2]


def test_bench_pace_reports_the_waits_of_a_solo_game(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tongiaki_lan", "bench", "pace", "--players",
                           "2", "--games", "1", "--bot", "random", "--pace", "0", "--json"],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["target"] == "pace" and out["bot_moves"] > 10 and out["pace_s"] == 0
    assert out["p50_wait_s"] <= out["p95_wait_s"] <= out["max_wait_s"]


def test_readme_says_the_wait_as_thinking_and_pace():
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    said = re.search(r"The bots play at the `normal` level: (.*?)\(`docs/bots.md`, Levels\)",
                     readme).group(1)
    timed = level("normal").timed
    pace = next(a.default for a in build_parser(only="solo").commands["solo"]._actions
                if "--pace" in a.option_strings)
    assert f"{timed['think']:g} s of thinking on average" in said
    assert f"({timed['think'] * timed['most']:g} s at most)" in said
    assert f"a {pace:g} s pace" in said and "bench pace" in said
    assert "quarter of a second" not in said

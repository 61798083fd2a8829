"""The SVG of a two-colour game (docs/rules.md V1) says who owns which colours and their
score together, and marks both colours of the winner."""

from __future__ import annotations

import subprocess
import sys

from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import read_record, replay_record
from tongiaki_lan.selfplay import game_seed, play_game


def test_V1_export_shows_owners_and_combined_scores(tmp_path):
    result = play_game(game_seed("svg", 0), 2, ["random"], tmp_path, variant=V.TWO_COLOURS)
    game = replay_record(read_record(result.record))
    out = subprocess.run([sys.executable, "-m", "tongiaki_lan", "export", result.record,
                          "--svg", "-", "--lang", "en"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    keys = V.ranking_keys(game)
    assert f"random-0 (blue + green): {keys[0][0]} points together" in out.stdout
    assert f"random-1 (red + yellow): {keys[1][0]} points together" in out.stdout
    won = [line for line in out.stdout.splitlines() if "— winner" in line or "shared win" in line]
    expected = {c for p in V.winners(game) for c in V.player_colours(game, p)}
    assert {c for c in ("blue", "red", "green", "yellow")
            if any(f"({c})" in line for line in won)} == expected

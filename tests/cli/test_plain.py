"""`solo --plain`: the game told a line per event, for screen readers and pipes, with the
pending decision and its legal moves as text, fed line by line through the same input
path as the full screen."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tongiaki_lan.records import read_record, replay_record

REPO = Path(__file__).resolve().parents[2]


def _plain(tmp_path: Path, seed: str, lines: str) -> tuple[subprocess.CompletedProcess, str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-m", "tongiaki_lan", "solo", "--plain", "--bots", "2", "--bot",
         "random", "--hint-bot", "random", "--pace", "0", "--seed", seed, "--name", "Ana"],
        input=lines.encode(), capture_output=True, env=env, timeout=300)
    return done, done.stdout.decode("utf-8")


def test_solo_plain_plays_a_game_to_the_end_from_a_pipe(tmp_path):
    # at each decision: `hint`, then an empty line plays the move it offers
    done, out = _plain(tmp_path, "plain-2", "hint\n\n" * 1000)
    err = done.stderr.decode("utf-8")
    assert done.returncode == 0 and "Traceback" not in out + err, err[-1500:]
    assert "\x1b" not in out  # (no full-screen drawing: lines only)
    (record,) = (tmp_path / "records").glob("solo-*.tgrec")
    game = replay_record(read_record(record))
    assert game.is_over  # played to the end, every move in the record
    assert f"Record saved: {record}" in out
    rows = out.splitlines()
    # each decision: its words, its legal moves, the line read after `> `
    first = rows.index("Your decision: put a ship on Tonga — place Tonga BEACH")
    assert rows[first + 1] == ("Legal moves: place Tonga 1, place Tonga 2, place Tonga 3, "
                               "place Tonga 4, place Tonga 5, place Tonga 6")
    assert rows[first + 2] == "> hint" and rows[first + 3].startswith("Hint: place Tonga ")
    assert any(r.startswith("Ana (B) puts a ship on beach ") for r in rows)
    # a landing offers the hint's landing: an empty line takes it
    landing = next(i for i, r in enumerate(rows) if " reach " in r and "Enter takes" in r)
    assert rows[landing + 1].startswith("Legal moves: land ")
    assert any(r.startswith("Game over: ") for r in rows)
    assert "Final score" in rows
    # one line per event, told once: the screen's redraws are not repeated as lines
    assert sum(r.startswith("New game, seed ") for r in rows) == 1
    turns = [r for r in rows if r.startswith("── turn ")]
    assert len(turns) == len(set(turns)) > 3


def test_solo_plain_refuses_with_the_rule_and_a_pipe_that_ends_leaves_the_record(tmp_path):
    done, out = _plain(tmp_path, "plain-3", "place Tonga 9\nplace Tonga 1\n")
    assert done.returncode == 0 and "Traceback" not in out + done.stderr.decode()
    rows = out.splitlines()
    assert "> place Tonga 9" in rows
    refusal = rows[rows.index("> place Tonga 9") + 1]
    assert refusal.startswith("place Tonga 9: "), refusal
    (record,) = (tmp_path / "records").glob("solo-*.tgrec")
    assert [str(m) for m in read_record(record).moves][:1] == ["place Tonga 1"]
    assert f"Play on with: tongiaki-lan solo --resume {record}" in out

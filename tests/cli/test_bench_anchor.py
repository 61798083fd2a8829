"""`bench engine --anchor PATH` times our engine beside a lakenen/tongiaki checkout. The
checkout here is a stand-in with the same module names (the real one is not shipped): the
tests check the report, the stop put to endless migrations, and the refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

STAND_IN = {
    "tiles/__init__.py": "",
    "tiles/island_tile.py": "class IslandTile:\n    def __init__(self, *a):\n        pass\n",
    "tiles/water_tile.py": "class WaterTile:\n    def __init__(self, *a):\n        pass\n",
    "board.py": "class Board:\n    def print(self):\n        print('a board')\n",
    "player.py": (
        "class RandomPlayer:\n"
        "    def __init__(self, name):\n"
        "        self.name = name\n"
        "    def choose_beach_to_migrate(self):\n"
        "        return 'beach'\n"
    ),
    "game.py": (
        "import board\n"
        "class GameOver(Exception):\n"
        "    pass\n"
        "class Game:\n"
        "    def __init__(self, start, stack):\n"
        "        self.board = board.Board()\n"
        "    def serialize(self):\n"
        "        return '{}'\n"
        "    def play(self, players):\n"
        "        # like the real one: migrations go on while a beach is full, and a game\n"
        "        # ends by GameOver; this one never runs out of full beaches\n"
        "        try:\n"
        "            while True:\n"
        "                for p in players:\n"
        "                    p.choose_beach_to_migrate()\n"
        "        except GameOver:\n"
        "            print('game over!')\n"
        "        self.board.print()\n"
        "        print(self.serialize())\n"
    ),
    "official_tiles.py": (
        "from tiles.island_tile import IslandTile\n"
        "def generate_starting_tile():\n"
        "    return IslandTile('Tonga')\n"
        "def generate_tile_stack():\n"
        "    return []\n"
        "raise SystemExit('the module-level game of official_tiles.py must not run')\n"
    ),
}


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", "bench", "engine", *args],
                          capture_output=True, text=True, timeout=300,
                          env={"PYTHONPATH": str(REPO), "PATH": ""})


def test_anchor_runs_in_turns_with_ours_and_endless_games_are_stopped(tmp_path):
    for name, text in STAND_IN.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    out = bench("--games", "6", "--rounds", "2", "--anchor", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    assert "a board" not in out.stdout  # the anchor's printing is silenced
    r = json.loads(out.stdout)
    assert len(r["rounds"]) == 2
    for run in r["rounds"]:
        assert run["ours"]["cpu_games_per_s"] > 0
        for mode in ("as_run", "silenced", "lean"):  # every game stopped, and counted
            assert run[f"anchor_{mode}"]["capped"] == 6 and run[f"anchor_{mode}"]["errors"] == 0
    medians = r["median_cpu_games_per_s"]
    assert r["ratio"]["as_run"] == round(medians["ours"] / medians["anchor_as_run"], 2)


def test_a_directory_that_is_not_the_anchor_is_refused_with_what_is_missing(tmp_path):
    out = bench("--games", "2", "--anchor", str(tmp_path))
    assert out.returncode == 2
    assert "is not a checkout of lakenen/tongiaki" in out.stdout and "game.py" in out.stdout
    assert "Traceback" not in out.stdout + out.stderr


def test_the_anchor_plays_four_players_only(tmp_path):
    out = bench("--players", "3", "--games", "2", "--anchor", str(tmp_path))
    assert out.returncode == 2 and "--players 4" in out.stdout

"""`bench engine --anchor PATH`: our engine beside the simplified-rules Python engine of
lakenen/tongiaki, timed in turns in the same run (docs/architecture.md, "Engine speed").

Nothing of that project is shipped here: PATH is the user's own checkout, and its modules
run in a child process (their names — game, board, player — would clash with nothing of
ours there). The driver below only calls them: it plays random 4-player games with the
project's RandomPlayer, as its official_tiles.py does, and times them.

It is timed three ways: "as run" — as it plays, its printing going to os.devnull (how a
plain run with its output thrown away measures it); "silenced" — print() made a no-op in
its modules, so only its rules and players are timed; "lean" — silenced, and also without
the board drawing and JSON dump it makes at the end of every game. In every way a game
whose migrations never end — its rules have no X2 — is stopped after MIGRATION_CAP
migrations (`capped` counts them), and a game that raises (its 33x33 grid overflowing,
say) counts as played (`errors`): both in the anchor's favour.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MIGRATION_CAP = 300  # a normal game of it makes 40-250

_DRIVER = r"""
import ast, json, os, random, sys, time
path, mode = sys.argv[1], sys.argv[4]
games, seed, cap = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[5])
sys.path.insert(0, path)
import board, game, player
from tiles.island_tile import IslandTile
from tiles.water_tile import WaterTile
if mode != "as_run":
    for module in (game, player, board):
        module.print = lambda *a, **k: None
if mode == "lean":
    board.Board.print = lambda self: None
    game.Game.serialize = lambda self: ""
report = sys.stdout
sys.stdout = open(os.devnull, "w")
# official_tiles.py makes the tiles in functions, then plays one game at import: take the
# functions only
tree = ast.parse(open(path + "/official_tiles.py", encoding="utf-8").read())
defs = ast.Module([n for n in tree.body if isinstance(n, ast.FunctionDef)], [])
ns = {"IslandTile": IslandTile, "WaterTile": WaterTile}
exec(compile(defs, "official_tiles.py", "exec"), ns)

def one():
    g = game.Game(ns["generate_starting_tile"](), ns["generate_tile_stack"]())
    players = [player.RandomPlayer(c) for c in "ABCD"]
    calls = [0]
    for p in players:
        def capped(orig=p.choose_beach_to_migrate):
            calls[0] += 1
            if calls[0] > cap:
                raise game.GameOver()
            return orig()
        p.choose_beach_to_migrate = capped
    g.play(players)
    return calls[0] > cap

random.seed(seed)
errors = capped = 0
wall, cpu = time.perf_counter(), time.process_time()
for _ in range(games):
    try:
        capped += one()
    except Exception:
        errors += 1
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
report.write(json.dumps({"games_per_s": round(games / wall, 1),
                         "cpu_games_per_s": round(games / cpu, 1),
                         "errors": errors, "capped": capped}) + "\n")
"""


class AnchorError(Exception):
    """The anchor checkout could not be run; the message says why."""


def check_anchor(path: str) -> Path:
    root = Path(path)
    missing = [f for f in ("game.py", "board.py", "player.py", "official_tiles.py",
                           "tiles/island_tile.py", "tiles/water_tile.py")
               if not (root / f).is_file()]
    if missing:
        raise AnchorError(f"{path} is not a checkout of lakenen/tongiaki "
                          f"(missing {', '.join(missing)})")
    return root


MODES = ("as_run", "silenced", "lean")


def run_anchor(root: Path, games: int, seed: int, mode: str) -> dict:
    """Random 4-player games/s of the anchor, timed one of the MODES, in a child process."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", _DRIVER, str(root), str(games), str(seed), mode,
             str(MIGRATION_CAP)],
            capture_output=True, text=True, timeout=max(60, games), check=False)
    except subprocess.TimeoutExpired:
        raise AnchorError(f"the anchor at {root} took more than {max(60, games)} s") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise AnchorError(f"the anchor at {root} did not run: {last}")
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        raise AnchorError(f"the anchor at {root} printed no figures") from None


def compare(ours, root: Path, games: int, rounds: int) -> dict:
    """`rounds` times in turn: ours (`ours()` -> bench_engine's dict), then the anchor each
    of the MODES. Ratios are of medians of CPU-time figures (other work on the machine
    disturbs wall time more): ours through the public-view wall as `bench engine` plays
    (`ratio`), and ours engine only (`ratio_engine_only`), against each mode."""
    runs = []
    for r in range(rounds):
        mine = ours()
        run = {"ours": {k: mine[k] for k in ("games_per_s", "cpu_games_per_s",
                                             "engine_only_cpu_games_per_s")}}
        for mode in MODES:
            run[f"anchor_{mode}"] = run_anchor(root, games, seed=r + 1, mode=mode)
        runs.append(run)

    def median(values: list[float]) -> float:
        values = sorted(values)
        return values[len(values) // 2]

    ours_cpu = median([r["ours"]["cpu_games_per_s"] for r in runs])
    ours_engine = median([r["ours"]["engine_only_cpu_games_per_s"] for r in runs])
    medians = {"ours": ours_cpu, "ours_engine_only": ours_engine}
    for mode in MODES:
        medians[f"anchor_{mode}"] = median([r[f"anchor_{mode}"]["cpu_games_per_s"]
                                            for r in runs])
    return {
        "anchor": str(root),
        "rounds": runs,
        "median_cpu_games_per_s": medians,
        "ratio": {m: round(ours_cpu / medians[f"anchor_{m}"], 2) for m in MODES},
        "ratio_engine_only": {m: round(ours_engine / medians[f"anchor_{m}"], 2)
                              for m in MODES},
    }

"""Same seed, same decisions: the same digest in another process, under another
PYTHONHASHSEED, and on every supported Python version found on this machine."""

import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((ROOT / "protocol" / "vectors" / "games.json").read_text())

# Replays the golden games and prints their final digests (engine + msgpack only).
SCRIPT = """
import json, sys
from tongiaki_lan.engine import Game, move_from_wire
out = []
for v in json.load(open(sys.argv[1])):
    g = Game(v["colours"])
    for w in v["moves_wire"]:
        g.apply(move_from_wire(w))
    out.append(g.digest().hex())
print(json.dumps(out))
"""
EXPECTED = [v["final_digest"] for v in VECTORS]


def run_in(python: str, hashseed: str) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": hashseed, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [python, "-c", SCRIPT, str(ROOT / "protocol" / "vectors" / "games.json")],
        env=env, capture_output=True, text=True, check=True, cwd=ROOT,
    )
    return json.loads(out.stdout)


@pytest.mark.parametrize("hashseed", ["0", "1", "4242", "random"])
def test_digests_identical_across_processes_and_hash_seeds(hashseed):
    assert run_in(sys.executable, hashseed) == EXPECTED


def _find(version: str) -> str | None:
    """An interpreter of that version that really runs (pyenv shims may not)."""
    candidates = [shutil.which(f"python{version}")]
    candidates += sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python")))
    candidates += [f"/usr/bin/python{version}", f"/usr/local/bin/python{version}"]
    for exe in filter(None, candidates):
        try:
            out = subprocess.run([exe, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                 capture_output=True, text=True, timeout=30)
        except OSError:
            continue
        if out.returncode == 0 and out.stdout.strip() == version:
            return exe
    return None


def _interpreters():
    return [pytest.param(v, id=v) for v in ("3.10", "3.11", "3.12", "3.13")]


@pytest.mark.parametrize("version", _interpreters())
def test_digests_identical_on_every_python_version(version):
    python = _find(version)
    if python is None:
        pytest.skip(f"Python {version} is not installed on this machine")
    probe = subprocess.run([python, "-c", "import msgpack"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"{python} has no msgpack installed (.ci/run installs it)")
    assert run_in(python, "123") == EXPECTED

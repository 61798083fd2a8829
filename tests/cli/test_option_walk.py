"""Every option of every subcommand, walked with hostile values: no traceback, no hang,
nothing left running.

The options are found from the parsers themselves (`build_parser`), so an option added
tomorrow is walked too. Each value goes first to the command's own parser: a value it
refuses must be refused as argparse's one line (the option named, what it takes) with
exit status 2 — that happens before the command does anything, so it is checked in this
process. A value the parser accepts (a seed of `nan` is a seed) then runs the real
command in a session of its own, with a bound given as the subprocess timeout (a hang
fails; this is no speed threshold), and afterwards its process group must be empty.

How the commands that would play a game or wait on the network are made to end soon,
whatever the walked value:
- the console commands (solo, lobby, replay) run with stdin at end of file (/dev/null):
  the screen ends at once, as it does when piped commands run out; the lobby with
  `--no-lan`, so it touches no network;
- `play` creates its own table without discovery (`--no-discovery`, loopback) and gives
  up after `--timeout 2`;
- `watch`, `games` and `doctor` look on loopback only (`--interface 127.0.0.1`) and
  briefly (`--wait`; `watch --timeout 2`);
- `selfplay`, `bench`, `tournament` and `ladder` play one short game of random bots, in
  one process.
The walked option's own base value (if any) is replaced by the hostile one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tongiaki_lan.cli import build_parser, parse

from .procgroup import kill_group, survivors

HOSTILE = ["0", "-1", "nan", "inf", "-inf", "", "frob", "1e308", "9" * 30]
BOUND_S = 90  # no command may take longer than this to end, whatever its options
RECORD = "walk.tgrec"  # a finished 2-player game (the `record` fixture), in the cwd

BASE: dict[str, list[str]] = {
    "solo": [],
    "lobby": ["--no-lan"],
    "replay": [RECORD],
    "records": [],
    "play": ["--headless", "--name", "Ana", "--game", "walk", "--no-discovery",
             "--host", "127.0.0.1", "--timeout", "2"],
    "games": ["--interface", "127.0.0.1", "--wait", "0.3"],
    "watch": ["--game", "walk", "--name", "Eve", "--interface", "127.0.0.1",
              "--host", "127.0.0.1", "--wait", "0.3", "--timeout", "2"],
    "doctor": ["--interface", "127.0.0.1", "--wait", "0.5"],
    "selfplay": ["--players", "2", "--games", "1"],
    "verify": [RECORD],
    "export": [RECORD, "--svg", "walk.svg"],
    "position": [RECORD],
    "bench": ["engine", "--players", "2", "--games", "1"],
    "tournament": ["--seats", "random,random", "--games", "1", "--jobs", "1", "--quiet"],
    "ladder": ["--entries", "random,greedy", "--games", "1", "--jobs", "1", "--quiet"],
}


def _subparsers() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def _valued(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The actions that take a value (flags and --help take none)."""
    return [a for a in parser._actions if a.nargs != 0
            and not isinstance(a, argparse._HelpAction | argparse._VersionAction)]


def _walked() -> list[tuple[str, str]]:
    return [(name, a.option_strings[-1] if a.option_strings else a.dest)
            for name, p in _subparsers().items() for a in _valued(p)]


def test_every_subcommand_has_a_base_and_the_walk_finds_their_options():
    assert set(BASE) == set(_subparsers())
    walked = _walked()
    assert ("solo", "--think") in walked and ("tournament", "--jobs") in walked
    assert ("verify", "record") in walked and ("doctor", "--interface") in walked


def _argv(command: str, key: str, value: str) -> list[str]:
    """The command's base arguments with `key` (an option, or a positional's name) given
    `value` in place of its base value."""
    base = list(BASE[command])
    action = next(a for a in _valued(_subparsers()[command])
                  if (a.option_strings[-1] if a.option_strings else a.dest) == key)
    if action.option_strings:
        for opt in action.option_strings:
            if opt in base:  # (the base's value for it goes)
                at = base.index(opt)
                del base[at:at + 2]
        return [command, *base, f"{key}={value}"]
    # (a positional: each command has one, and its base, if any, starts with it)
    if base and not base[0].startswith("-"):
        base[0] = value
        return [command, *base]
    return [command, value, *base]


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """A finished game's record, as `selfplay --records` writes one."""
    from tongiaki_lan.selfplay import game_seed, play_game

    where = tmp_path_factory.mktemp("walk-record")
    result = play_game(game_seed("walk", 0), 2, ["random"], where)
    return Path(result.record)


def _refused(argv: list[str]) -> str | None:
    """What the command line's parser said when it refused `argv` (None: accepted)."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            parse(argv)
        except SystemExit as done:
            assert done.code == 2, (argv, done.code, err.getvalue())
            return err.getvalue()
    return None


def _run(argv: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TONGIAKI_LAN_HOME": str(cwd / "home"), "COLUMNS": "120"}
    proc = subprocess.Popen([sys.executable, "-m", "tongiaki_lan", *argv], cwd=cwd, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=BOUND_S)
        left = survivors(proc.pid, within=30)
    except subprocess.TimeoutExpired:
        kill_group(proc.pid)
        out, err = proc.communicate()
        pytest.fail(f"{argv} did not end within {BOUND_S} s: {err[-1500:]!r}")
    finally:
        kill_group(proc.pid)
    assert not left, f"{argv} left running: {left}"
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


@pytest.mark.parametrize(("command", "key"), _walked())
def test_hostile_values_are_refused_in_one_line_or_used_without_harm(command, key, record,
                                                                     tmp_path, monkeypatch):
    import shutil

    shutil.copy(record, tmp_path / RECORD)
    monkeypatch.chdir(tmp_path)  # (relative paths: the same files as the command sees)
    for value in HOSTILE:
        argv = _argv(command, key, value)
        said = _refused(argv)
        if said is not None:
            lines = said.strip().splitlines()
            assert len(lines) == 1 and "Traceback" not in said, (argv, said)
            # (the option is named: `argument --think: ...`)
            assert f"tongiaki-lan {command}: " in lines[0], (argv, said)
            continue
        done = _run(argv, tmp_path)
        for stream in (done.stdout, done.stderr):
            assert b"Traceback" not in stream, (argv, done.stderr[-3000:])
        assert done.returncode is not None and done.returncode >= 0, (argv, done.returncode)


@pytest.mark.parametrize("argv", [
    ["solo", "--think", "0"], ["solo", "--think", "-1"], ["solo", "--think", "nan"],
    ["bench", "engine", "--games", "0"], ["bench", "net", "--peers", "0"],
    ["selfplay", "--bot", ""], ["tournament", "--jobs", "-1"], ["ladder", "--jobs", "-1"],
])
def test_the_values_that_broke_commands_are_one_line_and_status_2(argv, tmp_path):
    """The issue's examples, end to end in a real process: a traceback (think must be
    positive, a division by zero), a silent wait, or thinking for ever."""
    done = _run(argv, tmp_path)
    assert done.returncode == 2, done
    lines = done.stderr.decode().strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"tongiaki-lan {argv[0]}: argument "), lines
    assert not done.stdout

"""Records: one extension (.tgrec) and one per-user place, the same for every way of playing,
shown in `--help` and when a game is left; `--records DIR` and `--record FILE` still choose."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tongiaki_lan.places import HOME_ENV
from tongiaki_lan.records import SUFFIX, default_record_dir, read_record, replay_record

from ..own_tmux import TMUX, Terminal

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args], capture_output=True,
                          text=True, env={**env, "PYTHONPATH": str(REPO), "COLUMNS": "200"})


def platform_env(**more: str) -> dict:
    """The environment without the suite's TONGIAKI_LAN_HOME (tests/conftest.py), so that
    the platform's own place decides."""
    return {k: v for k, v in {**os.environ, **more}.items() if k != HOME_ENV}


@pytest.mark.skipif(sys.platform != "linux", reason="the XDG base directories are Linux's")
def test_the_place_is_xdg_data_home_or_the_home_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(HOME_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_record_dir() == tmp_path / "data" / "tongiaki-lan" / "records"
    for unusable in ("", "relative/data"):  # the XDG spec: relative paths are ignored
        monkeypatch.setenv("XDG_DATA_HOME", unusable)
        assert default_record_dir() == tmp_path / "home/.local/share/tongiaki-lan/records"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_record_dir() == tmp_path / "home/.local/share/tongiaki-lan/records"


def default_record_dir_in(env: dict) -> Path:
    out = subprocess.run([sys.executable, "-c", "from tongiaki_lan.records import "
                          "default_record_dir as d; print(d())"], capture_output=True,
                         text=True, env={**env, "PYTHONPATH": str(REPO)}, check=True)
    return Path(out.stdout.strip())


def test_help_says_where_records_go(tmp_path):
    env = platform_env(XDG_DATA_HOME=str(tmp_path / "data"))
    place = str(default_record_dir_in(env))
    top = cli("--help", env=env)
    assert top.returncode == 0
    assert place in top.stdout and SUFFIX in top.stdout
    for command in ("solo", "lobby", "play"):
        out = cli(command, "--help", env=env)
        assert out.returncode == 0, out.stderr
        assert place in out.stdout and "--records DIR" in out.stdout, command


async def test_headless_games_record_in_the_per_user_place_not_the_current_directory(
        tmp_path, monkeypatch):
    from tests.net.procs import Proc, kill_all

    monkeypatch.delenv(HOME_ENV)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    cwd = tmp_path / "cwd"
    cwd.mkdir()

    def cmd(name: str, *extra: str) -> list[str]:
        return [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
                "--name", name, "--game", "deck party", "--players", "2", "--host",
                "127.0.0.1", "--no-discovery", "--timeout", "120", *extra]

    first = Proc(cmd("ana"), cwd)
    procs = [first]
    try:
        await first.start()
        await first.wait(lambda: first.count("joined") == 1, 60)
        invite = next(e for e in first.events if e["event"] == "joined")["invite"]
        second = Proc(cmd("bo", "--join", invite, "--records", str(tmp_path / "mine")), cwd)
        procs.append(second)
        await second.start()
        codes = [await p.finish(120) for p in procs]
        assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
    finally:
        await kill_all(procs)
    ana = default_record_dir() / f"deck_party-ana{SUFFIX}"
    bo = tmp_path / "mine" / f"deck_party-bo{SUFFIX}"
    assert [p.events[-1]["record"] for p in procs] == [str(ana), str(bo)]
    assert replay_record(read_record(ana)).digest() == replay_record(read_record(bo)).digest()
    assert list(cwd.iterdir()) == []  # nothing written where the command was run


@pytest.mark.tmux
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_solo_records_in_the_per_user_place_and_says_so_when_you_quit(tmp_path):
    env = platform_env(TERM="xterm-256color", HOME=str(tmp_path / "home"),
                       XDG_DATA_HOME=str(tmp_path / "data"), PYTHONPATH=str(REPO))
    done = tmp_path / "exit"
    # `cat` keeps the pane open after the game so that what it printed can be read.
    command = (f"{sys.executable} -m tongiaki_lan solo --bots 1 --bot random --pace 0 "
               f"--seed places --lang en ; echo $? > {done} ; cat")
    term = Terminal("records", command, env, str(tmp_path))
    try:
        term.wait_for(lambda s: "Tonga" in s and "Your decision" in s, "the game screen")
        term.send("place Tonga 1", "Enter")
        term.wait_for(lambda s: "1B" in s, "our ship on Tonga")
        term.send("C-u", "quit", "Enter", "Enter")  # mid-game: the second Enter confirms
        screen = term.wait_for(lambda s: "Record saved:" in s and done.exists(), "the goodbye")
    finally:
        term.close()
    (path,) = (tmp_path / "data" / "tongiaki-lan" / "records").iterdir()  # XDG on Linux
    assert path.name.startswith("solo-") and path.suffix == SUFFIX
    assert f"Record saved: {path}" in screen
    assert [str(m) for m in read_record(path).moves][:1] == ["place Tonga 1"]


def test_replay_verify_and_export_read_a_record_under_any_name(tmp_path):
    env = {**os.environ}
    out = cli("selfplay", "--players", "2", "--games", "1", "--seed", "names", "--records",
              str(tmp_path), "--json", env=env)
    assert out.returncode == 0, out.stderr
    (written,) = tmp_path.glob(f"*{SUFFIX}")
    for name in ("old-solo.tgr", "no-extension"):
        other = tmp_path / name
        other.write_bytes(written.read_bytes())
        assert cli("verify", str(other), env=env).returncode == 0
        assert cli("export", str(other), "--svg", str(tmp_path / f"{name}.svg"),
                   env=env).returncode == 0


@pytest.mark.tmux
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_replay_without_a_record_opens_the_latest_game(tmp_path):
    """`replay` with no argument was a usage error; a newcomer who just played wants to
    see that game, and record names are only times and seeds."""
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(REPO)}
    empty = cli("replay", "--records", str(tmp_path / "none"), "--lang", "en", env=env)
    assert empty.returncode == 2 and "no recorded game in" in empty.stdout
    for seed, players in (("older", 2), ("latest", 3)):
        out = cli("selfplay", "--players", str(players), "--games", "1", "--seed", seed,
                  "--records", str(tmp_path), "--json", env=env)
        assert out.returncode == 0, out.stderr
        latest = read_record(max(tmp_path.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime))
    command = f"{sys.executable} -m tongiaki_lan replay --records {tmp_path} --lang en"
    term = Terminal("replay", command, env, str(tmp_path))
    try:
        screen = term.wait_for(lambda s: "Replay" in s and "move 0/" in s, "the replay")
    finally:
        term.close()
    assert f"move 0/{len(latest.moves)}" in screen
    assert len(latest.header.seats) == 3

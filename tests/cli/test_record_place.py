"""Records: one extension (.tgrec) and one per-user place, the same for every way of playing,
shown in `--help` and when a game is left; `--records DIR` and `--record FILE` still choose."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tongiaki_lan.records import SUFFIX, default_record_dir, read_record, replay_record

REPO = Path(__file__).resolve().parents[2]
TMUX = shutil.which("tmux")


def cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args], capture_output=True,
                          text=True, env={**env, "PYTHONPATH": str(REPO), "COLUMNS": "200"})


def test_the_place_is_xdg_data_home_or_the_home_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_record_dir() == tmp_path / "data" / "tongiaki-lan" / "records"
    for unusable in ("", "relative/data"):  # the XDG spec: relative paths are ignored
        monkeypatch.setenv("XDG_DATA_HOME", unusable)
        assert default_record_dir() == tmp_path / "home/.local/share/tongiaki-lan/records"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_record_dir() == tmp_path / "home/.local/share/tongiaki-lan/records"


def test_help_says_where_records_go(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    place = str(tmp_path / "data" / "tongiaki-lan" / "records")
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
    ana = tmp_path / "data" / "tongiaki-lan" / "records" / f"deck_party-ana{SUFFIX}"
    bo = tmp_path / "mine" / f"deck_party-bo{SUFFIX}"
    assert [p.events[-1]["record"] for p in procs] == [str(ana), str(bo)]
    assert replay_record(read_record(ana)).digest() == replay_record(read_record(bo)).digest()
    assert list(cwd.iterdir()) == []  # nothing written where the command was run


@pytest.mark.tmux
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_solo_records_in_the_per_user_place_and_says_so_when_you_quit(tmp_path):
    socket = f"tongiaki-records-{os.getpid()}"
    env = {**os.environ, "TERM": "xterm-256color", "HOME": str(tmp_path / "home"),
           "XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    done = tmp_path / "exit"
    # `cat` keeps the pane open after the game so that what it printed can be read.
    command = (f"{sys.executable} -m tongiaki_lan solo --bots 1 --bot random --pace 0 "
               f"--seed places ; echo $? > {done} ; cat")

    def tmux(*args: str) -> str:
        return subprocess.run([TMUX, "-L", socket, *args], capture_output=True, text=True,
                              env=env, check=True).stdout

    def wait_for(predicate, what: str) -> str:
        deadline = time.monotonic() + 60
        while True:
            screen = tmux("capture-pane", "-p", "-J", "-t", "solo")  # -J: wrapped lines joined
            if predicate(screen):
                return screen
            assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{screen}"
            time.sleep(0.02)  # polling interval of a condition, not a synchronisation sleep

    tmux("new-session", "-d", "-s", "solo", "-x", "100", "-y", "30", "-c", str(tmp_path),
         command)
    try:
        wait_for(lambda s: "Tonga" in s and "Your decision" in s, "the game screen")
        tmux("send-keys", "-t", "solo", "place Tonga 1", "Enter")
        wait_for(lambda s: "1B" in s, "our ship on Tonga")
        tmux("send-keys", "-t", "solo", "C-u", "quit", "Enter")
        screen = wait_for(lambda s: "Record saved:" in s and done.exists(), "the goodbye")
    finally:
        subprocess.run([TMUX, "-L", socket, "kill-server"], capture_output=True)
    (path,) = (tmp_path / "data" / "tongiaki-lan" / "records").iterdir()
    assert path.name.startswith("solo-") and path.suffix == SUFFIX
    assert f"Record saved: {path}" in screen
    assert [str(m) for m in read_record(path).moves][:1] == ["place Tonga 1"]

"""End to end in a real terminal: `tongiaki-lan solo` inside tmux, keys in, screen out."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tongiaki_lan.records import read_record, replay_record

TMUX = shutil.which("tmux")
REPO = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
]


# A tmux server of this test run's own: the machine's default server may be shared.
SOCKET = f"tgk-console-tests-{os.getpid()}"


def tmux(*args: str) -> list[str]:
    return [TMUX, "-L", SOCKET, *args]


class Pane:
    def __init__(self, name: str, command: str, width: int, height: int, env: dict):
        self.name = name
        subprocess.run([*tmux("new-session"), "-d", "-s", name, "-x", str(width), "-y", str(height),
                        "-c", str(REPO), command], check=True, env=env)

    def capture(self) -> str:
        out = subprocess.run([*tmux("capture-pane"), "-p", "-t", self.name],
                             capture_output=True, text=True)
        return out.stdout

    def alive(self) -> bool:
        return subprocess.run([*tmux("has-session"), "-t", self.name],
                              capture_output=True).returncode == 0

    def send(self, *keys: str) -> None:
        subprocess.run([*tmux("send-keys"), "-t", self.name, *keys], check=True)

    def wait_for(self, predicate, timeout: float = 30.0, what: str = "") -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.capture()
            if predicate(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; screen:\n{screen}")
            time.sleep(0.02)  # polling interval of a condition, not a synchronisation sleep

    @staticmethod
    def wait_file(path: Path, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not path.exists():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {path}")
            time.sleep(0.02)

    def kill(self) -> None:
        subprocess.run([*tmux("kill-session"), "-t", self.name], capture_output=True)


def _status(screen: str) -> str:
    """The status line: the last line above the prompt that is not the message."""
    lines = screen.rstrip("\n").splitlines()
    for line in reversed(lines[:-1]):
        if "Your decision" in line or "Waiting for" in line or "Game over" in line:
            return line
    return ""


@pytest.fixture
def solo(tmp_path):
    panes = []
    # this checkout's code, whatever `pip install -e` last pointed the package at
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))

    def start(seed: str, width: int = 100, height: int = 30):
        record = tmp_path / "game.tgr"
        exit_file = tmp_path / "exit"
        cmd = (f"{sys.executable} -m tongiaki_lan solo --bots 3 --seed {seed} --bot random "
               f"--hint-bot random --pace 0 --name Tester --record {record} "
               f"; echo $? > {exit_file}")
        pane = Pane(f"tongiaki-e2e-{os.getpid()}-{len(panes)}", cmd, width, height, env)
        panes.append(pane)
        return pane, record, exit_file

    yield start
    for pane in panes:
        pane.kill()


def test_solo_shows_board_panel_and_the_effect_of_a_move(solo):
    pane, record, exit_file = solo("tmux-e2e", width=80, height=24)
    screen = pane.wait_for(lambda s: "Tonga" in s and "Your decision" in s, what="the game screen")
    for name in ("Tester", "Hina", "Maui", "Kupe"):
        assert name in screen  # side panel: the four players
    assert "Setup: put a ship on Tonga" in screen  # the pending decision, in words
    assert "3···NW" in screen  # Tonga's beach 3 is empty before the move
    pane.send("place Tonga 3", "Enter")
    screen = pane.wait_for(lambda s: re.search(r"3B[RGY·]{2}NW", s), what="our ship on beach 3")
    assert "Tester" in screen and " 14 " in screen  # one ship less in our reserve
    pane.send("C-u", "quit", "Enter")
    pane.wait_for(lambda s: not pane.alive() or "Record saved" in s, what="leaving")
    Pane.wait_file(exit_file)
    assert exit_file.read_text().strip() == "0"
    rec = read_record(record)
    assert [str(m) for m in rec.moves][:1] == ["place Tonga 3"]


def test_solo_played_to_the_end_by_typed_commands(solo):
    pane, record, exit_file = solo("tmux-full")
    pane.wait_for(lambda s: "Your decision" in _status(s), what="our first decision")
    moves = 0
    while True:
        screen = pane.wait_for(lambda s: "Your decision" in _status(s) or "Game over" in _status(s),
                               timeout=60, what="our decision or the end")
        if "Game over" in _status(screen):
            break
        pane.send("C-u", "hint", "Enter")
        pane.wait_for(lambda s: "Hint:" in s, what="a hint")
        pane.send("Enter")
        pane.wait_for(lambda s: "Hint:" not in s, what="the hint to be played")
        moves += 1
        assert moves < 1000
    final = _status(screen)
    pane.send("C-u", "quit", "Enter")
    Pane.wait_file(exit_file)
    assert exit_file.read_text().strip() == "0"
    game = replay_record(read_record(record))
    assert game.is_over
    names = {"blue": "Tester", "red": "Hina", "green": "Maui", "yellow": "Kupe"}
    for colour, points in game.scores().items():
        assert f"{names[colour]} {points}" in final

"""The first run in a real terminal asks the player's name once; the lobby shows it, and a
closed terminal window (SIGHUP) leaves the lobby as `quit` does."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from tests.console.test_tmux import REPO, TMUX, Pane, tmux

pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(TMUX is None, reason="tmux is not installed")]


def test_the_name_is_asked_once_shown_in_the_lobby_and_changed_there(tmp_path):
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO),
               TONGIAKI_LAN_HOME=str(tmp_path / "home"))
    command = f"{sys.executable} -m tongiaki_lan --no-lan"
    left = tmp_path / "first-exit-status"
    pane = Pane(f"tongiaki-first-{os.getpid()}", f"clear; {command}; echo $? > {left}; cat",
                80, 24, env)
    try:
        pane.wait_for(lambda s: "Your name for the other players [" in s, what="the question")
        pane.send("Ana Maria", "Enter")
        pane.wait_for(lambda s: "you: Ana Maria" in s, what="the lobby with the name")
        pane.send("quit", "Enter")
        Pane.wait_file(left)
        # the terminal is left clean: the question and its answer went with the lobby's
        # full screen (they stayed on it after `quit`: "… [Root]: Ana Maria")
        screen = pane.wait_for(lambda s: "LAN lobby" not in s, what="leaving")
        assert screen.strip() == "", screen
    finally:
        pane.kill()
    assert left.read_text().strip() == "0"
    profile = tmp_path / "home" / "profile.json"
    assert json.loads(profile.read_text(encoding="utf-8"))["name"] == "Ana Maria"
    done = tmp_path / "exit-status"
    pane = Pane(f"tongiaki-second-{os.getpid()}", f"{command}; echo $? > {done}; cat", 80, 24,
                env)
    try:  # the second run asks nothing
        screen = pane.wait_for(lambda s: "LAN lobby" in s, what="the lobby")
        assert "you: Ana Maria" in screen and "Your name for" not in screen
        pane.send("name Captain Cook", "Enter")
        pane.wait_for(lambda s: "you: Captain Cook" in s, what="the new name")
        # closing the terminal window sends the program SIGHUP
        shell = int(subprocess.run([*tmux("display-message"), "-p", "-t", pane.name,
                                    "#{pane_pid}"], capture_output=True, text=True).stdout)
        (program,) = map(int, open(f"/proc/{shell}/task/{shell}/children").read().split())
        os.kill(program, signal.SIGHUP)
        Pane.wait_file(done)
    finally:
        pane.kill()
    assert done.read_text().strip() == "0"  # left as `quit` leaves, not killed (129)
    assert json.loads(profile.read_text(encoding="utf-8"))["name"] == "Captain Cook"


@pytest.mark.parametrize("command", ["--no-lan", "watch --game Reef --interface 127.0.0.1"])
def test_ctrl_c_at_the_first_runs_question_leaves_at_once(tmp_path, command):
    # asked inside the event loop, the question let Ctrl-C do nothing until Enter
    # (asyncio.run's own SIGINT handler waits for the loop, which waited for the answer)
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO),
               TONGIAKI_LAN_HOME=str(tmp_path / "home"))
    done = tmp_path / "exit-status"
    pane = Pane(f"tongiaki-first-c-{os.getpid()}",
                f"{sys.executable} -m tongiaki_lan {command}; echo $? > {done}; cat", 80, 24,
                env)
    try:
        pane.wait_for(lambda s: "Your name for the other players [" in s, what="the question")
        pane.send("C-c")
        Pane.wait_file(done)  # (no Enter)
        screen = pane.wait_for(lambda s: "Traceback" not in s, what="the screen")
        assert "Traceback" not in screen
    finally:
        pane.kill()
    assert done.read_text().strip() == "130"
    assert not (tmp_path / "home" / "profile.json").exists()  # (no answer: nothing saved)

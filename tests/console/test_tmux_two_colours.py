"""Two colours each (docs/rules.md V1) in a real terminal: `solo --bots 1 --two-colours`
played to the end by typed commands; the screen names which of our colours decides, and
the end shows each player's two colours and combined score."""

from __future__ import annotations

import os
import sys

import pytest

from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import read_record, replay_record

from .test_tmux import REPO, TMUX, Pane, _play_hints_until, _status

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
]


def test_V1_solo_two_colours_played_to_the_end(tmp_path):
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    record, exit_file = tmp_path / "game.tgrec", tmp_path / "exit"
    cmd = (f"{sys.executable} -m tongiaki_lan solo --bots 1 --two-colours --seed tc "
           f"--bot random --hint-bot random --pace 0 --name Tester --record {record} "
           f"--lang en; echo $? > {exit_file}")
    pane = Pane(f"tongiaki-two-colours-{os.getpid()}", cmd, 100, 30, env)
    try:
        first = pane.wait_for(lambda s: "Your decision" in _status(s), what="our first decision")
        assert "Your decision (B)" in _status(first)  # A1: our first colour, blue
        screen = _play_hints_until(pane, lambda s: "Game over" in _status(s))
        (tmp_path / "final-screen.txt").write_text(screen)
        game = replay_record(read_record(record))
        assert game.is_over and game.owners == (0, 1, 0, 1)
        ours, theirs = V.ranking_keys(game)
        final = " ".join(_status(screen).split())
        assert f"Tester (B+G) {ours[0]}" in final
        assert f"Hina — bot (random) (R+Y) {theirs[0]}" in final
        assert "Two colours each" in screen  # the final table's block by player
        pane.send("C-u", "quit", "Enter")
        Pane.wait_file(exit_file)
        assert exit_file.read_text().strip() == "0"
    finally:
        pane.kill()

"""`solo --plain` in a real terminal (tmux): nothing full-screen — no alternate screen, no
redrawn lines — the story scrolling by as lines, the prompt and the cursor on the input
line when the game asks, the terminal's own line editing, and Ctrl-C asking once."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tongiaki_lan.records import read_record, replay_record

from ..own_tmux import TMUX, Terminal

REPO = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.tmux,
              pytest.mark.skipif(TMUX is None, reason="tmux is not installed")]


def _rows(screen: str) -> list[str]:
    return [row.rstrip() for row in screen.splitlines() if row.strip()]


def test_plain_in_a_real_terminal_scrolls_lines_and_keeps_the_cursor_on_the_input(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(tmp_path)}
    command = (f"{sys.executable} -m tongiaki_lan solo --plain --lang en --bots 1 --bot "
               "random --seed plain-tmux --pace 0 --name Ana; echo EXITED $?; sleep 60")
    term = Terminal("plain", command, env, str(REPO), width=100, height=40)
    try:
        screen = term.wait_for(lambda s: _rows(s)[-1:] == [">"], "the prompt")
        rows = _rows(screen)
        assert rows[-2].startswith("Legal moves: place Tonga 1, place Tonga 2")
        assert rows[-3].startswith("Your decision: put a ship on Tonga")
        # not full screen: the normal screen, and the cursor after the prompt
        assert term._tmux("display", "-p", "-t", "t", "#{alternate_on}").strip() == "0"
        x, y = term._tmux("display", "-p", "-t", "t", "#{cursor_x} #{cursor_y}").split()
        shown = term._tmux("capture-pane", "-p", "-t", "t").splitlines()  # (rows as drawn)
        assert (int(x), shown[int(y)].rstrip()) == (2, ">")
        term.send("hint", "Enter")
        screen = term.wait_for(lambda s: _rows(s)[-1:] == [">"] and "Hint: " in s,
                               "the hint and the prompt again")
        assert _rows(screen)[-4:-1] == ["> hint", "Thinking…", _rows(screen)[-2]]
        assert _rows(screen)[-2].startswith("Hint: place Tonga ")
        term.send("Enter")  # Enter alone: the hint's move
        screen = term.wait_for(lambda s: "Ana (B) puts a ship" in s and _rows(s)[-1] == ">",
                               "our move, the bot's, and our next decision")
        rows = _rows(screen)
        assert rows.count(rows[-3]) == 2  # (our second decision, as the first: said anew)
        assert all(a != b for a, b in zip(rows, rows[1:], strict=False))  # nothing said twice
        term.send("C-c")
        term.wait_for(lambda s: "Ctrl-C: the game is not over" in s, "the question")
        term.send("C-c")
        screen = term.wait_for(lambda s: "EXITED" in s, "the end")
    finally:
        term.close()
    assert "EXITED 0" in screen and "Traceback" not in screen
    (record,) = (tmp_path / "records").glob("solo-*.tgrec")
    assert f"Record saved: {record}" in screen
    assert len(replay_record(read_record(record)).moves) >= 2

"""`tongiaki-lan solo --board` and `tongiaki-lan replay 1 --board` as a player runs them: in
a real terminal (tmux, on a server of the test's own), the system's browser being a
script named by $BROWSER (Python's webbrowser honours it) that notes the address it is
handed, the page then opened in the test's Chromium. The address is in the console's
log pane and in its log file; a move typed in the terminal reaches the page; a step of
the page's replay reaches the terminal."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.own_tmux import Terminal
from tests.web.live import wait_until

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.tmux


def _noting_browser(tmp_path):
    """A home of the test's own, and a "browser" that only notes each address it is
    asked to open: (home, the file of addresses, the environment for the command)."""
    home = tmp_path / "home"
    noted = tmp_path / "opened"
    script = tmp_path / "browser.sh"
    script.write_text(f"#!/bin/sh\necho \"$1\" >> {noted}\n")
    script.chmod(0o755)
    env = {**os.environ, "TERM": "xterm-256color", "PYTHONPATH": str(REPO),
           "TONGIAKI_LAN_HOME": str(home), "BROWSER": str(script)}
    return home, noted, env


async def test_solo_board_then_replay_board_from_the_command_line(browser, tmp_path):
    home, noted, env = _noting_browser(tmp_path)
    cmd = (f"{sys.executable} -m tongiaki_lan solo --bots 2 --bot random --pace 0 "
           "--seed cli-board --lang en --board")
    term = Terminal("board", cmd, env, str(tmp_path), width=120, height=36)
    try:
        term.wait_for(lambda s: "Your decision" in s and "The board page:" in s,
                      "the game and the page's address")
        await wait_until(noted.exists, what="the browser opened")
        url = noted.read_text().split()[0]
        assert url.startswith("http://127.0.0.1:") and "#" in url
        log = (home / "logs" / "tongiaki-lan.log").read_text()
        assert f"board page: {url}" in log  # (the log file keeps the whole address)
        page = await browser.new_page()
        await page.goto(url)
        await page.wait_for_selector('html[data-move-index="0"]', state="attached")
        term.send("place Tonga 3", "Enter")
        term.wait_for(lambda s: "Since your last move" in s, "the bots' answer")
        await page.wait_for_selector('html:not([data-move-index="0"])', state="attached")
        await page.wait_for_selector('[data-target="beach:0:2"] circle.ship', state="attached")
        term.send("C-u", "quit", "Enter", "Enter")
        term.wait_for(lambda s: "Record saved" in s, "the goodbye")
        await page.locator("#status").filter(has_text="closed this page").wait_for()
    finally:
        term.close()
    noted.unlink()
    term = Terminal("replay", f"{sys.executable} -m tongiaki_lan replay 1 --board --lang en",
                    env, str(tmp_path), width=120, height=36)
    try:
        term.wait_for(lambda s: "Replay" in s and "The board page:" in s, "the replay")
        await wait_until(noted.exists, what="the browser opened")
        page = await browser.new_page()
        await page.goto(noted.read_text().split()[0])
        await page.wait_for_selector("#replay:not([hidden])", state="attached")
        total = int(await page.get_attribute("#r-slider", "max"))
        await page.click("#r-last")
        await page.wait_for_selector(f'html[data-move-index="{total}"]', state="attached")
        term.wait_for(lambda s: f"move {total}/{total}" in s, "the terminal following the page")
        await page.click("#r-first")
        await page.wait_for_selector('html[data-move-index="0"]', state="attached")
        term.wait_for(lambda s: f"move 0/{total}" in s, "the terminal at the start")
        term.send("C-c")
        await page.locator("#status").filter(has_text="closed this page").wait_for()
    finally:
        term.close()


@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 36)])
async def test_the_board_pages_address_stands_whole_to_be_copied(tmp_path, width, height):
    """The log pane (32 columns at 80) cut the address mid-key ("http://" / "127.0.0.1:
    36683/#449z_anpB5v7l" / …), so it could be neither copied nor clicked: it stands
    whole on the message line, as wide as the terminal, and `board` says it again."""
    home, noted, env = _noting_browser(tmp_path)
    cmd = (f"{sys.executable} -m tongiaki_lan solo --bots 2 --bot random --pace 0 "
           "--seed copy-url --lang en --board --no-record")
    term = Terminal(f"url{width}", cmd, env, str(tmp_path), width=width, height=height)
    try:
        await wait_until(lambda: noted.exists() and noted.read_text().strip(),
                         what="the browser opened")
        url = noted.read_text().split()[0]
        screen = term.wait_for(lambda s: url in s, "the whole address on one line")
        (line,) = [row for row in screen.splitlines() if url in row]
        assert line.strip() == f"The board page: {url}"
        term.send("place Tonga 3", "Enter")  # (a command: the message line is its answer's)
        term.wait_for(lambda s: "Since your last move" in s and url not in s, "a move")
        term.send("board", "Enter")
        term.wait_for(lambda s: url in s.splitlines()[-2], "the address said again")
        term.send("C-u", "quit", "Enter", "Enter")
    finally:
        term.close()

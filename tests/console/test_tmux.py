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
        argv = [*tmux("new-session"), "-d", "-s", name, "-x", str(width), "-y", str(height),
                "-c", str(REPO), command]
        for _attempt in range(3):
            done = subprocess.run(argv, env=env, capture_output=True, text=True)
            # (the previous test's last session was just killed: its server may still be
            # exiting when this one connects, and tmux then says so; a new server follows)
            if done.returncode == 0 or "server exited unexpectedly" not in done.stderr:
                break
        if done.returncode != 0:
            raise AssertionError(f"tmux new-session failed: {done.stderr.strip()}")

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
    """The status line: the last line above the prompt that is not the message. Not a
    row of the side column (`│`): the log's own "Game over: …" line came a redraw before
    the status line's, and a test read the end from it (CI, once)."""
    lines = screen.rstrip("\n").splitlines()
    for line in reversed(lines[:-1]):
        if "│" in line:
            continue
        if any(w in line for w in ("Your decision", "Waiting for", "Game over",
                                   "is thinking")):  # (a bot's seat: a headless bot laptop)
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
    assert "Your decision: put a ship on Tonga" in screen  # the pending decision, in words
    assert "NW3···" in screen  # Tonga's beach 3 (pier NW) is empty before the move
    pane.send("place Tonga 3", "Enter")
    screen = pane.wait_for(lambda s: re.search(r"NW3B[RGY·]{2}", s), what="our ship on beach 3")
    assert "Tester" in screen and " 14 " in screen  # one ship less in our reserve
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again
    pane.wait_for(lambda s: not pane.alive() or "Record saved" in s, what="leaving")
    Pane.wait_file(exit_file)
    assert exit_file.read_text().strip() == "0"
    rec = read_record(record)
    assert [str(m) for m in rec.moves][:1] == ["place Tonga 3"]


PIER_ON_SHIP = re.compile(r"[BRGYOP][NS][EW]?(?![a-z])")


def _play_hints_until(pane, stop, limit: int = 1000) -> str:
    """Take hints (typed `hint`, then Enter) at each of our decisions until `stop(screen)`."""
    for _ in range(limit):
        # a landing's own hint is asked for as the decision shows: `stop` is read once it
        # has come ("Enter takes the hint"), or a landing seen a moment early was played
        # by `_take_hint` and the game went on to its end (1 run in 3 under load)
        screen = pane.wait_for(lambda s: ("Your decision" in _status(s)
                                          and "a hint is on its way" not in _status(s))
                               or "Game over" in _status(s),
                               timeout=60, what="our decision (its hint come) or the end")
        # on the map, no ship letter runs into a pier (`5BGYNE`: ships B G Y, pier NE)
        board = "\n".join(line.split("│", 1)[0] for line in screen.splitlines()[:-3])
        assert not PIER_ON_SHIP.search(board), board
        if stop(screen):
            return screen
        assert "Game over" not in _status(screen), "the game ended first"
        _take_hint(pane)
    raise AssertionError("too many moves")


def _take_hint(pane) -> None:
    """Play the hint's move at our decision. A landing has it on the line already (the
    status line says "Enter takes the hint"), once the hint is no longer on its way:
    typing `hint` there raced the hint the screen asks for itself, whose "Hint:" could
    show before the typed one was read, and the Enter sent for it met an empty line."""
    screen = pane.wait_for(lambda s: "a hint is on its way" not in _status(s),
                           what="the landing's hint")
    if "Enter takes the hint" not in _status(screen):
        pane.send("C-u", "hint", "Enter")
        screen = pane.wait_for(lambda s: "Hint:" in s and s.rstrip("\n").splitlines()[-1]
                               .strip() not in (">", "> hint"), what="a hint")
    said = (_status(screen), _hint_row(screen), _log(screen))
    pane.send("Enter")
    # played: its "Hint:" row has gone, or is another's (the next landing's, at once), or
    # the log told the move: a group that bounced back to the same island met the very same
    # landing and hint again (a CI run waited 30 s there for a change that had come)
    pane.wait_for(lambda s: (_status(s), _hint_row(s), _log(s)) != said or "Hint:" not in s,
                  what="the hint to be played")


def _hint_row(screen: str) -> str:
    return next((line for line in screen.splitlines() if line.startswith("Hint:")), "")


def _log(screen: str) -> str:
    """The log pane's text (right of the map, below the panel's rule), rows joined."""
    rows = [line.split("│", 1)[1] for line in screen.splitlines() if "│" in line]
    start = next((i for i, r in enumerate(rows) if r.startswith("────")), 0)
    return " ".join(" ".join(r.split()) for r in rows[start + 1:])


def _moves_of_others_since_our_last(game, ours: int = 0) -> list[str]:
    """The move texts, not tile reveals, that other seats made after our last move."""
    from tongiaki_lan.engine import Game, Reveal

    replay = Game(game.colours)
    seats = []
    for move in game.moves:
        p = replay.pending
        seats.append(p.seat if p is not None else None)
        replay.apply(move)
    last = max(i for i, seat in enumerate(seats) if seat == ours)
    from tongiaki_lan.i18n.islands import shown_move

    return [shown_move(str(m), spaced=True) for i, m in enumerate(game.moves) if i > last
            and seats[i] not in (None, ours) and not isinstance(m, Reveal)]


def test_sail_option_shows_where_it_goes(solo):
    pane, _, _ = solo("tmux-departure-5", width=80, height=24)
    _play_hints_until(pane, lambda s: "sail ISLAND BEACH PIER" in _status(s), limit=40)
    pane.send("Tab")
    screen = pane.wait_for(lambda s: "→ " in s, what="the departure preview in the menu")
    assert re.search(r"sail \S+ \d (N|NE|SE|S|SW|NW)\s+→ (lands on|wrecked at|reveals a tile at|"
                     r"leads back|turned back|lost at sea)", screen), screen
    pane.send("Escape")
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again


def test_landing_offer_survives_a_refusal(solo):
    pane, _, _ = solo("tmux-landing-0", width=80, height=24)
    screen = _play_hints_until(pane, lambda s: "Enter takes the hint" in _status(s),
                               limit=60)
    prompt = screen.rstrip("\n").splitlines()[-1]
    assert prompt.startswith("> land "), prompt  # the hint's landing, on the line
    pane.send("land 9:B", "Enter")  # typing replaces the offer; this one is refused
    screen = pane.wait_for(lambda s: "land 9:B:" in s, what="the refusal")
    pane.wait_for(lambda s: s.rstrip("\n").splitlines()[-1] == prompt, what="the offer again")
    pane.send("Enter")
    pane.wait_for(lambda s: "Enter takes the hint" not in _status(s),
                  what="the landing")
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again


def test_colony_asks_first(solo):
    pane, _, _ = solo("tmux-colony", width=80, height=24)
    _play_hints_until(pane, lambda s: "your turn" in _status(s), limit=20)
    pane.send("colony", "Enter")
    screen = pane.wait_for(lambda s: "Enter again to confirm" in s, what="the question")
    assert "sets out for a New Colony" not in screen
    pane.send("Enter")
    pane.wait_for(lambda s: "sets out for a New Colony" in _log(s), what="the colony")
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again


def test_small_terminal_says_so_until_it_grows(solo):
    pane, _, _ = solo("tmux-small", width=40, height=12)
    screen = pane.wait_for(lambda s: "needs at least 80×24" in " ".join(s.split()),
                           what="the size warning")
    assert "The terminal is 40×12" in screen
    subprocess.run([*tmux("resize-window"), "-t", pane.name, "-x", "80", "-y", "24"], check=True)
    pane.wait_for(lambda s: "Tonga" in s and "needs" not in s, what="the game screen")
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again


def test_lobby_help_scrolls(tmp_path):
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    pane = Pane(f"tongiaki-lobby-{os.getpid()}",
                f"{sys.executable} -m tongiaki_lan --no-lan --name Tester", 80, 24, env)
    try:
        pane.wait_for(lambda s: "LAN lobby" in s, what="the lobby")
        def shown(s: str) -> bool:  # the whole help, and the command line empty again
            return ("quit — leave tongiaki-lan" in s
                    and s.rstrip("\n").splitlines()[-1].strip() == ">")

        pane.send("help", "Enter")
        first = pane.wait_for(shown, what="the help")
        # twice, to fill more than the screen; the second one waited for too: a PageUp
        # read before it came was undone as it came (the messages jump to the newest), in
        # a CI run, where the first help's last line had been taken for the second's
        pane.send("help", "Enter")
        screen = pane.wait_for(lambda s: shown(s) and s != first, what="the help again")
        assert "more lines below" not in screen
        before = screen
        pane.send("PageUp", "PageUp", "PageUp", "PageUp", "PageUp")
        screen = pane.wait_for(lambda s: "more lines below" in s, what="scrolled back")
        assert screen != before
        rows = screen.splitlines()
        rule = next(i for i, r in enumerate(rows) if r.startswith("────"))
        assert "LAN disabled" in rows[rule + 1]  # the very first message is back in view
        pane.send("PageDown", "PageDown", "PageDown", "PageDown", "PageDown")
        pane.wait_for(lambda s: "more lines below" not in s and "quit — leave" in s,
                      what="back at the newest")
        pane.send("quit", "Enter")
        pane.wait_for(lambda s: not pane.alive() or "LAN lobby" not in s, what="leaving")
    finally:
        pane.kill()


def test_solo_played_to_the_end_by_typed_commands(solo):
    pane, record, exit_file = solo("tmux-full", width=80, height=24)
    pane.wait_for(lambda s: "Your decision" in _status(s), what="our first decision")
    screen = _play_hints_until(pane, lambda s: "Game over" in _status(s))
    # the status line, as many rows as it wraps to (the labels of the bots are long)
    rows = screen.rstrip("\n").splitlines()
    start = max(i for i, line in enumerate(rows) if "Game over" in line and "│" not in line)
    final = " ".join(" ".join(rows[start:-1]).split())
    # the board area shows the final table; the log the last round, move by move
    assert "Final score" in screen and "Tester " in screen.split("Final score", 1)[1]
    game = replay_record(read_record(record))
    log = _log(screen)
    pane.send("PageUp")  # and what a small log cannot hold is one page back
    log += " " + _log(pane.wait_for(lambda s: "more line" in s or "newer line" in s,
                                    what="the log scrolled back"))
    if "Since your last move" in log:
        for text in _moves_of_others_since_our_last(game):
            assert text in log, (text, log)
    else:  # the game ended on our own move: nothing else happened since
        assert _moves_of_others_since_our_last(game) == []
    pane.send("C-u", "quit", "Enter")
    Pane.wait_file(exit_file)
    assert exit_file.read_text().strip() == "0"
    game = replay_record(read_record(record))
    assert game.is_over
    names = {"blue": "Tester", "red": "Hina", "green": "Maui", "yellow": "Kupe"}
    for colour, points in game.scores().items():
        label = names[colour] if colour == "blue" else f"{names[colour]} — bot (random)"
        assert f"{label} {points}" in final


def test_a_whole_late_board_in_a_120x40_terminal(tmp_path):
    """`replay RECORD --at N` on the last decision of a 31-tile game: in a real 120x40
    terminal every tile is on the map (compact hexes: abbreviated names), none cut off."""
    import hashlib

    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.console.terminal.board import compact_title
    from tongiaki_lan.engine import Dealer, Game
    from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo

    seed = hashlib.blake2b(b"fit-3", digest_size=32).digest()
    colours = ["blue", "red", "green", "yellow"]
    game = Game(colours)
    dealer = Dealer(seed)
    bot = make_bot("random", seed=7)
    path = tmp_path / "late.tgrec"
    header = RecordHeader(seed, tuple(SeatInfo(n, c, "random")
                                      for n, c in zip("ABCD", colours, strict=True)))
    with RecordWriter.create(path, header) as writer:
        while not game.is_over:
            dealer.apply(game, bot.choose(game),
                         lambda move: writer.append(move, game.digest()))
    assert len(game.placed_tiles()) == 31
    total = len(read_record(path).moves)
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    # one entry before the end: the game is not over, so the map (not the final table) shows
    pane = Pane(f"tongiaki-e2e-fit-{os.getpid()}",
                f"{sys.executable} -m tongiaki_lan replay {path} --at {total - 1}", 120, 40, env)
    try:
        final = replay_record(read_record(path), upto=total - 1)
        titles = [compact_title(tid) for tid, _rot in final.placed_tiles().values()]

        def whole(screen: str) -> bool:  # (a capture can catch the screen half drawn: a
            # clean-clone CI run saw its first three lines only)
            map_area = "\n".join(line[:79] for line in screen.splitlines())
            return all(t in map_area for t in titles)

        screen = pane.wait_for(whole, what="every tile's title on the map")
        walls = [line[:80] for line in screen.splitlines() if "│" in line[:80]]
        assert walls and all(line[79] == "│" for line in walls)  # the map ends at column 79
        pane.send("q", "u", "i", "t", "Enter")
        pane.wait_for(lambda s: not pane.alive() or "Tonga" not in s, what="leaving")
    finally:
        pane.kill()


def test_a_pasted_page_keeps_the_prompt_and_shows_a_short_reason(solo, tmp_path):
    """2,400 characters pasted on the line at 80x24: the message repeats only the start
    of it and says why it was refused, and the `> ` prompt is there for the next line."""
    pane, _record, exit_file = solo("tmux-paste", width=80, height=24)
    pane.wait_for(lambda s: "Your decision" in s, what="the game screen")
    page = tmp_path / "page.txt"
    page.write_text("sail " + "x" * 2395)
    subprocess.run([*tmux("load-buffer"), str(page)], check=True)
    subprocess.run([*tmux("paste-buffer"), "-t", pane.name], check=True)
    pane.send("Enter")
    screen = pane.wait_for(lambda s: "no island named" in s, what="the reason")
    assert screen.rstrip("\n").splitlines()[-1].startswith(">")
    assert screen.count("x") < 200  # (the line is not repeated whole)
    pane.send("beaches 9", "Enter")  # a second refusal: one mention of its command
    screen = pane.wait_for(lambda s: "beach numbers run" in s, what="the next reason")
    assert "beaches 9: beach numbers" in " ".join(screen.split())
    assert screen.rstrip("\n").splitlines()[-1].startswith(">")
    pane.send("place Tonga 3", "Enter")  # and the game goes on
    pane.wait_for(lambda s: re.search(r"NW3B[RGY·]{2}", s), what="our ship on beach 3")
    pane.send("C-u", "quit", "Enter", "Enter")
    Pane.wait_file(exit_file)

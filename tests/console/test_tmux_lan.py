"""Two consoles in two tmux windows play one LAN game through the lobby.

Both run inside a network namespace of this test's own with only loopback in it, so
zeroconf's multicast and the game's UDP never leave it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from tongiaki_lan.records import read_record, replay_record

from .test_tmux import REPO, TMUX, Pane, _status, _take_hint

IP = shutil.which("ip")
pytestmark = [
    pytest.mark.tmux,
    pytest.mark.netns,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
    pytest.mark.skipif(IP is None, reason="iproute2 (ip) is not installed"),
    pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() != 0,
                       reason="network namespaces need root"),
]


@pytest.fixture
def netns():
    name = f"tgk-console-{os.getpid()}"
    subprocess.run([IP, "netns", "add", name], check=True)
    try:
        for cmd in (["link", "set", "lo", "up"], ["link", "set", "lo", "multicast", "on"],
                    ["route", "add", "224.0.0.0/4", "dev", "lo"]):
            subprocess.run([IP, "netns", "exec", name, IP, *cmd], check=True)
        yield name
    finally:
        subprocess.run([IP, "netns", "del", name], capture_output=True)


def test_two_consoles_play_one_lan_game(netns, tmp_path):
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    panes = {}
    try:
        for who in ("Ana", "Ben"):
            cmd = (f"{IP} netns exec {netns} {sys.executable} -m tongiaki_lan --name {who} "
                   f"--hint-bot random "
                   f"--records {tmp_path / who} ; echo $? > {tmp_path / (who + '.exit')}")
            panes[who] = Pane(f"tgk-lan-{os.getpid()}-{who}", cmd, 100, 30, env)
        ana, ben = panes["Ana"], panes["Ben"]
        ana.wait_for(lambda s: "LAN lobby" in s, what="Ana's lobby")
        ana.send("create Reef 2", "Enter")
        ben.wait_for(lambda s: "Reef" in s and "1/2 seats" in s, what="Ben to see the game")
        ben.send("join 1", "Enter")
        ana.wait_for(lambda s: "Ben" in s and "2/2 seats" in s, what="Ben at Ana's table")
        ben.send("start", "Enter")  # only the table's creator starts it, and Ben is told so
        ben.wait_for(lambda s: "Ana opened this table and starts it" in " ".join(s.split()),
                     what="who may start")
        ben.send("say kia ora", "Enter")
        ana.wait_for(lambda s: "kia ora" in s, what="Ben's chat on Ana's screen")
        ana.send("ready", "Enter")
        ben.send("ready", "Enter")  # a full table where everyone is ready starts by itself
        for p in (ana, ben):
            p.wait_for(lambda s: "Tonga" in s and ("Your decision" in s or "Waiting for" in s),
                       what="the game screen")
            # the lobby's chat came along into the game's log
            assert "<Ben> kia ora" in p.capture()
        # The whole game, each console taking its hints when the decision is its own.
        turns = 0
        while True:
            screens = {w: p.capture() for w, p in panes.items()}
            for s in screens.values():  # every move is typed: none is ever a bot's
                assert "a bot's moves" not in s, s
            if all("Game over" in _status(s) for s in screens.values()):
                break
            mover = next((w for w, s in screens.items() if "Your decision" in _status(s)), None)
            if mover is None:
                continue
            p = panes[mover]
            _take_hint(p)
            turns += 1
            assert turns < 3000
        finals = {w: _status(p.capture()) for w, p in panes.items()}
        assert finals["Ana"].split("Scores:")[1] == finals["Ben"].split("Scores:")[1]
        # Both screens show the same table: the same reserves and scores in the panel.
        def panel(screen: str) -> list[str]:
            return [line.split("│", 1)[1] for line in screen.splitlines()
                    if "│" in line and ("Ana" in line or "Ben" in line)][:2]

        ana.wait_for(lambda s: panel(s) == panel(ben.capture()), what="the same panel on both")
        for p in panes.values():
            p.send("C-u", "quit", "Enter")
        for who in panes:
            exit_file = tmp_path / (who + ".exit")
            Pane.wait_file(exit_file)
            assert exit_file.read_text().strip() == "0"
        digests = set()
        for who in panes:
            (path,) = (tmp_path / who).glob("*.tgrec")
            game = replay_record(read_record(path))  # every move legal, every digest right
            assert game.is_over
            digests.add(game.digest())
        assert len(digests) == 1
    finally:
        for p in panes.values():
            p.kill()


def test_a_player_who_quits_with_ctrl_c_resumes_from_the_lobby_and_the_game_finishes(
        netns, tmp_path):
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    panes = {}

    def start(who: str, run: int) -> Pane:
        cmd = (f"{IP} netns exec {netns} {sys.executable} -m tongiaki_lan --name {who} "
               f"--hint-bot random --records {tmp_path / who} ; "
               f"echo $? > {tmp_path / f'{who}{run}.exit'}")
        panes[f"{who}{run}"] = pane = Pane(f"tgk-lanr-{os.getpid()}-{who}{run}", cmd, 100, 30,
                                           env)
        return pane

    def play_turns(screens_of: dict, until) -> None:
        turns = 0
        while not until():
            for p in screens_of.values():
                s = p.capture()
                if "Your decision" in _status(s):
                    _take_hint(p)
                    turns += 1
            assert turns < 3000

    try:
        ana, ben = start("Ana", 1), start("Ben", 1)
        ana.wait_for(lambda s: "LAN lobby" in s, what="Ana's lobby")
        ana.send("create Reef 2", "Enter")
        ben.wait_for(lambda s: "Reef" in s and "1/2 seats" in s, what="Ben to see the game")
        ben.send("join 1", "Enter")
        ana.wait_for(lambda s: "Ben" in s and "2/2 seats" in s, what="Ben at Ana's table")
        ana.send("ready", "Enter")
        ben.send("ready", "Enter")
        for p in (ana, ben):
            p.wait_for(lambda s: "Your decision" in s or "Waiting for" in s, what="the game")
        records = tmp_path / "Ben"
        played = {"n": 0}

        def some_moves() -> bool:
            played["n"] += 1
            return played["n"] > 6

        play_turns({"Ana": ana, "Ben": ben}, some_moves)
        ben.send("C-c")  # Ben quits in the middle of the game: asked first, as `quit` is
        ben.wait_for(lambda s: "Ctrl-C again (or Enter) leaves" in s, what="the question")
        assert not (tmp_path / "Ben1.exit").exists()
        ben.send("C-c")
        Pane.wait_file(tmp_path / "Ben1.exit")
        ben2 = start("Ben", 2)
        ben2.wait_for(lambda s: "← yours" in s, timeout=60, what="Ben's game marked as his")
        assert "You were playing Reef" in ben2.capture()
        ben2.send("join 1", "Enter")
        ben2.wait_for(lambda s: "Your decision" in s or "Waiting for" in s,
                      what="Ben back in the game screen")
        play_turns({"Ana": ana, "Ben": ben2},
                   lambda: all("Game over" in _status(p.capture()) for p in (ana, ben2)))
        for p in (ana, ben2):
            p.send("C-u", "quit", "Enter")
        Pane.wait_file(tmp_path / "Ana1.exit")
        Pane.wait_file(tmp_path / "Ben2.exit")
        digests = set()
        for who in ("Ana", "Ben"):
            (path,) = (tmp_path / who).glob("*.tgrec")
            game = replay_record(read_record(path))
            assert game.is_over
            digests.add(game.digest())
        assert len(digests) == 1
        assert records.exists()
    finally:
        for p in panes.values():
            p.kill()


def test_a_console_watcher_follows_a_game_from_the_lobby_list_to_its_end(netns, tmp_path):
    """Two headless players; a third person opens the lobby, sees the game running and
    `watch`es it to the end in a real terminal: no move prompt, the same final result, and
    a record of the game that replays to the players' digest."""
    import json

    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO))
    players, pane = [], None
    try:
        for who in ("Ana", "Ben"):
            players.append(subprocess.Popen(
                [IP, "netns", "exec", netns, sys.executable, "-m", "tongiaki_lan", "play",
                 "--headless", "--name", who, "--game", "Lagoon", "--players", "2", "--bot",
                 "random", "--bot-delay", "0.15", "--records", str(tmp_path / who),
                 "--quiet-refusals", "--timeout", "300"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env))
        cmd = (f"{IP} netns exec {netns} {sys.executable} -m tongiaki_lan --name Dan "
               f"--records {tmp_path / 'Dan'} ; echo $? > {tmp_path / 'Dan.exit'}")
        pane = Pane(f"tgk-watch-{os.getpid()}", cmd, 100, 30, env)
        listed = pane.wait_for(lambda s: "Lagoon" in s and "playing" in s, timeout=60,
                               what="the running game in the lobby list")
        # The list's numbers stay with their games: when both players opened a table of
        # that name before they met, the one left running may well be number 2.
        number = re.search(r"(\d+)\. Lagoon", listed).group(1)
        pane.send(f"watch {number}", "Enter")
        screen = pane.wait_for(lambda s: "Watching Lagoon" in _status(s), timeout=60,
                               what="the watcher's game screen")
        assert "Your decision" not in screen and "watching>" in screen
        pane.wait_for(lambda s: "Game over" in _status(s), timeout=300, what="the end")
        finals = []
        for p in players:
            out, _ = p.communicate(timeout=60)
            finals.append(json.loads(out.strip().splitlines()[-1]))
        assert {f["event"] for f in finals} == {"game_over"}
        assert len({f["digest"] for f in finals}) == 1
        pane.send("C-u", "quit", "Enter")
        Pane.wait_file(tmp_path / "Dan.exit")
        (path,) = (tmp_path / "Dan").glob("*.tgrec")
        game = replay_record(read_record(path))  # every move legal, every digest right
        assert game.is_over and game.digest().hex() == finals[0]["digest"]
    finally:
        for p in players:
            if p.poll() is None:
                p.kill()
        if pane is not None:
            pane.kill()

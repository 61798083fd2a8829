"""`tongiaki-lan watch --game NAME` without --json or --plain prints one line per move for
a person following the game at a terminal. They read islands as the console and every
other screen names them, and the end by the winner's name: at a real table the lines read
"expand Fidschi", "reveal HivaOa" and "game over: blue win"."""

from __future__ import annotations

from tongiaki_lan.cli.watch import _Over, _text
from tongiaki_lan.net.protocol.events import GameStarted, MoveApplied, TileRevealed

SEATS = [{"name": "Ana", "colour": "blue"}, {"name": "Bruno", "colour": "red"}]


def test_moves_and_reveals_name_islands_as_the_console_does():
    move = MoveApplied(index=40, seat=0, colour="blue", name="Ana", move="expand Fidschi",
                       by=None)
    sail = MoveApplied(index=41, seat=0, colour="blue", name="Ana",
                       move="sail RapaNui 2 NW", by=None)
    assert _text(move) == "  41 Ana (blue): expand Fiji"
    assert _text(sail) == "  42 Ana (blue): sail Rapa Nui 2 NW"
    assert _text(TileRevealed(index=42, move="reveal HivaOa")) == "  43 reveal Hiva Oa"
    assert _text(TileRevealed(index=43, move="reveal S07")) == "  44 reveal S07"


def test_the_end_names_the_winner_and_a_tie_names_both():
    start = GameStarted(seed="00", seats=SEATS, resumed=False, moves=0)
    names = {s["colour"]: s["name"] for s in start.to_json()["seats"]}
    one = _Over({"event": "game_over", "digest": "87" * 32, "winners": ["blue"]})
    tie = _Over({"event": "game_over", "digest": "87" * 32, "winners": ["blue", "red"]})
    assert _text(one, names) == "game over: Ana (blue) wins; digest 8787878787878787"
    assert _text(tie, names) == ("game over: Ana (blue) and Bruno (red) win; digest "
                                 "8787878787878787")


async def test_watching_a_locked_game_without_its_passphrase_says_it_needs_one(tmp_path):
    """The listing says the game is locked: `watch --game Reef` with no --passphrase said
    "no answer from the game within 10 s (wrong or missing passphrase?)" after the wait.
    It says at once that the game needs its passphrase, and how to give it. Real nodes:
    the table found by real multicast DNS on loopback."""
    import asyncio
    import os
    import sys

    from tests.net.procs import REPO, Proc, kill_all

    lan = ["--interface", "127.0.0.1", "--host", "127.0.0.1"]
    host = Proc([sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
                 "--name", "ana", "--game", "Reef", "--players", "2", "--passphrase",
                 "kumara", "--timeout", "120", "--records", str(tmp_path / "ana"), *lan],
                tmp_path)
    watcher = None
    try:
        await host.start()
        await host.wait(lambda: host.count("joined") == 1, 60)
        watcher = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tongiaki_lan", "watch", "--game", "Reef", "--name", "eve",
            "--timeout", "60", "--record", str(tmp_path / "eve.tgrec"), *lan,
            cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(REPO)},
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(watcher.communicate(), 90)
    finally:
        if watcher is not None and watcher.returncode is None:
            watcher.kill()
            await watcher.wait()
        await kill_all([host])
    lines = out.decode().splitlines()
    assert watcher.returncode == 1, (lines, err.decode()[-1500:])
    assert lines[-1] == ("the game Reef is locked: it needs its passphrase. Run: "
                         "tongiaki-lan watch --game Reef --passphrase TEXT"), lines
    assert not any("no answer" in line for line in lines), lines

"""`tongiaki-lan watch --plain`: a LAN game between two real loopback nodes followed in the
line mode — the console's story line by line, the watcher's commands read from a pipe
(`say` reaches the table, a move is refused: no seat), the end of its input leaving
cleanly, and its record the players' game."""

from __future__ import annotations

import asyncio
import re
import sys

from tongiaki_lan.records import read_record, replay_record

from ..net.procs import Proc, kill_all
from .plainproc import PlainProcess


def player(tmp, name: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
            "--name", name, "--game", "porch", "--players", "2", "--host", "127.0.0.1",
            "--no-discovery", "--record", str(tmp / f"{name}.tgrec"), "--timeout", "300",
            "--bot-delay", "0.15", *extra]


async def test_watch_plain_tells_a_lan_game_line_by_line_and_takes_commands(tmp_path):
    host = Proc(player(tmp_path, "ana"), tmp_path)
    procs = [host]
    watcher = None
    try:
        await host.start()
        await host.wait(lambda: host.count("joined") == 1, 60)
        invite = next(e for e in host.events if e["event"] == "joined")["invite"]
        guest = Proc(player(tmp_path, "bo", "--join", invite), tmp_path)
        procs.append(guest)
        await guest.start()
        watcher = PlainProcess(["watch", "--plain", "--lang", "en", "--join", invite,
                                "--host", "127.0.0.1", "--name", "eve", "--records",
                                str(tmp_path / "eve")], tmp_path, timeout=240)
        until = watcher.until

        await asyncio.to_thread(until, lambda line: line.startswith("You are watching porch"),
                                "the watcher's first line")
        watcher.send("say hello from the side")
        await asyncio.to_thread(until, lambda line: "hello from the side" in line
                                and not line.startswith(">"), "the chat line")
        watcher.send("place Tonga 1")
        (refused,) = (await asyncio.to_thread(
            until, lambda line: line.startswith("place Tonga 1:"), "the refusal"))[-1:]
        assert "you are watching, with no seat" in refused
        await asyncio.to_thread(until, lambda line: line.startswith("Game over: "), "the end")
        await asyncio.to_thread(until, lambda line: line.startswith("Who scores each island"),
                                "the final sentences")
        watcher.close_input()
        code = await asyncio.to_thread(watcher.finish)
        finals = [await p.finish(120) for p in procs]
    finally:
        if watcher is not None:
            watcher.kill()
        await kill_all(procs)
    assert code == 0 and b"Traceback" not in watcher.stderr, watcher.stderr[-1500:]
    assert finals == [0, 0], [p.stderr[-800:] for p in procs]
    assert b"\x1b" not in watcher.raw
    said = [line for line in watcher.lines if not line.startswith("> ")]
    assert all(a != b for a, b in zip(said, said[1:], strict=False))
    turns = [line for line in said if re.match(r"turn \d+: ", line)]
    assert turns and len(turns) == len(set(turns))
    assert not any(line.startswith("Your decision") for line in said)  # (no seat)
    (record,) = (tmp_path / "eve").glob("*.tgrec")
    digest = next(e for e in host.events if e["event"] == "game_over")["digest"]
    assert replay_record(read_record(record)).digest().hex() == digest

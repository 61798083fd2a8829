"""`tongiaki-lan play --headless` as a player runs it, on loopback by invite (no zeroconf,
no root needed): the JSON lines, the final line, the records."""

from __future__ import annotations

import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from .helpers import verify_record
from .procs import Proc, kill_all


def cmd(tmp: Path, name: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
            "--name", name, "--game", "porch", "--players", "3", "--host", "127.0.0.1",
            "--no-discovery", "--record", str(tmp / f"{name}.tgrec"), "--timeout", "120",
            "--passphrase", "ulu", *extra]


async def test_three_players_by_invite_play_to_the_end(tmp_path):
    first = Proc(cmd(tmp_path, "ana"), tmp_path)
    procs = [first]
    try:
        await first.start()
        await first.wait(lambda: first.count("joined") == 1, 60)
        invite = next(e for e in first.events if e["event"] == "joined")["invite"]
        assert invite.startswith("tongiaki://127.0.0.1:")
        for name in ("bo", "cy"):
            p = Proc(cmd(tmp_path, name, "--join", invite), tmp_path)
            procs.append(p)
            await p.start()
        codes = [await p.finish(120) for p in procs]
        assert codes == [0, 0, 0], [p.stderr[-1500:] for p in procs]
    finally:
        await kill_all(procs)
    finals = [p.events[-1] for p in procs]
    assert [f["event"] for f in finals] == ["game_over"] * 3
    assert len({f["digest"] for f in finals}) == 1
    assert set(finals[0]["scores"]) == {"blue", "red", "green"}
    for f in finals:
        assert verify_record(f["record"]).hex() == f["digest"]
    moves = [e for e in procs[1].events if e["event"] in ("move", "reveal")]
    assert [m["index"] for m in moves] == list(range(finals[1]["moves"]))
    # every line says when it was written (local time, with its offset)
    for line in (*procs[0].events, *finals):
        at = datetime.fromisoformat(line["at"])
        assert at.tzinfo is not None and abs(at - datetime.now(timezone.utc)) < timedelta(hours=1)


async def test_bad_invite_is_a_clear_error(tmp_path):
    """Refused as the command line is read, as every option's bad value is (cli/
    optiontypes.py): one line naming --join and what an invite looks like, status 2."""
    p = Proc(cmd(tmp_path, "dee", "--join", "http://nope"), tmp_path)
    await p.start()
    assert await p.finish(60) == 2
    assert not p.events and b"Traceback" not in p.stderr
    (line,) = p.stderr.decode().strip().splitlines()
    assert line.startswith("tongiaki-lan play: argument --join: 'http://nope' is not an invite")
    assert "tongiaki://HOST:PORT/GAMEID/PEER" in line

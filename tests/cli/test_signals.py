"""Ctrl-C, kill and a closed terminal or console window end a game the same way: a goodbye
the others hear ("left", not just silent) and a record that holds every move played.

Real processes on loopback (by invite, no zeroconf). POSIX sends SIGINT, SIGTERM and SIGHUP;
Windows sends CTRL_BREAK_EVENT (the console close event cannot be sent to a child process
by a test). The full-screen console's screens are left by the same path (`ConsoleStop`):
the last test runs a real prompt_toolkit screen and stops it with a real signal.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

import pytest

from tests.net.helpers import verify_record
from tests.net.procs import Proc, kill_all

POSIX = os.name == "posix"
SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] if POSIX else ["CTRL_BREAK_EVENT"]


def cmd(tmp, name: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
            "--name", name, "--game", "porch", "--players", "2", "--host", "127.0.0.1",
            "--no-discovery", "--record", str(tmp / f"{name}.tgrec"), "--timeout", "120",
            "--bot-delay", "0.3", *extra]


@pytest.mark.parametrize("how", SIGNALS)
async def test_a_signal_is_a_goodbye_the_table_hears_and_the_record_is_whole(tmp_path, how):
    flags = {} if POSIX else {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    host = Proc(cmd(tmp_path, "ana"), tmp_path)
    procs = [host]
    try:
        await host.start()
        await host.wait(lambda: host.count("joined") == 1, 60)
        invite = next(e for e in host.events if e["event"] == "joined")["invite"]
        guest = Proc(cmd(tmp_path, "bo", "--join", invite), tmp_path, **flags)
        procs.append(guest)
        await guest.start()
        await guest.wait(lambda: guest.count("move") >= 3, 60)
        guest.kill(getattr(signal, how))
        code = await guest.finish(30)
        # a goodbye for good: the other player's game goes on at once, a bot in bo's seat
        await host.wait(lambda: host.count("handover") >= 1, 30)
        moves_then = host.count("move")
        await host.wait(lambda: host.count("move") > moves_then, 30)
    finally:
        await kill_all(procs)
    last = guest.events[-1]
    assert last["event"] == "left" and last["for_good"] is True, guest.events[-3:]
    assert code == 0 and b"Traceback" not in guest.stderr, guest.stderr[-1500:]
    (left,) = [e for e in host.events if e["event"] == "left"]
    assert left["name"].startswith("bo") and left["for_good"] is True and left["bot"]
    (handed,) = [e for e in host.events if e["event"] == "handover"]
    assert handed["name"].startswith("bo") and handed["bot"] == left["bot"]
    played = [e for e in guest.events if e["event"] in ("move", "reveal")]
    assert verify_record(tmp_path / "bo.tgrec")  # every move it saw, replayed and checked
    from tongiaki_lan.records import read_record

    assert len(read_record(tmp_path / "bo.tgrec").moves) >= len(played)


@pytest.mark.skipif(not POSIX, reason="raises a POSIX signal at this very process")
async def test_a_console_screen_is_left_as_quit_leaves_it_on_a_signal():
    from prompt_toolkit.application import Application
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import Layout
    from prompt_toolkit.layout.containers import Window
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.cli import ConsoleStop, LeaveOnSignals

    with create_pipe_input() as inp:
        app = Application(layout=Layout(Window()), input=inp, output=DummyOutput())
        stop = ConsoleStop()
        stop.results[app] = ("quit",)
        with LeaveOnSignals(stop, sigint=False) as guard:
            task = asyncio.create_task(app.run_async())
            while not app.is_running:
                await asyncio.sleep(0)
            os.kill(os.getpid(), signal.SIGHUP)  # what closing the terminal window sends
            result = await asyncio.wait_for(task, 10)
        assert guard.done.is_set()
    assert result == ("quit",) and stop.asked
    # and the handler is gone with the screen: SIGHUP is the default again
    assert signal.getsignal(signal.SIGHUP) == signal.SIG_DFL

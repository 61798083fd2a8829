"""Laptops whose wall clocks are hours and days off, for real: each `play --headless`
runs under libfaketime in its own network namespace (issue 18). The table starts, plays,
takes a skewed laptop back after a crash, and finishes with one digest."""

from __future__ import annotations

import glob
import signal

import pytest

from .netns import Lan, netns_unavailable, play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow]

# preloaded straight into the node: the `faketime` wrapper would stay the parent, and a
# SIGKILL meant for the node would leave the node running
LIBFAKETIME = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))


@pytest.fixture(autouse=True)
def _need_netns_and_faketime():
    why = netns_unavailable()
    if why:
        pytest.skip(why)
    if not LIBFAKETIME:
        pytest.skip("libfaketime is not installed (apt-get install -y faketime)")


def skewed(cmd: list[str], offset: str | None) -> list[str]:
    """`cmd` (ip netns exec NS python ...) with the process's wall clock moved by `offset`
    (libfaketime syntax: +3h, -2d); its monotonic clock stays true, as a laptop's does."""
    if offset is None:
        return cmd
    return [*cmd[:4], "env", f"LD_PRELOAD={LIBFAKETIME[0]}", f"FAKETIME={offset}",
            "FAKETIME_DONT_FAKE_MONOTONIC=1", *cmd[4:]]


@pytest.mark.parametrize("offsets", [("+3h", None, "-2h"), ("-2d", "+2d", None)],
                         ids=["hours", "days"])
async def test_skewed_wall_clocks_start_play_restart_and_finish_with_one_digest(
        tmp_path, offsets):
    hosts = len(offsets)
    with Lan(hosts) as lan:
        argvs = [skewed(play_cmd(lan, i, tmp_path, "tide", hosts, "--bot-delay", "0.02"),
                        offsets[i]) for i in range(hosts)]
        procs = [Proc(argv, tmp_path) for argv in argvs]
        everyone = list(procs)
        try:
            for p in procs:  # the skewed laptop creates the table as often as not
                await p.start()
            victim = procs[0]  # skewed in both cases
            await victim.wait(lambda: victim.count("move") >= 15, 120)
            victim.kill(signal.SIGKILL)
            await victim.finish(20)
            procs[0] = Proc(argvs[0], tmp_path)
            everyone.append(procs[0])
            await procs[0].start()
            codes = [await p.finish(180) for p in procs]
            assert codes == [0] * hosts, [(p.stderr[-1500:], p.events[-4:]) for p in procs]
        finally:
            await kill_all(everyone)
        one_verified_game(procs)
        assert procs[0].events[0]["resume"] is True
        for p in everyone:
            text = p.stderr.decode(errors="replace")
            assert "incarnation" not in text, text[-1500:]

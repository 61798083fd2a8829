"""Who drives a seat when a player leaves or sleeps, with real processes: `play --headless`
in network namespaces, left with SIGTERM (a goodbye for good) or stopped with SIGSTOP
for longer than the handover time and resumed with SIGCONT (a closed lid)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from tongiaki_lan.net.protocol.settings import HANDOVER_BOT

from .helpers import verify_record
from .netns import Lan, needs_netns, play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns()]


def _events(p: Proc, kind: str) -> list[dict]:
    return [e for e in p.events if e.get("event") == kind]


async def _leave_for_good(tmp_path: Path, hosts: int, table_bot: str = HANDOVER_BOT) -> None:
    """`table_bot`: the table's bot; by default the kind and strength solo play uses (about
    a second a decision here), else a quicker one where the test is about the protocol."""
    with Lan(hosts) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "farewell", hosts, "--bot-delay", "0.02",
                               "--table-bot", table_bot, timeout=400), tmp_path)
                 for i in range(hosts)]
        leaver, rest = procs[1], [p for i, p in enumerate(procs) if i != 1]
        try:
            for p in procs:
                await p.start()
            await leaver.wait(lambda: leaver.count("move") >= 12, 120)
            t_leave = asyncio.get_running_loop().time()
            leaver.kill(signal.SIGTERM)  # a headless node's SIGTERM: goodbye for good
            assert await leaver.finish(30) == 0, leaver.stderr[-1500:]
            codes = [await p.finish(400) for p in rest]
            assert codes == [0] * len(rest), [p.stderr[-1500:] for p in rest]
        finally:
            await kill_all(procs)
        (left,) = _events(leaver, "left")
        assert left["for_good"] is True
        stalls = []
        for p in rest:
            (bye,) = _events(p, "left")
            assert bye["for_good"] and bye["bot"] == table_bot
            (handed,) = _events(p, "handover")
            assert handed["name"] == "host1" and handed["bot"] == table_bot
            assert not _events(p, "draw_waiting")  # no draw ever waited for the leaver
            k = next(i for i, (e, t) in enumerate(zip(p.events, p.arrived, strict=True))
                     if t >= t_leave and e.get("event") == "reveal")
            # the draw's own wait: from the leave, or from the move that called for the
            # draw if that came later (a bot's move before it is play, not a stall)
            j = max(i for i in range(k) if p.events[i].get("event") == "move")
            stalls.append((p.arrived[k] - t_leave, p.arrived[k] - max(t_leave, p.arrived[j])))
        one_verified_game(rest)
        verify_record(left["record"])  # the leaver's record verifies too, up to its goodbye
        print(f"\n[farewell netns, {hosts} hosts] next tile seen "
              f"{max(s for s, _ in stalls) * 1000:.0f} ms after SIGTERM to the leaver, of "
              f"which {max(w for _, w in stalls) * 1000:.0f} ms waiting for the draw itself "
              f"(slowest node; the rest is the moves before it; machine shared with other "
              f"jobs)")


async def test_a_player_who_leaves_for_good_at_four_is_not_waited_for(tmp_path):
    await _leave_for_good(tmp_path, 4)


async def test_two_players_one_leaves_for_good_the_other_finishes_against_a_bot(tmp_path):
    await _leave_for_good(tmp_path, 2, "random")


async def _sleep(tmp_path: Path, hosts: int, *, until_over: bool, linger: float) -> list[Proc]:
    """Stop host 1 (SIGSTOP) for longer than the handover time, then resume it."""
    extra = ("--handover", "3", "--draw-wait", "3", "--bot-delay", "0.02",
             "--linger", str(linger), "--table-bot", "random")
    with Lan(hosts) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "lid", hosts, *extra, timeout=300), tmp_path)
                 for i in range(hosts)]
        sleeper, rest = procs[1], [p for i, p in enumerate(procs) if i != 1]
        try:
            for p in procs:
                await p.start()
            await sleeper.wait(lambda: sleeper.count("move") >= 12, 120)
            sleeper.kill(signal.SIGSTOP)
            if until_over:
                for p in rest:  # (a node that lingers says so before it waits)
                    await p.wait(lambda p=p: p.count("game_over") + p.count("lingering") >= 1,
                                 300)
            else:
                await rest[0].wait(lambda: rest[0].count("handover") >= 1, 60)
                await rest[0].wait(lambda: rest[0].count("move") >= sleeper.count("move") + 20,
                                   120)
            sleeper.kill(signal.SIGCONT)
            codes = [await p.finish(300) for p in procs]
        finally:
            await kill_all(procs)
        assert codes[0] == 0 and codes[2:] == [0] * (hosts - 2), [p.stderr[-1500:]
                                                                  for p in procs]
        (woke,) = _events(sleeper, "woke")
        assert woke["slept"] > 3
        # it handed no other player's seat to its own bots on waking
        mine = {e["name"] for e in _events(sleeper, "handover")} - {"host1"}
        assert not mine, [e for e in sleeper.events if e.get("event") not in (
            "move", "reveal", "lobby")]  # (what it did instead, if it did)
        return procs


async def test_a_node_stopped_longer_than_the_handover_follows_the_table_on_waking(tmp_path):
    procs = await _sleep(tmp_path, 4, until_over=False, linger=0)
    one_verified_game(procs)


async def test_a_node_asleep_when_the_table_finished_is_shown_the_result(tmp_path):
    procs = await _sleep(tmp_path, 3, until_over=True, linger=60)
    finals = [p.events[-1] for p in procs]
    assert all(f["event"] == "game_over" for f in finals), [
        (e["event"], e.get("reason") or e.get("name") or e.get("slept"))
        for e in procs[1].events if e["event"] not in ("move", "reveal", "lobby")]
    assert len({f["digest"] for f in finals}) == 1


async def test_a_node_asleep_when_the_table_finished_and_left_says_the_table_is_gone(
        tmp_path):
    procs = await _sleep(tmp_path, 3, until_over=True, linger=0)
    sleeper = procs[1]
    assert sleeper.proc.returncode == 1
    (gone,) = _events(sleeper, "table_gone")
    assert gone["slept"] > 3
    assert "did not answer" in sleeper.events[-1]["reason"]
    verify_record(sleeper.events[0]["record"])  # its record holds the game up to the sleep


async def test_two_laptops_one_lid_closed_past_the_wait_both_draw_again(tmp_path):
    """Real processes, real zeroconf: at a table of two, host 1 stops (SIGSTOP) until host 0
    has drawn a tile without it, and resumes. Host 1 commits to a fresh chain and both draw
    the tiles again (each says so); before, host 0 drew every later tile alone. Both records
    verify, the fresh chain's values included."""
    extra = ("--handover", "3", "--draw-wait", "3", "--bot-delay", "0.3",
             "--table-bot", "random")
    with Lan(2) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "again", 2, *extra, timeout=400), tmp_path)
                 for i in range(2)]
        host, sleeper = procs
        try:
            for p in procs:
                await p.start()
            await sleeper.wait(lambda: sleeper.count("move") >= 8, 120)
            sleeper.kill(signal.SIGSTOP)
            await host.wait(lambda: host.count("draw_dropped") >= 1, 60)
            sleeper.kill(signal.SIGCONT)
            codes = [await p.finish(400) for p in procs]
        finally:
            await kill_all(procs)
        assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
    peer = _events(host, "draw_dropped")[0]["peer"]
    for p in procs:
        taken = _events(p, "draw_taken")
        # (what each laptop said from the drop on, should it fail again: it failed once in
        # a clean-clone CI run, unexplained, and passed in every rerun)
        said = [e["event"] for e in p.events]
        after = said[said.index("draw_dropped"):] if "draw_dropped" in said else said[-60:]
        assert len(taken) == 1, [x for x in after if x not in ("move", "reveal")][:60]
        assert taken[0]["peer"] == peer and taken[0]["again"] is True
    one_verified_game(procs)

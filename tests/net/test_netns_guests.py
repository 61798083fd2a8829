"""Guests at a table with real processes in network namespaces, found through real
multicast DNS (issue 21 items 4 and 5, issue 18 item 4): a latecomer is told the game
runs and opens no second table; watchers follow the game from the LAN listing to its end,
one killed and started again; a late arrival takes the seat of a player who left."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import pytest

from tongiaki_lan.net.protocol.tables import FRESH_S

from .helpers import verify_record
from .netns import Lan, needs_netns, play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns()]


def watch_cmd(lan: Lan, i: int, tmp, game: str) -> list[str]:
    return lan.cmd(i, sys.executable, "-m", "tongiaki_lan", "watch", "--game", game, "--json",
                   "--name", f"watcher{i}", "--records", str(tmp / f"w{i}"), "--wait", "5",
                   "--timeout", "300")


def played_for(p: Proc) -> float:
    """How long `p`'s game has run, by when its lines came (0 before its start)."""
    starts = [t for t, e in zip(p.arrived, p.events, strict=True)
              if e.get("event") == "game_start"]
    return p.arrived[-1] - starts[0] if starts else 0.0


def events(p: Proc, kind: str) -> list[dict]:
    return [e for e in p.events if e.get("event") == kind]


async def test_watchers_follow_a_game_from_the_lan_listing_and_a_latecomer_is_told_it_runs(
        tmp_path):
    with Lan(6) as lan:
        # 0.3 s a move: the game outlasts its fresh moment, the latecomer and the watchers
        players = [Proc(play_cmd(lan, i, tmp_path, "kibitz", 3, "--bot-delay", "0.3",
                                 timeout=300), tmp_path) for i in range(3)]
        procs = list(players)
        try:
            for p in players:
                await p.start()
            # a latecomer: it comes once the game is no longer fresh (tables.FRESH_S after
            # its start, the party that filled it has arrived), 6 moves in at least
            await players[0].wait(lambda: players[0].count("move") >= 6
                                  and played_for(players[0]) > FRESH_S, 120)
            # a latecomer asking for the game by name: it runs, no seat is open
            late = Proc(play_cmd(lan, 3, tmp_path, "kibitz", 3), tmp_path)
            procs.append(late)
            await late.start()
            assert await late.finish(60) == 3, late.stderr[-1500:]
            (running,) = events(late, "running")
            assert running.get("moves", 0) >= 6, running and "you may watch" in running["reason"]
            assert not events(late, "joined")  # it opened no table of its own
            listing = subprocess.run(
                lan.cmd(3, sys.executable, "-m", "tongiaki_lan", "games", "--json",
                        "--wait", "2"), capture_output=True, text=True, timeout=60)
            games = [json.loads(line) for line in listing.stdout.splitlines() if line.strip()]
            (game,) = [g for g in games if g["game"] == "kibitz"]  # one table of that name
            assert game["running"] and game["watchable"] and game["open_seats"] == 0
            # three watchers from the listing; one is killed and started again
            watchers = [Proc(watch_cmd(lan, i, tmp_path, "kibitz"), tmp_path)
                        for i in (3, 4, 5)]
            procs += watchers
            for w in watchers:
                await w.start()
            again = watchers[2]
            await again.wait(lambda: again.count("move") >= 10, 60)
            again.kill(signal.SIGKILL)
            await again.finish(10)
            restarted = Proc(watch_cmd(lan, 5, tmp_path, "kibitz"), tmp_path)
            procs.append(restarted)
            await restarted.start()
            codes = [await p.finish(300) for p in (*players, *watchers[:2], restarted)]
        finally:
            await kill_all(procs)
    assert codes == [0] * 6, [(p.events[-3:], p.stderr[-800:]) for p in procs]
    finals = one_verified_game((*players, *watchers[:2], restarted))  # one digest everywhere
    # the players were shown who watched
    seen = {w["name"] for p in players for e in events(p, "watchers") for w in e["watchers"]}
    assert {"watcher3", "watcher4", "watcher5"} <= seen
    # the restarted watcher caught up from the start of the game
    assert restarted.count("move") + restarted.count("reveal") == finals[0]["moves"]


async def _start_then_leave_for_good(players, leaver, moves: int) -> None:
    """Start the table; once `leaver` has seen `moves` moves it says goodbye for good
    (SIGTERM) and exits cleanly, so a bot takes its seat."""
    for p in players:
        await p.start()
    await leaver.wait(lambda: leaver.count("move") >= moves, 120)
    leaver.kill(signal.SIGTERM)
    assert await leaver.finish(30) == 0


async def test_a_late_arrival_takes_the_seat_of_a_player_who_left_and_finishes(tmp_path):
    with Lan(4) as lan:
        # 0.3 s a move: the game must outlast the newcomer's start, discovery and seat
        # taking (at 0.05 s a table of bots once finished first, in CI: about 6 s)
        players = [Proc(play_cmd(lan, i, tmp_path, "swap", 3, "--bot-delay", "0.3",
                                 "--table-bot", "random", timeout=300), tmp_path)
                   for i in range(3)]
        procs = list(players)
        leaver = players[1]
        try:
            await _start_then_leave_for_good(players, leaver, 10)
            await players[0].wait(lambda: players[0].count("handover") >= 1, 30)
            late = Proc(play_cmd(lan, 3, tmp_path, "swap", 3, "--bot-delay", "0.3",
                                 timeout=300), tmp_path)
            procs.append(late)
            await late.start()
            rest = [players[0], players[2], late]
            codes = [await p.finish(300) for p in rest]
        finally:
            await kill_all(procs)
    assert codes == [0, 0, 0], [(p.events[-3:], p.stderr[-1500:]) for p in procs]
    (taken,) = [e for e in events(late, "seat_taken") if e["mine"]]
    assert taken["was"] == "host1" and taken["name"] == "host3"
    for p in (players[0], players[2]):
        (seen,) = events(p, "seat_taken")
        assert seen["name"] == "host3" and not seen["mine"]
    mine = [e for e in events(late, "move") if e["name"] == "host3"]
    assert mine  # a person (here its bot) plays the seat now, not the table's bot
    finals = [p.events[-1] for p in rest]
    assert len({f["digest"] for f in finals}) == 1
    for f in finals:
        assert verify_record(f["record"]).hex() == f["digest"]
    verify_record(events(leaver, "left")[0]["record"])


async def test_a_player_restarted_after_a_newcomer_took_a_seat_finds_the_newcomer(tmp_path):
    """Two players; one leaves for good and a late arrival takes the seat; then the other
    crashes and starts again from its resume data. Everyone it knew from the start is
    gone: only if its resume data names the newcomer can the two meet again (the
    playtest saw the table split in two and the next tile wait for ever)."""
    with Lan(3) as lan:
        # 0.4 s a move: the game must outlast the newcomer's start, discovery and seat
        # taking (at 0.15 s the table's bot once finished the game first, in CI)
        players = [Proc(play_cmd(lan, i, tmp_path, "cove", 2, "--bot-delay", "0.4",
                                 "--table-bot", "random", timeout=300), tmp_path)
                   for i in range(2)]
        procs = list(players)
        stayer, leaver = players
        try:
            await _start_then_leave_for_good(players, leaver, 8)
            # the seat is open once the table's bot has it: a newcomer found before that
            # is told the game runs with no seat for it, and leaves (CI saw it once)
            await stayer.wait(lambda: stayer.count("handover") >= 1, 30)
            late = Proc(play_cmd(lan, 2, tmp_path, "cove", 2, "--bot-delay", "0.4",
                                 timeout=300), tmp_path)
            procs.append(late)
            await late.start()
            await stayer.wait(lambda: len(events(stayer, "seat_taken")) >= 1, 60)
            stayer.kill(signal.SIGKILL)
            await stayer.finish(20)
            again = Proc(stayer.argv, tmp_path)
            procs.append(again)
            await again.start()
            codes = [await p.finish(300) for p in (late, again)]
        finally:
            await kill_all(procs)
    assert codes == [0, 0], [(p.events[-3:], p.stderr[-1500:]) for p in procs]
    assert next(e for e in again.events if e["event"] == "game_start")["resumed"] is True
    finals = [late.events[-1], again.events[-1]]
    assert {f["event"] for f in finals} == {"game_over"}
    assert len({f["digest"] for f in finals}) == 1
    for f in finals:
        assert verify_record(f["record"]).hex() == f["digest"]


async def test_a_watcher_stopped_past_its_feeders_patience_follows_the_game_to_its_end(
        tmp_path):
    """The playtest with real processes: a headless watcher is stopped (SIGSTOP, a closed
    lid) until its feeder has dropped it, then resumed. Its feeder is the only player
    left (the other left for good), so the watcher's only way back is to ask that one
    afresh; before, it asked on its old link, unheard, to the end of the game."""
    with Lan(3) as lan:
        # 1 s a move: the game outlasts the watcher's start, its 10 s stop, its way back
        players = [Proc(play_cmd(lan, i, tmp_path, "lid", 2, "--bot-delay", "1.0",
                                 "--table-bot", "random", timeout=300), tmp_path)
                   for i in range(2)]
        procs = list(players)
        stayer, leaver = players
        try:
            await _start_then_leave_for_good(players, leaver, 6)
            await stayer.wait(lambda: stayer.count("handover") >= 1, 30)
            eve = Proc(watch_cmd(lan, 2, tmp_path, "lid"), tmp_path)
            procs.append(eve)
            await eve.start()
            await eve.wait(lambda: eve.count("move") >= 10, 60)

            def watched() -> list[str]:  # who the stayer last said watches
                told = events(stayer, "watchers")
                return [w["name"] for w in told[-1]["watchers"]] if told else []
            await stayer.wait(lambda: "watcher2" in watched(), 30)
            eve.kill(signal.SIGSTOP)
            await stayer.wait(lambda: "watcher2" not in watched(), 60)  # dropped: quiet
            eve.kill(signal.SIGCONT)
            await stayer.wait(lambda: "watcher2" in watched(), 30)  # back
            codes = [await p.finish(300) for p in (stayer, eve)]
        finally:
            await kill_all(procs)
    assert codes == [0, 0], [(p.events[-3:], p.stderr[-1500:]) for p in procs]
    one_verified_game((stayer, eve))
    assert events(eve, "woke") and events(eve, "answered")


async def test_a_watcher_started_before_the_first_player_follows_the_game_to_its_end(
        tmp_path):
    """Issue 45 item 4: `watch --game NAME` started before anyone plays waits for the table
    (up to its --timeout, as `play` does), follows its lobby, and every move to the end,
    with the players' digest. Four players start at once, so the table forms as tables of
    one name do: twins opened at the same moment merge, and the watcher follows the one
    that stays."""
    with Lan(5) as lan:
        eve = Proc(lan.cmd(4, sys.executable, "-m", "tongiaki_lan", "watch", "--game", "dawn",
                           "--json", "--name", "eve", "--records", str(tmp_path / "w"),
                           "--timeout", "300"), tmp_path)
        procs = [eve]
        try:
            await eve.start()
            await eve.wait(lambda: eve.count("waiting") >= 1, 60)  # looking, not gone
            players = [Proc(play_cmd(lan, i, tmp_path, "dawn", 4, "--bot-delay", "0.02",
                                     timeout=300), tmp_path) for i in range(4)]
            procs += players
            for p in players:
                await p.start()
            codes = [await p.finish(300) for p in (*players, eve)]
        finally:
            await kill_all(procs)
    assert codes == [0] * 5, [(p.events[-3:], p.stderr[-1500:]) for p in procs]
    finals = one_verified_game((*players, eve))
    assert events(eve, "lobby")  # it followed the table from its lobby on
    assert eve.count("move") + eve.count("reveal") == finals[0]["moves"]
    assert not events(eve, "watch_cut")

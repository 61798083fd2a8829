"""Several hosts: `tongiaki-lan play --headless` in separate network namespaces on one
bridge, finding each other with real zeroconf multicast, over real (and lossy) links."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest

from .helpers import verify_record
from .netns import Lan, handover_table_cmds, iptables_unavailable, netns_unavailable, play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _need_netns():
    why = netns_unavailable()
    if why:
        pytest.skip(why)



async def _full_game(tmp_path: Path, hosts: int, loss: float) -> list[dict]:
    with Lan(hosts, loss=loss) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "reef", hosts), tmp_path) for i in range(hosts)]
        try:
            for p in procs:  # all within the same second: duplicate creations must settle
                await p.start()
            codes = [await p.finish(180) for p in procs]
            assert codes == [0] * hosts, [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        finals = one_verified_game(procs)
        starts = [next(e for e in p.events if e["event"] == "game_start") for p in procs]
        assert len({s["seed"] for s in starts}) == 1
        assert len(starts[0]["seats"]) == hosts
        return finals


async def test_four_hosts_find_each_other_and_play_a_whole_game(tmp_path):
    await _full_game(tmp_path, 4, 0.0)


async def test_six_hosts_with_twenty_percent_udp_loss_end_with_one_digest(tmp_path):
    why = iptables_unavailable()
    if why:
        pytest.skip(why)
    await _full_game(tmp_path, 6, 0.2)


async def test_node_killed_mid_game_restarts_rejoins_and_the_game_completes(tmp_path):
    """In a passphrase game, so the restarted node must authenticate to rejoin."""
    with Lan(4) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "atoll", 4, "--passphrase", "kava"), tmp_path)
                 for i in range(4)]
        try:
            for p in procs:
                await p.start()
            victim = procs[2]
            await victim.wait(lambda: victim.count("move") >= 20, 120)
            victim.kill(signal.SIGKILL)
            await victim.finish(20)
            moves_before = victim.count("move")
            again = Proc(victim.argv, tmp_path)
            await again.start()
            codes = [await p.finish(180) for p in (procs[0], procs[1], procs[3], again)]
            assert codes == [0] * 4, [p.stderr[-1500:] for p in (*procs, again)]
        finally:
            await kill_all([*procs, again] if "again" in locals() else procs)
        node_line = again.events[0]
        assert node_line["event"] == "node" and node_line["resume"] is True
        resumed = next(e for e in again.events if e["event"] == "game_start")
        assert resumed["resumed"] is True and resumed["moves"] >= moves_before - 1
        finals = [p.events[-1] for p in (procs[0], procs[1], procs[3], again)]
        assert len({f["digest"] for f in finals}) == 1
        assert verify_record(finals[3]["record"]).hex() == finals[3]["digest"]


async def test_games_lists_an_advertised_game_within_its_one_second_wait(tmp_path):
    with Lan(2) as lan:
        host = Proc(play_cmd(lan, 0, tmp_path, "lagoon", 3, "--wait", "0"), tmp_path)
        try:
            await host.start()
            await host.wait(lambda: host.count("advertised") >= 1, 60)
            lister = Proc(lan.cmd(1, sys.executable, "-m", "tongiaki_lan", "games", "--json",
                                  "--wait", "1"), tmp_path)
            await lister.start()
            assert await lister.finish(30) == 0
            games = [g for g in lister.events if g.get("game") == "lagoon"]
            assert len(games) == 1, lister.events
            g = games[0]
            assert (g["phase"], g["seats_taken"], g["seats_total"], g["passphrase"]) == (
                "lobby", 1, 3, False)
            assert g["peers"][0]["host"] == lan.ips[0]
            print(f"\ngame listed {g['seen_after_s']} s after `games` started")
        finally:
            await kill_all([host])


async def test_a_quitting_node_vanishes_at_once_and_a_crashed_one_when_its_ttl_runs_out(
        tmp_path):
    with Lan(3) as lan:
        crasher = Proc(play_cmd(lan, 0, tmp_path, "shoal", 3, "--wait", "0"), tmp_path)
        quitter = Proc(play_cmd(lan, 2, tmp_path, "cove", 3, "--wait", "0"), tmp_path)
        watcher = Proc(lan.cmd(1, sys.executable, "-m", "tongiaki_lan", "games", "--watch",
                               "--json", "--wait", "120"), tmp_path)
        procs = [crasher, quitter, watcher]

        def listed() -> set[str]:
            return {g["game"] for g in watcher.events[-1]["games"]} if watcher.events else set()

        try:
            for p in (crasher, quitter):
                await p.start()
                await p.wait(lambda p=p: p.count("advertised") >= 1, 60)
            await watcher.start()
            await watcher.wait(lambda: listed() == {"shoal", "cove"}, 30)
            quitter.kill(signal.SIGTERM)  # a clean quit sends mDNS goodbyes
            await watcher.wait(lambda: listed() == {"shoal"}, 10)
            t_quit = watcher.events[-1]["at"]
            crasher.kill(signal.SIGKILL)  # no goodbye: the advert must expire
            await watcher.wait(lambda: listed() == set(), 60)
            print(f"\ncrashed node's game gone {watcher.events[-1]['at'] - t_quit:.1f} s "
                  f"after the quit was seen")
        finally:
            await kill_all(procs)


async def _power_cuts(tmp_path: Path, hosts: int, rounds: list[list[int]]) -> None:
    """Every round kills the listed hosts at the same moment and restarts them with the
    same command; the game must still finish with one digest, every record verifying."""
    with Lan(hosts) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "storm", hosts, "--bot-delay", "0.03"),
                      tmp_path) for i in range(hosts)]
        everyone = list(procs)
        try:
            for p in procs:
                await p.start()
            for k, victims in enumerate(rounds):
                watch = procs[victims[0]]
                await watch.wait(lambda w=watch, k=k: w.count("move") >= 15 * (k + 1), 120)
                for i in victims:
                    procs[i].kill(signal.SIGKILL)
                for i in victims:
                    await procs[i].finish(20)
                for i in victims:
                    procs[i] = Proc(procs[i].argv, tmp_path)
                    everyone.append(procs[i])
                    await procs[i].start()
                for i in victims:
                    await procs[i].wait(lambda p=procs[i]: p.count("game_start") >= 1, 30)
            codes = [await p.finish(180) for p in procs]
            assert codes == [0] * hosts, [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(everyone)
        one_verified_game(procs)
        for i in {i for r in rounds for i in r}:
            assert procs[i].events[0]["resume"] is True


async def test_both_nodes_of_a_two_player_game_killed_at_once_restart_and_finish(tmp_path):
    await _power_cuts(tmp_path, 2, [[0, 1]])


async def test_every_node_of_a_four_player_game_killed_once_two_at_once_finishes(tmp_path):
    await _power_cuts(tmp_path, 4, [[0, 1], [2], [3]])


async def test_a_seat_whose_node_is_gone_for_good_goes_to_a_bot_and_the_game_finishes(
        tmp_path):
    with Lan(3) as lan:
        procs = [Proc(cmd, tmp_path)
                 for cmd in handover_table_cmds(lan, tmp_path, "drift", "0.01")]
        try:
            for p in procs:
                await p.start()
            gone = procs[1]
            await gone.wait(lambda: gone.count("move") >= 10, 120)
            gone.kill(signal.SIGKILL)
            codes = [await p.finish(180) for p in (procs[0], procs[2])]
            assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        finals = [procs[i].events[-1] for i in (0, 2)]
        assert len({f["digest"] for f in finals}) == 1
        for i in (0, 2):
            handovers = [e for e in procs[i].events if e["event"] == "handover"]
            assert [h["name"] for h in handovers] == ["host1"]
        drivers = {e["driver"] for i in (0, 2) for e in procs[i].events if e["event"] == "handover"}
        assert len(drivers) == 1

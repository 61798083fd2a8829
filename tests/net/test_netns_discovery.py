"""Discovery on a lossy LAN, in network namespaces with iptables dropping 40 % of the UDP
datagrams each host receives (mDNS questions and answers included): a game advertised on
one host is listed by `games` on another, and players who open the same-named table at the
same moment end up at one table, having been shown no other."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .netns import Lan, needs_netns_and_iptables
from .netns import play_cmd as _play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns_and_iptables()]

LOSS = 0.4


def play_cmd(*args, **kw):
    return _play_cmd(*args, timeout=240, **kw)



async def test_games_finds_the_game_every_time_at_forty_percent_loss(tmp_path):
    with Lan(2, loss=LOSS) as lan:
        host = Proc(play_cmd(lan, 0, tmp_path, "lagoon", 3, "--wait", "0"), tmp_path)
        try:
            await host.start()
            await host.wait(lambda: host.count("advertised") >= 1, 60)
            seen = []
            for _ in range(5):
                lister = Proc(lan.cmd(1, sys.executable, "-m", "tongiaki_lan", "games",
                                      "--json", "--wait", "1"), tmp_path)
                await lister.start()
                assert await lister.finish(60) == 0
                games = [g for g in lister.events if g.get("game") == "lagoon"]
                assert len(games) == 1, lister.events
                assert games[0]["peers"][0]["host"] == lan.ips[0]
                seen.append(games[0]["seen_after_s"])
            print(f"\ngame listed after {seen} s")
        finally:
            await kill_all([host])


async def test_tables_opened_at_the_same_moment_merge_before_a_seat_is_shown(tmp_path):
    """Three players start `play --game shoal` at once: each hears of no game within its
    wait and opens a table. The tables must merge into one, every player is shown that
    table only (no `joined`/`lobby` line of a table it then left), and the game is played
    to the end."""
    hosts = 3
    with Lan(hosts, loss=LOSS) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "shoal", hosts, "--wait", "0.5"), tmp_path)
                 for i in range(hosts)]
        try:
            for p in procs:
                await p.start()
            codes = [await p.finish(300) for p in procs]
            assert codes == [0] * hosts, [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        one_verified_game(procs)
        shown = set()
        for p in procs:
            tables = {e["game_id"] for e in p.events if e["event"] == "joined"}
            tables |= {e["game_id"] for e in p.events if e["event"] == "lobby"}
            assert len(tables) == 1, [e for e in p.events if e["event"] in ("joined", "lobby")]
            shown |= tables
            # the table is shown before the game starts
            kinds = [e["event"] for e in p.events]
            assert kinds.index("joined") < kinds.index("game_start")
        assert len(shown) == 1
        created = [p for p in procs if any(e["event"] == "joined" and e["created"]
                                           for e in p.events)]
        assert len(created) == 1
        print(f"\n{sum(p.count('advertised') for p in procs)} adverts published; one table")


async def test_discovery_limited_to_loopback_finds_the_game_and_sends_nothing_out(tmp_path):
    """`--interface 127.0.0.1` (with `--host 127.0.0.1`): two players on one host find each
    other by multicast DNS on the loopback interface and play; not one datagram leaves by
    the host's network interface (an iptables counter on its way out)."""
    with Lan(1) as lan:
        ns = lan.names[0]
        subprocess.run(["ip", "netns", "exec", ns, "iptables", "-A", "OUTPUT", "-o", "eth0",
                        "-j", "ACCEPT"], check=True, capture_output=True, timeout=20)
        procs = [Proc(lan.cmd(0, sys.executable, "-m", "tongiaki_lan", "play", "--headless",
                              "--name", f"lo{i}", "--game", "loop", "--players", "2",
                              "--record", str(tmp_path / f"lo{i}.tgrec"), "--timeout", "120",
                              "--interface", "127.0.0.1", "--host", "127.0.0.1",
                              "--quiet-refusals"), tmp_path) for i in range(2)]
        try:
            for p in procs:
                await p.start()
            codes = [await p.finish(150) for p in procs]
            assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        finals = [p.events[-1] for p in procs]
        assert [f["event"] for f in finals] == ["game_over"] * 2
        assert len({f["digest"] for f in finals}) == 1
        counters = subprocess.run(["ip", "netns", "exec", ns, "iptables", "-L", "OUTPUT", "-v",
                                   "-x", "-n"], capture_output=True, text=True, timeout=20).stdout
        rule = next(line.split() for line in counters.splitlines() if "eth0" in line)
        assert rule[0] == "0", counters  # packets out through eth0

"""One-way faults on a real LAN (network namespaces, real zeroconf and UDP).

The table's creator stops hearing one laptop (iptables drops what that laptop sends it;
everything else flows) in the middle of a game. The others pass on that laptop's draw
values, so the three play one game to its end, and the unheard player keeps their seat;
before, the creator left it out of a draw the others had dealt with its value, and every
laptop stopped with "the game forked".

A laptop hears nobody (everything that comes in is dropped) but is heard: its heartbeats
say it does not follow the game, so it is away, its seat goes to a bot, and the others
finish; before, they waited for it for as long as the fault lasted."""

from __future__ import annotations

import pytest

from .netns import Lan, handover_table_cmds, needs_netns_and_iptables
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns_and_iptables()]


async def test_the_creator_deaf_to_one_laptop_still_plays_one_game_with_it(tmp_path):
    with Lan(3) as lan:
        procs = [Proc(cmd, tmp_path)
                 for cmd in handover_table_cmds(lan, tmp_path, "oneway", "0.05")]
        try:
            creator = procs[0]
            await creator.start()  # first, so it creates the table and coordinates it
            await creator.wait(lambda: creator.count("advertised") >= 1, 60)
            for p in procs[1:]:
                await p.start()
            await creator.wait(lambda: creator.count("move") >= 10, 120)
            lan.iptables(0, "-A", "INPUT", "-s", lan.ips[2], "-p", "udp", "-j", "DROP")
            codes = [await p.finish(240) for p in procs]
            assert codes == [0, 0, 0], [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        one_verified_game(procs)
        # the creator did not give the unheard player's seat to a bot: their moves and
        # draw values reached it through the third laptop
        assert not [e for p in procs for e in p.events if e["event"] == "handover"]


async def test_a_laptop_whose_firewall_blocks_everything_inbound_does_not_stall_the_table(
        tmp_path):
    with Lan(3) as lan:
        procs = [Proc(cmd, tmp_path)
                 for cmd in handover_table_cmds(lan, tmp_path, "deaf", "0.05")]
        try:
            for p in procs:
                await p.start()
            deaf = procs[2]
            await deaf.wait(lambda: deaf.count("move") >= 10, 120)
            lan.iptables(2, "-A", "INPUT", "-p", "udp", "-j", "DROP")
            codes = [await p.finish(240) for p in procs[:2]]
            assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        finals = [p.events[-1] for p in procs[:2]]
        assert all(f["event"] == "game_over" for f in finals), finals
        assert len({f["digest"] for f in finals}) == 1
        for p in procs[:2]:
            assert [e["name"] for e in p.events if e["event"] == "handover"] == ["host2"], " ".join(
                f'{e["event"]}:{e.get("name")}' for e in p.events
                if e["event"] not in ("move", "tile", "your_turn", "draw", "lobby"))


async def test_a_laptop_whose_firewall_blocks_everything_outbound_yields_to_the_table(
        tmp_path):
    """Everything a laptop sends is dropped for a while (it hears the table, nobody hears
    it): the table gives its seat to a bot and plays on. It says it is unheard, and once
    heard again it takes back what it played alone: one game, on every laptop. Before,
    every laptop stopped with "the game forked"."""
    with Lan(3) as lan:
        procs = [Proc(cmd, tmp_path)
                 for cmd in handover_table_cmds(lan, tmp_path, "mute", "0.05")]
        try:
            for p in procs:
                await p.start()
            host, mute = procs[0], procs[2]
            await mute.wait(lambda: mute.count("move") >= 10, 120)
            rule = ("OUTPUT", "-p", "udp", "-j", "DROP")
            lan.iptables(2, "-A", *rule)
            await host.wait(lambda: host.count("handover") >= 1, 120)
            n = host.count("move")
            await host.wait(lambda: host.count("move") >= n + 10 or host.count("game_over"),
                            120)
            lan.iptables(2, "-D", *rule)
            codes = [await p.finish(240) for p in procs]
            assert codes == [0, 0, 0], [p.stderr[-1500:] for p in procs]
        finally:
            await kill_all(procs)
        one_verified_game(procs)
        said = [e["unheard"] for e in mute.events if e["event"] == "unheard"]
        assert said == [True, False], said

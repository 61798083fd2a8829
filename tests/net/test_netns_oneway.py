"""A one-way fault on a real LAN (network namespaces, real zeroconf and UDP): the table's
creator stops hearing one laptop (iptables drops what that laptop sends it; everything
else flows) in the middle of a game. The others pass on that laptop's draw values, so the
three play one game to its end, and the unheard player keeps their seat; before, the
creator left it out of a draw the others had dealt with its value, and every laptop
stopped with "the game forked"."""

from __future__ import annotations

import pytest

from .helpers import verify_record
from .netns import Lan, needs_netns_and_iptables, play_cmd
from .procs import Proc, kill_all

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns_and_iptables()]


async def test_the_creator_deaf_to_one_laptop_still_plays_one_game_with_it(tmp_path):
    with Lan(3) as lan:
        procs = [Proc(play_cmd(lan, i, tmp_path, "oneway", 3, "--handover", "5",
                               "--bot-delay", "0.05", "--table-bot", "random"), tmp_path)
                 for i in range(3)]
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
        finals = [p.events[-1] for p in procs]
        assert all(f["event"] == "game_over" for f in finals), finals
        assert len({f["digest"] for f in finals}) == 1
        for f in finals:
            assert verify_record(f["record"]).hex() == f["digest"]
        # the creator did not give the unheard player's seat to a bot: their moves and
        # draw values reached it through the third laptop
        assert not [e for p in procs for e in p.events if e["event"] == "handover"]

"""A crowded party (issue 18): 30 laptops at 10 open tables on one network, and a fresh
`games --json` on another laptop lists every table within its default second, three runs
out of three. The 30 laptops are 30 zeroconf instances (each advertising and browsing as a
node at an open table does) in 5 processes, so that the test fits a small CI machine; the
same with one `play` process per laptop, and the mDNS packets per laptop, are measured by
`python -m tests.net.crowd` (docs/network.md, "Crowded networks")."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.lab.crowd import table_name

from .crowd import list_games, party
from .netns import Lan, needs_netns_and_iptables
from .procs import kill_all

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns_and_iptables()]

LAPTOPS, TABLES, PROCESSES = 30, 10, 5


async def test_a_fresh_games_lists_all_ten_tables_of_thirty_laptops_in_its_second(tmp_path):
    with Lan(PROCESSES + 1) as lan:
        procs = await party(lan, tmp_path, LAPTOPS, TABLES, PROCESSES)
        try:
            listed = []
            for _ in range(3):
                games = await list_games(lan, PROCESSES, tmp_path, wait=1.0)
                listed.append(sorted(g["game"] for g in games))
                assert all(g["phase"] == "lobby" and len(g["peers"]) >= 1 for g in games)
        finally:
            await kill_all(procs)
    assert listed == [[table_name(t) for t in range(TABLES)]] * 3

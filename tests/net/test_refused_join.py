"""A join refused (the table is full) is acknowledged before the laptop goes elsewhere
(issue 45): at a party of ten, every laptop turned away from a full table went on to
"NAME (2)" at once, forgetting its links with the acknowledgement still due, and the
table's coordinator sent its REFUSE again 17 times, each one refused there as "datagram
for another game" (a line each in `play --headless`'s output). Real nodes on 127.0.0.1."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
from tongiaki_lan.net.lab.loopback import close_all


async def test_a_laptop_turned_away_from_a_full_table_acknowledges_it_and_hears_no_more(
        tmp_path):
    host, ben, late = (Node(name, host="127.0.0.1", record_dir=tmp_path / name)
                       for name in ("Ana", "Ben", "Cy"))
    table = [host, ben]
    for node in (*table, late):
        await node.start()
    try:
        await host.create_game("Lagon", 2)
        ref = GameRef(host.game_id, host.peer_id, "127.0.0.1", host.address[1])
        await ben.join_game(ref)  # full, in the lobby (nobody ready yet)
        with pytest.raises(JoinRefused, match="full"):
            await late.join_game(ref, timeout=5)
        await late.create_game("Lagon (2)", 2)  # on to the next table, at once
        # the coordinator has its REFUSE acknowledged: nothing left to resend to Cy, and
        # its link to Cy kept (one it resent in vain is given up, and forgotten)
        assert await host.wait_for(host.transport.idle, 10.0, raise_on_timeout=False)
        assert late.peer_id in host.transport.links
    finally:
        await close_all([*table, late])


async def test_a_join_answered_too_late_leaves_no_seat_behind_at_the_table(tmp_path):
    """Real nodes on 127.0.0.1: a table's answers to Ben are lost while he waits (a starved
    laptop at a party answers after the joiner's few seconds), so he gives up and opens a
    table of his own. The table had seated him: its seat comes free again, and Cy sits
    down. Before, it stayed Ben's, full and never started, for the whole evening."""
    from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket

    rule = FaultRule()
    host = Node("Ana", host="127.0.0.1", record_dir=tmp_path / "Ana",
                wrap_socket=lambda s: FaultySocket(s, rule))
    ben, cy = (Node(name, host="127.0.0.1", record_dir=tmp_path / name)
               for name in ("Ben", "Cy"))
    nodes = [host, ben, cy]
    for node in nodes:
        await node.start()
    try:
        await host.create_game("Lagon", 2)
        host.set_ready(True)
        ref = GameRef(host.game_id, host.peer_id, "127.0.0.1", host.address[1])
        rule.cut.add(tuple(ben.address[:2]))
        with pytest.raises(JoinRefused, match="no answer"):
            await ben.join_game(ref, timeout=1.5)
        await ben.create_game("Lagon (2)", 2)  # on to a table of his own
        assert [s.name for s in host.lobby.seats] == ["Ana", "Ben"]  # (he did reach her)
        rule.cut.clear()
        assert await host.wait_for(lambda: len(host.lobby.seats) == 1, 30,
                                   raise_on_timeout=False), host.lobby.seats
        await cy.join_game(ref, timeout=5)
        cy.set_ready(True)
        assert await host.wait_for(lambda: host.game is not None, 30, raise_on_timeout=False)
    finally:
        await close_all(nodes)

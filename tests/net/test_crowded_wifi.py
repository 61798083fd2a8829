"""A crowded Wi-Fi that loses a fifth of the datagrams, on the simulated LAN.

While a player thinks, nobody sends moves: the table hears its members by heartbeats
alone. With a heartbeat every 0.5 s and away after 3 s, six lost in a row made screens
say "Cy is away" then "Cy is back" about once every two minutes of such a table (15 flips
in six idle 5-minute tables); a player reads that as Cy's laptop failing.
"""

from __future__ import annotations

import pytest

from tongiaki_lan.net.lab.simnet import SimNet


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_idle_table_on_a_lossy_wifi_shows_nobody_away_until_one_really_goes(seed):
    net = SimNet(seed=seed, loss=0.2)
    nodes = net.table(4, autoplay=None)  # nobody moves: the first player is thinking
    net.run_for(300)
    # (after two minutes the thinker counts as away, said as such: `_idle`; nobody else)
    flips = [(nd.addr, e.name) for nd in nodes for e in nd.kinds("away") if not e.idle]
    assert flips == []
    thinker = nodes[0].game.pending.seat
    assert {e.peer for nd in nodes for e in nd.kinds("away")} <= {
        nodes[0].core.lobby.seats[thinker].owner.hex()}
    assert all(len(nd.game.moves) == 0 for nd in nodes)
    # the same table still tells a laptop that really went silent
    gone = nodes[2]
    net.blocked.add(gone.addr)
    net.run_for(30)
    for nd in (nodes[0], nodes[1], nodes[3]):
        assert [e.peer for e in nd.kinds("away") if not e.idle] == [gone.core.peer_id.hex()]

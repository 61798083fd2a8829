"""A link that loses everything one way only, on the simulated LAN (virtual clock, no
sockets): a laptop whose firewall or Wi-Fi drops what one other laptop sends it, while
the rest of the table hears both. The others pass on what it cannot hear, so the table
plays one game to its end; before, the node that could not hear a player left that
player out of a draw the others had dealt with its value, and the table forked."""

from __future__ import annotations

import pytest

from tests.net.test_core_sim import one_digest
from tests.net.test_farewell_sim import verify_record
from tongiaki_lan.net.lab.simnet import SimNet


@pytest.mark.parametrize(("deaf", "mute", "seed"), [
    (0, 2, 5),  # the coordinator (the table's creator) cannot hear a player
    (0, 2, 6),
    (2, 0, 5),  # a player cannot hear the coordinator
    (1, 2, 7),  # one player cannot hear another
])
def test_a_one_way_fault_between_two_laptops_does_not_fork_the_game(deaf, mute, seed):
    net = SimNet(seed=seed)
    nodes = net.table(3, handover_after=5.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 20, 120)
    cut = (nodes[mute].addr, nodes[deaf].addr)
    net.lose = lambda data, src, dest: (src, dest) == cut
    net.play_to_end(nodes, 600)
    one_digest(nodes)  # one game, over, on every laptop, and nobody stopped
    for nd in nodes:
        assert not nd.kinds("mismatch")
        verify_record(nd)

"""A laptop back at the very moment the table draws without it (simulated LAN, virtual
clock). The coordinator leaves the cut-off laptop's value out of a draw and deals the
tile; the laptop, heard again, sends its value to a third laptop before the coordinator's
lobby reaches it, and that laptop deals the same draw with the value: two tiles for one
draw. Before, the third laptop refused the lobby ("it drops p1 from draw 1, which this
node dealt with that node's value"), the coordinator saw the third laptop's state differ,
and both stopped with "the game forked": a 3-player loopback table stalled so about once
in fifteen runs. The table's word must go: the third laptop takes its tile back and
everyone finishes the same game."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.lab.simnet import SimNet


def _race(seed: int, late: float = 2.0):
    net = SimNet(seed=seed, think=0.2)
    table = net.table(3)
    host, quiet, third = table
    host.core.handover_after = 1.0  # (a headless coordinator: `play --handover 1`)
    net.run_until(lambda: len(host.game.moves) > 8)
    dropped_at: list[float] = []

    def lose(data, src, dest) -> bool:
        if not dropped_at and host.core.lobby.dropped:
            dropped_at.append(net.now)
        if not dropped_at:  # the quiet laptop is cut off both ways
            return quiet.addr in (src, dest)
        # from the drop on it is heard again, and the host's word reaches the third late
        return src == host.addr and dest == third.addr and net.now - dropped_at[0] < late

    net.lose = lose
    net.run_until(lambda: bool(dropped_at), 300)
    net.run_for(late + 1)
    net.lose = None
    net.play_to_end(table, 600)
    return table


# (seeds whose timing makes the race happen: the first assertion checks it did; with
# 2026-11-28's liveness timings seed 1 no longer raced and 8 took its place; with protocol
# version 10's answers to datagrams that prove nothing, 5 and 8 no longer raced and 2 and
# 3 took their places)
@pytest.mark.parametrize("seed", [0, 2, 3, 4])
def test_a_value_that_crosses_the_tables_drop_is_taken_back_not_a_fork(seed):
    table = _race(seed)
    host, quiet, third = table
    # the race happened: the third laptop dealt with the late value, then took it back
    assert third.kinds("rewound"), [e.kind for e in third.events]
    assert all(nd.core.stopped is None for nd in table), [nd.core.stopped for nd in table]
    assert all(nd.game.is_over for nd in table)
    assert len({nd.game.digest() for nd in table}) == 1
    assert len({len(nd.record) for nd in table}) == 1  # the records were cut to match

"""A seat given to a laptop that gave up on its join is given back (issue 45, the party of
ten): a starved table answered a JOIN after the joiner's few seconds had run out; the
joiner went elsewhere, and the table kept its seat, full, never started, until its
player's timeout — four laptops of ten ended without a game. Simulated LAN, virtual clock.
"""

from __future__ import annotations

from tongiaki_lan.net.lab.simnet import SimNet
from tongiaki_lan.net.protocol.settings import SEAT_CONFIRM_S


def _seats(node) -> list[str]:
    return [s.name for s in node.core.lobby.seats]


def _late_answer(net: SimNet, table, joiner, seconds: float = 3.0) -> None:
    """`joiner` asks `table` for a seat; nothing of the table reaches it for `seconds`,
    and then it gives up, as `join_or_create` does after JOIN_TIMEOUT_S."""
    net.lose = lambda data, src, dest: src == table.addr and dest == joiner.addr
    net.act(joiner, joiner.core.begin_join, table.core.game_id, table.core.peer_id,
            table.addr, None, "")
    net.run_for(seconds)
    assert not joiner.core.seated()
    joiner.core.abandon()
    net.lose = None


def test_a_seat_whose_laptop_gave_up_on_its_join_is_free_again_and_the_next_one_plays():
    net = SimNet(1)
    ana, ben, cy = (net.add(name, f"10.0.0.{i + 1}", autoplay="random")
                    for i, name in enumerate(("Ana", "Ben", "Cy")))
    net.act(ana, ana.core.create_game, "party", 2, None, "")
    net.act(ana, ana.core.set_ready, True)
    _late_answer(net, ana, ben)
    assert _seats(ana) == ["Ana", "Ben"]  # her table is full: Ben's join reached her
    net.run_for(SEAT_CONFIRM_S)
    assert _seats(ana) == ["Ana"]  # ... and his seat is hers to give again
    left = [e for e in ana.kinds("away") if e.peer == ben.core.peer_id.hex()]
    assert left and left[-1].left and left[-1].unconfirmed  # (her screen says why)
    net.act(cy, cy.core.begin_join, ana.core.game_id, ana.core.peer_id, ana.addr, None, "")
    net.run_until(cy.core.seated, 10)
    net.act(cy, cy.core.set_ready, True)
    net.play_to_end([ana, cy])
    assert ana.game.digest() == cy.game.digest()


def test_a_seat_whose_laptop_holds_the_lobby_stays_however_long_the_table_waits():
    """Across a lossy Wi-Fi too: a seated laptop acknowledges the lobby that seated it,
    so only one that forgot the table loses its seat."""
    net = SimNet(7, loss=0.4)
    ana, ben = (net.add(name, f"10.0.0.{i + 1}", autoplay="random")
                for i, name in enumerate(("Ana", "Ben")))
    net.act(ana, ana.core.create_game, "party", 3, None, "")
    net.act(ben, ben.core.begin_join, ana.core.game_id, ana.core.peer_id, ana.addr, None, "")
    net.run_until(ben.core.seated, 30)
    net.run_for(10 * SEAT_CONFIRM_S)  # (a third player is slow to come)
    assert _seats(ana) == _seats(ben) == ["Ana", "Ben"]
    assert not [e for e in ana.kinds("away") if e.left]

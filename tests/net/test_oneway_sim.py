"""A link that loses everything one way only, on the simulated LAN (virtual clock, no
sockets): a laptop whose firewall or Wi-Fi drops what one other laptop sends it, while
the rest of the table hears both. The others pass on what it cannot hear, so the table
plays one game to its end, and nobody's seat goes to a bot; before, the node that could
not hear a player left that player out of a draw the others had dealt with its value, and
the table forked."""

from __future__ import annotations

import pytest

from tests.net.test_core_sim import one_digest
from tests.net.test_farewell_sim import verify_record
from tongiaki_lan.net.lab.simnet import SimNet


@pytest.mark.parametrize(("deaf", "mute", "seed"), [
    (0, 2, 5),  # the coordinator (the table's creator) cannot hear a player
    (0, 2, 6),
    (0, 1, 5),  # the same, and the player it cannot hear is next in line to coordinate
    (0, 1, 8),
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
        # nobody's seat went to a bot: the unheard player's moves and draw values reached
        # the deaf laptop through the third, so to it they were playing, not away
        assert not nd.kinds("handover")
        verify_record(nd)
    # while the unheard player played on, the deaf laptop did not tell its player that the
    # game waits for them to come back, bar the first few seconds before any of their
    # moves or draw values came through
    assert len(nodes[deaf].kinds("waiting")) <= 1


def test_replace_refuses_the_seat_of_a_player_heard_only_through_the_others():
    net = SimNet(seed=5)
    nodes = net.table(3)
    net.run_until(lambda: len(nodes[0].game.moves) > 20, 120)
    deaf, mute = nodes[0], nodes[2]
    net.lose = lambda data, src, dest: (src, dest) == (mute.addr, deaf.addr)
    net.run_until(lambda: deaf.core.presence.is_absent(mute.core.peer_id), 30)
    net.run_for(5.0)
    assert not deaf.game.is_over
    with pytest.raises(ValueError, match="p2 still plays: their moves and draws reach this "
                                         "laptop through the others"):
        net.act(deaf, deaf.core.replace, "p2")
    # once nothing of theirs comes through for the handover time (their laptop is gone),
    # they are away as anyone else: the seat goes to a bot
    net.kill(mute)
    net.run_for(30.0)
    with pytest.raises(ValueError, match="p2 still plays"):
        net.act(deaf, deaf.core.replace, "p2")
    net.run_for(31.0)
    net.act(deaf, deaf.core.replace, "p2")
    net.run_until(lambda: deaf.kinds("handover"), 10)


def test_a_laptop_that_hears_nobody_does_not_hold_the_table_up_for_ever():
    """Everything sent to one laptop is lost (a firewall that lets it send but blocks what
    comes in): its heartbeats still arrive, so it looked present, and the table waited for
    it for ever, with no word on any screen. Its heartbeats say it is stuck moves behind
    the table, so now it is away: its seat goes to a bot and the game ends. (A seed where
    the table needs its decision before a draw needs its value: in the other order it is
    left out of that draw while still here, and its seat goes to a bot for that.)"""
    net = SimNet(seed=2)
    nodes = net.table(3, handover_after=5.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 20, 120)
    deaf = nodes[2]
    net.lose = lambda data, src, dest: dest == deaf.addr
    rest = nodes[:2]
    net.play_to_end(rest, 600)
    one_digest(rest)
    for nd in rest:
        (away,) = nd.kinds("away")
        assert away.peer == deaf.core.peer_id.hex()
        (handed,) = nd.kinds("handover")
        assert handed.seat == 2
        assert not nd.kinds("reclaimed")  # (not given back while it is behind)


@pytest.mark.parametrize(("players", "who", "seed"), [
    (2, 0, 1), (2, 1, 2), (2, 0, 3),
    (3, 2, 0), (3, 0, 3), (3, 0, 4), (4, 1, 2), (4, 0, 7), (4, 3, 9), (5, 2, 4),
])
def test_a_laptop_deaf_for_a_while_follows_the_table_again(players, who, seed):
    """Deaf for 20 s, longer than the handover time: the others went on without it; once
    it hears them again it follows the table, and everyone ends with one game. At two
    players the deaf one played both seats alone, and the other, which nobody heard, did
    too: they forked (8 duels of 9). The unheard one now knows it and yields."""
    net = SimNet(seed=seed, think=0.05)
    nodes = net.table(players, handover_after=5.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 20, 120)
    deaf = nodes[who]
    net.lose = lambda data, src, dest: dest == deaf.addr
    net.run_for(20.0)
    net.lose = None
    net.play_to_end(nodes, 900)
    one_digest(nodes)
    for nd in nodes:
        assert not nd.kinds("mismatch")
        verify_record(nd)


def test_a_deaf_creator_gives_no_seat_away_as_it_hears_the_table_again():
    """The creator of a 5-player table (the coordinator) deaf for 14 s heard three of the
    others again a moment before the fourth, and gave the fourth's seat to a bot at once:
    to it that one had been away for 14 s. Its lobby then differed from the table's at the
    same version, it never followed the table again and the game hung (a sweep of 54
    deaf tables found it). Time spent hearing nobody no longer counts as anyone's absence."""
    net = SimNet(seed=0, think=0.05)
    nodes = net.table(5, handover_after=5.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 20, 120)
    deaf = nodes[0]
    net.lose = lambda data, src, dest: dest == deaf.addr
    net.run_for(14.0)
    net.lose = None
    net.play_to_end(nodes, 900)
    one_digest(nodes)
    # it gave no seat to a bot of its own (the table gave it its seat back when it was back)
    mine = deaf.core.peer_id.hex()
    assert not [e for nd in nodes for e in nd.kinds("handover") if e.driver == mine]
    for nd in nodes:
        assert not nd.kinds("mismatch")
        verify_record(nd)


@pytest.mark.parametrize(("players", "who", "seed"), [
    (2, 1, 2), (2, 1, 4), (2, 0, 5), (3, 1, 1), (3, 1, 2), (3, 0, 3), (4, 1, 1), (4, 2, 6),
])
def test_a_laptop_nobody_hears_for_a_while_follows_the_table_again(players, who, seed):
    """Everything one laptop sends is lost for 40 s (its firewall lets answers in but
    nothing out, or the Wi-Fi fails one way): it hears the table, the table does not hear
    it. The table gave its seat to a bot and drew without it; the laptop played its own
    moves, which never arrived. Once heard again, the table stopped with "the game forked"
    on every laptop (3 tables in 4; at two players it dropped the other from its draws and
    played both seats). It now knows nobody hears it (nothing it sends is acknowledged),
    takes nobody out of the draws meanwhile, says so to its player, and once heard takes
    its moves back and follows the table: one game, to the end, everywhere."""
    net = SimNet(seed=seed, think=0.5)
    nodes = net.table(players, handover_after=10.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 8, 120)
    mute = nodes[who]
    net.lose = lambda data, src, dest: src == mute.addr
    net.run_for(40.0)
    assert [e.unheard for e in mute.kinds("unheard")] == [True]
    assert all(not nd.kinds("unheard") for nd in nodes if nd is not mute)
    net.lose = None
    net.play_to_end(nodes, 900)
    one_digest(nodes)
    assert [e.unheard for e in mute.kinds("unheard")] == [True, False]
    assert mute.kinds("rewound")  # its own moves, which the table never had, taken back
    for nd in nodes:
        assert not nd.kinds("mismatch")
        verify_record(nd)

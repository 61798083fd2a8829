"""A player whose laptop stays at the table but who never plays (a hung screen, a player
gone for pizza, a laptop changed to stall the game) cannot hold three friends at one move
for the evening: after IDLE_AFTER_S they count as away, and the table may give the seat
to a bot as it does a silent laptop's (protocol/transport.md, "A player who does not
play"). Before, the table waited for ever. Simulated LAN, virtual clock."""

from __future__ import annotations

import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.net.lab.simnet import SimNet
from tongiaki_lan.net.protocol.handover import NOT_HANDED, handed
from tongiaki_lan.net.protocol.settings import IDLE_AFTER_S, IDLE_AGAIN_S

HANDOVER = 10.0  # the others' `--handover`


def _my_turn(node) -> bool:
    g = node.game
    return (g is not None and not g.is_over and g.pending is not None
            and g.pending.seat in node.core.my_seats()
            and not handed(node.core.lobby.seats[g.pending.seat]))


def _handed_at(node, seat: int) -> list:
    return [e for e in node.events if e.kind == "handover" and e.seat == seat]


def test_a_laptop_that_stays_but_never_plays_cannot_stop_the_table():
    net = SimNet(3)
    nodes = net.table(4, autoplay="random", handover_after=HANDOVER)
    staller = nodes[1]
    staller.core.autoplay = None  # here, heartbeats and all, but it never moves
    seat = staller.core.my_seats()[0]
    net.run_until(lambda: _my_turn(staller), 600)
    t0 = net.now
    net.run_until(lambda: all(_handed_at(n, seat) for n in nodes), 3 * IDLE_AFTER_S)
    assert net.now - t0 >= IDLE_AFTER_S  # (a player who thinks is left to think)
    for n in nodes:  # every screen, the staller's own too, says why a bot plays it
        assert _handed_at(n, seat)[-1].idle
    net.play_to_end(nodes)
    assert len({n.game.digest() for n in nodes}) == 1
    assert all(n.core.stopped is None for n in nodes)


def test_a_player_back_from_a_break_asks_for_the_seat_and_plays_it_again():
    net = SimNet(5, think=1.0)  # (bots that take a second: the game lasts)
    nodes = net.table(3, autoplay="random", handover_after=HANDOVER)
    ana = nodes[2]
    ana.core.autoplay = None  # she went for pizza
    seat = ana.core.my_seats()[0]
    net.run_until(lambda: all(_handed_at(n, seat) for n in nodes), 600 + 3 * IDLE_AFTER_S)
    net.run_for(20.0)  # her laptop is heard all along: the seat stays the bot's
    assert all(handed(n.core.lobby.seats[seat]) for n in nodes)
    # she is back: `resume` asks for the seat, and she plays it again
    net.act(ana, ana.core.reclaim)
    net.run_until(lambda: all(not handed(n.core.lobby.seats[seat]) for n in nodes), 30)
    assert all(n.kinds("reclaimed") for n in nodes)
    net.run_until(lambda: _my_turn(ana), 600)
    net.act(ana, ana.core.send_move, make_bot("random", seed=1).choose(ana.game.copy()))
    ana.core.autoplay = "random"
    net.play_to_end(nodes)
    assert len({n.game.digest() for n in nodes}) == 1


def test_once_handed_for_not_playing_a_seat_waits_less_the_next_time():
    """A laptop changed to ask for its seat back at once and stall again costs the table
    IDLE_AGAIN_S a decision, not IDLE_AFTER_S."""
    net = SimNet(9, think=1.0)
    nodes = net.table(3, autoplay="random", handover_after=HANDOVER)
    staller = nodes[0]  # (the table's creator: its coordinator until it is away)
    staller.core.autoplay = None
    seat = staller.core.my_seats()[0]
    net.run_until(lambda: all(_handed_at(n, seat) for n in nodes), 600 + 3 * IDLE_AFTER_S)
    net.act(staller, staller.core.reclaim)
    net.run_until(lambda: _my_turn(staller), 600)
    t0 = net.now
    net.run_until(lambda: all(len(_handed_at(n, seat)) == 2 for n in nodes), IDLE_AFTER_S)
    assert IDLE_AGAIN_S <= net.now - t0 < IDLE_AFTER_S
    net.play_to_end(nodes)
    assert len({n.game.digest() for n in nodes}) == 1


def test_a_player_who_thinks_within_the_limit_keeps_the_seat():
    net = SimNet(4)
    nodes = net.table(3, autoplay="random", handover_after=HANDOVER)
    ben = nodes[1]
    ben.core.autoplay = None
    net.run_until(lambda: _my_turn(ben), 600)
    net.run_for(IDLE_AFTER_S - 10.0)
    assert not any(n.kinds("handover", "away") for n in nodes)
    net.act(ben, ben.core.send_move, make_bot("random", seed=1).choose(ben.game.copy()))
    ben.core.autoplay = "random"
    net.play_to_end(nodes)
    assert not any(n.kinds("handover") for n in nodes)


def test_back_when_no_bot_plays_the_seat_says_so():
    net = SimNet(2)
    nodes = net.table(2, autoplay="random")
    with pytest.raises(ValueError, match=NOT_HANDED):
        net.act(nodes[0], nodes[0].core.reclaim)


def test_a_move_typed_while_a_bot_plays_the_seat_of_one_who_did_not_play_says_resume():
    """Ben, back at the keyboard while a bot played his seat because he had not played,
    typed a move and read "a bot plays your seat until the others see you are back" (a
    LAN playtest): the others saw him all along, and nothing would give the seat back by
    itself. The refusal says what does; once he asked, that the next decision is his."""
    from tongiaki_lan.net.protocol.movesync import BOT_ENDS_ITS_DECISION, BOT_PLAYS_IDLE

    net = SimNet(5, think=1.0)  # (the bot takes a second over the decision it was given)
    nodes = net.table(3, autoplay="random", handover_after=HANDOVER)
    ben = nodes[2]
    ben.core.autoplay = None
    seat = ben.core.my_seats()[0]

    def bot_plays_his_decision() -> bool:
        p = ben.game.pending
        return (handed(ben.core.lobby.seats[seat]) and p is not None and p.seat == seat)

    net.run_until(bot_plays_his_decision, 600 + 3 * IDLE_AFTER_S)
    move = make_bot("random", seed=1).choose(ben.game.copy())
    with pytest.raises(ValueError, match="^" + BOT_PLAYS_IDLE + "$"):
        net.act(ben, ben.core.send_move, move)
    net.act(ben, ben.core.reclaim)  # `resume`: the bot still makes the decision it has
    with pytest.raises(ValueError, match="^" + BOT_ENDS_ITS_DECISION + "$"):
        net.act(ben, ben.core.send_move, move)
    net.run_until(lambda: _my_turn(ben), 600)
    net.act(ben, ben.core.send_move, make_bot("random", seed=1).choose(ben.game.copy()))
    ben.core.autoplay = "random"
    net.play_to_end(nodes)
    assert len({n.game.digest() for n in nodes}) == 1

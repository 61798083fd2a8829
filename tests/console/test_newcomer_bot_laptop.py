"""A laptop that plays with a bot (`play --headless --bot`) takes, mid-game, the seat of a
player who left for good: the others' screens say a bot plays it. TAKE_SEAT carried only
a name, so the table seated it as a person and a LAN playtest's panel read "Dan" where a
bot laptop that joined in the lobby read "Dan — bot (random)"."""

from __future__ import annotations

from tests.net.test_farewell_sim import leave_when_a_draw_waits
from tests.net.test_watch_sim import watcher
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.feeds.lanfacts import seats_of
from tongiaki_lan.console.seats import seat_label
from tongiaki_lan.net.lab.simnet import SimNet

from .simconsole import SimConsoleNode


def _after_takeover(autoplay: str | None):
    net = SimNet(seed=139)
    nodes = net.table(3)
    screen = LanSession(SimConsoleNode(net, nodes[0]))
    seat = nodes[1].core.my_seats()[0]
    leave_when_a_draw_waits(net, nodes[1], after=10)
    net.run_until(lambda: all(nd.core.lobby.seats[seat].bot for nd in (nodes[0], nodes[2])), 10)
    dan = watcher(net, nodes[2], autoplay="random")
    net.run_until(lambda: dan.game is not None
                  and seat in dan.core.lobby_json()["open_seats"], 10)
    dan.core.autoplay = autoplay  # (None: a person at the keyboard, who asks as one)
    net.act(dan, dan.core.take_seat, seat)
    net.run_until(lambda: nodes[0].core.lobby.seats[seat].owner == dan.core.peer_id, 60)
    return screen, seat


def test_a_bot_laptop_that_takes_a_seat_is_shown_as_a_bot():
    screen, seat = _after_takeover("random")
    said = [t for _s, t in screen.lines]
    assert any(t.startswith("Dan — bot (random) takes p1's seat (") for t in said), said
    assert seat_label(seats_of(screen.node)[seat]) == "Dan — bot (random)"


def test_a_person_who_takes_a_seat_is_shown_by_name():
    screen, seat = _after_takeover(None)
    said = [t for _s, t in screen.lines]
    assert any(t.startswith("Dan takes p1's seat (") for t in said), said
    assert seat_label(seats_of(screen.node)[seat]) == "Dan"

"""On a LAN table too, a departure the engine settled says which pier and why (X2a,
X2d), and a departure a player chose never does: the game alone does not tell them apart,
so the node says where each move's events begin (`MoveApplied.events_from`). A LAN
playtest's screens read "Tonga beach 5 is full: B R G sail NE." with no word of why,
where a solo game's said it. On the simulated LAN, told by the real `LanSession`."""

from __future__ import annotations

import pytest

from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.engine import Game, Sail
from tongiaki_lan.net.lab.simnet import SimNet

from .simconsole import SimConsoleNode
from .test_settled_departure import SETTLED


def _truth(game: Game) -> tuple[set[int], set[int]]:
    """The game replayed move by move: (departures a Sail chose, departures the engine
    settled), as event indices."""
    again = Game(list(game.colours))
    chosen, settled = set(), set()
    for move in game.moves:
        start = len(again.events)
        again.apply(move)
        departs = [k for k in range(start, len(again.events))
                   if again.events[k].kind == "depart"]
        if isinstance(move, Sail):
            chosen.add(departs[0])
            departs = departs[1:]
        settled.update(departs)
    assert [e.kind for e in again.events] == [e.kind for e in game.events]
    return chosen, settled


@pytest.mark.parametrize("seed", [3, 7, 10])
def test_a_lan_screen_says_why_the_engine_settled_a_departure_and_only_then(seed):
    net = SimNet(seed=seed)
    nodes = net.table(3)
    screen = LanSession(SimConsoleNode(net, nodes[1]))
    net.play_to_end(nodes)
    game = nodes[1].game
    chosen, settled = _truth(game)
    explained = {k for k, (_s, text) in screen._told if SETTLED.search(text)}
    told_departs = {k for k, (_s, text) in screen._told if game.events[k].kind == "depart"}
    assert settled, "a game with no settled departure proves nothing: another seed"
    assert explained <= settled  # never a chosen departure
    assert not explained & chosen
    # and every settled departure the screen told is explained (in these games each
    # island is still on the board when its departure is told)
    assert explained == settled & told_departs

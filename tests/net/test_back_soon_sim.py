"""Goodbyes "back soon" of a player who has come back since (a LAN playtest in
namespaces losing a fifth of the datagrams, two consoles resumed with `quit soon`).

Every node kept such a goodbye for the rest of the game and passed it to any member back
from away, so a laptop resumed after a crash read "Dee left and will be back soon; their
seat waits." while Dee sat at the table and played; and a second `quit soon` of the same
player before another tile was drawn was the very same signed message, taken for one
already seen: nobody was told, and the table showed the player merely "away".
"""

from __future__ import annotations

import pytest

from tongiaki_lan.net.lab.simnet import SimNet


def _left(node, leaver) -> list:
    return [e for e in node.kinds("left") if e.peer == leaver.core.peer_id.hex()]


def test_a_goodbye_back_soon_is_not_told_again_once_the_player_is_back():
    net = SimNet(seed=5)
    ana, ben, dee = net.table(3, autoplay=None)  # a player thinks: no tile is drawn
    net.act(dee, dee.core.say_farewell, False)  # `quit soon`
    net.kill(dee)
    net.run_until(lambda: _left(ana, dee) and _left(ben, dee), 10)
    dee = net.restart(dee)  # Dee is back
    net.run_until(lambda: ana.kinds("restarted") and ben.kinds("restarted"), 10)
    net.run_for(3)
    ben = net.restart(ben)  # Ben's laptop crashed and starts again
    net.run_for(10)
    assert _left(ben, dee) == [], "Ben's laptop was told Dee left, with Dee at the table"
    assert not ben.core.presence.has_left(dee.core.peer_id)


def test_a_second_quit_soon_at_the_same_tile_is_told_to_the_table():
    net = SimNet(seed=7)
    ana, ben, dee = net.table(3, autoplay=None)
    net.act(dee, dee.core.say_farewell, False)
    net.kill(dee)
    net.run_until(lambda: len(_left(ana, dee)) == 1 and len(_left(ben, dee)) == 1, 10)
    dee = net.restart(dee)
    net.run_until(lambda: ana.kinds("restarted") and ben.kinds("restarted"), 10)
    net.run_for(3)
    net.act(dee, dee.core.say_farewell, False)  # `quit soon` again, no tile drawn since
    net.kill(dee)
    net.run_for(3)
    assert len(_left(ana, dee)) == 2 and len(_left(ben, dee)) == 2
    assert ana.core.presence.has_left(dee.core.peer_id)


def test_a_goodbye_learnt_after_a_restart_ends_when_the_player_is_heard_again():
    """Ben's laptop started again while Dee was gone: it learnt her goodbye from the
    others, and her new run is the first of her it hears (no restart, to it). Still her
    goodbye is over for it then, and Ana's laptop, started again later, is not told."""
    net = SimNet(seed=11)
    ana, ben, dee = net.table(3, autoplay=None)
    net.act(dee, dee.core.say_farewell, False)
    net.kill(dee)
    net.run_until(lambda: _left(ana, dee) and _left(ben, dee), 10)
    ben = net.restart(ben)
    net.run_until(lambda: _left(ben, dee), 10)  # told by Ana
    dee = net.restart(dee)
    net.run_for(5)
    ana = net.restart(ana)
    net.run_for(10)
    assert _left(ana, dee) == [], "Ana's laptop was told Dee left, with Dee at the table"


@pytest.mark.parametrize("seed", range(8))
def test_a_goodbye_back_soon_on_a_lossy_wifi_is_told_once(seed):
    """The leaver's program runs on for up to 2 s after its goodbye (until it was heard):
    its last heartbeats bring it back for a moment, and a copy of the goodbye it sends
    again, its first one lost, may come after them; that copy is no new goodbye."""
    net = SimNet(seed=seed, loss=0.2)
    ana, ben, dee = net.table(3, autoplay=None)
    net.act(dee, dee.core.say_farewell, False)
    net.run_for(2)
    net.kill(dee)
    net.run_for(5)
    assert len(_left(ana, dee)) == 1 and len(_left(ben, dee)) == 1

"""A player's laptop slept past the handover (the lid closed for 86 s, handover 60 s) and
a bot played the seat meanwhile: what the woken screen says, in which order. On the
simulated LAN (virtual clock, no sockets), told by the real `LanSession`.

A playtest's screen read "Your seat is yours again" above the moves the bot had played
(the lobby that gives the seat back came before the missed moves), then the watcher's
"The table answered: this laptop follows the game again.", and it never said how many
moves the bot had made (the count skipped the moves of the catch-up)."""

from __future__ import annotations

import pytest

from tests.net.test_farewell_sim import _freeze_during_anothers_turn
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.net.lab.simnet import SimNet

from .simconsole import SimConsoleNode

GIVE_BACK = "Your seat is yours again: the bot that played it while you were away stops."
WATCHERS = "The table answered: this laptop follows the game again."


def _woken(seed: int, players: int):
    """The sleeper's screen and node, woken, after the table gave its seat back."""
    net = SimNet(seed=seed, think=1.0)
    nodes = net.table(players, handover_after=60.0)
    node = SimConsoleNode(net, nodes[1])
    screen = LanSession(node)
    sleeper = _freeze_during_anothers_turn(net, nodes, 8 + seed % 20, keep=64, first=True)
    sleeper.core.autoplay = None  # (a person: moves of the seat typed here, none so far)
    net.run_for(86)
    mark, at = len(screen.lines), len(sleeper.events)
    # the turns the table had begun as this laptop woke: their headers all come first
    turns = sum(1 for ev in nodes[0].game.events if ev.kind == "turn")
    net.wake(sleeper)
    net.run_until(lambda: GIVE_BACK in [t for _s, t in screen.lines[mark:]], 120)
    said = [t for _s, t in screen.lines]
    answer = next(i for i in range(mark, len(said)) if said[i].startswith("The table "
                                                                         "answered"))
    assert sum(1 for t in said[:answer] if t.startswith("── turn")) >= turns
    return screen, [t for _s, t in screen.lines[mark:]], sleeper.events[at:]


@pytest.mark.parametrize("seed,players", [(4, 3), (6, 4), (2, 3), (7, 4)])
def test_a_woken_player_reads_the_moves_missed_then_the_count_then_the_seat_back(
        seed, players):
    screen, said, events = _woken(seed, players)
    kinds = [ev.kind for ev in events]
    assert "handover" in kinds and "reclaimed" in kinds
    answer = next(i for i, t in enumerate(said) if t.startswith("The table answered:"))
    back = said.index(GIVE_BACK)
    assert WATCHERS not in said  # (a player, not a watcher)
    assert said[answer] in ("The table answered: this laptop has caught up, and you play on.",
                            "The table answered: this laptop has caught up, and the decision "
                            "is yours.")
    # the bot's moves for the seat, the catch-up's too, counted; the seat back last
    seat = screen.node.my_seats()[0]
    n = sum(1 for ev in events if ev.kind == "move" and ev.seat == seat)  # (a bot's: none
    # was typed here)
    assert n > 0
    assert said[back - 1] == f"While you were away a bot played {n} moves of your seat."
    assert answer < back - 1

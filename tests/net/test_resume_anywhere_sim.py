"""Resume anywhere at a LAN table (issue 45): a laptop that crashes with its record ending
at any kind of pending decision — a tile to reveal included, right after the move that
calls for it (a crash between two saves) — comes back from that record and the game
ends as it would have without the crash. On the simulated LAN, virtual clock, no sockets.

How a resumed seat gets the tile: a LAN reveal is the table's draw (protocol/draws.md).
Resuming, the core deals what the game awaits (`NodeCore.resume` → `_deal`): it sends its
own value for the draw at once, and the others' values come with their answer to its
return (or the table's log, when the table dealt the tile meanwhile). A crash that also
lost the move's datagrams (the record is written before they leave: net/aio/node.py)
leaves the table without the move; the resumed laptop's record has it, and the table
takes it from there.
"""

from __future__ import annotations

import pytest

from tests.net.test_core_sim import clean_digest, one_digest
from tests.net.test_farewell_sim import verify_record
from tongiaki_lan.engine import Reveal
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.net.lab.simnet import SimNet, SimNode

# a 4-player table whose bots meet every kind of decision, the rare T1a one included
SEED, PLAYERS = 24, 4


def mover_of_last(node: SimNode) -> int | None:
    """The seat that made the node's last move (None: a reveal, chance's)."""
    before = node.game.copy()
    before.pop()
    return before.pending.seat


def crash_at(net: SimNet, victim: SimNode, kind: str, *, lost: bool,
             own: bool | None = None) -> int:
    """Run until the victim's record, as written in the step just run, ends at a pending
    decision of `kind` (`own`: after a move of its own seat, or of another's), and kill
    it there. `lost`: the datagrams of that step never leave (the crash came between
    writing the record and sending). Returns how many moves its record holds."""
    seen = {"moves": len(victim.record), "crashed": False}
    seats = victim.core.my_seats()

    def at_cut() -> bool:
        g = victim.game
        if seen["crashed"]:
            return True
        if not (1 < len(victim.record) == len(g.moves) != seen["moves"]) or g.pending is None:
            return False
        if g.pending.kind != kind or (kind == D.REVEAL and isinstance(g.moves[-1], Reveal)):
            return False
        if own is not None and (mover_of_last(victim) in seats) != own:
            return False
        seen["crashed"] = True
        return True

    def after_step() -> bool:
        crashed = at_cut()
        seen["moves"] = len(victim.record)
        return crashed

    net.lose = (lambda data, src, dest: src == victim.addr and at_cut()) if lost else None
    net.run_until(after_step, 3000)
    net.kill(victim)
    net.lose = None
    return len(victim.record)


CASES = [(kind, lost, None) for kind in D.KINDS for lost in (False, True)] + [
    (D.REVEAL, lost, own) for own in (True, False) for lost in (False, True)]


@pytest.mark.parametrize(("kind", "lost", "own"), CASES)
def test_a_laptop_crashed_at_any_pending_decision_resumes_and_the_game_ends_as_uncut(
        kind, lost, own):
    net = SimNet(seed=SEED)
    nodes = net.table(PLAYERS)
    victim = nodes[1]
    cut = crash_at(net, victim, kind, lost=lost, own=own)
    if own and lost:  # (its move never left: the table does not have it)
        net.run_for(1)
        assert all(len(nd.game.moves) < cut for nd in nodes if nd is not victim)
    back = net.restart(victim)
    assert len(back.game.moves) == cut
    nodes[1] = back
    net.play_to_end(nodes, 3000)
    assert one_digest(nodes) == clean_digest(nodes)  # the game the table would have played
    assert verify_record(back) == len(back.game.moves)  # (its draws checked too)


@pytest.mark.parametrize("lost", [False, True])
def test_every_laptop_crashed_between_a_departure_and_its_reveal_finishes_the_game(lost):
    """A power cut at the worst moment: every laptop's record ends with the move, no
    value of the draw sent (`lost`) or some of them, and every laptop is started again."""
    net = SimNet(seed=SEED)
    nodes = net.table(PLAYERS)
    mover = nodes[2]
    crash_at(net, mover, D.REVEAL, lost=lost, own=True)
    for nd in nodes:
        net.kill(nd)
    net.run_for(2)
    back = [net.restart(nd) for nd in nodes]
    net.play_to_end(back, 3000)
    assert one_digest(back) == clean_digest(back)

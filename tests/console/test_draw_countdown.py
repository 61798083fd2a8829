"""A fair draw that waits for a missing laptop's value: the status line counts down the
seconds before the tile is drawn without it, and clears once the tile comes or the
contributor is left out.

Two real nodes on 127.0.0.1 with the console on the first; the second node's datagrams
are all lost from the moment the first starts a New Colony (whose tile needs both draw
values), as when its laptop drops off the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import re

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import Colony
from tongiaki_lan.net.aio.node import GameRef, Node
from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket
from tongiaki_lan.net.lab.loopback import close_all

from .conftest import start_screen, wait_until
from .test_bottom_lines import Terminal, readable, rows_of

COUNTDOWN = re.compile(r"draw it without them in (\d+) s")


async def _table(tmp_path, handover_after: float | None = None, their_bot: str | None = None):
    """Two nodes in one game, every move typed (no autoplay; `their_bot`: the second is a
    bot laptop, `play --headless --bot`); the second's socket can be made to lose
    everything it sends."""
    rule = FaultRule(seed=1)
    nodes = [Node(f"p{i}", host="127.0.0.1", record_dir=tmp_path, handover_after=handover_after,
                  wrap_socket=(lambda s: FaultySocket(s, rule)) if i else None,
                  autoplay=their_bot if i else None)
             for i in range(2)]
    for node in nodes:
        await node.start()
    me, other = nodes
    await me.create_game("countdown", 2)
    await other.join_game(GameRef(me.game_id, me.peer_id, "127.0.0.1", me.address[1], False),
                          timeout=20)
    for node in nodes:
        node.set_ready(True)
    await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
    return nodes, rule


async def _to_our_action(nodes) -> None:
    """Both players' setup ships, each typed on its own node, up to the first turn."""
    me = nodes[0]
    while me.game.pending.kind != "action" or me.game.pending.seat not in me.my_seats():
        n = len(me.game.moves)
        owner = next(nd for nd in nodes if me.game.pending.seat in nd.my_seats())
        owner.send_move(owner.game.legal_moves()[0])
        await me.wait_for(lambda n=n: all(len(nd.game.moves) > n for nd in nodes), 30)


def _shown(screen: GameScreen) -> int | None:
    m = COUNTDOWN.search(screen.status_text())
    return int(m.group(1)) if m else None


def _drawn(screen: GameScreen) -> int | None:
    """The seconds on the status line as the terminal shows it (not as it would be
    computed now): proof that the screen redraws by itself."""
    m = COUNTDOWN.search(readable(rows_of(screen)[-6:]))
    return int(m.group(1)) if m else None


async def _colony_while_cut_off(inp, screen: GameScreen, rule) -> None:
    """The other laptop is cut off (its draw value never arrives) as we found a New
    Colony, which calls for tiles."""
    rule.drop = 1.0
    inp.send_text("colony\r")  # (after the question: our ships go home)
    await wait_until(lambda: "Enter again to confirm" in screen.message[1])
    inp.send_text("\r")


@contextlib.asynccontextmanager
async def _our_screen(tmp_path, output, handover_after: float | None = None):
    """Our console at our first action of a 2-node game, until the test is done with it:
    then a double Ctrl-C must leave it cleanly, and both nodes close."""
    nodes, rule = await _table(tmp_path, handover_after)
    me = nodes[0]
    try:
        await _to_our_action(nodes)
        session = LanSession(me)
        with create_pipe_input() as inp, create_app_session(input=inp, output=output):
            screen, task = await start_screen(session)
            yield me, rule, inp, screen, session
            assert session.draw_wait is None
            inp.send_text("\x03\x03")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all(nodes)


async def test_the_status_line_counts_down_until_the_missing_value_comes(tmp_path):
    term = Terminal()
    async with _our_screen(tmp_path, term.output) as (me, rule, inp, screen, session):
        await _colony_while_cut_off(inp, screen, rule)
        await wait_until(lambda: isinstance(me.game.moves[-1], Colony),
                         what="the colony played")
        await wait_until(lambda: _drawn(screen) is not None, what="the countdown drawn")
        first = _drawn(screen)
        assert "p1" in screen.status_text() and 0 < first <= 60
        # the node said it once; the screen counts on and redraws by itself, every
        # second shown in turn (the node's events alone redraw it once, at most twice)
        seen = set()

        def counted_down() -> bool:
            seen.add(_drawn(screen))
            return first - 3 in seen

        await wait_until(counted_down, what="three seconds counted down")
        assert {first - 1, first - 2, first - 3} <= seen
        assert any("waits for p1, whose laptop takes part in every draw" in t
                   for _s, t in session.lines)
        rule.drop = 0.0  # back: the value it has been resending gets through
        await wait_until(lambda: not me.game.awaiting_reveal, what="the tile")
        await wait_until(lambda: _shown(screen) is None, what="the countdown cleared")
        assert "Next tile waits" not in screen.status_text()


async def test_the_countdown_clears_when_the_missing_contributor_is_left_out(tmp_path):
    async with _our_screen(tmp_path, DummyOutput(), handover_after=5.0) as (
            me, rule, inp, screen, session):
        await _colony_while_cut_off(inp, screen, rule)
        await wait_until(lambda: _shown(screen) is not None, what="the countdown")
        # (the table waits 15 s; `--handover 5` shortens this node's wait to half of
        # that, the others' wait before they take a drop, not to 5 s)
        assert _shown(screen) <= 8
        await wait_until(lambda: any("did not answer in time for tile" in t
                                     for _s, t in session.lines), what="the drop")
        await wait_until(lambda: "Next tile waits" not in screen.status_text(),
                         what="the countdown cleared")


async def test_a_draw_that_waits_for_a_laptop_already_away_says_any_moment(tmp_path):
    """A player away for a while when a tile is called for: the node says it waits "about
    0 s more"; the log says "any moment", as the status line does."""
    from tongiaki_lan.net.lab.loopback import make_table
    from tongiaki_lan.net.protocol import events as E

    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        me, other = nodes
        await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        session = LanSession(me)
        peer = other.peer_id.hex()
        session._on_node_event(E.DrawWaiting(0, ["p1"], [peer], 0))
        session._on_node_event(E.DrawWaiting(1, ["p1"], [peer], 12))
        told = [t for _s, t in session.lines if "p1" in t]
        assert told[-2:] == [
            "The next tile waits for p1, whose laptop takes part in every draw; the others "
            "draw it without them any moment.",
            "The next tile waits for p1, whose laptop takes part in every draw; in about 12 s "
            "the others draw it without them."], told
    finally:
        await close_all(nodes)


async def test_back_from_a_sleep_at_its_own_decision_the_screen_says_so(tmp_path):
    """The lid closed on the player's own turn: back, the status line said "Waiting for
    Ana (B): choosing an action…" (her own action) until she typed a command, and the log
    ended at "asking the table what happened…". Nothing else happens at such a table (the
    decision is ours), so the table's answer itself must bring the screen back."""
    import time

    term = Terminal()

    def drawn() -> str:  # the status line as the terminal shows it, not as computed now
        return readable(rows_of(screen)[-6:])

    async with _our_screen(tmp_path, term.output) as (me, rule, inp, screen, session):
        await wait_until(lambda: "Your decision" in drawn(), what="our decision drawn")
        time.sleep(4.0)  # the fault itself: this process (both nodes) does not run
        await wait_until(lambda: "asking the table" in drawn().lower(),
                         what="the wait for the table's word drawn")
        await wait_until(lambda: not me.core.waking(), what="the table's answer")
        await wait_until(lambda: "Your decision" in drawn(),
                         what="our decision on the status line again")
        assert session.lines[-1] == ("good", "The table answered: the game is where it was, "
                                             "and the decision is yours.")
        assert me.game.pending.seat in me.my_seats()


async def test_an_away_players_seat_counts_down_to_when_replace_may_give_it_to_a_bot(tmp_path):
    """The status line said "Waiting for Ana to come back — replace Ana gives the seat to
    a bot", and players typed `replace` at once, to be refused ("a seat can be replaced
    after 60 s"): it now counts down to that moment, redrawn by itself."""
    term = Terminal()
    wait = re.compile(r"in (\d+) s replace p1 gives the seat to a bot")

    def drawn() -> int | None:
        m = wait.search(readable(rows_of(screen)[-6:]))
        return int(m.group(1)) if m else None

    async with _our_screen(tmp_path, term.output, handover_after=30.0) as (
            me, rule, inp, screen, session):
        def theirs() -> bool:
            p = me.game.pending
            return p.seat is not None and p.seat not in me.my_seats()

        while not theirs():  # our turn, played to its end: p1's decision
            n = len(me.game.moves)
            if me.game.pending.seat is not None:
                me.send_move(me.game.legal_moves()[0])
            await me.wait_for(lambda n=n: len(me.game.moves) > n, 30)
        rule.drop = 1.0  # p1's laptop drops off the network
        await wait_until(lambda: drawn() is not None, what="the countdown drawn")
        first = drawn()
        assert 0 < first <= 30
        # the log says this laptop's wait, not "after a minute" (the default's)
        await wait_until(lambda: any(
            "Waiting for p1 to come back… (replace p1 gives the seat to a bot once they have "
            "been away 30 s)" in t for _s, t in session.lines), what="the wait in the log")
        await wait_until(lambda: (drawn() or first) < first, what="a second counted down")
        rule.drop = 0.0  # back: nothing to count any more
        await wait_until(lambda: drawn() is None and "p1" in screen.status_text(),
                         what="the countdown gone")

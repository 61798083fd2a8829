"""`undo` against bots (docs/rules.md U1), through the real game screen: it takes back
your last decision and the bots' moves after it, one of your decisions per `undo`, and
never across a tile reveal; the record keeps the moves taken back, verifies, replays
and resumes. Before, `undo` took back only your own last decision of the turn, never
after a bot had moved, and cut the record back: the record lost what had happened.
"""

from __future__ import annotations

import asyncio
import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.cli.records import summaries
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.engine import Reveal
from tongiaki_lan.records import read_record, replay_with_undos
from tongiaki_lan.takeback import REVEALED, TakeBack, take_back

from .conftest import start_screen, terminal_rows, wait_until

COLUMNS, ROWS = 120, 36
MAP_COLUMNS, MAP_ROWS = COLUMNS - 40 - 1, ROWS - 3  # beside the side column (40 wide)


def _output() -> Vt100_Output:
    return Vt100_Output(io.StringIO(), lambda: Size(rows=ROWS, columns=COLUMNS), term="xterm")


def _map(screen) -> list[str]:
    return terminal_rows(screen, MAP_COLUMNS, MAP_ROWS)


def _told(session) -> list[str]:
    return [text for _style, text in session.lines]


async def _type(inp, screen, session, text: str, done, what: str) -> None:
    inp.send_text("\x15" + text + "\r")  # (Ctrl-U: whatever the line held first)
    await wait_until(done, what=what)


async def test_undo_takes_back_your_decisions_and_the_bots_after_them_never_a_reveal(
        tmp_path):
    record = tmp_path / "solo-20261202-120000-undo.tgrec"
    session = SoloSession(seed_from_text("undo on screen"), solo_seats(2, "Tester", "random"),
                          record_path=record, pace=0, hint_kind="random")
    seen: dict[int, tuple[list[str], str, bytes]] = {}  # moves -> (map, panel, digest)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        screen, task = await start_screen(session)

        async def drawn() -> tuple[list[str], str]:
            """The map as drawn now, and the panel (a drawing asked for after the state
            settled, so it cannot be one made before)."""
            count = screen.app.render_counter
            screen.app.invalidate()
            await wait_until(lambda: screen.app.render_counter > count, what="a drawing")
            return _map(screen), screen.panel_text()

        async def at_my_decision(n: int) -> None:
            """Our decision after `n` moves; what the screen shows then is kept in `seen`."""
            await wait_until(lambda: session.my_decision() and len(session.game.moves) == n,
                             what=f"our decision after {n} moves")
            if n not in seen:
                seen[n] = (*await drawn(), session.game.digest())

        async def shows(n: int) -> None:
            """The screen shows the position after `n` moves as it did the first time."""
            board, panel, digest = seen[n]
            assert session.game.digest() == digest and session.my_decision()
            assert await drawn() == (board, panel)

        # setup, going round twice: a ship of ours, then the two bots' answers
        await at_my_decision(0)
        await _type(inp, screen, session, "undo", lambda: "U1" in screen.message[1],
                    "the refusal")
        assert screen.message == ("error", "undo: U1: you have made no decision yet")
        await _type(inp, screen, session, "place Tonga 1", lambda: len(session.game.moves) > 0,
                    "our ship")
        await at_my_decision(3)
        bots = [str(m) for m in session.game.moves[1:3]]
        await _type(inp, screen, session, "place Tonga 2", lambda: len(session.game.moves) > 3,
                    "our second ship")
        await at_my_decision(6)
        assert _map(screen) != seen[3][0]

        # undo: our second ship and the bots' two after it; again: the first round
        await _type(inp, screen, session, "undo", lambda: len(session.game.moves) == 3,
                    "the undo")
        await shows(3)
        assert _told(session)[-1].startswith("Taken back: place Tonga 2, and the bots' moves "
                                             "after it: Hina: place Tonga ")
        await _type(inp, screen, session, "undo", lambda: len(session.game.moves) == 0,
                    "the second undo")
        await shows(0)
        assert _told(session)[-1] == ("Taken back: place Tonga 1, and the bots' moves after "
                                      f"it: Hina: {bots[0]}; Maui: {bots[1]}")
        # the story of what was taken back is struck, not told as if it stood
        struck = [t for t in _told(session) if t.startswith("✗ ")]
        assert any("puts a ship on beach 1 of" in t for t in struck), struck
        assert not any("puts a ship" in t for t in _told(session) if not t.startswith("✗ "))

        # on with hints, until undo meets a tile revealed after our last decision (and
        # one more undo, mid-game, where none stands in the way)
        midgame = refused = False
        while not (refused and midgame):
            await wait_until(lambda: session.game.is_over or session.my_decision(),
                             what="our decision")
            assert not session.game.is_over
            game, n = session.game, len(session.game.moves)
            plan = take_back(game, session.local_seats())
            if not midgame and n > 12 and isinstance(plan, TakeBack):
                await _type(inp, screen, session, "undo",
                            lambda b=plan.back_to: len(session.game.moves) == b, "an undo")
                assert session.my_decision()
                midgame = True
                continue
            if not refused and getattr(plan, "why", None) == REVEALED:
                digest = game.digest()
                told = len(session.lines)
                await _type(inp, screen, session, "undo", lambda: "U1" in screen.message[1],
                            "the refusal")
                style, text = screen.message
                assert style == "error" and text.startswith("undo: U1: ") and text.endswith(
                    "was revealed after your last decision, and a revealed tile stays "
                    "revealed"), text
                assert session.game.digest() == digest and len(session.lines) == told
                refused = True
                continue
            await _type(inp, screen, session, "hint", lambda: screen.message[1].startswith(
                "Hint:") and screen.buffer.text not in ("", "hint"), "a hint")
            inp.send_text("\r")
            await wait_until(lambda n=n: len(session.game.moves) > n, what="our move")
        moves, digest = len(session.game.moves), session.game.digest()
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

    # the record keeps every move taken back, and proves the game with them
    kept = read_record(record)
    game, notes = replay_with_undos(kept)
    assert game.digest() == digest and len(kept.moves) == moves
    assert len(kept.undos) == 3 and [u.back_to for u in kept.undos[:2]] == [3, 0]
    assert [len(u.moves) for u in kept.undos[:2]] == [3, 3]
    assert not any(isinstance(m, Reveal) for u in kept.undos for m in u.moves)
    assert [seat for seat, _m in notes[1].moves] == [0, 1, 2]  # ours, then the bots'
    # `records` lists it with its undos; the replay says where they were
    assert [e["undos"] for e in summaries(tmp_path)] == [3]
    replay = ReplaySession(kept, str(record))
    replay.goto(replay.total)
    undone = [t for t in _told(replay) if " took back " in t]
    assert undone[0] == ("Tester took back 3 moves here (undo): Tester: place Tonga 2; "
                         f"Hina: {kept.undos[0].moves[1]}; Maui: {kept.undos[0].moves[2]}")
    assert len(undone) == 3 and undone[2].startswith("Tester took back ")
    replay.goto(kept.undos[2].at - 1)  # (before the mid-game undo: not told yet)
    assert len([t for t in _told(replay) if " took back " in t]) == 2


async def test_a_game_left_after_an_undo_resumes_where_the_undo_left_it(tmp_path):
    record = tmp_path / "solo-20261202-120000-resume.tgrec"
    first = SoloSession(seed_from_text("undo, then resume"), solo_seats(2, "Tester", "random"),
                        record_path=record, pace=0, hint_kind="random")
    await first.start()
    while True:  # (our moves by the hint bot, the bots' by their driver)
        if first.my_decision():
            if len(first.game.moves) > 15 and first.can_undo:
                break
            await first.submit(await first.hint())
        else:
            await first._driver
    taken = take_back(first.game, {0})
    assert first.undo() is None
    assert len(first.game.moves) == taken.back_to and first.my_decision()
    digest = first.game.digest()
    await first.close()  # left right after the undo

    again = SoloSession.resume(record, pace=0, hint_kind="random")
    assert again.game.digest() == digest and len(again.game.moves) == taken.back_to
    await again.start()
    assert again.my_decision()
    await again.submit(await again.hint())
    while not again.my_decision() and not again.game.is_over:
        await again._driver
    await again.close()
    kept = read_record(record)  # one record: the moves taken back, the undo, and on
    game, _notes = replay_with_undos(kept)
    assert game.digest() == again.game.digest() and len(kept.undos) == 1
    assert kept.undos[0].moves == tuple(m for _s, m in taken.moves)


async def test_undo_at_a_lan_seat_says_a_lan_table_has_none(tmp_path):
    """A real LAN seat (two nodes on loopback), `undo` typed on its game screen."""
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.net.lab.loopback import close_all, make_table

    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        session = LanSession(nodes[0])
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            await wait_until(lambda: session.game.pending is not None, what="the game")
            if not session.my_decision():  # (the other seat first: ours has a move to undo)
                nodes[1].send_move(nodes[1].game.legal_move(0))
                await wait_until(session.my_decision, what="our decision")
            await session.submit(session.game.legal_move(0))
            await wait_until(lambda: len(nodes[1].game.moves) == len(session.game.moves),
                             what="our move at the table")
            digest = session.game.digest()
            inp.send_text("undo\r")
            await wait_until(lambda: screen.message[0] == "error", what="the refusal")
            assert screen.message[1] == ("undo: only in a solo game; at a LAN table every "
                                         "laptop has played your move already")
            assert session.game.digest() == digest and "undo" not in session.commands()
            inp.send_text("\x03\x03")
            await asyncio.wait_for(task, 30)
        await session.close()
    finally:
        await close_all(nodes)

"""The one input path: a line of text (typed in the terminal, or the text of a move clicked
on the board page) becomes a command and gets a reply, the same from every view."""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import TableInput
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.records import read_record

from .conftest import wait_until
from .test_replay_lobby import _record


def _table(seed: str) -> tuple[SoloSession, TableModel, TableInput]:
    session = SoloSession(seed_from_text(seed), solo_seats(2, "Ana", "random"),
                          record_path=None, pace=0, hint_kind="random")
    model = TableModel(session)
    return session, model, TableInput(model)


async def test_a_move_as_text_is_played_and_a_refusal_names_its_rule():
    session, model, table = _table("input-0")
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        moves = len(session.game.moves)
        reply = await table.submit("place Tonga 9")
        assert reply.style == "error" and reply.text.startswith("place Tonga 9: ")
        assert model.state.notice == ("error", reply.text)  # (every view shows it)
        assert len(session.game.moves) == moves
        reply = await table.submit(model.state.decision.moves[0].text)
        assert reply.style == "" and len(session.game.moves) > moves
        reply = await table.submit("expnad Tonga")
        assert reply.text == "expnad Tonga: unknown command — did you mean expand?"
    finally:
        await session.close()


async def test_colony_asks_first_and_a_second_submit_confirms():
    session, model, table = _table("input-colony")
    await session.start()
    try:
        # play the first option until our turn offers a colony with ships on the board
        for _ in range(200):
            await wait_until(lambda: session.my_decision() or session.game.is_over,
                             what="our decision")
            d = model.state.decision
            if "colony" in [o.text for o in d.moves] and session.game.on_board(d.seat):
                break
            await table.submit(d.moves[0].text)
        moves = len(session.game.moves)
        reply = await table.submit("colony")
        assert "Enter again to confirm" in reply.text and len(session.game.moves) == moves
        # offered on every view: on the page as its button, in words with no Enter
        state = model.state
        assert state.offer == "colony" and state.notice[1].endswith("play it again to confirm")
        reply = await table.submit("colony")
        assert len(session.game.moves) > moves
    finally:
        await session.close()


async def test_a_hint_is_offered_in_the_state_and_its_text_plays_it():
    session, model, table = _table("input-hint")
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        reply = await table.submit("hint")
        assert reply.text.startswith("Hint: ")
        state = model.state
        assert state.offer in [o.text for o in state.decision.moves]
        # the console's line says Enter plays it; the state, for views with no Enter (the
        # board page's button plays the offer), says only the hint, and in its own place
        assert reply.text.endswith("(Enter plays it)")
        assert state.hint == reply.text.removesuffix(" (Enter plays it)")
        assert "Enter" not in state.hint and state.notice is None
        moves = len(session.game.moves)
        await table.submit(state.offer)  # (what the page sends when the offer is clicked)
        assert len(session.game.moves) > moves
        assert model.state.hint == ""  # (a hint belongs to its decision)
    finally:
        await session.close()


async def test_a_replay_steps_by_words_and_by_an_empty_line(tmp_path):
    path = tmp_path / "r.tgr"
    _record(path, moves=12)
    session = ReplaySession(read_record(path), str(path))
    model = TableModel(session)
    table = TableInput(model)
    await session.start()
    await table.submit("forward")
    assert model.state.replay.index == session.index > 0
    at = session.index
    await table.submit("")  # Enter alone: the next move
    assert session.index > at
    await table.submit("first")
    assert model.state.move_index == 0
    reply = await table.submit("place Tonga 1")
    assert reply.style == "error" and "a replay takes no moves" in reply.text


async def test_a_move_from_another_view_shows_on_the_terminal_screen():
    """The board page's server calls the same `submit` with a clicked move's text: the
    terminal screen, subscribed to the same model, shows the move and its reply."""
    session, model, table = _table("input-views")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False, model=model, input=table)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(lambda: screen.app.is_running and session.my_decision(),
                         what="our first decision")
        text = model.state.decision.moves[0].text
        reply = await table.submit("place Tonga 9")  # refused: the terminal says why too
        assert screen.message == (reply.style, reply.text)
        await table.submit(text)
        await wait_until(lambda: any(line[0] == "" and "Ana (B) puts a ship" in line[1]
                                     for line in screen.session.lines), what="the move told")
        assert any("Ana (B) puts a ship" in "".join(t for _s, t in row)
                   for row in screen.draw_log(60, 30))
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_a_landing_that_comes_while_a_hint_is_on_its_way_gets_its_own_offer():
    """Our landing came while the hint of the decision before was still thinking: the
    second ask was dropped, and the status line said "a hint is on its way…" for good,
    Enter having nothing to play (a quick player, a slow hint bot)."""
    from tongiaki_lan.bots.random_bot import RandomBot
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import Dealer, Game

    def landings(n: int) -> list[Game]:
        found, seed = [], 0
        while len(found) < n:
            game, dealer = Game(["blue", "red"]), Dealer(bytes([seed]) * 32)
            bots = [RandomBot(0), RandomBot(1)]
            while not game.is_over:
                p = game.pending
                if p.kind == "landing" and p.seat == 0 and len(game.moves) > 10:
                    found.append(game)
                    break
                dealer.apply(game, bots[p.seat].choose(game))
            seed += 1
        return found

    first, second = landings(2)
    feed = GameSession(first, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    gate = asyncio.Event()
    asked = []

    async def hint():
        asked.append(len(feed.game.moves))
        if len(asked) == 1:
            await gate.wait()  # (the first one thinks long)
        return feed.game.default_landing()

    feed.hint = hint
    model = TableModel(feed)
    table = TableInput(model)
    feed.changed()  # our landing: its hint is asked, and thinks
    await wait_until(lambda: asked, what="the first hint asked")
    feed.game = second  # meanwhile the game is at another landing of ours
    feed.changed()
    assert model.landing_offer() is None and model.state.status.endswith("on its way…")
    gate.set()
    await wait_until(lambda: model.landing_offer() is not None, what="the second's offer")
    assert model.landing_offer() == str(second.default_landing())
    assert "offered" in model.state.status and table.hinting is False
    await feed.close()

"""Leaving a game: `quit` mid-game asks first and says what is kept; after a game started
from the lobby, `lobby` goes back there for the next one."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import BACK_TO_LOBBY
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import Dealer, Game

from .conftest import wait_until


async def _run(screen: GameScreen, session):
    await session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    return task


@contextlib.asynccontextmanager
async def _solo_game(seed: str, players: int, record=None):
    """A solo game (Tester against random bots) in a real app on pipe input, at our first
    decision; the session is closed afterwards."""
    session = SoloSession(seed_from_text(seed), solo_seats(players, "Tester", "random"),
                          record_path=record, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(session.my_decision, what="our setup decision")
        yield inp, screen, session, task
    await session.close()


async def test_quit_mid_game_asks_first_and_names_the_record(tmp_path):
    record = tmp_path / "game.tgrec"
    async with _solo_game("leaving", 2, record) as (inp, screen, session, task):
        inp.send_text("quit\r")
        await wait_until(lambda: "Enter again to leave" in screen.message[1])
        assert f"the record keeps the game ({record}" in screen.message[1]
        assert screen.buffer.text == "quit" and not task.done()
        inp.send_text("x")  # typing replaces the offered `quit`: staying after all
        await wait_until(lambda: screen.buffer.text == "x")
        inp.send_text("\x15hint\r")
        await wait_until(lambda: screen.message[1].startswith("Hint:"), what="a hint")
        inp.send_text("\x15quit\r")  # asked again, since the hint came in between
        await wait_until(lambda: "Enter again to leave" in screen.message[1])
        inp.send_text("\r")
        assert await asyncio.wait_for(task, 30) == 0


async def test_an_unrecorded_game_does_not_claim_a_record():
    async with _solo_game("no-record", 1) as (inp, screen, session, task):
        log = " ".join(t for _s, t in session.lines)
        assert "(not recorded)" in log and "record keeps" not in log
        inp.send_text("quit\r")
        await wait_until(lambda: "this game is not recorded" in screen.message[1])
        inp.send_text("\r")
        assert await asyncio.wait_for(task, 30) == 0


def _finished_game() -> Game:
    game = Game(["blue", "red"])
    dealer = Dealer(hashlib.blake2b(b"lobby-again", digest_size=32).digest())
    bot = make_bot("random", seed=1)
    while not game.is_over:
        dealer.apply(game, bot.choose(game))
    return game


async def test_after_a_game_from_the_lobby_lobby_goes_back_there():
    game = _finished_game()
    session = GameSession(game, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    session.from_lobby = True
    out = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        assert "(lobby: the next game · quit leaves)" in screen.status_text()
        # one piece at 80 columns: it wrapped as "(lobby: the next game" / "· quit leaves)"
        rows = [r.replace("\u00a0", " ") for r in screen._status_rows()]
        assert any("(lobby: the next game · quit leaves)" in r for r in rows), rows
        inp.send_text("lobby\r")
        assert await asyncio.wait_for(task, 30) == BACK_TO_LOBBY


def _lobby_loop(monkeypatch, tmp_path):
    """The `lobby` command's loop, offline, ready to run: (lobbies it opens, in order,
    its arguments, an 80x24 terminal)."""
    import argparse

    from tongiaki_lan.console.terminal.lobby import LobbyScreen

    monkeypatch.setattr("tongiaki_lan.bots.best_bot_kind", lambda: "random")
    lobbies = []
    real_run = LobbyScreen.run

    async def run(self):
        lobbies.append(self)
        return await real_run(self)

    monkeypatch.setattr(LobbyScreen, "run", run)
    args = argparse.Namespace(name="Tester", colour="", records=tmp_path, host="0.0.0.0",
                              port=0, no_lan=True, hint_bot="random", pace=0.0,
                              colour_output=False)
    out = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
    return lobbies, args, out


async def test_lobby_mid_solo_game_asks_then_goes_back_there_and_solo_resume_plays_on(
        monkeypatch, tmp_path):
    """A solo game started from the lobby: `quit` mid-game left the program, and the lobby
    had no way to go on with the game. Now `lobby` asks once and goes back, the lobby
    names the unfinished game, and `solo resume` there plays on it (real screens)."""
    from tongiaki_lan.cli import lobby as cli_lobby
    from tongiaki_lan.console.terminal import screen as screen_module

    lobbies, args, out = _lobby_loop(monkeypatch, tmp_path)
    games = []
    real_screen = screen_module.GameScreen

    def game_screen(session, **kw):
        games.append(real_screen(session, **kw))
        return games[-1]

    monkeypatch.setattr(screen_module, "GameScreen", game_screen)
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        main = asyncio.ensure_future(cli_lobby._main(args))
        await wait_until(lambda: lobbies and lobbies[0].app.is_running, what="the lobby")
        inp.send_text("solo resume\r")  # nothing to resume yet: said, and no game starts
        await wait_until(lambda: "no unfinished solo game" in lobbies[0].message)
        inp.send_text("solo 1 easy\r")
        await wait_until(lambda: games and games[0].app.is_running
                         and games[0].session.my_decision(), what="our first decision")
        first = games[0]
        inp.send_text("hint\r")
        await wait_until(lambda: first.buffer.text and first._prefill, what="the hint")
        inp.send_text("\r")  # the hinted move is played: the record has a move now
        await wait_until(lambda: first.session.game.moves and first.session.my_decision(),
                         what="our next decision")
        played = len(first.session.game.moves)
        inp.send_text("\x15help\r")
        await wait_until(lambda: any("lobby — back to the lobby (this game is kept" in t
                                     for _s, t in first.session.lines), what="help")
        inp.send_text("\x15lobby\r")
        await wait_until(lambda: "Enter again to go back to the lobby" in first.message[1],
                         what="the question")
        assert first.app.is_running and len(lobbies) == 1 and first.buffer.text == "lobby"
        inp.send_text("\r")
        await wait_until(lambda: len(lobbies) == 2 and lobbies[1].app.is_running,
                         what="the lobby again")
        lines = " ".join(t for _s, t in lobbies[1].lines)
        assert f"Your last solo game stopped after move {played}: solo resume" in lines
        inp.send_text("solo resume\r")
        await wait_until(lambda: len(games) == 2 and games[1].app.is_running,
                         what="the resumed game")
        again = games[1].session
        assert again.record_path == first.session.record_path
        assert any(f"Game resumed after move {played}" in t for _s, t in again.lines)
        inp.send_text("quit\r")
        await wait_until(lambda: "Enter again to leave" in games[1].message[1])
        inp.send_text("\r")
        assert await asyncio.wait_for(main, 30) == 0


async def test_the_lobby_opens_again_after_a_game(monkeypatch, tmp_path):
    """The command's loop: lobby → a game that ends with `lobby` → the lobby again (with
    the record's place in its log) → quit."""
    import tongiaki_lan.console.terminal.screen as screen_module
    from tongiaki_lan.cli import lobby as cli_lobby

    played = []

    async def game_ending_in_lobby(session, colour=True, **_view):  # (board=, page=…)
        played.append(session)
        await session.close()
        return BACK_TO_LOBBY if len(played) == 1 else 0

    monkeypatch.setattr(screen_module, "run_game_screen", game_ending_in_lobby)
    lobbies, args, out = _lobby_loop(monkeypatch, tmp_path)
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        main = asyncio.ensure_future(cli_lobby._main(args))
        await wait_until(lambda: lobbies and lobbies[0].app.is_running, what="the lobby")
        inp.send_text("name Tess\r")
        await wait_until(lambda: lobbies[0].name == "Tess")
        inp.send_text("solo 1\r")
        await wait_until(lambda: len(lobbies) == 2 and lobbies[1].app.is_running,
                         what="the lobby again")
        assert lobbies[1].name == "Tess"  # the name chosen before the game is kept
        assert any("Record saved: " + str(played[0].record_path) in t
                   for _s, t in lobbies[1].lines)
        inp.send_text("quit\r")
        assert await asyncio.wait_for(main, 30) == 0


async def test_ctrl_c_mid_game_asks_as_quit_does_and_a_second_ctrl_c_leaves(tmp_path):
    record = tmp_path / "game.tgrec"
    async with _solo_game("ctrl-c", 2, record) as (inp, screen, session, task):
        inp.send_text("place")
        await wait_until(lambda: screen.buffer.text == "place")
        inp.send_text("\x03")
        await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                         what="the question")
        assert f"the record keeps the game ({record}" in screen.message[1]
        assert screen.buffer.text == "quit" and not task.done()
        inp.send_text("x")  # typing over the offered `quit`: staying after all
        await wait_until(lambda: screen.buffer.text == "x")
        inp.send_text("\x03")  # asked again, not taken as the answer to the old question
        await wait_until(lambda: screen.buffer.text == "quit")
        assert not task.done()
        inp.send_text("\r")  # Enter answers it as after a typed `quit`
        assert await asyncio.wait_for(task, 30) == 0

    async with _solo_game("ctrl-c", 2) as (inp, screen, session, task):
        inp.send_text("\x03")
        await wait_until(lambda: "this game is not recorded" in screen.message[1])
        assert not task.done()
        inp.send_text("\x03")
        assert await asyncio.wait_for(task, 30) == 0


async def test_ctrl_d_asks_too_and_a_finished_game_is_left_at_once():
    async with _solo_game("ctrl-d", 1) as (inp, screen, session, task):
        inp.send_text("\x04")
        await wait_until(lambda: "Ctrl-D again (or Enter) leaves" in screen.message[1])
        assert not task.done() and screen.buffer.text == "quit"
        inp.send_text("\x04")
        assert await asyncio.wait_for(task, 30) == 0

    game = _finished_game()
    session = GameSession(game, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        inp.send_text("\x03")  # nothing to lose: no question
        assert await asyncio.wait_for(task, 30) == 0


async def test_ctrl_c_in_a_lan_game_asks_before_the_node_leaves_the_table(tmp_path):
    """Two real nodes on 127.0.0.1 in one game: Ctrl-C on one console asks first, the
    node stays at the table meanwhile, and the second Ctrl-C leaves it."""
    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.net.lab.loopback import close_all, make_table

    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        me, other = nodes
        await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        session = LanSession(me)
        theirs = LanSession(other)  # (the other player's game pane, without a screen)
        await theirs.start()
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen = GameScreen(session, colour=False)
            task = await _run(screen, session)
            inp.send_text("\x03")
            await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                             what="the question")
            # for good (a bot at once) or back soon, and the way back (whole, on 80x24)
            assert "a bot takes your seat at once" in screen.message[1]
            assert "'quit soon': your seat waits" in screen.message[1]
            assert "join the game marked 'yours'" in screen.message[1]
            assert not screen._message_rows()[-1].endswith("…")
            assert not task.done() and me.peer_id in other.present()
            inp.send_text("x")  # typed over the offered `quit`: staying, the question goes
            await wait_until(lambda: screen.buffer.text == "x", what="the typing")
            assert screen.message[1] == ""
            inp.send_text("\x15\x03")  # asked again
            await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                             what="the question again")
            inp.send_text("\x03")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
        await other.wait_for(lambda: me.peer_id not in other.present(), 30)
        # on the other laptop, one line: who left, and that a bot plays the seat now
        # (not the bot's moves for the seat, "p0 (B) …", which may follow at once)
        told = [t for _s, t in theirs.lines if t.startswith("p0 ") and not t.startswith("p0 (")]
        assert told == [f"p0 left for good; a bot ({other.core.handover_bot}) plays their "
                        "seat from now on."], told
        # a bot plays the seat for good: not shown as away (greyed, "Away: p0"), and the
        # table's routine lines about an absent player's seat would only contradict it
        seat = next(i for i, s in enumerate(other.lobby.seats) if s.owner == me.peer_id)
        assert not theirs.seats[seat].away
        # a screen opened after the goodbye (its player came back to the table) too
        assert not LanSession(other).seats[seat].away
        from tongiaki_lan.net.protocol import events as E

        before = len(theirs.lines)
        # a stranger who tried to join after the start: routine, not the table's business
        theirs._on_node_event(E.Refused("a4f5319da6d841fb", "Gus (a4f5319d)", "10.0.0.7:4000",
                                        "game 'g' has already started", "join"))
        theirs._on_node_event(E.Waiting(seat, "p0"))
        theirs._on_node_event(E.SeatHandedOver(seat, "p0", "search", other.peer_id.hex(), "p1"))
        assert len(theirs.lines) == before, theirs.lines[before:]
    finally:
        await close_all(nodes)

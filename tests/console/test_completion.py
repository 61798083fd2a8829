"""The command line offers exactly the legal moves, a word at a time when there are many."""

from __future__ import annotations

import asyncio
import hashlib

from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.completion import MoveCompleter
from tongiaki_lan.engine import Dealer, Game


def _screen_at(predicate):
    game = Game(["blue", "red", "green"])
    dealer = Dealer(hashlib.blake2b(b"completion", digest_size=32).digest())
    bot = make_bot("random", seed=11)
    while not predicate(game):
        dealer.apply(game, bot.choose(game))
    seats = [Seat(n, c, local=(i == game.pending.seat))
             for i, (n, c) in enumerate(zip("ABC", game.colours, strict=True))]
    from tongiaki_lan.console.terminal.screen import GameScreen

    return GameScreen(GameSession(game, seats), colour=False), game


def _complete(screen, text: str, requested: bool = False) -> list[str]:
    event = CompleteEvent(text_inserted=not requested, completion_requested=requested)
    return [c.text for c in MoveCompleter(screen).get_completions(Document(text), event)]


def test_completions_are_exactly_the_legal_moves():
    with create_app_session(output=DummyOutput()):
        screen, game = _screen_at(lambda g: g.pending.kind == "action" and g.turn > 3)
        offered = _complete(screen, "", requested=True)
        assert sorted(offered) == sorted(str(m) for m in game.legal_moves())
        assert _complete(screen, "") == []  # no menu on an empty line until Tab
        assert "colony" in _complete(screen, "col")
        assert _complete(screen, "hi") == ["hint"]


def test_tile_placements_complete_hex_first_then_direction():
    with create_app_session(output=DummyOutput()):
        screen, game = _screen_at(lambda g: g.pending.kind == "colony_tile")
        legal = [str(m) for m in game.legal_moves()]
        assert len(legal) > 24
        hexes = _complete(screen, "tile ")
        assert all(h.endswith(" ") and h.count(" ") == 2 for h in hexes)
        assert sorted(hexes) == sorted({m.rsplit(" ", 1)[0] + " " for m in legal})
        dirs = _complete(screen, hexes[0])
        assert sorted(dirs) == sorted(m for m in legal if m.startswith(hexes[0]))
        assert len(dirs) == 6


def test_a_watchers_take_offers_the_colours_as_the_panel_names_them():
    """An Italian watcher read "Il posto verde è libero: take green lo gioca." and `take v`
    Tab offered nothing: the open seats are offered by their shown names (`verde`), and
    an English name still completes when it is what is being typed."""
    from types import SimpleNamespace

    from tongiaki_lan import i18n

    seats = [SimpleNamespace(colour=c, name=n)
             for c, n in (("blue", "Ana"), ("red", "Ben"), ("green", "Maui"))]
    state = SimpleNamespace(kind="watch", over=False, from_lobby=False, seats=seats,
                            open_seat_indices=(1, 2))  # (what the completer reads of it)
    completer = MoveCompleter(SimpleNamespace(model=SimpleNamespace(state=state)))

    def offered(text):
        return [c.text for c in completer.get_completions(
            Document(text), CompleteEvent(completion_requested=True))]

    i18n.use("it")
    try:
        assert offered("take ") == ["rosso", "verde"]
        assert offered("take v") == ["verde"]
        assert offered("take gr") == ["green"]
    finally:
        i18n.use("en")
    assert offered("take ") == ["red", "green"]


def _two_player_action_with_one_tu() -> Game:
    """A 2-player game at an action where `expand Tu` has one match: `expand Tubuai`."""
    game = Game(["blue", "red"])
    dealer = Dealer(hashlib.blake2b(b"tab-0", digest_size=32).digest())
    bot = make_bot("random", seed=0)
    while len(game.moves) < 54:
        dealer.apply(game, bot.choose(game))
    return game


async def test_tab_with_one_match_puts_it_on_the_line_at_once():
    """Ben typed `expand Tub` and Tab: a one-item menu appeared and Enter sent `expand Tub`
    ("no island named 'Tub'"); the Tab had come with the last letter. And with the menu
    already open from typing, Tab left it open over the message line."""
    from prompt_toolkit.input import create_pipe_input

    from .conftest import duel_seats, start_screen, wait_until

    game = _two_player_action_with_one_tu()
    assert [m for m in map(str, game.legal_moves()) if m.startswith("expand Tu")] == [
        "expand Tubuai"]
    session = GameSession(game, duel_seats(game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        inp.send_text("expand Tub\t\r")  # (as one read: a quick typist, a terminal over ssh)
        await wait_until(lambda: screen.message[1] != "", what="the line played")
        # (this session takes no moves: its refusal names the line that Enter sent)
        assert screen.message[1].startswith("expand Tubuai: "), screen.message
        inp.send_text("expand Tu")
        await wait_until(lambda: screen.buffer.complete_state is not None
                         and len(screen.buffer.complete_state.completions) == 1,
                         what="the menu that typing opens")
        inp.send_text("\t")
        await wait_until(lambda: screen.buffer.text == "expand Tubuai", what="the completion")
        assert screen.buffer.complete_state is None  # no menu left over the message line
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0


async def test_replace_and_tab_offers_the_other_players(tmp_path):
    """`replace ` and Tab offered nothing at a LAN table: the other player's name goes on
    the line (the only one here, so at once), and Enter asks the table for that seat."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.net.lab.loopback import close_all, make_table

    from .conftest import start_screen, wait_until

    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        me, other = nodes
        await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        session = LanSession(me)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            inp.send_text("replace \t\r")
            await wait_until(lambda: screen.message[1] != "", what="the answer")
            # (p1 is at the table: its seat is not given away, and the reason names p1)
            assert screen.message[1] == ("replace: p1 is here: only an absent player's seat "
                                         "can be replaced"), screen.message
            inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all(nodes)


async def test_replace_and_tab_offers_only_a_player_who_is_away(tmp_path):
    """At a table of three, with p2's laptop gone: Tab after `replace ` put p1 on the line,
    who sat right there; it offers p2, the one whose seat can go to a bot."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.net.lab.loopback import close_all, make_table

    from .conftest import start_screen, wait_until

    nodes = await make_table(3, tmp_path, autoplay=None)
    try:
        me, _, gone = nodes
        await me.wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        await gone.close()
        await me.wait_for(lambda: gone.peer_id not in me.present(), 30)
        session = LanSession(me)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            inp.send_text("replace \t")
            await wait_until(lambda: len(screen.buffer.text) > len("replace "),
                             what="the completion")
            assert screen.buffer.text == "replace p2"
            inp.send_text("\x15\x03\x03")  # (the line cleared; Ctrl-C twice leaves)
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all(nodes)


async def test_tab_never_puts_a_whole_move_on_the_line_that_another_option_goes_beyond():
    """A full beach sails N or NW: Tab on the empty line put their common part, `sail
    Tuvalu 1 N`, on the line, a whole move, and Enter played it (a playtest's player,
    wrecked, had only asked what the options were). Tab shows them instead."""
    from prompt_toolkit.input import create_pipe_input

    from .conftest import duel_seats, start_screen, wait_until

    def n_and_nw(g: Game) -> bool:
        texts = {str(m) for m in g.legal_moves()} if g.pending else set()
        return (g.pending is not None and g.pending.kind == "departure" and len(texts) == 2
                and any(t + "W" in texts or t + "E" in texts for t in texts))

    game = Game(["blue", "red"])
    for n in range(200):
        game = Game(["blue", "red"])
        dealer = Dealer(hashlib.blake2b(f"piers-{n}".encode(), digest_size=32).digest())
        bot = make_bot("random", seed=n)
        while not game.is_over and not n_and_nw(game):
            dealer.apply(game, bot.choose(game))
        if n_and_nw(game):
            break
    assert n_and_nw(game)
    session = GameSession(game, duel_seats(game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        inp.send_text("\t")
        await wait_until(lambda: screen.buffer.complete_state is not None
                         and len(screen.buffer.complete_state.completions) == 2,
                         what="the menu of both piers")
        assert screen.buffer.text == ""  # (Enter here plays nothing)
        inp.send_text("\t")  # the next Tab picks the first option, as before
        await wait_until(lambda: screen.buffer.text in {str(m) for m in game.legal_moves()},
                         what="an option chosen")
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0


async def test_tab_with_nothing_to_complete_leaves_the_line_as_it_is():
    """The check above looked at the first option of none: a traceback filled the whole
    screen at every Tab with nothing to offer (a playtest, 4 of 4: `zz` and Tab)."""
    from prompt_toolkit.input import create_pipe_input

    from .conftest import duel_seats, start_screen, wait_until

    game = _two_player_action_with_one_tu()
    session = GameSession(game, duel_seats(game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        inp.send_text("zz\tx")  # (keys are taken in turn: the x comes after the Tab)
        await wait_until(lambda: screen.buffer.text == "zzx" or task.done(),
                         what="the line typed")
        assert not task.done() and screen.buffer.text == "zzx"
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0

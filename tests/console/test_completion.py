"""The command line offers exactly the legal moves, a word at a time when there are many."""

from __future__ import annotations

import hashlib

from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.screen import MoveCompleter
from tongiaki_lan.console.session import GameSession, Seat
from tongiaki_lan.engine import Dealer, Game


def _screen_at(predicate):
    game = Game(["blue", "red", "green"])
    dealer = Dealer(hashlib.blake2b(b"completion", digest_size=32).digest())
    bot = make_bot("random", seed=11)
    while not predicate(game):
        dealer.apply(game, bot.choose(game))
    seats = [Seat(n, c, local=(i == game.pending.seat))
             for i, (n, c) in enumerate(zip("ABC", game.colours, strict=True))]
    from tongiaki_lan.console.screen import GameScreen

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

    seats = [SimpleNamespace(colour=c) for c in ("blue", "red", "green")]
    session = SimpleNamespace(watching=True, game=SimpleNamespace(is_over=False),
                              node=SimpleNamespace(lobby=SimpleNamespace(seats=seats)),
                              open_seat_list=lambda: [1, 2], names=["Ana", "Ben", "Maui"])
    completer = MoveCompleter(SimpleNamespace(session=session))

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

"""The engine's reasons (a move that does not parse, a move the rules refuse) in the
player's language.

The engine stays English and free of any UI: it makes each reason from a template marked
with its own no-op `N_()` and named values (`engine.errors.Reason`); the console
translates the template and fills the same values in again.
"""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan import i18n
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.console.words import engine_reason
from tongiaki_lan.engine import Game, IllegalMove, parse_move
from tongiaki_lan.engine.errors import Reason

from ..console.conftest import wait_until

LANGS = ["it", "fi", "fr", "de"]

# What a new player types, and the values the reason must keep in every language.
TYPOS = {
    "aiuto": ["'aiuto'", "place, expand"],
    "place Tonga 9": ["'9'"],
    "expand": [],
    "expand Atlantis": ["'Atlantis'"],
    "expand S07": ["S07"],
    "sail Tonga 1 XY": ["'XY'"],
    "land 1:Q": ["'Q'"],
    "colony now": [],
    "tile 1 S": ["'tile 1,-2 S'"],
}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def _parse_reason(text: str) -> ValueError:
    with pytest.raises(ValueError) as refused:
        parse_move(text)
    return refused.value


@pytest.mark.parametrize("lang", LANGS)
def test_parse_errors_read_in_the_players_language(lang):
    english = {text: str(_parse_reason(text)) for text in TYPOS}
    i18n.use(lang)
    for text, keep in TYPOS.items():
        exc = _parse_reason(text)
        assert str(exc) == english[text]  # the engine itself still speaks English
        shown = engine_reason(exc)
        assert shown != english[text], (lang, text, shown)
        for value in keep:
            assert value in shown, (lang, text, shown)


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_from_the_rules_read_in_the_players_language(lang):
    game = Game(["blue", "red", "green"])
    refused = []
    for text in ("sail Samoa 1 N", "place Samoa 1", "place Tonga 1 2"):
        with pytest.raises(IllegalMove) as exc:
            game.apply(parse_move(text))
        refused.append(exc.value)
    assert all(isinstance(e.reason, Reason) for e in refused)
    english = [e.reason for e in refused]
    i18n.use(lang)
    for exc, before in zip(refused, english, strict=True):
        shown = engine_reason(exc.reason)
        assert shown != before, (lang, shown)


async def test_an_italian_game_shows_typos_and_refusals_in_italian():
    i18n.use("it")
    session = SoloSession(seed_from_text("it-reasons"), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(session.my_decision, what="our setup decision")
        cases = {
            "aiuto": "comando sconosciuto — help elenca i comandi",
            "place Tonga 9": "le spiagge vanno da 1 a 6, non '9'",
            "sail Samoa 1 N": "non ora: metti una barca su Tonga",
        }
        for text, italian in cases.items():
            inp.send_text(text + "\r")
            await wait_until(lambda t=text: screen.message[1].startswith(t + ":"),
                             what=f"the reason for {text!r}")
            assert italian in screen.message[1], screen.message[1]
            assert "not now" not in screen.message[1] and "unknown" not in screen.message[1]
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()

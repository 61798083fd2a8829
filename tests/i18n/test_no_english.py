"""No English leaks into a translated screen: for each language, the texts a whole game
shows (status line at every kind of decision, side panel, story log, a refusal, help,
the final table and result), the lobby (list, help, an error) and the `export` summary
line with the SVG's legend, checked word by word.

A word is a leak when it is one of our English texts' words and never one of that
language's: `beaches` in a German line is caught, `Tonga`, `bot` or `OK` (words both
use) are not. What stays English on purpose (docs/languages.md) is left out first: the
move and command words, placeholders the help spells in capitals, names of players,
islands, sea tiles and bot kinds, compass directions.
"""

from __future__ import annotations

import hashlib
import re

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.output import DummyOutput

from tongiaki_lan import i18n
from tongiaki_lan.bots import make_bot
from tongiaki_lan.cli.export import export_summary
from tongiaki_lan.console.lobby import COMMANDS, LobbyScreen
from tongiaki_lan.console.screen import GameScreen, refusal_text
from tongiaki_lan.console.session import GameSession, Seat
from tongiaki_lan.console.words import engine_reason, help_lines
from tongiaki_lan.engine import TILES, Dealer, Game, IllegalMove, parse_move
from tongiaki_lan.i18n import catalog
from tongiaki_lan.i18n.islands import OWN_NAMES
from tongiaki_lan.svgboard import _legend

LANGS = ["it", "fi", "fr", "de"]
WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")

# Stays as it is in every language (docs/languages.md): moves, commands, their
# placeholders, and names.
KEPT = {
    # move words and console commands
    "place", "expand", "royal", "colony", "beaches", "take", "nothing", "sail", "land",
    "tile", "help", "hint", "moves", "rules", "position", "centre", "center", "board",
    "quit", "exit", "lobby", "say", "replace", "next", "back", "first", "last", "goto",
    "solo", "create", "join", "name", "colour", "bot", "unbot", "ready", "unready",
    "start", "leave", "lock", "export", "replay", "tongiaki", "lan",
    # keys
    "ctrl", "shift", "home", "pgup", "pgdn", "tab", "enter",
    # bot kinds and players of the game below
    "random", "greedy", "search", "ana", "hina", "maui", "kupe",
}


def _vocabulary(texts) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(t)}


def _english_and_own(lang: str) -> tuple[set[str], set[str]]:
    _header, entries = catalog.read_po(catalog.po_path(lang))
    english = _vocabulary(t for e in entries.values() for t in (e.msgid, e.plural) if t)
    own = _vocabulary(s for e in entries.values() for s in e.msgstr)
    return english, own


def _names() -> set[str]:
    words = {w.lower() for t in TILES for w in WORD.findall(t.name)}
    words |= {w.lower() for own in OWN_NAMES.values() for n in own.values()
              for w in WORD.findall(n)}
    return words | {"n", "ne", "se", "s", "sw", "nw"}


def _game_texts() -> list[str]:
    """What a four-player game shows from its first decision to its final table, with
    Ana at this keyboard against three bots (so their labels show too)."""
    game = Game(["blue", "red", "green", "yellow"])
    seats = [Seat("Ana", "blue", "human", local=True), Seat("Hina", "red", "search"),
             Seat("Maui", "green", "search"), Seat("Kupe", "yellow", "greedy")]
    session = GameSession(game, seats)
    dealer = Dealer(hashlib.blake2b(b"leaks", digest_size=32).digest())
    bot = make_bot("random", seed=5)
    texts: list[str] = []
    seen: set[tuple] = set()
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        texts += help_lines() + [help_lines(word)[0] for word in ("sail", "land", "nope")]
        while not game.is_over:
            p = game.pending
            key = (p.kind, p.seat in session.local_seats(), bool(session.bot_deciding()))
            if key not in seen:
                seen.add(key)
                texts += [screen.status_text(), screen.panel_text(32)]
            try:
                game.copy().apply(parse_move("expand Tonga"))
            except IllegalMove as exc:
                if len(texts) < 40:
                    texts.append(refusal_text("expand Tonga", exc))
            dealer.apply(game, bot.choose(game))
            session._drain_events()
            session.changed()
        texts += [screen.status_text(), screen.panel_text(32)]
        texts += ["".join(t for _s, t in line) for line in screen.final_lines(80)]
    texts += [t for _s, t in session.lines]
    try:
        parse_move("sail Nowhere 9 X")
    except ValueError as exc:
        texts.append(engine_reason(exc))
    return texts


async def _lobby_texts() -> list[str]:
    lobby = LobbyScreen("Ana", lan=False, colour_output=False)
    await lobby.start_network()
    texts = ["".join(t for _s, t in line) for line in lobby.draw_top(80, 30)]
    await lobby.command("help")
    await lobby.command("frobnicate")
    await lobby.command("join 3")
    texts += [t for _s, t in lobby.lines] + [lobby.message, lobby._status()[1]]
    texts += [i18n._(h) for h in COMMANDS.values()]
    return texts


def _export_texts() -> list[str]:
    game = Game(["blue", "red"])
    dealer = Dealer(hashlib.blake2b(b"leaks-svg", digest_size=32).digest())
    bot = make_bot("random", seed=2)
    while not game.is_over:
        dealer.apply(game, bot.choose(game))
    title = i18n._("final position")
    return ([export_summary("board.svg", title, len(game.placed_tiles())),
             export_summary("one.svg", title, 1)]
            + [text for _c, _col, text in _legend(game, {"blue": "Ana", "red": "Hina"}, title)])


@pytest.mark.parametrize("lang", LANGS)
async def test_no_english_word_leaks_into_a_translated_game_lobby_or_export(lang):
    english, own = _english_and_own(lang)
    allowed = own | KEPT | _names()
    i18n.use(lang)
    try:
        texts = _game_texts() + await _lobby_texts() + _export_texts()
    finally:
        i18n.use("en")
    assert len(texts) > 60
    leaks = {}
    for text in texts:
        for w in leaked(text, english, allowed):
            leaks.setdefault(w, text)
    assert not leaks, "\n".join(f"{w!r} in: {t}" for w, t in leaks.items())
    # (and the check does find English: the same story line left untranslated)
    assert {"expands", "and"} <= set(leaked("Ana (B) expands on Samoa: new ships on beaches 1 "
                                            "and 2.", english, allowed))


def leaked(text: str, english: set[str], allowed: set[str]) -> list[str]:
    """The words of `text` that are English and not the language's own (nor kept).
    Placeholders the help spells in capitals (ISLAND, B, PIER…) are left to the
    catalogue checks; a file name, a path or a seed is not a word."""
    text = re.sub(r"\S*[/\\.]\S*|\b[0-9a-f]{12}\b", " ", text)
    return [word.lower() for word in WORD.findall(text)
            if word.lower() in english and word.lower() not in allowed and not word.isupper()]

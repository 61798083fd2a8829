"""The console in English, Italian, Finnish, French and German: complete catalogues that
match their compiled form, the language picked from --lang or the environment, and the
real game screen drawn in each language."""

from __future__ import annotations

import asyncio
import io
import os
import re
import sys
from pathlib import Path

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan import i18n
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.i18n import catalog

from ..console.conftest import wait_until
from ..own_tmux import TMUX, Terminal

REPO = Path(__file__).resolve().parents[2]

LANGS = ["it", "fi", "fr", "de"]


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_catalogue_is_complete_and_its_mo_matches_it(lang):
    assert catalog.problems(lang) == []


def test_the_check_finds_missing_stale_untranslated_and_misplaced_texts(tmp_path, monkeypatch):
    """The completeness check can fail: a catalogue with one text dropped, one stale,
    one untranslated and one with a wrong placeholder is reported four times over."""
    path = tmp_path / "it" / "LC_MESSAGES" / "tongiaki_lan.po"
    header, entries = catalog.read_po(catalog.po_path("it"))
    items = list(entries.values())
    dropped, untranslated, misplaced = items[0], items[1], items[2]
    untranslated.msgstr = [""] * len(untranslated.msgstr)
    misplaced.msgstr = [s + " {oops}" for s in misplaced.msgstr]
    stale = catalog.Entry("a text the code no longer has", msgstr=["testo"])
    catalog.write_po(path, "it", [*items[1:], stale])
    monkeypatch.setattr(catalog, "po_path", lambda lang: path)
    found = catalog.problems("it")
    assert any("not in the catalogue" in p and repr(dropped.msgid)[:20] in p for p in found)
    assert any("no longer in the source" in p for p in found)
    assert any("untranslated" in p for p in found)
    assert any("placeholders" in p and "oops" in p for p in found)
    assert any("does not match its .po" in p for p in found)


def test_no_function_hides_the_translation_function(tmp_path):
    assert catalog.hidden_translations() == []
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "m.py").write_text(
        "from tongiaki_lan.i18n import _\n"
        "def command(text):\n"
        "    word, _, rest = text.partition(' ')\n"
        "    return _('unknown command {w}').format(w=word)\n")
    (found,) = catalog.hidden_translations(pkg)
    assert "m.py:4" in found


def test_the_language_comes_from_lang_or_the_environment(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert i18n.language_from_environment("linux") == "en"
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert i18n.language_from_environment() == "it"
    monkeypatch.setenv("LC_ALL", "C")  # LC_ALL overrides LANG, and C means English
    assert i18n.language_from_environment() == "en"
    monkeypatch.setenv("LANGUAGE", "xx:fi:de")  # gettext's priority list
    assert i18n.language_from_environment() == "fi"
    assert i18n.use("fr_FR.UTF-8") == "fr" and i18n._("Thinking…") == "Réflexion…"
    assert i18n.use(None) == "fi" and i18n._("Thinking…") == "Mietitään…"
    with pytest.raises(ValueError, match="choose one of: en"):
        i18n.use("tlh")


def _no_variables(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)


def test_on_windows_the_users_display_language_is_found(monkeypatch):
    """Windows sets none of the POSIX variables: its display language (a language id,
    0x0410 for Italian) decides, through ctypes as on a real Windows."""
    import ctypes
    import types

    _no_variables(monkeypatch)
    ui = {"id": 0x0410}
    kernel32 = types.SimpleNamespace(GetUserDefaultUILanguage=lambda: ui["id"])
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32),
                        raising=False)
    assert i18n.language_from_environment("win32") == "it"
    ui["id"] = 0x040B  # Finnish
    assert i18n.language_from_environment("win32") == "fi"
    ui["id"] = 0x0411  # Japanese: not one of ours
    assert i18n.language_from_environment("win32") == "en"
    monkeypatch.setenv("LANG", "de_DE.UTF-8")  # a variable set by hand still wins
    assert i18n.language_from_environment("win32") == "de"
    assert i18n.use("fr") == "fr"  # and --lang over everything
    i18n.use("en")


def test_on_windows_without_the_api_english_not_a_crash(monkeypatch):
    import ctypes

    _no_variables(monkeypatch)
    monkeypatch.delattr(ctypes, "windll", raising=False)
    assert i18n.language_from_environment("win32") == "en"


def test_on_macos_the_first_supported_preferred_language_is_found(monkeypatch):
    import subprocess

    _no_variables(monkeypatch)
    said = {"out": '(\n    "ja-JP",\n    "fr-CA",\n    "en-US"\n)\n', "code": 0}
    calls = []

    def defaults(argv, **kw):
        calls.append(argv)
        return subprocess.CompletedProcess(argv, said["code"], said["out"], "")

    monkeypatch.setattr(subprocess, "run", defaults)
    assert i18n.language_from_environment("darwin") == "fr"  # Japanese is not ours
    assert calls == [["defaults", "read", "-g", "AppleLanguages"]]
    said["code"] = 1  # no such setting
    assert i18n.language_from_environment("darwin") == "en"

    def missing(argv, **kw):
        raise FileNotFoundError("defaults")

    monkeypatch.setattr(subprocess, "run", missing)
    assert i18n.language_from_environment("darwin") == "en"
    monkeypatch.setenv("LC_ALL", "it_IT.UTF-8")
    assert i18n.language_from_environment("darwin") == "it"


# What each language must show on the first screen of a solo game, after `help` and
# `rules`: the status line, the panel's column head, a line of help, a rule, a log line.
EXPECTED = {
    "en": ["Your decision", "player", "Tab lists exactly the legal ones",
           "S3  Setup: going round", "New game, seed"],
    "it": ["Tua decisione", "giocatore", "Tab elenca esattamente quelle legali",
           "S3  Preparazione:", "Nuova partita, seme"],
    "fi": ["Sinun päätöksesi", "pelaaja", "Tab luettelee täsmälleen sallitut",
           "S3  Aloitus:", "Uusi peli, siemen"],
    "fr": ["Ta décision", "joueur", "Tab liste exactement les coups légaux",
           "S3  Mise en place :", "Nouvelle partie, graine"],
    "de": ["Deine Entscheidung", "Spieler", "Tab listet genau die erlaubten",
           "S3  Vorbereitung:", "Neue Partie, Startwert"],
}
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


@pytest.mark.parametrize("lang", ["en", *LANGS])
async def test_the_game_screen_in_each_language(lang, tmp_path):
    i18n.use(lang)
    session = SoloSession(seed_from_text("languages"), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=40, columns=140), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        screen = GameScreen(session, colour=False)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(lambda: screen.app.is_running, what="the application to start")
        await wait_until(session.my_decision, what="our first decision")
        before = len(session.lines)
        inp.send_text("help\r")
        await wait_until(lambda: len(session.lines) > before, what="the help")
        inp.send_text("rules\r")
        await wait_until(lambda: any(t.startswith("S3  ") for _, t in session.lines),
                         what="the rules")
        inp.send_text("expand Tonga\r")  # a refusal, in the player's language
        await wait_until(lambda: bool(screen.message[1]), what="the refusal")
        refusal = screen.message[1]
        screen.app.invalidate()
        await wait_until(lambda: "S3" in ANSI.sub("", stream.getvalue())[-20000:],
                         what="a redraw")
        inp.send_text("quit\r\r")  # mid-game: the second Enter confirms
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()
    drawn = ANSI.sub("", stream.getvalue())
    texts = [screen.status_text(), screen.panel_text(width=40), *(t for _, t in session.lines)]
    for word in EXPECTED[lang]:
        assert any(word in t for t in texts), f"{lang}: {word!r} not shown"
    # What the terminal received, not only what the screen computed:
    assert EXPECTED[lang][0] in drawn and EXPECTED[lang][1] in drawn
    if lang != "en":
        assert "Your decision" not in drawn and "player " not in drawn
        assert refusal.startswith("expand Tonga") and "rules S3" in refusal
    assert "Tonga" in drawn  # tile names are the same in every language


@pytest.mark.tmux
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)")
def test_a_game_screen_in_italian_from_lang(tmp_path):
    """LANG alone (no --lang) gives an Italian game in a real terminal, `rules` included."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    env.update(TERM="xterm-256color", HOME=str(tmp_path), LANG="it_IT.UTF-8",
               PYTHONPATH=str(REPO))
    command = (f"{sys.executable} -m tongiaki_lan solo --bots 2 --bot random --pace 0 "
               f"--seed italiano --no-record --name Tester")
    term = Terminal("italian", command, env, str(tmp_path), width=100, height=30)
    try:
        screen = term.wait_for(lambda s: "Tua decisione" in s, "the Italian status line")
        assert "giocatore" in screen and "Nuova partita" in screen
        assert "Pila: 15 isole, 16 tessere mare" in screen  # plurals, the vocabulary's word
        term.send("rules", "Enter")
        screen = term.wait_for(lambda s: "S3  Preparazione:" in s, "the rule in Italian")
        assert "approdo" in screen
        term.send("place Tonga 2", "Enter")
        term.wait_for(lambda s: "Tester (B) mette una barca" in s, "the story in Italian")
    finally:
        term.close()


LOBBY = {"it": ("sala LAN", "LAN disattivata", "da 1 a 5", "questo elenco"),
         "fi": ("LAN-aula", "LAN poistettu käytöstä", "väliltä 1–5", "tämä luettelo"),
         "fr": ("salon LAN", "LAN désactivé", "de 1 à 5", "cette liste"),
         "de": ("LAN-Lobby", "LAN abgeschaltet", "von 1 bis 5", "diese Liste")}


@pytest.mark.parametrize("lang", LANGS)
async def test_the_lobby_in_each_language(lang):
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.console.terminal.lobby import LobbyScreen

    title, no_lan, bad_solo, help_line = LOBBY[lang]
    i18n.use(lang)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        task = asyncio.ensure_future(lobby.run())
        await wait_until(lambda: lobby.app.is_running, what="the lobby")
        top = "\n".join("".join(t for _, t in line) for line in lobby.draw_top(100, 20))
        assert title in top and no_lan in top
        inp.send_text("solo 9\r")
        await wait_until(lambda: bad_solo in lobby.message, what="the refusal")
        inp.send_text("help\r")
        await wait_until(lambda: any(help_line in t for _, t in lobby.lines), what="the help")
        inp.send_text("quit\r")
        assert await asyncio.wait_for(task, 30) == ("quit",)


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_status_line_of_every_own_decision_fits_80_columns(lang):
    """At 80x24 the status line is the one place that says what to type (and where a
    typed sail goes): cut off, the command's shape is lost. Every decision of a few whole
    games, as the deciding player's own, and every sail option, in every language."""
    import hashlib

    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.console.words import (
        LANDING_PLAIN,
        LANDING_THINKING,
        pending_text,
        preview_text,
    )
    from tongiaki_lan.engine import Dealer, Game, Sail

    i18n.use(lang)
    kinds: set[str] = set()
    for n in (2, 4):
        game = Game(["blue", "red", "green", "yellow"][:n])
        dealer = Dealer(hashlib.blake2b(f"status {n}".encode(), digest_size=32).digest())
        bot = make_bot("random", seed=n)
        while not game.is_over:
            p = game.pending
            if p.seat is not None:
                kinds.add(p.kind)
                _style, text = pending_text(game, ["Somebody"] * n, {p.seat})
                assert len(" " + text) <= 80, text
                for landing in (LANDING_THINKING, LANDING_PLAIN) if p.kind == "landing" else ():
                    # (while the hint chooses the landing offered; if it failed)
                    _style, text = pending_text(game, ["Somebody"] * n, {p.seat},
                                                landing=landing)
                    assert len(" " + text) <= 80, text
            for move in game.legal_moves() if p.kind == "departure" else ():
                if isinstance(move, Sail):  # the line typed shows where it goes instead
                    text = f"{move} {preview_text(game, move)}"
                    assert len(" " + text) <= 80, text
            dealer.apply(game, bot.choose(game))
    assert {"setup", "action", "departure", "landing", "colony_tile"} <= kinds


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_draw_countdown_fits_80_columns_in_every_language(lang):
    """While a fair draw waits, the status line counts down: whole at 80 columns with a
    player's name of ten letters, counting and at its end."""
    from tongiaki_lan.console.status import draw_wait_words

    i18n.use(lang)
    for left, never in ((59.2, False), (0.0, False), (0.0, True)):  # (never: the last
        text = draw_wait_words("Christophe", never, left)  # who draw are away)
        assert "Christophe" in text and len(" " + text) <= 80, text


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_the_panel_fits_its_32_columns_in_every_language(lang):
    """The side panel is 32 columns at 80x24 and clips what does not fit: every line of
    it (heads, tiles left, the end condition, the tile in hand) must be whole."""
    import hashlib

    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import TILES, Dealer, Game

    i18n.use(lang)
    longest = max((t.name for t in TILES), key=len)
    game = Game(["blue", "red", "green", "yellow"])
    dealer = Dealer(hashlib.blake2b(b"panel", digest_size=32).digest())
    bot = make_bot("random", seed=7)
    seen = set()
    while True:
        p = game.pending
        if p is None or p.seat is not None and p.kind not in seen:
            seen.add(p.kind if p is not None else "over")
            seats = [Seat(longest, c, local=(p is not None and i == p.seat))
                     for i, c in enumerate(game.colours)]
            screen = GameScreen(GameSession(game, seats), colour=False)
            for line in screen.panel_lines(32):
                text = "".join(t for _, t in line)
                assert len(text) <= 32, text
            # the column heads are clipped to fit, so check that each one is whole
            head = "".join(t for _, t in screen.panel_lines(32)[1])
            assert head.split() == [i18n._(h) for h in ("player", "res", "brd", "isl", "pts",
                                                         "K/2")], head
        if p is None:
            break
        dealer.apply(game, bot.choose(game))
    assert {"colony_tile", "over"} <= seen
    # the final table: a row per player, its column heads whole, names of up to 16
    # letters whole, every row within the map area of an 80-column terminal
    from tongiaki_lan.console.final import final_table

    names = ["Christopher Lee", "Ana", "Lea-Sophie Maier", longest][:game.n_seats]
    rows = final_table(game, names)
    heads = [i18n._(h) for h in ("player", "pts", "isl", "brd", "kings", "s+k")]
    assert any(r.split() == heads for r in rows), heads
    assert any(r.split()[:1] == [i18n._("Island")] for r in rows)
    assert all(any(r.startswith(n + " ") for r in rows) for n in names)
    screen = GameScreen(GameSession(game, [Seat(n, c) for n, c in zip(names, game.colours,
                                                                         strict=True)]),
                        colour=False)
    for line in screen.final_lines(47):  # the map area of an 80-column terminal
        text = "".join(t for _, t in line)
        assert len(text) <= 47, text


@pytest.mark.parametrize("lang", ["en", *LANGS])
def test_a_royal_island_reads_whole_on_the_compact_board(lang):
    """A compact hex is 6 columns wide: the king's word and colour letter must fit it."""
    from tongiaki_lan.console.terminal.board import C_W, compact_face

    i18n.use(lang)
    word = i18n._("King {colour}").format(colour="Y")
    assert len(word) <= C_W, word
    face = compact_face(15, 0, ((), (), ()), 3)  # Samoa, a yellow king
    assert word in ["".join(t for _, y, _s, t in face if y == row) for row in (1, 2, 3)]


def test_french_elides_de_and_que_before_a_name_that_starts_with_a_vowel():
    """"l'ordinateur d'Ana", not "de Ana": the name is only known once formatted."""
    i18n.use("fr")
    try:
        last = i18n._("Only {name}'s laptop still draws the tiles: it alone could know the "
                      "tiles to come, and if it sleeps or goes, the game waits for it to come "
                      "back.")
        assert last.format(name="Ana").startswith("Seul l'ordinateur d'Ana tire")
        assert last.format(name="Ben").startswith("Seul l'ordinateur de Ben tire")
        assert last.format(name="Émile").startswith("Seul l'ordinateur d'Émile tire")
        since = i18n._("Since {name}'s last move:")
        assert since.format(name="Ulla") == "Depuis le dernier coup d'Ulla :"
        assert since.format(name="Hina") == "Depuis le dernier coup de Hina :"
    finally:
        i18n.use("en")
    assert i18n._("Since {name}'s last move:").format(name="Ana") == "Since Ana's last move:"

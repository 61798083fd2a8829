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
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.input import refusal_text
from tongiaki_lan.console.lobbyinput import COMMANDS
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.console.terminal.screen import GameScreen
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
    # guests at a LAN table: the commands and the words of `guests WORD`
    "watch", "follow", "chat", "guests", "open", "quiet", "closed",
    # keys
    "ctrl", "shift", "home", "pgup", "pgdn", "tab", "enter",
    # bot kinds and players of the game below
    "random", "greedy", "search", "ana", "hina", "maui", "kupe",
    # the LAN table of the guests' texts below, its players and its watcher
    "reef", "bea", "dan", "eve",
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
             Seat("Maui", "green", "easy"), Seat("Kupe", "yellow", "hard")]  # (levels: words)
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


async def _guest_texts() -> list[str]:
    """What guests at a LAN table and the players see of them (console/feeds/lan.py): the
    watcher's screen (its first lines, status, prompt, help, a refused move, `follow`,
    `take`, an open seat, its chat refused), the players' (who watches, a seat taken, a
    watcher's line, `guests`), the lobby's list of a running game and its refusals."""
    from types import SimpleNamespace

    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.console.feeds.lanfacts import set_guests
    from tongiaki_lan.net.aio.discovery import GameInfo
    from tongiaki_lan.net.protocol import events as E
    from tongiaki_lan.net.protocol import lobby as L
    from tongiaki_lan.net.protocol.codec import Join

    ana, bea, dan = bytes([1]) * 8, bytes([2]) * 8, bytes([3]) * 8

    class Node:
        def __init__(self, me: bytes, watching: bool):
            lb = L.new_lobby("Reef", 2, False, ana, "Ana", "", 1)
            self.lobby = L.apply_request(lb, bea, ("10.0.0.9", 4000), Join("Bea", ""))
            self.peer_id, self.game, self.game_id = me, Game(["blue", "red"]), b"g" * 8
            self.core = SimpleNamespace(watching=watching, feeder=ana if watching else None,
                                        table_moves=lambda: 0,
                                        caught_up_with_table=lambda: True)
            self.open, self.watchers = [], [{"peer": dan.hex(), "name": "Dan"}]
            self.name = "Dan" if watching else "Ana"

        def lobby_json(self):
            return {"watchers": self.watchers, "open_seats": self.open, "seats": []}

        def present(self):
            return {ana, bea}

        def coordinator(self):
            return ana

        def add_listener(self, fn):
            pass

        def chat(self, text):
            pass

        def set_guests(self, bits):
            pass

    texts: list[str] = []
    with create_app_session(output=DummyOutput()):
        watcher = Node(dan, True)
        session = LanSession(watcher)
        screen = GameScreen(session, colour=False)
        await session.start()
        texts += [screen.status_text(), screen.prompt_text()]
        await screen.command("expand Tonga")
        texts.append(screen.message[1])
        await screen.command("help")
        texts += [session.follow("zz"), session.follow("Be"), screen.status_text(),
                  session.take("")]
        session.follow("")
        watcher.open = [1]
        session._on_node_event(E.LobbyChanged({}))
        texts += [session.take("green"), i18n._(session.commands()["follow"][0])]
        for reason in (*L.GUEST_REFUSALS, "watchers do not chat at this table"):
            session._on_node_event(E.GuestRefused(reason.format(name="'Reef'",
                                                                colour="red")))
        session._on_node_event(E.SeatTaken([1], "Dan", "Bea", dan.hex(), True))
        texts += [t for _s, t in session.lines]
        player = Node(ana, False)
        player.watchers = []
        theirs = LanSession(player)
        player.watchers = [{"peer": dan.hex(), "name": "Dan"}]
        for ev in (E.WatchersChanged(player.watchers),
                   E.ChatLine(dan.hex(), "Dan", "ok", True)):
            theirs._on_node_event(ev)
        texts += [GameScreen(theirs, colour=False).panel_text(32)]  # (`Watching: Dan`)
        theirs._on_node_event(E.SeatTaken([1], "Dan", "Bea", dan.hex(), False))
        player.watchers = [{"peer": bea.hex() * 2, "name": "Eve"}]
        theirs._on_node_event(E.WatchersChanged(player.watchers))
        player.watchers = []
        theirs._on_node_event(E.WatchersChanged([]))
        texts += [t for _s, t in theirs.lines]
        texts += [set_guests(player, ""), set_guests(player, "quiet")]
        texts += [i18n._(h) for h, _f in theirs.commands().values()]
        lobby = LobbyScreen("Dan", lan=False, colour_output=False)
        lobby.lan_error = None
        lobby.discovery = SimpleNamespace(games=lambda: [
            GameInfo(b"g" * 8, "Reef", "playing", 2, 2, True, 0.0, (), 1, True)])
        lobby.node = watcher
        texts += ["".join(t for _s, t in row) for row in lobby.draw_top(80, 30)]
        texts.append(lobby._status()[1])
        for typed in ("watch 3", "guests open"):
            await lobby.command(typed)
            texts.append(lobby.message)
    for n in (1, 40):
        texts.append(i18n.ngettext("join: {game} is running, {n} move in; you may watch: "
                                   "watch {number}", "join: {game} is running, {n} moves in; "
                                   "you may watch: watch {number}", n).format(
            game="Reef", n=n, number=1))
    texts.append(i18n._("Since {name}'s last move:").format(name="Bea"))
    return [t for t in texts if t]


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


# how each language names the `easy` level (Maui's on the panel)
LEVEL_WORDS = {"it": "facile", "fi": "helppo", "fr": "facile", "de": "leicht"}


@pytest.mark.parametrize("lang", LANGS)
async def test_no_english_word_leaks_into_a_translated_game_lobby_or_export(lang):
    english, own = _english_and_own(lang)
    allowed = own | KEPT | _names()
    i18n.use(lang)
    try:
        texts = _game_texts() + await _lobby_texts() + _export_texts()
        texts += await _guest_texts()
    finally:
        i18n.use("en")
    assert len(texts) > 60
    # a level is a word of the player's language on the panel (its English name may be in
    # the language's own help, as the command takes it, so the check below would pass it)
    shown = LEVEL_WORDS[lang]
    assert any(f"({shown})" in t for t in texts)
    assert not any("(easy)" in t or "(hard)" in t for t in texts)
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

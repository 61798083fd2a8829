"""At 80x24 the side panel keeps every seat's row and says which seats bots play, in
every phase, for tables of two to six, in English and in the long languages.

At 80x24 the panel has ten lines. A table of six (five bots) lost "Hina, Maui, Kupe, Rata,
Tangaroa — bots (normal)" from the start, and a LAN table of four at a landing ("Drawn:",
"At sea:") lost its bots' line: a player could not tell that a bot played a colour. Now
the panel shortens its other lines first and says the bots by their rows' colour letters.

Each test runs the real prompt_toolkit Application into an in-memory 80x24 VT100 terminal
and reads the side column cell by cell."""

from __future__ import annotations

import asyncio
import hashlib
import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.engine import Dealer, Game
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.variant import TWO_COLOURS, with_variant
from tongiaki_lan.i18n import _, use
from tongiaki_lan.net.lab.simnet import SimNet

from .conftest import start_screen, terminal_rows, wait_until
from .simconsole import SimConsoleNode

COLOURS = ("blue", "red", "green", "yellow", "orange", "purple")
LETTERS = "BRGYOP"
NAMES = ("Ana", "Hina", "Maui", "Kupe", "Rata", "Tangaroa")
# what says the five bots' seats at 80x24, in the player's language
BOTS = {"en": "Bots (normal): R G Y O P", "de": "Bots (normal): R G Y O P",
        "fi": "Botit (normaali): R G Y O P"}


def _landing(game: Game) -> bool:
    p = game.pending
    return p is not None and p.kind == D.LANDING and len(game.group_at_sea()) > 1


PHASES = {
    "landing": lambda g: len(g.moves) > 20 and _landing(g),
    "departure": lambda g: len(g.moves) > 20 and g.pending.kind == D.DEPARTURE,
    "new colony": lambda g: len(g.moves) > 20 and g.pending.kind == D.COLONY_TILE,
    "game end": lambda g: False,
}


def _played(n: int, until) -> Game:
    game = Game(list(COLOURS[:n]))
    dealer = Dealer(hashlib.blake2b(b"panel", digest_size=32).digest())
    bot = make_bot("random", seed=7)
    while not game.is_over and not until(game):
        dealer.apply(game, bot.choose(game))
    return game


async def _side_column(session) -> list[str]:
    """The side column of an 80x24 terminal showing `session`'s game screen."""
    output = Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        screen, task = await start_screen(session)
        await wait_until(lambda: any(r[47:48] == "│" for r in terminal_rows(screen, 80, 24)),
                         what="the game screen")
        rows = [r[48:].rstrip() for r in terminal_rows(screen, 80, 24)]
        screen.app.exit(result=0)
        await asyncio.wait_for(task, 30)
    return rows[:rows.index("─" * 32)]  # the panel, down to its rule


def _seat_rows(panel: list[str], names, letters: str) -> list[str]:
    """The panel's row of each seat (name, then the colour letter), in seat order."""
    return [next((r for r in panel if r[2:].startswith(f"{name:<8} {letter}")), f"{name}?")
            for name, letter in zip(names, letters, strict=True)]


@pytest.mark.parametrize("lang", ["en", "de", "fi"])
@pytest.mark.parametrize("phase", list(PHASES))
async def test_a_table_of_six_keeps_every_seat_and_its_bots(phase, lang):
    use(lang)
    try:
        game = _played(6, PHASES[phase])
        me = game.pending.seat if game.pending is not None else 0
        seats = [Seat(NAMES[0] if i == me else NAMES[i] if i else NAMES[me], c,
                      kind="human" if i == me else "normal", local=i == me)
                 for i, c in enumerate(game.colours)]
        panel = await _side_column(GameSession(game, seats))
        names = [s.name for s in seats]
        assert all(not r.endswith("?") for r in _seat_rows(panel, names, LETTERS)), panel
        bots = " ".join(LETTERS[i] for i in range(6) if i != me)
        assert BOTS[lang].replace("R G Y O P", bots) in panel, panel
        if phase == "landing":
            assert any(r.startswith(("At sea: ", "Auf See: ", "Merellä: ")) for r in panel)
    finally:
        use("en")


def _lan_landing(seed: int):
    """Ana's laptop and Ben's at a LAN table of four with two bots, stopped at a landing
    with two or more ships at sea (on the simulated LAN)."""
    net = SimNet(seed=seed, think=1.0)
    nodes = net.table(2, bots=2)
    net.run_until(lambda: _landing(nodes[0].game) and len(nodes[0].game.moves) > 20, 3600)
    return LanSession(SimConsoleNode(net, nodes[0]))


@pytest.mark.parametrize("lang,at_sea,bots", [
    ("en", "At sea: ", ("p1, Maui, Hina — bots (random)", "Bots (random): R G Y")),
    ("fi", "Merellä: ", ("p1, Maui, Hina — botit (random)", "Botit (random): R G Y"))])
async def test_a_lan_table_of_four_keeps_its_bots_at_a_landing(lang, at_sea, bots):
    """p0's screen; p1 is a laptop that plays with a bot, Maui and Hina the table's bots."""
    use(lang)
    try:
        session = _lan_landing(3)
        panel = await _side_column(session)
        assert all(not r.endswith("?") for r in _seat_rows(panel, session.names, "BRGY")), panel
        assert any(r.startswith(at_sea) for r in panel), panel
        assert any(r in bots for r in panel), panel
    finally:
        use("en")


@pytest.mark.parametrize("lang", ["en", "it", "fi", "fr", "de"])
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
async def test_every_table_size_and_language_says_who_plays_each_seat(n, lang):
    """Two to six seats, every phase: Ben (the second seat) a person whose laptop is
    away, the others but ours bots; each bot seat is named on a bots' line or its colour
    letter is on one, and Ben is said away (by name or letter)."""
    use(lang)
    try:
        for phase, until in PHASES.items():
            game = _played(n, until)
            me = game.pending.seat if game.pending is not None else 0
            ben = (me + 1) % n
            seats = [Seat(f"Player{i}", c, kind="human" if i == me else "remote" if i == ben
                          else "normal", local=i == me, away=i == ben)
                     for i, c in enumerate(game.colours)]
            panel = await _side_column(GameSession(game, seats))
            rows = _seat_rows(panel, [s.name for s in seats], LETTERS[:n])
            assert all(not r.endswith("?") for r in rows), (phase, panel)
            below = panel[panel.index(rows[-1]) + 1:]
            bots = [i for i in range(n) if i not in (me, ben)]
            said = next((r for r in below if "Bot" in r or "bot" in r), "")
            assert all(f"Player{i}" in " ".join(below) for i in bots) or all(
                f" {LETTERS[i]}" in said for i in bots), (phase, panel)
            if not game.is_over:
                away = next(r for r in below if r.startswith(_("Away: ")) or " · " in r)
                assert f"Player{ben}" in away or f" {LETTERS[ben]}" in away, (phase, panel)
    finally:
        use("en")



@pytest.mark.parametrize("phase", list(PHASES))
async def test_a_two_colour_table_names_its_bot_in_every_phase(phase):
    """Two colours each (V1): Hina's two seats take one line either way, so the panel says
    `Hina — bot (normal)`, not `Bots (normal): R Y` (letters only where they save a line,
    and a name reads better than letters), and keeps all four rows."""
    def until(g: Game) -> bool:
        return g.is_over or PHASES[phase](g)

    game = with_variant(Game(list(COLOURS[:4])), TWO_COLOURS)
    dealer = Dealer(hashlib.blake2b(b"panel-two", digest_size=32).digest())
    bot = make_bot("random", seed=3)
    while not until(game):
        dealer.apply(game, bot.choose(game))
    seats = [Seat("Ana", c, "human", local=True) if i % 2 == 0 else Seat("Hina", c, "normal")
             for i, c in enumerate(game.colours)]
    panel = await _side_column(GameSession(game, seats))
    assert all(not r.endswith("?") for r in _seat_rows(panel, [s.name for s in seats],
                                                       "BRGY")), panel
    assert "Hina — bot (normal)" in panel, panel
    assert not any(r.startswith("Bot") for r in panel), panel
    if phase == "landing":
        assert any(r.startswith("At sea: ") for r in panel), panel

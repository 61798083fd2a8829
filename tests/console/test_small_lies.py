"""The console's small lies (issue 45): a line that says something untrue, or promises what
does not happen. Each test drives the real application (pipe input) or renders what the
player reads, and checks that what is said is what happens."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan import i18n
from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.console.words import fill_text
from tongiaki_lan.engine import Dealer, Game

from .conftest import wait_until
from .test_landing_offer import _random_hint
from .test_landing_offer import _session as _landing_session

BACKSPACE = "\x7f"
CTRL_C = "\x03"


async def _run(screen: GameScreen, session):
    await session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    return task


@contextlib.asynccontextmanager
async def _at_our_landing(tmp_path):
    """A game screen at our landing, its hint's landing offered on the line: the session,
    the hint as typed, the input, the screen and the application's task."""
    session = _landing_session(tmp_path)
    hinted = str(_random_hint(session.game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(lambda: screen.buffer.text == hinted, what="the landing offer")
        yield session, hinted, inp, screen, task
    await session.close()


# ------------------------------------------------------------------ leaving, taken back


async def test_a_ctrl_c_taken_back_at_our_landing_puts_the_hint_back_and_enter_takes_it(
        tmp_path):
    """At our landing the status line says "Enter takes the hint". A Ctrl-C put `quit` on
    the line in its place; Backspace took `quit` off again, and then Enter on the empty
    line did nothing while the status still promised the hint. The hint's landing comes
    back on the emptied line, and Enter lands it."""
    async with _at_our_landing(tmp_path) as (session, hinted, inp, screen, task):
        inp.send_text(CTRL_C)
        await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                         what="the question")
        assert screen.buffer.text == "quit"
        inp.send_text(BACKSPACE * 4)  # staying after all
        await wait_until(lambda: screen.buffer.text == hinted, what="the offer back")
        assert screen.status_text().endswith(": Enter takes the hint")
        assert "leaves" not in screen.message[1]
        assert screen.message[1].startswith(f"Hint: {hinted} (Enter plays it)")
        moves = len(session.game.moves)
        inp.send_text("\r")
        await wait_until(lambda: len(session.game.moves) > moves, what="the landing")
        assert str(session.game.moves[moves]) == hinted
        assert not task.done()
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0


async def test_at_our_landing_the_status_promises_the_hint_only_while_the_line_holds_it(
        tmp_path):
    """Something typed over the landing offered (here over the `quit` a Ctrl-C put there)
    is what Enter plays: the status line no longer says "Enter takes the hint" then, and
    says it again once the line is emptied and the hint's landing is back on it."""
    async with _at_our_landing(tmp_path) as (session, hinted, inp, screen, task):
        inp.send_text(CTRL_C)
        await wait_until(lambda: screen.buffer.text == "quit", what="the question")
        inp.send_text("land 9")
        await wait_until(lambda: screen.buffer.text == "land 9", what="the typing")
        status = screen.status_text()
        assert "Enter takes the hint" not in status
        assert status.startswith("Your decision: ") and "— land BEACH:COLOURS …" in status
        assert screen.message == ("", "")  # (the question went with the first letter)
        inp.send_text(BACKSPACE * 6)
        await wait_until(lambda: screen.buffer.text == hinted, what="the offer back")
        assert screen.status_text().endswith(": Enter takes the hint")
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0


@pytest.mark.parametrize("typed, said", [
    ("rules", ""), ("frob", "frob: unknown command"), ("centre Nowhere", "centre: "),
    ("land 9:B", "land 9:B: "),
])
async def test_after_a_command_at_our_landing_the_hints_landing_is_back_on_the_line(
        tmp_path, typed, said):
    """`rules` (or `moves`, or a typo) typed over the landing offered left the line empty
    under "Enter takes the hint", and Enter did nothing; only a refused landing got the
    offer back. Every command that leaves the line empty now does, and Enter lands it."""
    async with _at_our_landing(tmp_path) as (session, hinted, inp, screen, task):
        inp.send_text(typed)
        await wait_until(lambda: screen.buffer.text == typed, what="the typing")
        inp.send_text("\r")
        await wait_until(lambda: screen.buffer.text == hinted, what="the offer back")
        assert screen.status_text().endswith(": Enter takes the hint")
        assert screen.message[1].startswith(said), screen.message
        moves = len(session.game.moves)
        inp.send_text("\r")
        await wait_until(lambda: len(session.game.moves) > moves, what="the landing")
        assert str(session.game.moves[moves]) == hinted
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0


async def test_ctrl_d_leaves_from_our_landing_as_the_help_says(tmp_path):
    """The help says "Ctrl-C or Ctrl-D leaves"; at our landing the line holds the hint's
    landing, and Ctrl-D did nothing there (it left only from an empty line). It asks, as
    Ctrl-C does, and a second Ctrl-D leaves."""
    async with _at_our_landing(tmp_path) as (session, hinted, inp, screen, task):
        inp.send_text("\x04")
        await wait_until(lambda: "Ctrl-D again (or Enter) leaves" in screen.message[1],
                         what="the question")
        assert screen.buffer.text == "quit" and not task.done()
        inp.send_text("\x04")
        assert await asyncio.wait_for(task, 30) == 0


async def test_the_hint_says_enter_plays_it_only_while_its_move_is_on_the_line(tmp_path):
    """At our landing the message line said "Hint: land … (Enter plays it)" while the
    player typed another landing over it, which Enter then played. The hint's line goes
    when its move leaves the line, and comes back with it."""
    async with _at_our_landing(tmp_path) as (session, hinted, inp, screen, task):
        assert screen.message[1].startswith(f"Hint: {hinted} (Enter plays it)")
        inp.send_text("l")
        await wait_until(lambda: screen.buffer.text == "l", what="the typing")
        assert "Enter plays it" not in screen.message[1]
        inp.send_text(BACKSPACE)
        await wait_until(lambda: screen.buffer.text == hinted, what="the offer back")
        assert screen.message[1].startswith(f"Hint: {hinted} (Enter plays it)")
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0


async def test_the_leaving_question_goes_when_the_line_no_longer_says_quit(tmp_path):
    """Ctrl-C asked "Ctrl-C again (or Enter) leaves" with `quit` on the line. Backspace
    took `quit` away and a move was typed: the question stayed on screen above the move.
    It goes as soon as the line says something else, and Enter plays the move."""
    session = SoloSession(seed_from_text("lies-quit"), solo_seats(2, "Tester", "random"),
                          record_path=tmp_path / "game.tgrec", pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(session.my_decision, what="our setup decision")
        inp.send_text(CTRL_C)
        await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                         what="the question")
        inp.send_text(BACKSPACE)  # `qui` no longer leaves
        await wait_until(lambda: screen.buffer.text == "qui", what="the backspace")
        assert screen.message == ("", "")
        inp.send_text(BACKSPACE * 3 + "place Tonga 3")
        await wait_until(lambda: screen.buffer.text == "place Tonga 3", what="the move")
        assert "leaves" not in screen.message[1]
        moves = len(session.game.moves)
        inp.send_text("\r")
        await wait_until(lambda: len(session.game.moves) > moves, what="the move played")
        assert str(session.game.moves[moves]) == "place Tonga 3"
        assert not task.done()
        # and a `quit soon`-like line that still begins with the word keeps the question
        inp.send_text(CTRL_C)
        await wait_until(lambda: "Ctrl-C again (or Enter) leaves" in screen.message[1],
                         what="the question again")
        inp.send_text(" now")
        await wait_until(lambda: screen.buffer.text == "quit now", what="the words")
        assert "Ctrl-C again (or Enter) leaves" in screen.message[1]
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


# ------------------------------------------------------------------ one beach, or several


def _one_beach_with_a_choice_of_piers() -> tuple[Game, object, object]:
    """A 3-player game at a choice of beaches where one option fills a single beach that
    has two piers to choose from, and another fills two beaches: (game, one, two)."""
    for n in range(100):
        game = Game(["blue", "red", "green"])
        dealer = Dealer(hashlib.blake2b(f"t{n}".encode(), digest_size=32).digest())
        bot = make_bot("random", seed=n)
        while not game.is_over:
            if game.pending.kind == "expand_beaches":
                found = {}
                for m in game.legal_moves():
                    trial = game.copy(undo=False)
                    trial.apply(m)
                    if trial.pending is not None and trial.pending.kind == "departure":
                        beaches = {s.beach for s in trial.legal_moves()}
                        found.setdefault(len(beaches), m)
                if 1 in found and 2 in found:
                    return game, found[1], found[2]
            dealer.apply(game, bot.choose(game))
    raise AssertionError("no such choice of beaches")


@pytest.mark.parametrize("lang, one, several", [
    ("en", "→ beach {b} fills: you choose the pier it sails by",
     "→ beaches {b} fill: you choose which sails first"),
    ("it", "→ la spiaggia {b} si riempie", "→ le spiagge {b} si riempiono"),
    ("fi", "→ ranta {b} täyttyy", "→ rannat {b} täyttyvät"),
    ("fr", "→ la plage {b} est complète", "→ les plages {b} sont complètes"),
    ("de", "→ Strand {b} wird voll", "→ die Strände {b} werden voll"),
])
def test_a_choice_that_fills_one_beach_says_beach_not_beaches(lang, one, several):
    """Tab and the status line said "→ beaches 1 fill: you choose which sails first" for
    a choice that filled beach 1 alone: one beach, and the choice left is its pier."""
    game, fills_one, fills_two = _one_beach_with_a_choice_of_piers()
    trial = game.copy(undo=False)
    trial.apply(fills_one)
    (beach,) = {m.beach + 1 for m in trial.legal_moves()}
    trial = game.copy(undo=False)
    trial.apply(fills_two)
    two = sorted(m.beach + 1 for m in trial.legal_moves())
    i18n.use(lang)
    try:
        said_one, said_two = fill_text(game, fills_one), fill_text(game, fills_two)
        assert said_one.startswith(one.format(b=beach)), said_one
        assert said_two.startswith(several.split("{b}")[0]) and str(two[0]) in said_two, \
            said_two
        assert said_one.split(":")[1:] != said_two.split(":")[1:]  # (not the same choice)
    finally:
        i18n.use("en")


# ------------------------------------------------------------------ the lobby's list


def test_a_running_games_seat_a_bot_plays_is_listed_as_a_bot_seat_to_take():
    """The list said "1/2 seats · playing · 1 seat open", read as an empty chair; a seat a
    newcomer may take is always one a bot plays (a table's bot, or a player's who left
    for good), and joining takes it over from the bot."""
    from types import SimpleNamespace

    from tongiaki_lan.console.terminal.lobby import LobbyScreen
    from tongiaki_lan.net.aio.discovery import GameInfo

    from .conftest import FakeLan

    one = GameInfo(b"\x01" * 8, "Reef", "playing", 2, 2, False, 1.0, (), 1, True)
    two = GameInfo(b"\x02" * 8, "Atoll", "playing", 4, 4, False, 2.0, (), 2, True)
    with create_app_session(output=DummyOutput()):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        lobby.lan_error = None
        lobby.discovery = FakeLan(one, two)
        lobby.node = SimpleNamespace(lobby=None, game_id=None, peer_id=b"me")
        rows = ["".join(t for _s, t in row) for row in lobby.draw_top(80, 24)]
    reef = next(r for r in rows if "Reef" in r)
    atoll = next(r for r in rows if "Atoll" in r)
    assert "1/2 seats" in reef and "· 1 bot seat to take · watch" in reef, reef
    assert "· 2 bot seats to take · watch" in atoll, atoll
    assert not any("open" in r for r in rows), rows


def test_games_lists_a_seat_a_bot_plays_as_a_bot_seat_to_take(capsys):
    """`tongiaki-lan games` said "1 open seat(s)" of the same seat."""
    from tongiaki_lan.cli.games import _print_table
    from tongiaki_lan.net.aio.discovery import GameInfo

    _print_table([GameInfo(b"\x01" * 8, "Reef", "playing", 2, 2, False, 1.0, (), 1, True),
                  GameInfo(b"\x02" * 8, "Atoll", "playing", 4, 4, False, 2.0, (), 2, True)])
    out = capsys.readouterr().out
    assert "watch, 1 bot seat to take" in out and "watch, 2 bot seats to take" in out, out
    assert "open" not in out


# ------------------------------------------------------------------ help


async def _help_of(session) -> list[str]:
    from tongiaki_lan.console.input import TableInput
    from tongiaki_lan.console.model import TableModel

    table = TableInput(TableModel(session))
    start = len(session.lines)
    await table.submit("help")
    return [text for _style, text in session.lines[start:]]


async def test_help_says_quit_keeps_a_record_only_when_there_is_one(tmp_path):
    """The help said "quit — leave (the record is saved)" in a game played with
    --no-record, whose own question to leave said "this game is not recorded"; and in a
    replay, which saves nothing."""
    from tongiaki_lan.console.feeds.replay import ReplaySession
    from tongiaki_lan.records import read_record

    seats = solo_seats(2, "Tester", "random")
    record = tmp_path / "game.tgrec"
    recorded = SoloSession(seed_from_text("lies-help"), seats, record_path=record, pace=0)
    unrecorded = SoloSession(seed_from_text("lies-help"), seats, record_path=None, pace=0)
    await recorded.start()
    await recorded.submit(recorded.game.legal_moves()[0])  # (a record to replay)
    assert "  quit — leave (the record is saved)" in await _help_of(recorded)
    said = await _help_of(unrecorded)
    assert "  quit — leave (this game is not recorded)" in said
    assert not any("record is saved" in line for line in said)
    await recorded.close()
    await unrecorded.close()
    replay = ReplaySession(read_record(record), str(record))
    said = await _help_of(replay)
    assert "  quit — leave the replay" in said
    assert not any("record is saved" in line for line in said)


def test_the_panels_isl_counts_an_island_held_by_a_king_alone_and_help_says_so():
    """`isl` counts the islands a player is on with a ship or a king (E4's count); the
    help said "islands with your ships", and a Royal Island whose ships had gone home
    counted with none there."""
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.console.terminal.panel import panel_lines
    from tongiaki_lan.console.words import help_lines

    for n in range(60):
        game = Game(["blue", "red", "green"])
        dealer = Dealer(hashlib.blake2b(f"king-{n}".encode(), digest_size=32).digest())
        bot = make_bot("random", seed=n)
        while not game.is_over:
            kings_alone = [t for t in game.islands() if game.king_of(t) is not None
                           and not any(game.king_of(t) in beach for beach in game.ships_on(t))]
            if kings_alone:
                break
            dealer.apply(game, bot.choose(game))
        if kings_alone:
            break
    else:
        raise AssertionError("no king alone on an island")
    seat = game.king_of(kings_alone[0])
    with_ships = {t for t in game.islands()
                  if any(seat in beach for beach in game.ships_on(t))}
    with_kings = {t for t in game.islands() if game.king_of(t) == seat}
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(GameSession(game, [Seat(x, c, local=(i == 0)) for i, (x, c) in
                                               enumerate(zip(["Ana", "Ben", "Cy"],
                                                             game.colours, strict=True))]),
                            colour=False)
        rows = ["".join(t for _s, t in row) for row in panel_lines(screen.state, 40,
                                                                   frozenset())]
    name = ["Ana", "Ben", "Cy"][seat]
    row = next(r for r in rows if r[2:].startswith(name))
    isl = int(row.split()[-3])
    assert isl == len(with_ships | with_kings) > len(with_ships), (row, with_ships, with_kings)
    assert any("isl islands with a ship or king of yours" in line for line in help_lines())


# ------------------------------------------------------------------ the end of the stack


def test_a_group_lost_to_the_last_sea_tile_is_told_as_such_with_islands_left():
    """E2: the last sea tile loses the group that drew it, though island tiles may be
    left in the stack (the panel counts them): the line says which last tile."""
    from tests.engine.builder import build
    from tests.engine.test_rules_special_end import SEAS, _far
    from tongiaki_lan.console.story import Narrator
    from tongiaki_lan.engine import parse_move

    tiles = {(0, -1): ("Tubuai", 0), (0, -2): ("Samoa", 0),
             **_far([n for n in SEAS if n != "S13"])}
    g = build(tiles=tiles, stack=["S13"], migrate=True,
              ships={"Tonga": ["GGG"] + [""] * 5, "Tubuai": ["BBR", ""], "Samoa": ["", "", ""]})
    narrator = Narrator(g, ["Ana", "Ben", "Cy", "Di"])
    seen = len(g.events)
    g.apply(parse_move("sail Tubuai 1 NW"))
    said = [narrator.tell(e, g) for e in g.events[seen:]]
    assert any(t < 16 for t in g.unrevealed_tiles())  # (islands are left)
    assert ("bad", "The last sea tile has been drawn: B B R are lost at sea and go "
                   "home.") in said, said


def test_a_sail_after_the_last_island_is_previewed_without_saying_no_tile_is_left():
    """Tab said "→ lost at sea: no tile is left to discover" while sea tiles were left."""
    from tests.engine.builder import build
    from tests.engine.test_rules_special_end import ISLANDS, _far
    from tongiaki_lan.console.words import move_preview
    from tongiaki_lan.engine import parse_move

    others = [n for n in ISLANDS if n not in ("Tubuai", "Samoa", "Nauru")]
    g = build(tiles={(0, -1): ("Tubuai", 0), (5, -5): ("Nauru", 0), **_far(others)},
              stack=["Samoa"], migrate=True,
              ships={"Tonga": ["G"] + [""] * 5, "Tubuai": ["BBR", "RR"],
                     "Nauru": ["YY", "", ""]})
    for typed in ("sail Tubuai 1 NW", "land 1:B 2:B 3:R"):
        g.apply(parse_move(typed))
    assert g.unrevealed_tiles() and all(t >= 16 for t in g.unrevealed_tiles())
    lost = [m for m in g.legal_moves() if g.preview(m).outcome == "lost"]
    assert lost
    for m in lost:
        assert move_preview(g, m) == "→ lost at sea: no tile is drawn after the last island tile"


async def test_moves_while_another_decides_says_whose_moves_they_are():
    """`moves` while a bot decided listed "Legal moves: place Tonga 1, …", read as the
    player's own: each one typed was refused ("it is Hina's decision, not yours")."""
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.input import TableInput
    from tongiaki_lan.console.model import TableModel
    from tongiaki_lan.console.seats import Seat

    game = Game(["blue", "red"])
    Dealer(hashlib.blake2b(b"lies-moves", digest_size=32).digest()).apply(
        game, game.legal_moves()[0])  # (Ana's first ship: Ben decides)
    names = ["Ana", "Ben"]
    for mine in (False, True):
        local = game.pending.seat if mine else 1 - game.pending.seat
        session = GameSession(game, [Seat(n, c, local=(i == local)) for i, (n, c) in
                                     enumerate(zip(names, game.colours, strict=True))])
        await TableInput(TableModel(session)).submit("moves")
        said = session.lines[-1][1]
        if mine:
            assert said.startswith("Legal moves: place Tonga "), said
        else:
            assert said.startswith(f"Legal moves for {names[game.pending.seat]} (not your "
                                   "decision): place Tonga "), said


async def test_tab_right_after_a_pasted_word_completes_it():
    """A fast paste and then Tab did not put the completion on the line (closing notes
    of stop 25). A terminal sends a paste as one bracketed block; the Tab that follows
    in the same read completes the pasted text, and Enter plays the whole move."""
    from tongiaki_lan.console.feeds.base import GameSession

    from .conftest import duel_seats, start_screen
    from .test_completion import _two_player_action_with_one_tu

    game = _two_player_action_with_one_tu()
    session = GameSession(game, duel_seats(game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        inp.send_text("\x1b[200~expand Tu\x1b[201~\t")  # (the paste and Tab, one read)
        await wait_until(lambda: screen.buffer.text == "expand Tubuai", what="the completion")
        inp.send_text("\x15\x1b[200~expand Tu\x1b[201~")
        await wait_until(lambda: screen.buffer.text == "expand Tu", what="the paste")
        inp.send_text("\t\r")
        await wait_until(lambda: screen.message[1] != "", what="the line played")
        assert screen.message[1].startswith("expand Tubuai: "), screen.message
        inp.send_text(CTRL_C * 2)
        assert await asyncio.wait_for(task, 30) == 0

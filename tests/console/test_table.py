"""What a player at the table notices: previews, offers, confirmations, clicks, the end.

Every test drives the real prompt_toolkit Application through a pipe, as typed keys
and terminal mouse reports, and looks at what the screen would show.
"""

from __future__ import annotations

import asyncio
import hashlib
import re

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.final import final_table, presence
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.completion import MoveCompleter
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import TILES, Colony, Dealer, Game, Sail
from tongiaki_lan.i18n.islands import island_name

from .conftest import wait_until

KILL_LINE = "\x15"
LANDING_SEED = "pipe-landing-0"


def _game_at(predicate, seed: bytes = b"table", players: int = 3) -> Game:
    game = _play_until(predicate, seed, players)
    assert predicate(game)
    return game


def _play_until(predicate, seed: bytes, players: int = 3) -> Game:
    """A random bot game played until `predicate` holds or the game ends."""
    game = Game(["blue", "red", "green", "yellow"][:players])
    dealer = Dealer(hashlib.blake2b(seed, digest_size=32).digest())
    bot = make_bot("random", seed=5)
    while not game.is_over and not predicate(game):
        dealer.apply(game, bot.choose(game))
    return game


def _static_screen(game: Game, mine: bool = True) -> GameScreen:
    seat = game.pending.seat if game.pending is not None else 0
    names = ["Ana", "Ben", "Cy", "Di"][:game.n_seats]
    seats = [Seat(n, c, local=(i == seat) == mine)
             for i, (n, c) in enumerate(zip(names, game.colours, strict=True))]
    return GameScreen(GameSession(game, seats), colour=False)


async def _run(screen: GameScreen, session=None):
    await (session or screen.session).start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    return task


def _mouse(x: int, y: int) -> str:
    """A left click at screen cell (x, y), as an xterm SGR mouse report (press, release)."""
    return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m"


def _find(screen: GameScreen, text: str) -> tuple[int, int]:
    """Screen cell of `text` in the map as it is drawn now (the map is at the top left)."""
    width, height = 80 - 33, 40 - 2
    lines = ["".join(t for _, t in line) for line in screen.draw_board(width, height)]
    for y, line in enumerate(lines):
        x = line.find(text)
        if x >= 0:
            return x, y
    raise AssertionError(f"{text!r} is not on the map:\n" + "\n".join(lines))


def test_every_sail_option_says_where_it_goes():
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "departure")
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        event = CompleteEvent(completion_requested=True)
        offered = list(MoveCompleter(screen).get_completions(Document("sail"), event))
        assert offered and len(offered) == len(game.legal_moves())
        outcomes = set()
        for c in offered:
            meta = "".join(t for _, t in c.display_meta)
            move = next(m for m in game.legal_moves() if str(m) == c.text)
            pv = game.preview(move)
            outcomes.add(pv.outcome)
            assert meta.startswith("→ ")
            if pv.outcome == "land":
                assert meta == f"→ lands on {TILES[pv.island].name}"
            elif pv.outcome == "fail":
                assert f"danger {pv.danger}" in meta and f"{pv.colours} colour" in meta
            elif pv.outcome == "reveal":
                assert f"reveals a tile at {pv.hex[0]},{pv.hex[1]}" in meta
        # the status line previews the option on the command line
        screen.buffer.text = offered[0].text
        meta = "".join(t for _, t in offered[0].display_meta)
        assert screen.status_text() == f"{offered[0].text} {meta}"


def _sails_after(game: Game, move) -> bool:
    """Whether ships leave a beach once `move` is played (T2), by playing it on a copy."""
    trial = game.copy()
    start = len(trial.events)
    trial.apply(move)
    return (any(e.kind == "depart" for e in trial.events[start:])
            or (trial.pending is not None and trial.pending.kind == "departure"))


def test_a_choice_of_beaches_that_fills_one_says_its_ships_sail():
    """A newcomer's first `beaches 1 6` filled beach 1: three ships sailed at once and
    were wrecked, with no word before it; Tab previewed `sail` options but not these
    (a playtest). Each option that fills a beach says so, the others say nothing."""
    def mixed(g: Game) -> bool:
        if g.pending is None or g.pending.kind != "expand_beaches":
            return False
        sails = {_sails_after(g, m) for m in g.legal_moves()}
        return sails == {True, False}

    game = _game_at(mixed)
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        event = CompleteEvent(completion_requested=True)
        offered = list(MoveCompleter(screen).get_completions(Document("beaches"), event))
        assert offered and len(offered) == len(game.legal_moves())
        for c in offered:
            meta = "".join(t for _, t in c.display_meta)
            move = next(m for m in game.legal_moves() if str(m) == c.text)
            if _sails_after(game, move):
                assert re.fullmatch(r"→ beach \d fills: ([BRGY] )+sail (N|NE|SE|S|SW|NW)|"
                                    r"→ beach \d fills: you choose the pier it sails by|"
                                    r"→ beaches .+ and \d fill: you choose which sails first",
                                    meta), meta
            else:
                assert meta == "", (c.text, meta)
        filling = next(c for c in offered if "".join(t for _, t in c.display_meta))
        screen.buffer.text = filling.text  # the status line says it for the typed move
        assert screen.status_text() == (
            f"{filling.text} {''.join(t for _, t in filling.display_meta)}")


async def test_typing_replaces_an_offer_and_a_refused_landing_gets_it_back():
    session = SoloSession(seed_from_text(LANDING_SEED), solo_seats(3, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        while True:
            await wait_until(lambda: session.game.is_over or session.my_decision())
            assert not session.game.is_over, "no landing in this game"
            if session.game.pending.kind == "landing":
                break
            before = len(session.game.moves)
            if before == 0:
                inp.send_text(KILL_LINE + "hint\r")
                await wait_until(lambda: screen.message[1].startswith("Hint:"))
                inp.send_text("x")  # typing over the hint replaces it, it does not append
                await wait_until(lambda: screen.buffer.text == "x", what="the hint replaced")
            inp.send_text(KILL_LINE + "hint\r")
            await wait_until(lambda: screen.message[1].startswith("Hint:")
                             and screen.buffer.text not in ("", "x"), what="the hint again")
            inp.send_text("\r")
            await wait_until(lambda b=before: len(session.game.moves) > b)
        await wait_until(lambda: screen.message[1].startswith("Hint: land ")
                         and screen.buffer.text, what="the landing offer (the hint's)")
        offer = screen.buffer.text
        moves = len(session.game.moves)
        inp.send_text("l")
        await wait_until(lambda: screen.buffer.text == "l", what="the offer replaced by typing")
        inp.send_text("and 9:B\r")  # refused: no beach 9
        await wait_until(lambda: screen.message[0] == "error", what="the refusal")
        assert screen.message[1].startswith("land 9:B:")
        await wait_until(lambda: screen.buffer.text == offer, what="the offer back on the line")
        assert len(session.game.moves) == moves
        inp.send_text("\r")  # and Enter still takes it
        await wait_until(lambda: len(session.game.moves) > moves)
        assert str(session.game.moves[moves]) == offer
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_colony_asks_first_and_stale_errors_clear():
    session = SoloSession(seed_from_text("pipe-colony"), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        while True:  # setup by hints, to our first action
            await wait_until(session.my_decision)
            if session.game.pending.kind == "action":
                break
            before = len(session.game.moves)
            inp.send_text(KILL_LINE + "hint\r")
            await wait_until(lambda: screen.message[1].startswith("Hint:"))
            inp.send_text("\r")
            await wait_until(lambda b=before: len(session.game.moves) > b)
        inp.send_text(KILL_LINE + "frobnicate\r")
        await wait_until(lambda: screen.message[0] == "error")
        moves = len(session.game.moves)
        inp.send_text("colony\r")
        await wait_until(lambda: "Enter again to confirm" in screen.message[1])
        ships = session.game.on_board(session.game.pending.seat)
        assert (f"your {ships} ships on the board go home" if ships != 1 else
                "your 1 ship on the board goes home") in screen.message[1]
        assert len(session.game.moves) == moves and screen.buffer.text == "colony"
        inp.send_text("x")  # anything else cancels
        await wait_until(lambda: screen.buffer.text == "x")
        inp.send_text(KILL_LINE + "colony\r")
        await wait_until(lambda: "Enter again to confirm" in screen.message[1])
        assert len(session.game.moves) == moves
        inp.send_text("\r")
        await wait_until(lambda: len(session.game.moves) > moves, what="the colony played")
        assert isinstance(session.game.moves[moves], Colony)
        # the decision changed: the old reason is gone, a new one is not invented
        assert screen.message[0] != "error"
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_colony_with_no_ships_on_the_beaches_says_so_and_asks_nothing():
    """With no ship on a beach (X1) nothing goes home: no question, and the line says
    plainly why nothing comes home rather than "you have no ships … confirm"."""
    from tongiaki_lan.engine import decisions as D

    session = SoloSession(seed_from_text("colony-none-0"), solo_seats(1, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    game, bot = session.game, make_bot("random", seed=0)
    while not (game.pending.kind == D.ACTION and game.pending.seat == 0
               and game.on_board(0) == 0):
        session.dealer.apply(game, bot.choose(game))
    assert game.reserve(0) > 0  # ships to place on the island the colony finds
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        moves = len(game.moves)
        inp.send_text("colony\r")
        await wait_until(lambda: len(game.moves) > moves, what="the colony played at once")
        assert isinstance(game.moves[moves], Colony)
        assert "so none go home" in screen.message[1]
        assert "confirm" not in screen.message[1]
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_hint_while_a_tile_is_drawn_says_so_not_the_dealers_decision():
    """On a LAN table a tile's fair draw takes a moment (or waits for a laptop): `hint`
    then said "It is the dealer's decision, not yours", as if someone had to act."""
    game = Game(["blue", "red", "green"])
    dealer = Dealer(hashlib.blake2b(b"table", digest_size=32).digest())
    bot = make_bot("random", seed=5)
    while True:  # up to a move that calls for a tile, not dealt yet
        move = bot.choose(game)
        game.apply(move)
        if game.awaiting_reveal:
            break
        dealer.deal(game)
    assert game.pending.seat is None
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game, mine=False)
        task = await _run(screen)
        inp.send_text("hint\r")
        await wait_until(lambda: bool(screen.message[1]))
        assert screen.message[1] == "A tile is being revealed…"
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0


async def test_help_is_shown_from_its_first_line_and_pages_by_the_log_height():
    """`help` at 80x24 is ~45 lines in a 10-line log: it showed its last ten (the map's
    legend), and PgUp went back five lines at a time, so the commands a new player looks
    for (hint, moves, rules, quit) took four PgUps to reach."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    screen = _static_screen(game)
    screen.session.lines.extend(("info", f"story {i}") for i in range(30))
    await screen._command("help")
    rows = ["".join(t for _s, t in row) for row in screen.draw_log(32, 10)]
    assert rows[0].startswith("Goal: most points at the end"), rows  # (how one wins)
    assert any(r.startswith("Type a move in its short form") for r in rows), rows
    assert "newer lines: PgDn" in rows[-1]
    scrolled = screen.log_scroll
    screen.scroll_log(1)  # PgDn: a page of the log's height, two lines kept
    assert screen.log_scroll == scrolled - 8
    rows = ["".join(t for _s, t in row) for row in screen.draw_log(32, 10)]
    # a panel too narrow for the words keeps the key to press
    narrow = ["".join(t for _s, t in row) for row in screen.draw_log(20, 10)]
    assert narrow[-1] == f"── +{screen.log_scroll} PgDn ──"
    screen.scroll_log(-1)
    back = ["".join(t for _s, t in row) for row in screen.draw_log(32, 10)]
    assert back[0].startswith("Goal: most points")


async def test_paging_a_short_log_shows_every_line():
    """Under a New Colony tile at 80x24 the log is 4 rows, and a page was 5: a newcomer
    reading `rules` lost a line at every PgDn ("home." and the start of rule C2 were never
    on screen — a playtest). Every line is seen, paging down and up."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    screen = _static_screen(game)
    screen.session.lines.extend(("info", f"line {i}") for i in range(40))

    def visible() -> set[str]:
        rows = ["".join(t for _s, t in row) for row in screen.draw_log(32, 4)]
        return {r for r in rows if r.startswith("line ")}

    screen.log_scroll = 10_000  # the oldest lines first, as `rules` opens
    seen = visible()
    while screen.log_scroll:
        screen.scroll_log(1)
        seen |= visible()
    assert seen == {f"line {i}" for i in range(40)}, sorted(
        {f"line {i}" for i in range(40)} - seen)
    seen = visible()
    while True:
        before = screen.log_scroll
        screen.scroll_log(-1)
        seen |= visible()
        if screen.log_scroll == before:
            break
    assert seen == {f"line {i}" for i in range(40)}


def test_a_ship_placed_with_no_ships_on_the_board_names_rule_x1():
    """`Kupe (Y) places a ship on beach 2 of Fiji.` read as a bot slipping onto a
    newcomer's island: Kupe had no ship on the board (X1), and nothing said so (a
    playtest). An X1 placement says it; a New Colony's ship, placed the same way, does
    not."""
    from tongiaki_lan.console.story import Narrator
    from tongiaki_lan.engine import Place

    game = Game(["blue", "red", "green"])
    dealer = Dealer(hashlib.blake2b(b"x1", digest_size=32).digest())
    bot = make_bot("random", seed=11)
    x1 = colony = 0
    narrator = Narrator(game, ["Ana", "Ben", "Kupe"])
    told = 0
    while not game.is_over and not (x1 and colony):
        p = game.pending
        move = bot.choose(game)
        is_x1 = p is not None and p.kind == "action" and isinstance(move, Place)
        dealer.apply(game, move)
        lines = [narrator.tell(ev, game) for ev in game.events[told:]]
        told = len(game.events)
        placed = [t for _s, t in filter(None, lines) if " places " in t]
        if is_x1:
            x1 += 1
            assert len(placed) == 1 and "has no ships on the board" in placed[0], placed
            assert placed[0].endswith("(X1).")
        elif placed and p is not None and p.kind == "colony_ship":
            colony += 1
            assert "(X1)" not in placed[0] and "no ships" not in placed[0], placed
    assert x1 and colony, "the game had no X1 placement or no New Colony ship"


def test_the_scrolled_back_marker_is_in_the_players_language():
    """An Italian log scrolled back ended in "── 15 newer line(s): PgDn ──" in English."""
    from tongiaki_lan import i18n

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    screen = _static_screen(game)
    screen.session.lines.extend(("info", f"story {i}") for i in range(30))
    i18n.use("it")
    try:
        screen.log_scroll = 1
        rows = ["".join(t for _s, t in row) for row in screen.draw_log(40, 10)]
        assert rows[-1] == "── 1 riga più recente: PagGiù ──"
        screen.log_scroll = 5
        rows = ["".join(t for _s, t in row) for row in screen.draw_log(40, 10)]
        assert rows[-1] == "── 5 righe più recenti: PagGiù ──"
    finally:
        i18n.use("en")


def test_a_wrapped_message_keeps_tongiaki_lan_whole():
    """At 80 columns the leaving question ended "… run tongiaki-" / "lan again and join…":
    a line is never broken at a hyphen (a command or a record's name)."""
    from tongiaki_lan.console.feeds.lan import LanSession

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    with create_app_session(output=DummyOutput()):  # (80 columns)
        screen = _static_screen(game)
        screen.message = ("", "Ctrl-C: the game is not over — Ctrl-C again (or Enter) "
                              "leaves; " + LanSession.table_leave_note())  # (as at a LAN table)
        rows = screen._message_rows()
    assert len(rows) > 1 and any("tongiaki-lan again" in r for r in rows), rows
    assert not any(r.endswith("-") for r in rows), rows


def test_a_records_path_in_the_log_breaks_at_its_separators_not_mid_word():
    """The log panel is about 30 columns; a record's path is longer, and was cut wherever
    the line ran out ("…/rec" / "ords/so" / "lo-2026…"). Now a line ends after a `/` (or
    a Windows `\\`), or a hyphen before a digit, and the path reads back whole."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    for path in ("/home/ana/.local/share/tongiaki-lan/records/solo-20261127-120000-"
                 "abcdef12.tgrec",
                 "C:\\Users\\Ana\\AppData\\Local\\tongiaki-lan\\records\\solo-20261127-"
                 "120000-abcdef12.tgrec"):
        with create_app_session(output=DummyOutput()):
            screen = _static_screen(game)
            screen.session.lines.append(("info", f"Record saved: {path}"))
            rows = ["".join(t for _s, t in row).rstrip()
                    for row in screen.draw_log(30, 40)]
        start = max(i for i, r in enumerate(rows) if r.startswith("Record saved:"))
        rows = rows[start:start + 6]
        shown = "".join(r.strip() for r in rows)
        assert shown.startswith("Record saved: " + path), rows
        ends = [r[-1] for r in rows[:-1] if r.strip()]
        assert ends and all(c in "/\\-:" for c in ends), rows
        assert "tongiaki-lan" in shown and not any(r.endswith("tongiaki-") for r in rows)


async def test_a_typed_reveal_is_refused_in_the_players_language():
    """`reveal` is the dealer's move, never a player's: typed, with or without a tile, it
    is an unknown command, said in the screen's language (it was once answered in English
    on an Italian screen, "reveal: name one tile, e.g. …")."""
    from tongiaki_lan import i18n

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    digest = game.digest()
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        i18n.use("it")
        try:
            for typed in ("reveal", "reveal Atlantis", "reveal Tonga"):
                await screen.command(typed)
                said = screen.message[1]
                assert said.startswith(typed + ": comando sconosciuto"), said
                assert "unknown" not in said
        finally:
            i18n.use("en")
    assert game.digest() == digest


async def test_hint_on_someone_elses_decision_says_whose_it_is():
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game, mine=False)
        task = await _run(screen)
        inp.send_text("hint\r")
        await wait_until(lambda: bool(screen.message[1]))
        name = screen.session.names[game.pending.seat]
        assert screen.message[1] == f"It is {name}'s decision, not yours: no hint."
        assert screen.buffer.text == ""
        # true of that decision only: gone once it is taken (it stayed, misleading)
        game.apply(game.legal_moves()[0])
        screen.session.changed()
        assert screen.message[1] == ""
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0


async def test_clicks_on_the_map_put_the_move_on_the_line():
    game = Game(["blue", "red", "green"])
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game)
        task = await _run(screen)
        x, y = _find(screen, "3···")
        inp.send_text(_mouse(x, y))  # Tonga's beach 3 during setup
        await wait_until(lambda: screen.buffer.text == "place Tonga 3", what="the click's move")
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "colony_tile")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game)
        task = await _run(screen)
        q, r = game.legal_moves()[0].q, game.legal_moves()[0].r
        x, y = _find(screen, f" {q},{r} ")
        inp.send_text(_mouse(x + 1, y))  # a free hex during a New Colony
        await wait_until(lambda: screen.buffer.text == f"tile {q},{r} ", what="the hex")
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "departure"
                    and any(m.island != 0 for m in g.legal_moves()))
    sail = next(m for m in game.legal_moves() if isinstance(m, Sail) and m.island != 0)
    island, beach, pier = TILES[sail.island].name, sail.beach + 1, str(sail).rsplit(" ", 1)[1]
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game)
        task = await _run(screen)
        tx, ty = _find(screen, island)
        lines = ["".join(t for _, t in line) for line in screen.draw_board(47, 38)]
        row = ty + (1 if len(TILES[sail.island].beaches) >= 3 else 2) + sail.beach
        at = lines[row].find(f" {pier}", tx - 3) + 1
        assert at > 0
        inp.send_text(_mouse(at, row))  # the pier of the beach that departs
        await wait_until(lambda: screen.buffer.text == str(sail), what="the sail move")
        assert screen.buffer.text.endswith(f" {beach} {pier}")
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0


def _totals(rows: list[str], names: list[str]) -> list[list[int]]:
    """Each player's row of the final table, in seat order: pts isl brd kings s+k."""
    out = []
    table = rows[next(i for i, r in enumerate(rows) if r.startswith("player ")):]
    for name in names:
        row = next(r for r in table if r.startswith(name + " "))
        out.append([int(v) for v in row[len(name):].split()[1:]])
    return out


def test_final_table_adds_up_to_the_engine_scores():
    game = _game_at(lambda g: g.is_over, seed=b"final", players=4)
    names = ["Ana", "Ben", "Cy", "Di"]
    rows = final_table(game, names)
    points = [t[0] for t in _totals(rows, names)]
    assert points == [game.scores()[c] for c in game.colours]
    for c, isl in presence(game).items():
        seat = game.seat_of_colour(c)
        assert sum(TILES[t].value for t in isl) == game.scores()[game.colours[seat]]
    winner = names[game.colours.index(game.winners()[0])]
    assert winner in rows[0] and ("win" in rows[0])  # what decided comes first


def test_the_final_table_and_the_panel_count_ships_alike():
    """The panel's `brd` is ships on beaches; E4 counts kings too. The table shows both
    and their sum, and a tie broken on ships quotes the sum's column."""
    from tongiaki_lan.console.final import decided_by

    for seed in (b"final", b"final-2", b"final-3", b"final-4"):
        game = _game_at(lambda g: g.is_over, seed=seed, players=4)
        screen = _static_screen(game)
        rows = final_table(game, screen.session.names)
        totals = _totals(rows, screen.session.names)
        brd, kings, total = ([t[i] for t in totals] for i in (2, 3, 4))
        panel = screen.panel_text(32).splitlines()[2:2 + game.n_seats]
        assert brd == [int(line.split()[3]) for line in panel]  # the panel's brd column
        assert [b + k for b, k in zip(brd, kings, strict=True)] == total
        assert total == [-game.ranking_keys()[c][2] for c in game.colours]
        assert sum(kings) == len(game.kings())
    # a tie broken on ships names the row its numbers are in
    game = _game_at(lambda g: g.is_over, seed=b"final", players=4)
    keys = game.ranking_keys()
    forged = {c: (10, 3, -(i + 1)) for i, c in enumerate(game.colours)}
    game.ranking_keys = lambda: forged  # the sentence only reads the keys
    sentence = decided_by(game, ["Ana", "Ben", "Cy", "Di"])
    assert "ships and kings" in sentence and "(1 against 2)" in sentence
    assert keys  # the real game's keys were there to forge from
    # won on points: the runner-up's score is "for" them, never "Bot 2 (hard)'s"
    game.ranking_keys = lambda: {c: (10 - i, 3, -1) for i, c in enumerate(game.colours)}
    sentence = decided_by(game, ["Ana", "Bot 2 (hard)", "Cy", "Di"])
    assert sentence == "Ana wins on points (10 against 9 for Bot 2 (hard))."


async def test_completing_a_clicked_hex_keeps_what_was_offered():
    """The offer `tile Q,R ` from a click is completed, not replaced, by the menu."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "colony_tile")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = _static_screen(game)
        task = await _run(screen)
        first = game.legal_moves()[0]
        x, y = _find(screen, f" {first.q},{first.r} ")
        inp.send_text(_mouse(x + 1, y))
        await wait_until(lambda: screen.buffer.complete_state is not None, what="the menu")
        inp.send_text("\t")  # the first direction from the menu
        await wait_until(lambda: screen.buffer.text.startswith(f"tile {first.q},{first.r} ")
                         and len(screen.buffer.text.split()) == 3, what="a completed move")
        assert screen.buffer.text in {str(m) for m in game.legal_moves()}
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0


def test_a_replay_names_the_next_decision_nobody_is_thinking():
    """`replay` of a solo game: the status read "Kupe — bot (search) (Y) is thinking:
    placing a ship on Tonga…" while nothing runs; in a replay the decision is only named."""
    from tongiaki_lan.console.words import pending_text

    game = _game_at(lambda g: g.pending is not None and g.pending.seat == 1)
    names = ["Ana", "Ben", "Cy"]
    labels = ["Ana", "Ben — bot (search)", "Cy — bot (search)"]
    _style, live = pending_text(game, names, set(), labels=labels)
    assert "is thinking" in live
    _style, replayed = pending_text(game, names, set(), labels=labels, replay=True)
    assert replayed.startswith("Ben — bot (search) (R): ") and "thinking" not in replayed
    assert "Waiting" not in replayed


@pytest.mark.parametrize("lang", ["en", "it", "fi", "fr", "de"])
def test_help_explains_the_panels_heads_in_their_own_words(lang):
    """A new player asked what `brd`, `K/2` and the `*` beside a name were: nothing said.
    help's Panel line names each head as the panel prints it, in every language."""
    from tongiaki_lan import i18n
    from tongiaki_lan.console.words import help_lines

    i18n.use(lang)
    try:
        text = " ".join(help_lines())
        legend = text[text.index(i18n._("Panel: ▶ decides now, * has the turn; res ships "
                                        "in reserve, brd ships on beaches,")[:8]):]
        for head in ("res", "brd", "isl", "pts", "K/2"):
            assert f" {i18n._(head)} " in legend, (lang, head, legend)
        assert "▶" in legend and "*" in legend
    finally:
        i18n.use("en")


def test_a_refusal_names_the_island_as_the_map_does():
    """The engine keeps the printed (German) name `Fidschi`; a refusal said it so on an
    English or French screen whose map says Fiji or Fidji ("expand Fiji: T1: Fidschi is
    not on the board"). Founding a Royal Island on an island not yet revealed is refused
    under K1, the rule of Royal Islands, not T1 (expansion)."""
    from tongiaki_lan import i18n
    from tongiaki_lan.console.input import refusal_text
    from tongiaki_lan.engine import IllegalMove, parse_move
    from tongiaki_lan.i18n.islands import engine_text

    fiji = next(t.id for t in TILES if t.name == "Fidschi")
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action"
                    and fiji not in g.islands())
    try:
        for lang, name in (("en", "Fiji"), ("fr", "Fidji")):
            i18n.use(lang)
            for typed, clause in ((f"expand {name}", "T1"), (f"royal {name}", "K1")):
                with pytest.raises(IllegalMove) as refused:
                    game.apply(parse_move(engine_text(typed)))
                said = refusal_text(typed, refused.value)
                assert "Fidschi" not in said, said
                assert name in said and clause in said, said
    finally:
        i18n.use("en")


def test_the_status_line_names_the_full_beaches_that_must_sail():
    """It said "a beach is full: sail ISLAND B PIER", even with two full, and the log did
    not name them either: a newcomer pressed Tab to learn which beach had to go."""
    from tongiaki_lan.console.words import pending_text
    from tongiaki_lan.i18n.islands import island_name

    def full(g: Game) -> list[tuple[int, int]]:
        return sorted({(m.island, m.beach) for m in g.legal_moves() if isinstance(m, Sail)})

    seen = set()
    for n in range(40):
        game = Game(["blue", "red", "green", "yellow"])
        dealer = Dealer(hashlib.blake2b(f"full-{n}".encode(), digest_size=32).digest())
        bot = make_bot("greedy", seed=n)
        while not game.is_over and len(seen) < 2:
            if game.pending.kind == "departure":
                beaches = full(game)
                text = pending_text(game, ["A", "B", "C", "D"], {game.pending.seat})[1]
                for tid, beach in beaches:
                    assert island_name(tid) in text and str(beach + 1) in text, text
                seen.add(min(len(beaches), 2))
            dealer.apply(game, bot.choose(game))
        if len(seen) == 2:
            break
    assert seen == {1, 2}  # one full beach, and several at once


def test_tab_on_the_landing_offer_lists_the_other_landings():
    """Tab on the untouched offer (`land 1:B 2:G 3:G`) showed nothing: the player had to
    clear it and type `land ` to see what else was allowed."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "landing"
                    and g.legal_move_count() > 2)
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        offer = str(game.default_landing())
        screen.offer(offer)
        assert screen.buffer.text == offer
        completions = list(MoveCompleter(screen).get_completions(
            Document(offer), CompleteEvent(completion_requested=True)))
        shown = {c.text.strip() for c in completions}
        assert len(shown) > 1 and all(t.startswith("land ") for t in shown), shown
        assert all(c.start_position == -len(offer) for c in completions)  # replaces the line


def test_the_game_over_line_says_which_kind_of_tile_ran_out():
    """E1 ends the game with the last island or the last sea tile; the line said "the
    last island or the last sea tile has been revealed", leaving a newcomer to guess."""
    from tongiaki_lan.console.story import Narrator

    said = set()
    for n in range(12):
        game = _game_at(lambda g: g.is_over, seed=f"over-{n}".encode(), players=2)
        (over,) = [e for e in game.events if e.kind == "game_over"]
        text = Narrator(game, ["A", "B"], ["A", "B"]).tell(over, game)[1]
        left = game.unrevealed_tiles()
        kind = "sea" if not any(TILES[t].is_sea for t in left) else "island"
        assert f"the last {kind} tile has been revealed" in text, (text, left)
        said.add(kind)
    assert said == {"sea", "island"}


async def test_a_near_miss_command_gets_a_did_you_mean_and_map_mid_game_says_why():
    """`beach 5 6` (for beaches) said only "unknown command"; `map` (then `board`)
    mid-game did nothing at all."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    digest = game.digest()
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        await screen.command("beach 5 6")
        assert screen.message == ("error", "beach 5 6: unknown command — did you mean beaches?")
        await screen.command("expnad Tonga")
        assert "did you mean expand?" in screen.message[1]
        await screen.command("xyzzy")
        assert "did you mean" not in screen.message[1]
        await screen.command("map")
        assert "at the end of the game map switches" in screen.message[1]
        assert not screen.show_board
    assert game.digest() == digest


async def test_a_hints_move_stays_on_the_line_while_others_come_and_go():
    """The hint's move, put on the line for Enter, vanished when a line about someone
    else arrived (a newcomer took a bot's seat): Enter then did nothing."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        session = screen.session
        session.hint_kind = "random"
        session.changed()  # the screen sees its decision
        await screen.command("hint")
        offered = screen.buffer.text
        assert offered and screen.message[1].startswith("Hint:")
        session.lines.append(("info", "Dee takes Maui's seat (red)."))
        session.changed()  # news, but the same decision
        assert screen.buffer.text == offered
        game.apply(game.legal_move(0))  # another move made: the next decision
        session.changed()  # ... and the old offer goes with its decision
        assert screen.buffer.text != offered


def test_at_80x24_six_seats_keep_the_tiles_left_and_drop_the_bots_kinds_first():
    """Six seats at 80x24: the panel's 10 rows were cut at the bottom, so "Left: N islands,
    N sea tiles" (how near the end is) vanished while "Hina, Maui — bots (normal)" stayed."""
    session = SoloSession(seed_from_text("six"), solo_seats(5, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        full = ["".join(t for _s, t in line) for line in screen.panel_lines(32)]
        assert any("bots (random)" in t for t in full) and len(full) > 10
        shown = ["".join(t for _s, t in line) for line in screen.draw_panel(32, 10)]
        assert len(shown) == 10
        assert "Left: 15 islands, 16 sea tiles" in shown, shown
        assert sum(" 15   0   0   0 0/2" in t for t in shown) == 6  # every seat's row
        assert not any("bots (random)" in t for t in shown)
        roomy = ["".join(t for _s, t in line) for line in screen.draw_panel(32, 40)]
        assert roomy == full  # with room, nothing is left out


async def test_a_newcomer_may_type_place_1_and_an_island_as_the_map_spells_it():
    """`place 1` at the start (only Tonga takes ships) said "no island named '1'"; and
    `sail Rapa Nui 1 SW`, as the map writes it, was not understood (only `RapaNui`)."""
    from tongiaki_lan.i18n.islands import engine_text

    game = _game_at(lambda g: True)  # the first setup decision
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        assert screen._only_island("place 1") == "place Tonga 1"
        typed = []

        async def submit(move):
            typed.append(str(move))
        screen.session.submit = submit
        await screen.command("place 1")
        assert typed == ["place Tonga 1"], screen.message
    assert engine_text("sail Rapa Nui 1 SW") == "sail RapaNui 1 SW"
    assert engine_text("expand hiva oa") == "expand HivaOa"
    assert engine_text("expand Fiji") == "expand Fidschi"
    later = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    with create_app_session(output=DummyOutput()):  # no ship to place: as typed
        assert _static_screen(later)._only_island("place 1") == "place 1"


def test_tab_and_the_preview_take_an_island_typed_with_its_space():
    """`sail Hiva Oa 1 ` + Tab offered nothing and the status line gave no preview, where
    `sail HivaOa 1 ` did both: a newcomer types the name as the map writes it."""
    from tongiaki_lan.i18n.islands import joined_islands

    def spaced_sail(g: Game) -> bool:
        return (g.pending is not None and g.pending.kind == "departure"
                and any(" HivaOa " in f" {m} " or " RapaNui " in f" {m} "
                        for m in g.legal_moves()))

    game = next(g for g in (_play_until(spaced_sail, f"spaced-{n}".encode())
                            for n in range(60)) if spaced_sail(g))
    move = next(str(m) for m in game.legal_moves() if "HivaOa" in str(m) or "RapaNui" in str(m))
    spaced = move.replace("HivaOa", "Hiva Oa").replace("RapaNui", "Rapa Nui")
    assert joined_islands(spaced) == move
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        stem = spaced.rsplit(" ", 1)[0] + " "  # `sail Hiva Oa 1 `: the piers to come
        offered = {c.text for c in MoveCompleter(screen).get_completions(
            Document(stem), CompleteEvent(completion_requested=True))}
        assert move in offered, (stem, offered)
        screen.buffer.text = spaced
        assert screen.status_text().startswith(move), screen.status_text()


class _AwaySession(GameSession):
    """A table whose player in seat 1 is away: `replace` is refused until `left` is None."""

    left: float | None = 20.0

    def replace_left(self) -> float | None:
        return self.left

    def commands(self):
        refusal = "replace: Ben has been away 2 s; a seat can be replaced after 60 s"
        return {"replace": ("replace NAME", lambda arg: refusal if self.left else None)}


async def test_a_replace_refused_as_too_soon_goes_when_the_wait_is_over():
    """"replace: Ben has been away 2 s …" stayed on the message line under the status
    line's countdown, and after it, until the decision changed."""
    game = _game_at(lambda g: g.pending is not None and g.pending.seat == 1)
    seats = [Seat("Ana", "blue", local=True), Seat("Ben", "red", kind="remote", away=True),
             Seat("Cy", "green", kind="remote")]
    session = _AwaySession(game, seats)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        session.changed()  # (the countdown starts with the news that Ben is away)
        inp.send_text("replace Ben\r")
        await wait_until(lambda: screen.message[1].startswith("replace: Ben has been away"))
        assert "in 20 s replace Ben gives the seat" in screen.status_text()
        session.left = None  # the wait is over
        await wait_until(lambda: screen.message == ("", ""), what="the refusal gone")
        inp.send_text("\x03\x03")
        await asyncio.wait_for(task, 30)


async def test_a_replace_refused_in_the_last_second_keeps_its_reason_in_the_log():
    """`replace Ben` typed again as the countdown said 1 s: refused, and the reason went
    with the wait a moment later, before it could be read. The log keeps it."""
    game = _game_at(lambda g: g.pending is not None and g.pending.seat == 1)
    seats = [Seat("Ana", "blue", local=True), Seat("Ben", "red", kind="remote", away=True),
             Seat("Cy", "green", kind="remote")]
    session = _AwaySession(game, seats)
    session.left = 0.4
    refusal = "replace: Ben has been away 2 s; a seat can be replaced after 60 s"
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        session.changed()
        inp.send_text("replace Ben\r")
        await wait_until(lambda: screen.message == ("error", refusal))
        session.left = None  # the wait is over: the message line is cleared
        await wait_until(lambda: screen.message == ("", ""), what="the refusal gone")
        assert session.lines[-1] == ("bad", refusal)
        inp.send_text("\x03\x03")
        await asyncio.wait_for(task, 30)


async def test_an_island_typed_as_the_compact_map_shows_it_and_centre_on_an_island():
    """A newcomer's 80x24 map wrote `Tuva 4`; `expand tuva` said "no island named
    'tuva'". And a hint named an island off the screen: `centre Tahiti` said nothing and
    went back to the middle."""
    from tongiaki_lan.i18n.islands import engine_text

    assert engine_text("expand tuva") == "expand Tuvalu"
    assert engine_text("royal rapa") == "royal RapaNui"
    assert engine_text("sail Tahi 2 NE") == "sail Tahiti 2 NE"
    assert engine_text("expand tu") == "expand tu"  # (Tubuai, Tuamotu, Tuvalu: as typed)
    assert engine_text("tile 2,-1 NE") == "tile 2,-1 NE"

    game = _game_at(lambda g: len(g.placed_tiles()) >= 14, b"wide")

    def shown(screen, w=40, h=12) -> str:
        return "\n".join("".join(t for _s, t in line) for line in
                         screen.view.render(game, w, h).fragment_lines())

    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        first = shown(screen)
        far = next(t for t in game.placed_tiles().values() if 0 < t[0] < 16
                   and island_name(t[0]).replace(" ", "")[:4] not in first.replace(" ", ""))[0]
        word = island_name(far).replace(" ", "")[:4].lower()
        await screen.command(f"centre {word}")
        assert screen.message[1] == (f"The map shows {island_name(far)} until the next move; "
                                     "centre alone goes back to the usual view.")
        assert island_name(far).replace(" ", "")[:4] in shown(screen).replace(" ", "")
        await screen.command("centre")
        assert shown(screen) == first and screen.message[1] == "The map is back to its usual view."
        await screen.command("centre Atlantis")
        assert screen.message == ("error", "centre: no island named 'Atlantis' (centre alone "
                                           "goes back to the usual view)")


def test_a_group_lost_after_the_last_island_is_told_without_saying_no_tiles_are_left():
    """E2: after the last island no tile is drawn, and a group whose route needs one is
    lost. The story said "No tiles are left to discover" while the panel counted sea
    tiles left (a newcomer's playtest), and then "The last tile has been drawn" beside
    "Left: 0 islands, 1 sea tile" (issue 45): it says which last tile."""
    from tests.engine.builder import build, tid
    from tests.engine.test_rules_special_end import ISLANDS, _far
    from tongiaki_lan.console.story import Narrator
    from tongiaki_lan.engine import parse_move

    others = [n for n in ISLANDS if n not in ("Tubuai", "Samoa", "Nauru")]
    g = build(tiles={(0, -1): ("Tubuai", 0), (5, -5): ("Nauru", 0), **_far(others)},
              stack=["Samoa"], migrate=True,
              ships={"Tonga": ["G"] + [""] * 5, "Tubuai": ["BBR", "RR"],
                     "Nauru": ["YY", "", ""]})
    narrator = Narrator(g, ["Ana", "Ben", "Cy", "Di"])
    seen = len(g.events)
    for typed in ("sail Tubuai 1 NW", "land 1:B 2:B 3:R"):
        g.apply(parse_move(typed))
    g.apply(g.legal_moves()[0])  # (Nauru sails: its piers face the unknown)
    assert g.unrevealed_tiles() and g.hex_of(tid("Samoa")) is not None
    assert all(t >= 16 for t in g.unrevealed_tiles())  # (sea tiles only are left)
    said = [narrator.tell(e, g) for e in g.events[seen:]]
    assert ("bad", "No tile is drawn after the last island tile: Y Y are lost at sea and "
                   "go home.") in said, said


def test_chain_reaction_is_said_of_a_beach_the_landing_filled_only():
    """"Chain reaction!" was said of every departure after a turn's first, such as a
    second beach the player's own expansion had filled (a newcomer's playtest)."""
    from tongiaki_lan.console.story import Narrator

    chains = others = 0
    for n in range(12):
        game = _play_until(lambda g: False, f"chain-{n}".encode(), players=4)
        narrator = Narrator(game, ["Ana", "Ben", "Cy", "Di"])
        landed: set = set()
        for ev in game.events:
            line = narrator.tell(ev, game)
            if ev.kind == "turn":
                landed = set()
            elif ev.kind == "land":
                landed = {(ev.data[0], b) for b, _cs in ev.data[1]}
            elif ev.kind == "depart":
                chain = (ev.data[0], ev.data[1]) in landed
                assert line[1].startswith("Chain reaction!") == chain, line
                chains, others = chains + chain, others + (not chain)
    assert chains and others


async def test_undo_at_a_lan_table_says_it_is_a_solo_games_command():
    """`undo` away from a solo game read "undo: unknown command" (a playtest's LAN table),
    as if mistyped."""
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)
        await screen.command("undo")
    assert screen.message == ("error", "undo: only in a solo game; at a LAN table every "
                                       "laptop has played your move already")


async def test_a_move_typed_while_waking_stays_on_the_line_until_the_table_moves_on():
    """Back from a sleep, a typed move read "T0: asking the table what happened…" as if a
    rule refused it, and had to be typed again once the table answered (the verification
    playtest). It stays on the line, Enter plays it then; if the table played on
    meanwhile, it goes: it was meant for a decision that is no longer there."""
    from tongiaki_lan.console.feeds.base import NotYet

    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action")
    typed = str(game.legal_moves()[0])
    with create_app_session(output=DummyOutput()):
        screen = _static_screen(game)

        async def submit(move):
            raise NotYet("asking the table what happened while this computer was away")
        screen.session.submit = submit
        await screen.command(typed)
        assert screen.message == ("", "asking the table what happened while this computer "
                                      "was away: your move stays on the line, Enter plays "
                                      "it once the table has answered")
        assert screen.buffer.text == typed
        game.apply(game.legal_moves()[0])  # the table's move: a new decision
        screen.session.changed()
        assert screen.buffer.text == "" and screen.message == ("", "")

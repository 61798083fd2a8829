"""The status and message lines at the bottom of an 80x24 game screen, read cell by cell
from what the real Application drew into an in-memory VT100 terminal."""

from __future__ import annotations

import asyncio
import contextlib
import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.terminal.screen import GameScreen

from .conftest import wait_until


class Terminal:
    """An in-memory terminal whose size the test may change (a resize)."""

    def __init__(self, columns: int = 80, rows: int = 24):
        self.size = Size(rows=rows, columns=columns)
        self.output = Vt100_Output(io.StringIO(), lambda: self.size, term="xterm")


def rows_of(screen: GameScreen) -> list[str]:
    """The terminal's cells as the renderer last drew them."""
    drawn = screen.app.renderer._last_screen
    if drawn is None:
        return []
    size = screen.app.output.get_size()
    return ["".join(drawn.data_buffer[y][x].char for x in range(size.columns)).rstrip()
            for y in range(size.rows)]


def readable(rows: list[str]) -> str:
    """The screen's rows as one text, a wrapped line read on into the next."""
    return " ".join(r.strip() for r in rows)


async def _solo(inp, term: Terminal, seed: str = "bottom-lines"):
    session = SoloSession(seed_from_text(seed), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    screen = GameScreen(session, colour=False)
    await session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    await wait_until(session.my_decision, what="our setup decision")
    await wait_until(lambda: any("Tonga" in r for r in rows_of(screen)), what="the map")
    return session, screen, task


def _tonga_row(screen: GameScreen) -> int:
    return next(y for y, r in enumerate(rows_of(screen)) if "Tonga" in r[:47])


async def test_a_long_reason_is_wrapped_whole_and_the_map_stays_put():
    term = Terminal()
    with create_pipe_input() as inp, create_app_session(input=inp, output=term.output):
        session, screen, task = await _solo(inp, term)
        tonga = _tonga_row(screen)
        assert rows_of(screen)[-2] == ""  # the message row is there, empty, from the start
        for typed in ("tile 1 S", "place Tonga 9"):
            inp.send_text(typed + "\r")
            await wait_until(lambda t=typed: screen.message[1].startswith(t + ":"),
                             what=f"the reason for {typed}")
            message = screen.message[1]
            assert len(message) > 80  # too long for one row: it must wrap, not be cut
            await wait_until(lambda m=message: " ".join(m.split()) in readable(rows_of(screen)),
                             what=f"the whole reason on screen:\n{message}")
            assert all(len(r) <= 80 for r in rows_of(screen))
        inp.send_text("hint\r")
        await wait_until(lambda: screen.message[1].startswith("Hint:"), what="a hint")
        await wait_until(lambda: any(r.startswith("Hint:") for r in rows_of(screen)))
        assert _tonga_row(screen) == tonga  # neither the hint nor a reason moved the map
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_the_too_small_screen_takes_no_moves():
    term = Terminal(60, 20)
    with create_pipe_input() as inp, create_app_session(input=inp, output=term.output):
        session = SoloSession(seed_from_text("too-small"), solo_seats(2, "Tester", "random"),
                              record_path=None, pace=0, hint_kind="random")
        screen = GameScreen(session, colour=False)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(session.my_decision, what="our setup decision")
        await wait_until(lambda: any("Tongiaki needs at least" in r for r in rows_of(screen)),
                         what="the warning")
        moves = len(session.game.moves)
        inp.send_text("hint\r")
        await wait_until(lambda: "Enlarge" in screen.message[1], what="the refusal")
        inp.send_text("\r")
        await wait_until(lambda: "Enlarge" in screen.message[1] and not screen._hinting)
        assert len(session.game.moves) == moves  # nothing was played unseen
        term.size = Size(rows=24, columns=80)  # the window grows: the game is back
        screen.app.invalidate()
        await wait_until(lambda: any("Tonga" in r for r in rows_of(screen)), what="the map")
        inp.send_text("quit\r\r")  # mid-game: the second Enter confirms
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


@contextlib.asynccontextmanager
async def _final_screen(game, names: list[str]):
    """A finished game's screen at 80x24 (a real app on pipe input), once the final table
    is drawn; the first seat is ours."""
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat

    session = GameSession(game, [Seat(n, c, local=(i == 0))
                                 for i, (n, c) in enumerate(zip(names, game.colours,
                                                                strict=True))])
    term = Terminal()
    with create_pipe_input() as inp, create_app_session(input=inp, output=term.output):
        screen = GameScreen(session, colour=False)
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(lambda: any("Final score" in r for r in rows_of(screen)),
                         what="the final table")
        yield inp, screen, task


async def test_the_final_screen_at_80x24_shows_who_won_and_why():
    import hashlib

    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.console.final import decided_by, presence
    from tongiaki_lan.engine import Dealer, Game

    # a game whose final table has more island rows than the 80x24 map area can show
    for n in range(50):
        game = Game(["blue", "red", "green", "yellow"])
        dealer = Dealer(hashlib.blake2b(f"final-{n}".encode(), digest_size=32).digest())
        bot = make_bot("random", seed=n)
        while not game.is_over:
            dealer.apply(game, bot.choose(game))
        if len({t for isl in presence(game).values() for t in isl}) >= 12:
            break
    else:
        raise AssertionError("no game with 12 islands scored")
    names = ["Ana", "Ben", "Cy", "Di"]
    async with _final_screen(game, names) as (inp, screen, task):
        text = readable([r[:47] for r in rows_of(screen)])  # the map area
        assert " ".join(decided_by(game, names).split()) in text
        assert "map — show the map" in text
        # the island rows below the fold are reached with the arrow keys (they could not
        # be: the points that decided the game were out of sight at 80x24)
        from tongiaki_lan.console.final import final_table

        last = final_table(game, names)[-1].strip()
        assert "more rows: ↓" in text and last not in text
        inp.send_text("\x1b[B" * 10)  # Down
        await wait_until(lambda: last in readable([r[:47] for r in rows_of(screen)]),
                         what="the last island row")
        inp.send_text("\x03")
        assert await asyncio.wait_for(task, 30) == 0


async def test_six_players_final_table_keeps_their_names_whole_at_80x24():
    """A row per player: names up to 16 letters whole in the 47 columns the map has at
    80x24 (a column per player cut them to 4), with the result still first."""
    import hashlib

    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.console.final import decided_by
    from tongiaki_lan.engine import COLOURS, Dealer, Game

    game = Game(list(COLOURS[:6]))
    dealer = Dealer(hashlib.blake2b(b"six-names", digest_size=32).digest())
    bot = make_bot("random", seed=6)
    while not game.is_over:
        dealer.apply(game, bot.choose(game))
    names = ["Ana", "Benedetta", "Maui (search)", "Tuiavii", "Christopher Lee", "Lea-Sophie"]
    async with _final_screen(game, names) as (inp, screen, task):
        rows = [r[:47] for r in rows_of(screen)]  # the map area
        assert " ".join(decided_by(game, names).split()) in readable(rows[:4])
        keys = game.ranking_keys()
        heads = next(i for i, r in enumerate(rows) if r.split()[:1] == ["player"])
        for name, colour, cid in zip(names, game.colours, game.colour_ids(), strict=True):
            row = next(r for r in rows[heads:] if r.strip().startswith(name + " "))
            letter, pts = row.strip()[len(name):].split()[:2]
            assert letter == "BRGYOP"[cid] and int(pts) == keys[colour][0]
        inp.send_text("\x03")  # the game is over: no question
        assert await asyncio.wait_for(task, 30) == 0


async def test_enlarge_the_window_goes_once_it_is_large_enough():
    """At a LAN table nothing need change while the window is small: "Enlarge the window
    first: the game takes no commands…" stayed under a game that took commands again."""
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import Game

    term = Terminal(60, 20)
    game = Game(["blue", "red"])
    session = GameSession(game, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    with create_pipe_input() as inp, create_app_session(input=inp, output=term.output):
        screen = GameScreen(session, colour=False)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(lambda: any("Tongiaki needs at least" in r for r in rows_of(screen)),
                         what="the warning")
        inp.send_text("place Tonga 1\r")
        await wait_until(lambda: "Enlarge" in screen.message[1], what="the refusal")
        term.size = Size(rows=24, columns=80)
        screen.app.invalidate()
        await wait_until(lambda: any("Tonga" in r for r in rows_of(screen)), what="the map")
        await wait_until(lambda: not any("Enlarge" in r for r in rows_of(screen)),
                         what="the refusal gone")
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0

"""The landing offered on the line is the hint's landing, not the engine's first one.

A newcomer's playtest: at "B G Y reach Tuvalu: Enter takes the offer" the line held
`land 1:B 2:G 3:Y` (the engine's `default_landing`, a plain fill in beach order), while
`hint` recommended `land 1:Y 2:G 3:B`. Whoever took the offer took it for advice.
"""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import bot_seed
from tongiaki_lan.console.feeds.solo import SoloSession
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import Dealer, Game
from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo

from .conftest import wait_until

KILL_LINE = "\x15"


def _random_hint(game: Game):
    """What the screen's hint on `game` is, with the `random` hint bot: its seed is the
    position's digest (session.GameSession.hint)."""
    bot = make_bot("random", seed=bot_seed(game.digest(), 255, b"hint"))
    return bot.choose(game.copy())


def _landing_where_the_hint_differs(path: Path) -> None:
    """A solo record at `path` that stops at a landing of ours (seat 0's) whose first
    hint is not the engine's default landing; the same one on every run."""
    seats = tuple(SeatInfo(n, c, "human" if i == 0 else "random") for i, (n, c) in
                  enumerate(zip(["Ana", "Ben", "Cy", "Di"], ["blue", "red", "green", "yellow"],
                                strict=True)))
    for n in range(200):
        seed = hashlib.blake2b(f"landing-offer-{n}".encode(), digest_size=32).digest()
        game = Game([s.colour for s in seats])
        dealer = Dealer(seed)
        bot = make_bot("random", seed=n)
        moves = []
        while not game.is_over:
            p = game.pending
            if p.kind == "landing" and p.seat == 0 and _random_hint(game) != \
                    game.default_landing():
                writer = RecordWriter.create(path, RecordHeader(seed=seed, seats=seats,
                                                                game_name="solo"))
                replay = Game([s.colour for s in seats])
                for move in moves:
                    replay.apply(move)
                    writer.append(move, replay.digest())
                writer.close()
                return
            dealer.apply(game, bot.choose(game), moves.append)
    raise AssertionError("no landing found")


def _session(tmp_path: Path, hint_fails: bool = False) -> SoloSession:
    record = tmp_path / "landing.tgrec"
    _landing_where_the_hint_differs(record)

    class Failing(SoloSession):
        async def hint(self):  # (a stand-in for a hint bot that fails)
            raise RuntimeError("the hint bot broke")

    kind = Failing if hint_fails else SoloSession
    return kind.resume(record, pace=0, hint_kind="random")


async def _run(screen: GameScreen, session: SoloSession):
    await session.start()
    task = asyncio.ensure_future(screen.app.run_async())
    await wait_until(lambda: screen.app.is_running, what="the application to start")
    return task


async def test_the_landing_offered_is_the_hints_and_enter_plays_it(tmp_path):
    session = _session(tmp_path)
    game = session.game
    hinted, default = str(_random_hint(game)), str(game.default_landing())
    assert hinted != default
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(lambda: screen.buffer.text, what="the landing offer")
        assert screen.buffer.text == hinted
        # the screen says whose landing it is, and why, as `hint` does
        assert screen.message[1].startswith(f"Hint: {hinted} (Enter plays it)")
        assert screen.status_text().endswith(": Enter takes the hint")
        assert "Enter takes the offer" not in screen.status_text()
        # `hint` typed now says the same (its dice are not thrown again). (The line
        # emptied at our landing gets the landing back: "Enter takes the hint" stays
        # true; what is typed next replaces it.)
        inp.send_text(KILL_LINE + "h")
        await wait_until(lambda: screen.buffer.text == "h", what="the offer typed over")
        inp.send_text("int\r")
        await wait_until(lambda: screen.buffer.text == hinted, what="the hint again")
        assert screen.message[1].startswith(f"Hint: {hinted} (Enter plays it)")
        moves = len(game.moves)
        inp.send_text("\r")
        await wait_until(lambda: len(session.game.moves) > moves, what="the landing")
        assert str(session.game.moves[moves]) == hinted
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_a_refused_landing_gets_the_hints_landing_back(tmp_path):
    session = _session(tmp_path)
    hinted = str(_random_hint(session.game))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(lambda: screen.buffer.text == hinted, what="the landing offer")
        inp.send_text("land 9:B\r")  # typing replaces the offer; this one is refused
        await wait_until(lambda: screen.message[0] == "error", what="the refusal")
        await wait_until(lambda: screen.buffer.text == hinted, what="the offer back")
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_a_failed_hint_offers_the_plain_landing_and_says_it_is_no_advice(tmp_path):
    session = _session(tmp_path, hint_fails=True)
    default = str(session.game.default_landing())
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        task = await _run(screen, session)
        await wait_until(lambda: screen.buffer.text, what="the landing offer")
        assert screen.buffer.text == default
        assert screen.status_text().endswith(": Enter lands them in beach order")
        assert screen.message == ("error", "hint: RuntimeError('the hint bot broke')")
        inp.send_text("\x03\x03")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


def test_while_the_hint_thinks_the_line_is_empty_and_the_status_says_so(tmp_path):
    session = _session(tmp_path)
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(session, colour=False)  # (not running: no hint has come)
        assert screen.buffer.text == ""
        assert screen.status_text().endswith(": a hint is on its way…")

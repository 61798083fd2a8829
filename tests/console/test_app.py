"""The real prompt_toolkit Application, driven through a pipe as a player would type."""

from __future__ import annotations

import asyncio
import re

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.i18n.islands import shown_move
from tongiaki_lan.records import read_record, replay_record

from .conftest import start_screen, wait_until

KILL_LINE = "\x15"  # Ctrl-U: clear whatever is on the command line (e.g. a landing offer)


def _shown_scores(panel: str, names: list[str]) -> dict[str, int]:
    scores = {}
    for line in panel.splitlines():
        for name in names:
            m = re.match(rf"^..{re.escape(name)}\s+([BRGYOP])\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+"
                         r"(\d)/2", line)
            if m:
                scores[name] = int(m.group(5))
    return scores


async def test_whole_solo_game_played_by_typed_hints(tmp_path):
    record = tmp_path / "game.tgr"
    seats = solo_seats(3, "Tester", "random")
    session = SoloSession(seed_from_text("pipe-game"), seats, record_path=record, pace=0,
                          hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        typed = 0
        while True:
            await wait_until(lambda: session.game.is_over or session.my_decision(),
                             what="our decision or the end")
            if session.game.is_over:
                break
            before = len(session.game.moves)
            if session.game.pending.kind != "landing":
                inp.send_text(KILL_LINE + "hint\r")
            # (a landing's hint is asked by the screen itself, and put on the line)
            await wait_until(lambda: screen.message[1].startswith("Hint:")
                             and screen.buffer.text not in ("", "hint"), what="a hint")
            # the line holds the move as typed (`place HivaOa 3`), the hint reads it spaced
            assert shown_move(screen.buffer.text, spaced=True) == \
                screen.message[1].split(": ", 1)[1].split(" (")[0]
            inp.send_text("\r")
            await wait_until(lambda b=before: len(session.game.moves) > b, what="our move")
            typed += 1
        game = session.game
        status = screen.status_text()
        panel = screen.panel_text()
        inp.send_text("quit\r")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()

    assert typed > 10
    assert "Game over" in status
    # the last moves' summary comes before the game-over line, not after it
    over = next(i for i, (_s, t) in enumerate(session.lines) if t.startswith("Game over:"))
    assert all(style != "summary" for style, _t in session.lines[over:])
    names = [s.name for s in seats]
    # the bots' seats say so: `Hina — bot (random)` in the winner line
    shown = _shown_scores(panel, names)
    engine = {names[i]: game.scores()[c] for i, c in enumerate(game.colours)}
    assert shown == engine
    assert "Hina, Maui, Kupe — bots (random)" in " ".join(panel.split())
    for name in names:
        label = name if name == "Tester" else f"{name} — bot (random)"
        assert f"{label} {engine[name]}" in status  # the final words on the status line
    replayed = replay_record(read_record(record))
    assert replayed.digest() == game.digest()


async def test_illegal_input_gives_one_line_reason_and_changes_nothing(tmp_path):
    session = SoloSession(seed_from_text("pipe-illegal"), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        await wait_until(session.my_decision, what="our setup decision")
        digest = session.game.digest()
        cases = {
            "expand Atlantis": "no island named 'Atlantis'",
            "place Tonga 9": "beach numbers run from 1 to 6",
            "place Tonga 2,9": "got '9'",  # a comma separates beaches, as people write them
            "sail Samoa 1 N": "S3: not now",  # parses; the engine refuses it in setup
            "frobnicate": "unknown command",
            "reveal Samoa": "unknown command",  # the dealer's move, never a player's
        }
        for text, reason in cases.items():
            inp.send_text(text + "\r")
            await wait_until(lambda t=text: screen.message[1].startswith(t + ":"),
                             what=f"the reason for {text!r}")
            message = screen.message[1]
            assert reason in message and "\n" not in message and "Traceback" not in message
            if reason == "unknown command":  # what to type instead, not the dealer's `reveal`
                assert "help lists the commands" in message and "reveal)" not in message
            assert session.game.digest() == digest
        inp.send_text("\x04\x04")  # Ctrl-D on an empty line asks mid-game; again leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_landing_offers_the_hints_landing_on_the_line(tmp_path):
    """Play hints until we must land; the line then holds the hint's landing (not the
    engine's default one: tests/console/test_landing_offer.py)."""
    session = SoloSession(seed_from_text("pipe-landing-0"), solo_seats(3, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        seen_landing = False
        while not session.game.is_over:
            await wait_until(lambda: session.game.is_over or session.my_decision())
            if session.game.is_over:
                break
            p = session.game.pending
            if p.kind == "landing":
                await wait_until(lambda: screen.message[1].startswith("Hint: land ")
                                 and screen.buffer.text, what="the offer")
                default = screen.buffer.text
                assert screen.message[1].startswith(f"Hint: {default} (Enter plays it)")
                before = len(session.game.moves)
                inp.send_text("\r")
                await wait_until(lambda b=before: len(session.game.moves) > b)
                assert str(session.game.moves[before]) == default
                seen_landing = True
                break
            before = len(session.game.moves)
            inp.send_text(KILL_LINE + "hint\r")
            await wait_until(lambda: screen.message[1].startswith("Hint:"))
            inp.send_text("\r")
            await wait_until(lambda b=before: len(session.game.moves) > b)
        inp.send_text("\x03\x03")  # Ctrl-C asks mid-game; a second one leaves cleanly
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()
    assert seen_landing


async def test_position_command_prints_the_position_that_rebuilds_the_game(tmp_path):
    from tongiaki_lan.engine import Game

    session = SoloSession(seed_from_text("pipe-position"), solo_seats(2, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        await wait_until(session.my_decision, what="our setup decision")
        inp.send_text("position\r")
        await wait_until(lambda: any(t.startswith("tongiaki2 ") for _, t in session.lines),
                         what="the position line")
        text = next(t for _, t in session.lines if t.startswith("tongiaki2 "))
        assert Game.from_position(text).digest() == session.game.digest()
        inp.send_text("\x04\x04")  # mid-game: Ctrl-D asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()

"""A solo game left before its end is played on later (`solo --resume`): the quit message
said "the record keeps the game", yet starting `solo` again began a fresh game, and
`--record` on that file refused to write and played an unrecorded one."""

from __future__ import annotations

import asyncio
import subprocess
import sys

from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.records import read_record, replay_record, unfinished_solo_records


async def _play_until(session: SoloSession, moves: int) -> None:
    """Our decisions by the hint bot, the bots' by their driver, until `moves` are played
    (or the game ends)."""
    while len(session.game.moves) < moves and not session.game.is_over:
        if session.my_decision():
            await session.submit(await session.hint())
        else:
            await session._driver  # the bots move until our decision comes back


async def test_a_solo_game_left_halfway_is_played_on_to_its_end(tmp_path):
    record = tmp_path / "solo-20261127-120000-abcdef12.tgrec"
    first = SoloSession(seed_from_text("resume"), solo_seats(2, "Tester", "random"),
                        record_path=record, pace=0, hint_kind="random")
    await first.start()
    await _play_until(first, 60)
    left_at, digest = len(first.game.moves), first.game.digest()
    await first.close()  # the laptop's lid, `quit`, a crash: the record has every move
    assert unfinished_solo_records(tmp_path) == [(record, left_at)]

    again = SoloSession.resume(record, pace=0, hint_kind="random")
    assert again.game.digest() == digest
    assert [s.name for s in again.seats] == ["Tester", "Hina", "Maui"]
    assert again.local_seats() == {0}
    await again.start()
    told = [t for _s, t in again.lines]
    resumed_at = next(i for i, t in enumerate(told) if f"Game resumed after move {left_at}" in t)
    # the story so far comes first, its turns numbered as played; the next turn goes on
    turns = [t for t in told[:resumed_at] if t.startswith("── turn ")]
    assert turns and turns[0].startswith("── turn 1:")
    last = int(turns[-1].split()[2].rstrip(":"))
    await _play_until(again, left_at + 12)
    later = [t for _s, t in again.lines[resumed_at:] if t.startswith("── turn ")]
    assert later and int(later[0].split()[2].rstrip(":")) == last + 1, (turns[-1], later[:1])
    await _play_until(again, 10_000)
    assert again.game.is_over
    await again.close()
    game = replay_record(read_record(record))  # one record, every move checked again
    assert game.is_over and game.digest() == again.game.digest()
    assert unfinished_solo_records(tmp_path) == []


async def test_a_game_left_before_its_first_move_leaves_no_record(tmp_path):
    record = tmp_path / "solo-empty.tgrec"
    session = SoloSession(seed_from_text("empty"), solo_seats(1, "Tester", "random"),
                          record_path=record, pace=0)
    await session.start()
    assert record.exists() and not session.game.moves
    await session.close()
    assert not record.exists() and session.record_path is None


def _solo(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", "solo", *args],
                          capture_output=True, text=True, timeout=60)


def test_resume_says_what_is_wrong_instead_of_starting_a_game(tmp_path):
    done = _solo("--resume", "--records", str(tmp_path), "--lang", "en")
    assert done.returncode == 2
    assert "no unfinished solo game in" in done.stdout and "Traceback" not in done.stderr
    damaged = tmp_path / "solo-x.tgrec"
    damaged.write_bytes(b"\x93not a record")
    done = _solo("--resume", str(damaged), "--lang", "en")
    assert done.returncode == 2
    assert f"cannot play on {damaged}" in done.stdout and "Traceback" not in done.stderr
    done = _solo("--record", str(damaged), "--lang", "en")  # never written over
    assert done.returncode == 2 and "--resume" in done.stdout
    assert damaged.read_bytes() == b"\x93not a record"


async def test_undo_takes_back_an_island_chosen_by_mistake_but_not_a_revealed_tile(tmp_path):
    """After `expand ISLAND` the next question was which beaches; a newcomer who picked the
    wrong island had no way back (`undo`, `back`, `cancel`: unknown command)."""
    from tongiaki_lan.engine import Reveal

    record = tmp_path / "solo-undo.tgrec"
    session = SoloSession(seed_from_text("undo"), solo_seats(2, "Tester", "random"),
                          record_path=record, pace=0, hint_kind="random")
    await session.start()
    took_back = refused_after_reveal = False
    while not session.game.is_over and not (took_back and refused_after_reveal):
        if not session.my_decision():
            await session._driver
            continue
        game = session.game
        if game.moves and isinstance(game.moves[-1], Reveal):
            digest = game.digest()
            assert "was revealed after your last decision" in session.undo()
            assert game.digest() == digest
            refused_after_reveal = True
        kind = game.pending.kind
        before, n = game.digest(), len(game.moves)
        await session.submit(await session.hint())
        if (not took_back and kind == "action" and session.my_decision()
                and not isinstance(session.game.moves[-1], Reveal)):
            assert session.undo() is None  # back at the choice of action
            assert session.game.digest() == before and len(session.game.moves) == n
            assert session.lines[-1][1].startswith("Taken back: ")
            took_back = True
    assert took_back and refused_after_reveal
    moves = len(session.game.moves)
    await session.close()
    kept = read_record(record)  # the moves that stand; the one taken back is kept aside
    assert len(kept.moves) == moves and len(kept.undos) == 1
    assert replay_record(kept).digest() == session.game.digest()


async def test_a_record_cut_between_a_departure_and_its_reveal_plays_on_in_the_console(
        tmp_path):
    """A crash between two saves leaves a record that ends with a departure whose tile is
    not revealed yet. It verified, the lobby offered it, and `solo --resume` then showed
    "A tile is being revealed…" for ever (nobody deals in a solo game but the moves
    themselves), `moves` listed the reveal and typing it was an unknown command. Played
    here through the real application, by typed hints, as a player would."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.engine import Reveal, Sail

    from .conftest import start_screen, wait_until
    from .test_resume_anywhere import entry_ends

    whole = tmp_path / "whole.tgrec"
    first = SoloSession(seed_from_text("cut at a reveal"), solo_seats(3, "Tester", "random"),
                        record_path=whole, pace=0, hint_kind="random")
    await first.start()
    await _play_until(first, 10_000)
    await first.close()
    uncut = read_record(whole)
    k = next(k for k in range(40, len(uncut.moves))  # (a departure mid-game)
             if isinstance(uncut.moves[k - 1], Sail) and isinstance(uncut.moves[k], Reveal))
    record = tmp_path / "solo-20261127-120000-cut.tgrec"
    record.write_bytes(whole.read_bytes()[:entry_ends(whole.read_bytes())[k]])
    assert replay_record(read_record(record)).awaiting_reveal  # (verifies: unfinished)
    assert unfinished_solo_records(tmp_path) == [(record, k)]  # (the lobby offers it)

    session = SoloSession.resume(record, pace=0, hint_kind="random")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        await wait_until(lambda: len(session.game.moves) > k, what="the tile revealed")
        assert session.game.moves[k] == uncut.moves[k]  # (the seed's tile, as uncut)
        typed = 0
        while True:
            await wait_until(lambda: session.game.is_over or session.my_decision(),
                             what="our decision or the end")
            if session.game.is_over:
                break
            assert "A tile is being revealed" not in screen.status_text()
            before = len(session.game.moves)
            if session.game.pending.kind != "landing":  # (the screen offers a landing's)
                inp.send_text("\x15hint\r")
            await wait_until(lambda: screen.message[1].startswith("Hint:")
                             and screen.buffer.text not in ("", "hint"), what="a hint")
            inp.send_text("\r")
            await wait_until(lambda b=before: len(session.game.moves) > b, what="our move")
            typed += 1
        assert "Game over" in screen.status_text()
        inp.send_text("quit\r")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()
    assert typed > 0
    game = replay_record(read_record(record))  # one record, the reveal in its place
    assert game.is_over and game.digest() == session.game.digest()
    assert unfinished_solo_records(tmp_path) == []


async def test_moves_while_a_tile_is_revealed_lists_no_reveal_to_type():
    """While a tile is being revealed (a LAN table gathering its draw), `moves` listed
    every tile left as a move, `reveal S16`, which typed was an unknown command."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import Dealer, Game, Reveal

    from .conftest import start_screen, wait_until

    game, dealer = Game(["blue", "red"]), Dealer(seed_from_text("moves at a draw"))
    while True:  # (bots' moves, each one's tiles dealt, until one calls for a tile)
        game.apply(game.legal_move(0))
        if game.awaiting_reveal and len(game.moves) > 8:
            break
        dealer.deal(game)
    seats = [Seat("Ana", "blue", local=True), Seat("Ben", "red", "remote")]
    session = GameSession(game, seats)
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        told = len(session.lines)
        inp.send_text("moves\r")
        await wait_until(lambda: len(session.lines) > told, what="the answer to moves")
        assert session.lines[-1][1] == "A tile is being revealed…"
        assert not any(isinstance(m, Reveal) and str(m) in text
                       for m in game.legal_moves() for _s, text in session.lines)
        inp.send_text("\x03\x03")  # mid-game: Ctrl-C asks, a second one leaves
        assert await asyncio.wait_for(task, 30) == 0

"""`tongiaki-lan solo`: play against bots on this machine, no network needed."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

# `--resume` without a file: the latest unfinished solo game (not a text: argparse would
# check it as a file name, as it checks a FILE given)
LATEST = True


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.bots import DEFAULT_LEVEL, LEVELS
    from tongiaki_lan.bots.levels import level
    from tongiaki_lan.cli import board_options, lang_option, plain_option, records_option
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("--bots", type=T.whole(1, 5), default=3, metavar="N",
                   help="number of bot opponents, 1..5 (default 3)")
    p.add_argument("--seed", type=T.text("a seed"), default=None,
                   help="any text, or 64 hex digits; the same seed gives the same tile stack")
    # (each level said here, from its own words: `--help` is what an installed copy has)
    p.add_argument("--level", default=None, choices=LEVELS,
                   help=f"how strong the opponents are (default {DEFAULT_LEVEL}): " + "; ".join(
                       f"{name}: {level(name).about}" for name in LEVELS))
    p.add_argument("--bot", default=None, type=T.bot_kind(), metavar="KIND",
                   help="bot kind (or level) for the opponents, instead of --level")
    p.add_argument("--name", type=T.player_name(), default=None,
                   help="your name (default: your profile's, else your login name)")
    p.add_argument("--seat", type=T.whole(1, 6), default=1, metavar="N",
                   help="your seat, 1 = first to play (default 1)")
    p.add_argument("--record", type=T.file_to_write("a record file"), default=None,
                   metavar="FILE",
                   help="write the game record to this file (default: a new file in --records)")
    p.add_argument("--resume", nargs="?", const=LATEST, default=None, metavar="FILE",
                   type=T.existing_file("a solo game's record"),
                   help="play on an unfinished solo game: its record FILE, or without FILE "
                        "the latest one in --records")
    records_option(p)
    lang_option(p)
    p.add_argument("--no-record", action="store_true", help="do not write a record")
    p.add_argument("--pace", type=T.seconds(T.PACE_MAX, zero=True), default=0.4, metavar="S",
                   help="seconds between bot moves, so you can follow them (default 0.4)")
    p.add_argument("--hint-bot", type=T.bot_kind(), default=None, metavar="KIND",
                   help="bot kind or level for `hint` (default: the normal level)")
    p.add_argument("--think", type=T.seconds(T.THINK_MAX), default=None, metavar="S",
                   help="think time of searching bots, seconds per decision on average "
                        "(default: the level's)")
    p.add_argument("--no-colour", "--no-color", dest="colour", action="store_false",
                   help="draw without colours")
    plain_option(p)
    p.add_argument("--two-colours", action="store_true",
                   help="with --bots 1: two colours each, played alternately (the French "
                        "rulebook's two-player variant; each player scores both colours "
                        "together)")
    board_options(p)


def _saved_or_os_name(given: str | None) -> str:
    """`--name`, else the profile's name, else the OS user's (solo asks nothing)."""
    from tongiaki_lan.places import places
    from tongiaki_lan.profile import player_name

    return player_name(places().profile, given, interactive=False)


def run(args) -> int:
    from tongiaki_lan.bots import DEFAULT_LEVEL
    from tongiaki_lan.cli import use_language
    from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
    from tongiaki_lan.engine.variant import STANDARD, TWO_COLOURS
    from tongiaki_lan.i18n import _
    from tongiaki_lan.records import (
        default_record_dir,
        iter_unfinished_solo_records,
        solo_record_path,
    )

    if not use_language(args):
        return 2
    if not 1 <= args.bots <= 5:
        print("solo: --bots must be 1..5 (Tongiaki is for 2 to 6 players)")
        return 2
    if not 1 <= args.seat <= args.bots + 1:
        print(f"solo: --seat must be 1..{args.bots + 1}")
        return 2
    if args.two_colours and args.bots != 1:
        print("solo: --two-colours is for two players: use it with --bots 1")
        return 2
    if args.bot and args.level:
        print("solo: give --level or --bot, not both")
        return 2
    options = {"think": args.think} if args.think is not None else {}
    records = args.records or default_record_dir()
    if args.resume is not None:
        session = _resumed(args, records, options)
        if session is None:
            return 2
        return _run(session, args)
    kind = args.bot or args.level or DEFAULT_LEVEL
    seed = seed_from_text(args.seed)
    seats = solo_seats(args.bots, _saved_or_os_name(args.name), kind, seat=args.seat - 1,
                       two_colours=args.two_colours)
    record = None
    if not args.no_record:
        record = args.record or solo_record_path(records, seed)
        if record.exists():
            print(_("solo: {path} exists; tongiaki-lan solo --resume {path} plays on its "
                    "game").format(path=record))
            return 2
    session = SoloSession(seed, seats, record_path=record, pace=args.pace,
                          hint_kind=args.hint_bot, bot_options=options,
                          variant=TWO_COLOURS if args.two_colours else STANDARD)
    if record is not None and args.record is None:
        unfinished = next(iter_unfinished_solo_records(records), None)
        if unfinished:  # (a game left before its end is not lost: say how to go on)
            session.notes.append(_(
                "Your last solo game stopped after move {n}: tongiaki-lan solo --resume "
                "plays on it.").format(n=unfinished[1]))
    return _run(session, args)


def _resumed(args, records: Path, options: dict):
    """The session of `--resume [FILE]`, or None after saying why there is none."""
    from tongiaki_lan.console.feeds.solo import SoloSession
    from tongiaki_lan.i18n import LANGUAGES, _
    from tongiaki_lan.records import RecordError, iter_unfinished_solo_records

    if args.resume is LATEST:
        unfinished = next(iter_unfinished_solo_records(records), None)
        if unfinished is None:
            print(_("solo: no unfinished solo game in {dir}; tongiaki-lan solo starts a new "
                    "one").format(dir=records))
            return None
        path = unfinished[0]
    else:
        path = Path(args.resume)
    speak = None if args.lang is not None else _speak_as_started  # (`--lang` again wins)
    try:
        session = SoloSession.resume(path, pace=args.pace, hint_kind=args.hint_bot,
                                     bot_options=options, speak=speak)
    except (OSError, RecordError) as exc:
        print(_("solo: cannot play on {path}: {error}").format(path=path, error=exc))
        return None
    if speak is not None and session.started_lang not in LANGUAGES:
        session.notes.append(_("This record does not say which language its game was started "
                               "in (an older record): the game speaks the usual one; "
                               "tongiaki-lan solo --resume --lang LANG chooses another."))
    return session


def _speak_as_started(lang: str) -> None:
    """A resumed game speaks the language it was started in, as its record says: a
    player who started `solo --lang it` got the system's language back on `--resume`.
    A record that does not say (older, or the word damaged) keeps the language chosen
    as usual (the log then says so and how to choose)."""
    from tongiaki_lan.i18n import LANGUAGES, use

    if lang in LANGUAGES:
        use(lang)


def _run(session, args) -> int:
    from tongiaki_lan.cli import say_at_exit
    from tongiaki_lan.i18n import _

    try:
        code = asyncio.run(_play(session, args))
    except EOFError:  # the input ended (a pipe): the game was closed and is recorded
        code = 0
    if session.record_path is not None:
        say_at_exit(_("Record saved: {path}").format(path=session.record_path))
        if not session.game.is_over:
            say_at_exit(_("Play on with: {command}").format(
                command=f"tongiaki-lan solo --resume {session.record_path}"))
        say_at_exit(_("Replay it with: {command}").format(
            command=f"tongiaki-lan replay {session.record_path}"))
    return code


async def _play(session, args) -> int:
    from tongiaki_lan.cli import ConsoleStop, LeaveOnSignals, console_board
    from tongiaki_lan.console.terminal.screen import run_game_screen

    if args.plain:
        from tongiaki_lan.cli import play_plain

        return await play_plain(session)
    # a closed window or kill ends the game as `quit` does (Ctrl-C is a key the screen
    # asks about); the record has every move already
    board = console_board(args)
    try:
        with LeaveOnSignals(ConsoleStop(), sigint=False):
            return await run_game_screen(session, colour=args.colour, board=board,
                                         page=args.board)
    finally:
        await board.close()

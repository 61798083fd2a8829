"""`tongiaki-lan replay [RECORD]`: step through a recorded game on the game screen (the
latest one recorded here when no record is named)."""

from __future__ import annotations

import argparse
import asyncio


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import board_options, lang_option, plain_option
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("record", type=T.record_or_number(), nargs="?", default=None,
                   help="a game record (any path; solo, lobby and play write .tgrec files), "
                        "or N, the Nth game `tongiaki-lan records` lists; without it, the "
                        "latest game recorded in --records")
    p.add_argument("--records", type=T.directory("a directory of records"), default=None,
                   metavar="DIR",
                   help="where to look for the latest game (default: this system's place "
                        "for records, `tongiaki-lan --help` prints it)")
    p.add_argument("--at", type=T.whole(0, T.MOVES_MAX), default=0,
                   help="start after this many moves")
    p.add_argument("--no-colour", "--no-color", dest="colour", action="store_false",
                   help="draw without colours")
    plain_option(p)
    lang_option(p)
    board_options(p)


def run(args) -> int:
    from tongiaki_lan.cli import use_language

    if not use_language(args):
        return 2
    from tongiaki_lan.console.feeds.replay import ReplaySession
    from tongiaki_lan.i18n import _
    from tongiaki_lan.records import (
        RecordError,
        default_record_dir,
        newest_records,
        read_record,
    )

    directory = args.records or default_record_dir()
    if args.record is None:  # (a newcomer who just played wants that game)
        newest = newest_records(directory)
        args.record = newest[0] if newest else None  # (a game under way counts too)
        if args.record is None:
            print(_("replay: no recorded game in {dir}; give a record's path").format(
                dir=directory))
            return 2
    if isinstance(args.record, int):  # `replay 3`: game 3 of `records`
        newest = newest_records(directory)
        if not 1 <= args.record <= len(newest):
            print(_("replay: there is no game {n} in the list of {dir} (tongiaki-lan records "
                    "lists them)").format(n=args.record, dir=directory))
            return 2
        args.record = newest[args.record - 1]
    try:
        record = read_record(args.record)
    except RecordError as exc:  # (`replay 1` said what was wrong but not with which file)
        print(f"replay: {args.record}: {exc}")
        return 1
    session = ReplaySession(record, str(args.record))
    if args.at:
        session.goto(args.at)
    if args.plain:
        from tongiaki_lan.cli import play_plain

        return asyncio.run(play_plain(session))
    return asyncio.run(_show(session, args))


async def _show(session, args) -> int:
    from tongiaki_lan.cli import console_board
    from tongiaki_lan.console.terminal.screen import run_game_screen

    board = console_board(args)
    try:
        return await run_game_screen(session, colour=args.colour, board=board,
                                     page=args.board)
    finally:
        await board.close()

"""`tongiaki-lan replay RECORD`: step through a recorded game on the game screen."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import lang_option

    p.add_argument("record", type=Path,
                   help="a game record (any path; solo, lobby and play write .tgrec files)")
    p.add_argument("--at", type=int, default=0, help="start after this many moves")
    p.add_argument("--no-colour", "--no-color", dest="colour", action="store_false",
                   help="draw without colours")
    lang_option(p)


def run(args) -> int:
    from tongiaki_lan.cli import use_language

    if not use_language(args):
        return 2
    from tongiaki_lan.console.screen import run_game_screen
    from tongiaki_lan.console.session import ReplaySession
    from tongiaki_lan.records import RecordError, read_record

    try:
        record = read_record(args.record)
    except RecordError as exc:
        print(f"replay: {exc}")
        return 1
    session = ReplaySession(record, str(args.record))
    if args.at:
        session.goto(args.at)
    return asyncio.run(run_game_screen(session, colour=args.colour))

"""`tongiaki-lan position RECORD [--at N]`: the position after move N as one line of text,
to paste into a bug report (`Game.from_position` reads it back)."""

from __future__ import annotations

import argparse

from tongiaki_lan.records import RecordError, read_record


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record")
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help="the position after N moves (default: after the last one)")


def run(args) -> int:
    try:
        record = read_record(args.record)
    except RecordError as exc:
        print(f"position: {args.record}: {exc}")
        return 1
    total = len(record.moves)
    at = total if args.at is None else args.at
    if not 0 <= at <= total:
        print(f"position: --at must be between 0 and {total} (the record has {total} moves)")
        return 1
    game = record.header.new_game()
    for i, move in enumerate(record.moves[:at]):
        try:
            game.apply(move)
        except ValueError as exc:
            print(f"position: {args.record}: move {i} ({move}) is refused by the rules: {exc}")
            return 1
    print(game.position())
    return 0

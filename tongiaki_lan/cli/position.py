"""`tongiaki-lan position RECORD [--at N]`: the position after move N as one line of text,
to paste into a bug report (`Game.from_position` reads it back)."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import optiontypes as T
    from tongiaki_lan.cli import record_options

    record_options(p)
    # (a playtest read `stack=Muroroa,Nauru,…` of a game in progress as the tiles to come)
    p.epilog = ("stack= lists the tiles not yet revealed in the catalogue's order (islands, "
                "then seas): what a player at the table can count, never the order they "
                "come in.")
    p.add_argument("--at", type=T.whole(0, T.MOVES_MAX), default=None, metavar="N",
                   help="the position after N moves (default: after the last one)")


def run(args) -> int:
    from tongiaki_lan.cli import no_such_game, numbered_record, record_position

    path, directory = numbered_record(args.record, args.records)
    if path is None:
        print(no_such_game("position", args.record, directory))
        return 2
    loaded = record_position("position", path, args.at, err=sys.stdout)
    if isinstance(loaded, int):
        return loaded
    print(loaded[1].position())
    return 0

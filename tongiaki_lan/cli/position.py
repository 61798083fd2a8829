"""`tongiaki-lan position RECORD [--at N]`: the position after move N as one line of text,
to paste into a bug report (`Game.from_position` reads it back)."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("record", help="a game record")
    p.add_argument("--at", type=int, default=None, metavar="N",
                   help="the position after N moves (default: after the last one)")


def run(args) -> int:
    from tongiaki_lan.cli import record_position

    loaded = record_position("position", args.record, args.at, err=sys.stdout)
    if isinstance(loaded, int):
        return loaded
    print(loaded[1].position())
    return 0

"""`tongiaki-lan export RECORD [--at N] --svg FILE`: a picture of a recorded game's board."""

from __future__ import annotations

import argparse
import sys


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import lang_option, record_options
    from tongiaki_lan.cli import optiontypes as T

    record_options(p)
    p.add_argument("--at", type=T.whole(0, T.MOVES_MAX), default=None, metavar="N",
                   help="the board after the first N moves (default: the last position)")
    p.add_argument("--svg", required=True, metavar="FILE",
                   type=T.new_file("a file for the picture", dash=True),
                   help="write the board here as SVG ('-' for standard output)")
    lang_option(p)


def run(args) -> int:
    from tongiaki_lan.cli import no_such_game, numbered_record, record_position, use_language
    from tongiaki_lan.files import write_text_atomic
    from tongiaki_lan.i18n import _
    from tongiaki_lan.svgboard import board_svg

    if not use_language(args):
        return 2
    path, directory = numbered_record(args.record, args.records)
    if path is None:
        print(no_such_game("export", args.record, directory), file=sys.stderr)
        return 2
    args.record = path
    loaded = record_position("export", args.record, args.at)
    if isinstance(loaded, int):
        return loaded
    record, game, at = loaded
    total = len(record.moves)
    names = {s.colour: name for s, name
             in zip(record.header.seats, record.seat_names(at), strict=True)}
    if game.is_over:
        state = _("final position")
    else:
        state = _("after move {i} of {n}").format(i=at, n=total)
    title = f"Tongiaki — {record.header.game_name or args.record.stem} — {state}"
    text = board_svg(game, names=names, title=title)
    if args.svg == "-":
        # UTF-8 bytes whatever the console's code page: an SVG says it is UTF-8
        sys.stdout.flush()
        out = getattr(sys.stdout, "buffer", None)
        if out is None:  # a stream without bytes underneath (a test's StringIO)
            sys.stdout.write(text)
        else:
            out.write(text.encode("utf-8"))
            out.flush()
        return 0
    try:
        write_text_atomic(args.svg, text)
    except OSError as exc:
        print(_("export: cannot write {path}: {error}").format(
            path=args.svg, error=exc.strerror or exc), file=sys.stderr)
        return 1
    print(export_summary(args.svg, title, len(game.placed_tiles())))
    return 0


def export_summary(path: str, title: str, tiles: int) -> str:
    """The line `export` prints: where the picture went, what it shows, in the player's
    language (`--lang`)."""
    from tongiaki_lan.i18n import ngettext

    return ngettext("{path}: {title} ({n} tile)", "{path}: {title} ({n} tiles)", tiles).format(
        path=path, title=title, n=tiles)

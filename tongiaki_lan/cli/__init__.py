"""The `tongiaki-lan` command.

Each subcommand lives in its own module (`tongiaki_lan.cli.<name>`) exposing
`configure(parser)` and `run(args) -> int`. Modules are imported only when their
subcommand runs, so the engine-only commands start fast and never pull in the
network or UI stacks.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "solo": ("tongiaki_lan.cli.solo", "play against bots on this machine (no network)"),
    "lobby": ("tongiaki_lan.cli.lobby", "open the LAN lobby console (the default)"),
    "replay": ("tongiaki_lan.cli.replay", "step through a recorded game"),
    "play": ("tongiaki_lan.cli.play", "join or create a LAN game (headless bot seat)"),
    "games": ("tongiaki_lan.cli.games", "list the games on the LAN"),
    "doctor": ("tongiaki_lan.cli.doctor", "why can't I see your game? (network check)"),
    "selfplay": ("tongiaki_lan.cli.selfplay", "bots play each other, one JSON line per game"),
    "verify": ("tongiaki_lan.cli.verify", "replay a game record and check every move"),
    "export": ("tongiaki_lan.cli.export", "draw a recorded game's board as an SVG picture"),
    "position": ("tongiaki_lan.cli.position", "print a record's position as text"),
    "bench": ("tongiaki_lan.cli.bench", "measure engine or network speed"),
    "tournament": ("tongiaki_lan.cli.tournament", "bots against bots with statistics"),
}


def records_option(p: argparse.ArgumentParser) -> None:
    """`--records DIR`, the same for every command that plays a game."""
    from tongiaki_lan.records import default_record_dir

    p.add_argument("--records", type=Path, default=None, metavar="DIR",
                   help=f"where game records go (default {default_record_dir()}, "
                        "under $XDG_DATA_HOME when it is set)")


def lang_option(p: argparse.ArgumentParser) -> None:
    """`--lang`, for the commands that open the console."""
    from tongiaki_lan.i18n import LANGUAGES

    p.add_argument("--lang", default=None, metavar="LANG",
                   help="language of the console: " + ", ".join(LANGUAGES) +
                        " (default: from LANGUAGE / LC_ALL / LC_MESSAGES / LANG, else en)")


def use_language(args: argparse.Namespace) -> bool:
    """Switch to the language asked for; False (having said why) if it is not available."""
    from tongiaki_lan.i18n import use

    try:
        use(getattr(args, "lang", None))
    except ValueError as exc:
        print(f"tongiaki-lan: {exc}", file=sys.stderr)
        return False
    return True


def record_position(command: str, path, at: int | None, err=None):
    """The game of a record after its first `at` moves (all by default), every move and
    reveal checked; or, having said why on `err` (stderr), the exit code. Shared by the
    commands that show one position of a record (`position`, `export`)."""
    from tongiaki_lan.records import RecordError, read_record, replay_record

    err = err or sys.stderr
    try:
        record = read_record(path)
    except RecordError as exc:
        print(f"{command}: {path}: {exc}", file=err)
        return 1
    total = len(record.moves)
    at = total if at is None else at
    if not 0 <= at <= total:
        print(f"{command}: --at must be 0..{total} (the record holds {total} moves)", file=err)
        return 2
    try:
        game = replay_record(record, upto=at)
    except RecordError as exc:
        print(f"{command}: {path}: {exc}", file=err)
        return 1
    return record, game, at


def _epilog() -> str:
    from tongiaki_lan.records import SUFFIX, default_record_dir

    return (f"Every game played here is recorded as it goes, one {SUFFIX} file per game, "
            f"in {default_record_dir()} (that is $XDG_DATA_HOME/tongiaki-lan/records, or "
            f"~/.local/share/tongiaki-lan/records without XDG_DATA_HOME; --records DIR "
            f"chooses another). `replay`, `verify` and `export` read a record from any path.")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tongiaki-lan", description=__doc__.splitlines()[0],
                                     epilog=_epilog())
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name != module_name:
                    raise
                sp.set_defaults(_missing=name)
                continue
            module.configure(sp)
            sp.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] not in SUBCOMMANDS and argv[0] not in ("-h", "--help"):
        argv = ["lobby", *argv]
    parser = build_parser(only=argv[0] if argv[0] in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if getattr(args, "_missing", None):
        print(f"tongiaki-lan: '{args._missing}' is not available in this build", file=sys.stderr)
        return 2
    if sys.platform == "win32":  # the selector loop: see net/aio/pump.py, choose_event_loop
        from tongiaki_lan.net.aio.pump import choose_event_loop

        choose_event_loop()
    try:
        code = int(args._run(args) or 0)
        sys.stdout.flush()  # a reader that went away shows here, where it can be handled
        return code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `tongiaki-lan verify FILE | head`: the reader has read enough. Leave quietly, with
        # the status a writer killed by SIGPIPE has in a shell, and point stdout at
        # /dev/null so that the interpreter's last flush cannot fail again.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        return 141

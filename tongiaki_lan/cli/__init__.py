"""The `tongiaki-lan` command.

Each subcommand lives in its own module (`tongiaki_lan.cli.<name>`) exposing
`configure(parser)` and `run(args) -> int`. Modules are imported only when their
subcommand runs, so the engine-only commands start fast and never pull in the
network or UI stacks.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "solo": ("tongiaki_lan.cli.solo", "play against bots on this machine (no network)"),
    "lobby": ("tongiaki_lan.cli.lobby", "open the LAN lobby console (the default)"),
    "replay": ("tongiaki_lan.cli.replay", "step through a recorded game"),
    "play": ("tongiaki_lan.cli.play", "join or create a LAN game (headless bot seat)"),
    "games": ("tongiaki_lan.cli.games", "list the games on the LAN"),
    "selfplay": ("tongiaki_lan.cli.selfplay", "bots play each other, one JSON line per game"),
    "verify": ("tongiaki_lan.cli.verify", "replay a game record and check every move"),
    "position": ("tongiaki_lan.cli.position", "print a record's position as text"),
    "bench": ("tongiaki_lan.cli.bench", "measure engine or network speed"),
    "tournament": ("tongiaki_lan.cli.tournament", "bots against bots with statistics"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tongiaki-lan", description=__doc__.splitlines()[0])
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
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130

"""`tongiaki-lan doctor`: why can't I see your game? Interfaces, mDNS, the nodes heard,
a signed datagram exchanged with each, clock differences, and a verdict with what to do."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import lang_option
    from tongiaki_lan.cli import optiontypes as T

    parser.add_argument("--json", action="store_true",
                        help="one JSON object: the facts and the verdict (for scripts)")
    parser.add_argument("--interface", action="append", type=T.interface_address(),
                        default=None, metavar="ADDR",
                        help="look only through the network interface with this IPv4 "
                             "address (repeatable), as the other commands would")
    parser.add_argument("--wait", type=T.seconds(T.WAIT_MAX, zero=True), default=None, metavar="S",
                        help="seconds to listen for the others (default 3)")
    lang_option(parser)


def run(args: argparse.Namespace) -> int:
    from tongiaki_lan.cli import use_language
    from tongiaki_lan.net.aio.doctor import LISTEN_S, diagnose, verdict

    if not use_language(args):
        return 2
    wait = LISTEN_S if args.wait is None else max(0.5, args.wait)
    try:
        facts = asyncio.run(diagnose(args.interface, wait))
    except KeyboardInterrupt:
        return 130
    except OSError as exc:
        print(f"tongiaki-lan doctor: {exc}", file=sys.stderr)
        return 1
    v = verdict(facts)
    if args.json:
        print(json.dumps({**facts, "verdict": v}, default=list))
        return 0
    from tongiaki_lan.console.doctor import report_lines

    for _style, line in report_lines(facts, v):
        print(line)
    return 0

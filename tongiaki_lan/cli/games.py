"""`tongiaki-lan games`: the games advertised on the LAN, with when each was first seen."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time

# a lost question or answer (a lossy Wi-Fi) must not make an empty list: with nothing
# heard by the end of --wait, listen (and ask, see Discovery.hurry) this much longer
EXTRA_WAIT_S = 3.0


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    from tongiaki_lan.cli import optiontypes as T

    parser.add_argument("--wait", type=T.seconds(T.TIMEOUT_MAX, zero=True), default=None,
                        help="seconds to listen before printing (default 1; when no game "
                             f"was heard of by then, up to {EXTRA_WAIT_S:.0f} s more, asking "
                             "again; with --watch: how long to watch, default until "
                             "interrupted)")
    from tongiaki_lan.cli import lan_options

    lan_options(parser, socket=False)
    parser.add_argument("--watch", action="store_true",
                        help="keep listening and print the whole list again whenever it "
                             "changes (with --json: one line {\"games\": [...]} per change)")


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 130


def _rows(games, started: float) -> list[dict]:
    rows = []
    for g in games:
        row = g.to_json()
        row["seen_after_s"] = round(max(0.0, g.first_seen - started), 3)
        rows.append(row)
    return rows


def _print_table(games) -> None:
    if not games:
        print("no games on the LAN ('tongiaki-lan doctor' finds out why)")
        return
    print(f"{'game':24} {'phase':9} {'seats':6} {'lock':4} {'first seen':10} guests")
    for g in games:
        seen = time.strftime("%H:%M:%S", time.localtime(g.first_seen))
        lock = "yes" if g.passphrase else ""
        guests = ""
        if g.running:  # a latecomer may watch it, or take a seat a bot plays
            guests = ", ".join(x for x in (
                "watch" if g.watchable else "",
                (f"{g.open_seats} bot seat{'s' if g.open_seats > 1 else ''} to take"
                 if g.open_seats else "")) if x) or "closed"
        print(f"{g.name[:24]:24} {g.phase:9} {g.taken}/{g.total:<4} {lock:4} {seen:10} "
              f"{guests}".rstrip())


async def _main(args: argparse.Namespace) -> int:
    from tongiaki_lan.net.aio.discovery import Discovery

    disc = Discovery(args.interface) if args.interface else Discovery()
    started = time.time()
    try:
        await disc.start()
    except OSError as exc:
        print(f"tongiaki-lan games: cannot use multicast DNS here ({exc})", file=sys.stderr)
        return 1
    try:
        if args.watch:
            await _watch(disc, args, started)
            return 0
        wait = max(0.0, 1.0 if args.wait is None else args.wait)
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            await disc.wait_changed(left)
        games = disc.games()
        if not games and wait > 0:
            disc.hurry(EXTRA_WAIT_S)
            end += EXTRA_WAIT_S
            while not games and (left := end - time.monotonic()) > 0:
                await disc.wait_changed(left)
                games = disc.games()
    finally:
        await disc.close()
    if args.json:
        for row in _rows(games, started):
            print(json.dumps(row))
    else:
        _print_table(games)
    return 0


async def _watch(disc, args, started: float) -> None:
    from tongiaki_lan.cli import LeaveOnSignals

    stop = asyncio.Event()
    with LeaveOnSignals(stop.set):
        await _watch_until(disc, args, started, stop)


async def _watch_until(disc, args, started: float, stop: asyncio.Event) -> None:
    end = None if not args.wait else time.monotonic() + args.wait
    last = None
    while not stop.is_set() and (end is None or time.monotonic() < end):
        games = disc.games()
        rows = _rows(games, started)
        key = [(r["game_id"], r["phase"], r["seats_taken"], len(r["peers"])) for r in rows]
        if key != last:
            last = key
            if args.json:
                print(json.dumps({"games": rows, "at": round(time.time() - started, 3)}))
            else:
                print(time.strftime("%H:%M:%S"))
                _print_table(games)
            sys.stdout.flush()
        timeout = 1.0 if end is None else max(0.01, min(1.0, end - time.monotonic()))
        await disc.wait_changed(timeout)

"""`tongiaki-lan games`: the games advertised on the LAN, with when each was first seen."""

from __future__ import annotations

import argparse
import asyncio
import json
import time


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="one JSON object per game")
    parser.add_argument("--wait", type=float, default=1.0,
                        help="seconds to listen before printing (default 1)")


def run(args: argparse.Namespace) -> int:
    return asyncio.run(_main(args))


async def _main(args: argparse.Namespace) -> int:
    from tongiaki_lan.net.discovery import Discovery

    disc = Discovery()
    started = time.time()
    await disc.start()
    try:
        end = time.monotonic() + max(0.0, args.wait)
        while (left := end - time.monotonic()) > 0:
            await disc.wait_changed(left)
        games = disc.games()
    finally:
        await disc.close()
    if args.json:
        for g in games:
            row = g.to_json()
            row["seen_after_s"] = round(max(0.0, g.first_seen - started), 3)
            print(json.dumps(row))
        return 0
    if not games:
        print("no games on the LAN")
        return 0
    print(f"{'game':24} {'phase':9} {'seats':6} {'lock':4} first seen")
    for g in games:
        seen = time.strftime("%H:%M:%S", time.localtime(g.first_seen))
        lock = "yes" if g.passphrase else ""
        print(f"{g.name[:24]:24} {g.phase:9} {g.taken}/{g.total:<4} {lock:4} {seen}")
    return 0

"""A crowded party for discovery: many laptops' adverts from one process.

`python -m tongiaki_lan.net.lab.crowd --first 0 --count 6 --tables 10` runs six nodes'
discovery (each its own zeroconf instance, browsing and advertising as a node sitting at
an open table does), nodes first…first+count-1 of the party, node j at table j % tables.
It prints one JSON line `{"event": "advertised", "n": count}` once every advert is
registered, then runs until killed. Tests and the crowd bench start a few of these in
network namespaces to make 30 laptops without 30 interpreters.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sys

LONG = False  # --long-names: names of 24 characters (adverts and known answers grow)


def table_name(t: int) -> str:
    return f"Friday night table {t:02d}" + "x" * 5 if LONG else f"table{t:02d}"


def table_id(t: int) -> bytes:
    return hashlib.blake2b(table_name(t).encode(), digest_size=8).digest()


def peer_id(j: int) -> bytes:
    return hashlib.blake2b(b"crowd-peer-%d" % j, digest_size=8).digest()


async def _main(args: argparse.Namespace) -> None:
    from tongiaki_lan.net.aio.discovery import Discovery

    nodes = []
    published = asyncio.Event()
    done = set()

    for j in range(args.first, args.first + args.count):
        disc = Discovery()
        await disc.start(browse=not args.no_browse)

        def on_pub(_instance, j=j):
            done.add(j)
            if len(done) == args.count:
                published.set()

        disc.on_published(on_pub)
        t = j % args.tables
        disc.advertise_soon(game_name=table_name(t), game_id=table_id(t), peer=peer_id(j),
                            player=f"player number {j:03d}" if LONG else f"p{j}",
                            phase="lobby", taken=j // args.tables + 1,
                            total=6, passphrase=False, port=40000 + j)
        nodes.append(disc)
    await published.wait()
    print(json.dumps({"event": "advertised", "n": args.count}), flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        for disc in nodes:
            await disc.close()


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--count", type=int, default=1)
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--no-browse", action="store_true")
    p.add_argument("--long-names", action="store_true")
    args = p.parse_args(argv)
    global LONG
    LONG = args.long_names
    try:
        asyncio.run(_main(args))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

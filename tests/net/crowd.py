"""A crowded party in network namespaces: `laptops` nodes at `tables` open tables (their
discovery only, a few nodes per process: net.lab.crowd), and a fresh `games --json` on one
more host. Used by tests/net/test_netns_crowd.py and, for the 30-laptop figure, run as

    sudo python -m tests.net.crowd --laptops 30 --tables 10 --hosts 6 --runs 3
    sudo python -m tests.net.crowd --laptops 30 --tables 10 --runs 3 --real [--seats 2]

which prints how many tables each `games --json --wait 1` listed, when each was first
seen, and the mDNS packets and bytes each laptop sent per second (iptables counters per
namespace, divided by the laptops in it); with --real, also the open tables the laptops
said they sat at that the look missed."""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .netns import Lan
from .procs import Proc, kill_all

# the QR bit of the DNS header (answers: 1), 8 bytes into the UDP header's payload
_QR = "0>>22&0x3C@8>>15&0x1=1"


def _count_mdns(lan: Lan, i: int) -> None:
    for rule in (["-p", "udp", "--dport", "5353"],
                 ["-p", "udp", "--dport", "5353", "-m", "u32", "--u32", _QR]):
        subprocess.run(lan.cmd(i, "iptables", "-A", "OUTPUT", *rule),
                       check=True, capture_output=True, timeout=20)


def _mdns_counters(lan: Lan, i: int, answers: bool) -> tuple[int, int]:
    out = subprocess.run(lan.cmd(i, "iptables", "-L", "OUTPUT", "-v", "-x", "-n"),
                         check=True, capture_output=True, text=True, timeout=20).stdout
    rows = [line.split() for line in out.splitlines()
            if "dpt:5353" in line and ("u32" in line) == answers]
    return sum(int(r[0]) for r in rows), sum(int(r[1]) for r in rows)


def mdns_sent(lan: Lan, i: int) -> int:
    """mDNS packets host i has sent (queries and answers: every packet to port 5353)."""
    return _mdns_counters(lan, i, answers=False)[0]


def mdns_bytes_sent(lan: Lan, i: int) -> int:
    """The bytes of those packets (IP headers included, as iptables counts them)."""
    return _mdns_counters(lan, i, answers=False)[1]


def mdns_answers_sent(lan: Lan, i: int) -> int:
    return _mdns_counters(lan, i, answers=True)[0]


async def real_party(lan: Lan, tmp: Path, laptops: int, tables: int,
                     seats: int | None = None, wait: float | None = 3.0,
                     bot_delay: float = 1.0):
    """One `play --headless` per laptop (one namespace each), laptop j asking for table
    j % tables. By default each table has a seat more than its players: every table stays
    open; with `seats`, tables fill and start, and the players left over go on to
    "tableNN (2)" (`protocol/discovery.md`, "One name, one table")."""
    from .netns import play_cmd

    procs = []
    for j in range(laptops):
        _count_mdns(lan, j)
        n = seats or min(6, laptops // tables + 1)
        extra = ["--bot-delay", str(bot_delay), *(["--wait", str(wait)] if wait else [])]
        procs.append(Proc(play_cmd(lan, j, tmp, f"table{j % tables:02d}", n, *extra,
                                   timeout=600), tmp))
    for p in procs:
        await p.start()
    for p in procs:
        await p.wait(lambda p=p: p.count("advertised") >= 1, 300)
    return procs


def seated(procs) -> dict[str, tuple[str, bool]]:
    """Where the laptops sit, as they say it: game id -> (name, started)."""
    out: dict[str, tuple[str, bool]] = {}
    for p in procs:
        joined = [e for e in p.events if e.get("event") == "joined"]
        if joined:
            started = any(e.get("event") == "game_start" for e in p.events)
            gid = joined[-1]["game_id"]
            out[gid] = (joined[-1]["game"], started or out.get(gid, ("", False))[1])
    return out


async def party(lan: Lan, tmp: Path, laptops: int, tables: int, hosts: int,
                long_names: bool = False):
    """Start the crowd on hosts 0..hosts-1; returns the processes once all advertise."""
    procs = []
    per = -(-laptops // hosts)
    for h in range(hosts):
        first, count = h * per, min(per, laptops - h * per)
        if count <= 0:
            break
        _count_mdns(lan, h)
        procs.append(Proc(lan.cmd(h, sys.executable, "-m", "tongiaki_lan.net.lab.crowd",
                                  "--first", str(first), "--count", str(count),
                                  "--tables", str(tables),
                                  *(["--long-names"] if long_names else [])), tmp))
    for p in procs:
        await p.start()
    for p in procs:
        await p.wait(lambda p=p: p.count("advertised") >= 1, 120)
    return procs


async def list_games(lan: Lan, i: int, tmp: Path, wait: float = 1.0) -> list[dict]:
    lister = Proc(lan.cmd(i, sys.executable, "-m", "tongiaki_lan", "games", "--json",
                          "--wait", str(wait)), tmp)
    await lister.start()
    assert await lister.finish(60) == 0, lister.stderr[-1500:]
    return [e for e in lister.events if "game" in e]


async def bench(laptops: int, tables: int, hosts: int, runs: int, settle: float,
                real: bool = False, loss: float = 0.0, long_names: bool = False,
                seats: int | None = None, wait: float | None = 3.0) -> dict:
    if real:
        hosts = laptops
    with Lan(hosts + 1, loss=loss) as lan, tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        procs = (await real_party(lan, Path(tmp), laptops, tables, seats, wait) if real
                 else await party(lan, Path(tmp), laptops, tables, hosts, long_names))
        try:
            await asyncio.sleep(4.0)  # the last comers' hurry windows end
            formed = sum(mdns_sent(lan, h) for h in range(hosts))
            formed_bytes = sum(mdns_bytes_sent(lan, h) for h in range(hosts))
            answers = sum(mdns_answers_sent(lan, h) for h in range(hosts))
            spent = time.monotonic() - t0
            formation = {"seconds": round(spent, 1),
                         "packets_per_laptop_per_s": round(formed / laptops / spent, 2),
                         "bytes_per_laptop_per_s": round(formed_bytes / laptops / spent),
                         "network_packets_per_s": round(formed / spent, 1),
                         "queries": formed - answers, "answers": answers}
            await asyncio.sleep(settle)  # the bench's steady state, not a synchronisation
            before = [mdns_sent(lan, h) for h in range(hosts)]
            before_bytes = [mdns_bytes_sent(lan, h) for h in range(hosts)]
            t0 = time.monotonic()
            await asyncio.sleep(10.0)
            idle = sum(mdns_sent(lan, h) for h in range(hosts)) - sum(before)
            idle_bytes = sum(mdns_bytes_sent(lan, h) for h in range(hosts)) - sum(before_bytes)
            idle_s = time.monotonic() - t0
            listed = []
            for _ in range(runs):
                before = [mdns_sent(lan, h) for h in range(hosts)]
                before_bytes = [mdns_bytes_sent(lan, h) for h in range(hosts)]
                truth = seated(procs) if real else None
                t0 = time.monotonic()
                games = await list_games(lan, hosts, Path(tmp))
                spent = time.monotonic() - t0
                during = sum(mdns_sent(lan, h) for h in range(hosts)) - sum(before)
                during_bytes = (sum(mdns_bytes_sent(lan, h) for h in range(hosts))
                                - sum(before_bytes))
                look = {"tables": len(games),
                        "open": sum(g["phase"] == "lobby" for g in games),
                        "seen_after_s": sorted(g["seen_after_s"] for g in games),
                        "party_packets_per_laptop_per_s": round(during / laptops / spent, 2),
                        "party_bytes_per_laptop_per_s": round(during_bytes / laptops / spent)}
                if truth is not None:  # the open tables the laptops sit at, and unlisted
                    listed_ids = {g["game_id"] for g in games}
                    open_ids = {gid for gid, (_n, started) in truth.items() if not started}
                    look["open_at_laptops"] = len(open_ids)
                    look["missed"] = sorted(truth[g][0] for g in open_ids - listed_ids)
                listed.append(look)
                await asyncio.sleep(2.0)
        finally:
            await kill_all(procs)
    return {"laptops": laptops, "tables": tables, "processes": hosts, "real": real,
            "seats": seats, "loss": loss, "long_names": long_names,
            "formation": formation,
            "idle_packets_per_laptop_per_s": round(idle / laptops / idle_s, 2),
            "idle_bytes_per_laptop_per_s": round(idle_bytes / laptops / idle_s),
            "runs": listed}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--laptops", type=int, default=30)
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--hosts", type=int, default=6)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--settle", type=float, default=5.0)
    p.add_argument("--real", action="store_true",
                   help="one `play --headless` process per laptop instead of net.lab.crowd")
    p.add_argument("--loss", type=float, default=0.0,
                   help="each host drops this share of the UDP datagrams it receives")
    p.add_argument("--long-names", action="store_true")
    p.add_argument("--seats", type=int, default=None,
                   help="with --real: seats per table (default: one more than its players)")
    p.add_argument("--wait", type=float, default=3.0,
                   help="with --real: each `play --wait` (0: its default, 1.5 s)")
    a = p.parse_args()
    print(json.dumps(asyncio.run(bench(a.laptops, a.tables, a.hosts, a.runs, a.settle,
                                       a.real, a.loss, a.long_names, a.seats,
                                       a.wait or None))))
    return 0


if __name__ == "__main__":
    sys.exit(main())

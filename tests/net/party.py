"""A party of laptops that all type the same table name (issue 45): `laptops` network
namespaces, each running `play --headless --bot random --game NAME --players SEATS` at
once. Used by tests/net/test_netns_party.py and, for figures, run as

    sudo python -m tests.net.party --laptops 10 --seats 2 --runs 3

which prints, per run, how many games were played and finished with one digest, the
tables' names, who was left alone or told the game runs, and how long it took."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from .netns import Lan, play_cmd
from .procs import Proc, kill_all


def party_cmds(lan: Lan, tmp: Path, game: str, seats: int, *extra: str,
               timeout: int = 120, bot_delay: str = "0.01") -> list[list[str]]:
    # (--verbose: the log on stderr says what each laptop's matchmaking did)
    return [play_cmd(lan, i, tmp, game, seats, "--bot", "random", "--bot-delay", bot_delay,
                     "--verbose", *extra, timeout=timeout) for i in range(len(lan.names))]


def outcome(procs: list[Proc]) -> dict:
    """What the party got: per game id, the laptops that finished it and their digests."""
    games: dict[str, list[tuple[int, str]]] = defaultdict(list)
    names: dict[str, str] = {}
    alone, running, errors, records = [], [], [], []
    for i, p in enumerate(procs):
        starts = [e for e in p.events if e.get("event") == "game_start"]
        joined = [e for e in p.events if e.get("event") == "joined"]
        last = p.events[-1] if p.events else {}
        if last.get("event") == "game_over" and starts and joined:
            gid = joined[-1]["game_id"]
            games[gid].append((i, last["digest"]))
            names[gid] = joined[-1]["game"]
            records.append((last["record"], last["digest"]))
        elif last.get("event") == "running":
            running.append(i)
        elif not starts and last.get("event") != "error":
            alone.append(i)
        else:
            errors.append((i, last))
    finished = {gid: ps for gid, ps in games.items() if len({d for _, d in ps}) == 1}
    return {"games": len(games), "one_digest": len(finished),
            "laptops_per_game": sorted(len(ps) for ps in games.values()),
            "names": sorted(names.values()), "alone": alone, "told_running": running,
            "errors": errors, "records": records}


async def run_party(laptops: int, seats: int, game: str = "party", loss: float = 0.0,
                    timeout: int = 120, extra: tuple[str, ...] = (),
                    keep: Path | None = None) -> dict:
    """Run the party; `keep`: a directory for the records (else a temporary one)."""
    with Lan(laptops, loss=loss) as lan, tempfile.TemporaryDirectory() as scratch:
        tmp = Path(keep or scratch)
        tmp.mkdir(parents=True, exist_ok=True)
        procs = [Proc(cmd, tmp) for cmd in party_cmds(lan, tmp, game, seats, *extra,
                                                       timeout=timeout)]
        t0 = time.monotonic()
        loop_t0 = asyncio.get_running_loop().time()
        try:
            for p in procs:
                await p.start()
            codes = [await p.finish(timeout + 30) for p in procs]
        finally:
            await kill_all(procs)
        result = outcome(procs)
        result["codes"] = codes
        starts = [p.arrived[k] for p in procs for k, e in enumerate(p.events)
                  if e.get("event") == "game_start"]
        nodes = [p.arrived[k] for p in procs for k, e in enumerate(p.events)
                 if e.get("event") == "node"]
        if starts and nodes:
            # from the first laptop's node up to the last table's start
            result["all_seated_s"] = round(max(starts) - min(nodes), 1)
            result["nodes_up_within_s"] = round(max(nodes) - min(nodes), 1)
        result["seconds"] = round(time.monotonic() - t0, 1)
        result["first_node_after_s"] = round(min(nodes) - loop_t0, 1) if nodes else None
        result["publish_failed"] = sum(b"publish failed" in p.stderr for p in procs)
        # what a laptop that did not finish a game last said, and its log's matchmaking
        result["trouble"] = {
            i: {"events": p.events[-3:], "log": [line for line in p.stderr.decode(
                "utf-8", "replace").splitlines() if "matchmaking" in line][-12:]}
            for i, (p, code) in enumerate(zip(procs, codes, strict=True)) if code != 0}
        return result


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--laptops", type=int, default=10)
    p.add_argument("--seats", type=int, default=2)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--timeout", type=int, default=120)
    p.add_argument("--loss", type=float, default=0.0)
    a = p.parse_args()
    for _ in range(a.runs):
        result = asyncio.run(run_party(a.laptops, a.seats, loss=a.loss, timeout=a.timeout))
        del result["records"]
        if not result["trouble"]:
            del result["trouble"]
        print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`tongiaki-lan ladder`: bots and levels rated against each other at mixed tables.

A tournament answers "does A beat these three?"; a ladder puts many entries (kinds,
levels, budgets) on one scale. Game g seats 2 to 6 entries: the table size is drawn from
the game's own generator, and the entries that have played least so far take the seats
(ties drawn too), so every entry plays about as often as the others, against everyone, at
every table size. Each game's finishing order (E4: points, then the tie-breaks; equal
keys share a rank) updates an OpenSkill Plackett-Luce rating per entry, game after game
in schedule order — a model made for multiplayer rankings, where a 5-player win says
more than a 2-player one.

Reproducible: the schedule, every game's tiles and every bot's seed come from `--seed`,
and the ratings are updated in game order whatever `--jobs` is; unless `--timed`, every
entry is iteration-bounded (levels in their fixed form, a bare `search` at the normal
level's iterations, `search@800i` as written; only `search@0.3s` is timed), and then
the same seed gives the same JSON.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time

from tongiaki_lan.bots.entries import checked_entry
from tongiaki_lan.bots.levels import fixed_options
from tongiaki_lan.cli.tournament import GameOutcome, Tally, play_games

DEFAULT_ENTRIES = "random,easy,greedy,normal,hard"
Z = 2.0  # intervals are mu ± Z sigma


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("--entries", type=T.bot_list(2, 32, distinct=True, what="bots"),
                   default=DEFAULT_ENTRIES,
                   help="comma list of distinct bots to rate: kinds, levels (easy, normal, "
                        "hard), searching kinds with a budget (search@0.3s, search@800i) "
                        f"(default {DEFAULT_ENTRIES})")
    p.add_argument("--games", type=T.whole(1, T.GAMES_MAX), default=60)
    p.add_argument("--seed", type=T.text("a seed"), default="0",
                   help="base seed of the schedule and the games")
    p.add_argument("--min-players", type=T.whole(2, 6), default=2)
    p.add_argument("--max-players", type=T.whole(2, 6), default=6)
    p.add_argument("--timed", action="store_true",
                   help="levels and bare searching kinds think against the clock (as in "
                        "solo play) instead of fixed iterations; the results then depend "
                        "on the machine")
    p.add_argument("--jobs", type=T.whole(1, T.JOBS_MAX), default=None,
                   help="games played in parallel (default: number of CPUs, at most 2)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def schedule(entries: list[str], games: int, seed: str, lo: int = 2,
             hi: int = 6) -> list[list[str]]:
    """The tables of games 0..games-1: sizes lo..hi (at most the entries), seats to those
    who have played least, ties drawn; a pure function of its arguments."""
    hi = min(hi, len(entries))
    played = dict.fromkeys(entries, 0)
    tables = []
    for g in range(games):
        rng = random.Random(hashlib.blake2b(f"ladder/{seed}/{g}".encode(),
                                            digest_size=16).digest())
        size = rng.randint(lo, hi)
        order = sorted(entries, key=lambda e: (played[e], rng.random()))
        table = order[:size]
        rng.shuffle(table)
        for e in table:
            played[e] += 1
        tables.append(table)
    return tables


def rate(entries: list[str], tables: list[list[str]], outcomes: list[GameOutcome]) -> list[dict]:
    """OpenSkill Plackett-Luce ratings after every game in order, with per-entry tallies."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {e: model.rating(name=e) for e in entries}
    tallies = {e: Tally(e, e.partition("@")[0]) for e in entries}
    for table, out in zip(tables, outcomes, strict=True):
        teams = model.rate([[ratings[e]] for e in table], ranks=out.ranks)
        for e, (r,) in zip(table, teams, strict=True):
            ratings[e] = r
        for i, e in enumerate(table):
            tallies[e].add(out.scores[i], out.wins[i], out.times[i],
                           out.iterations[i] if out.iterations else None)
    rows = []
    for e in entries:
        r = ratings[e]
        t = tallies[e].summary()
        rows.append({
            "bot": e,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "interval": [round(r.mu - Z * r.sigma, 3), round(r.mu + Z * r.sigma, 3)],
            "ordinal": round(r.ordinal(), 3),  # mu - 3 sigma: a cautious single figure
            "games": t["games"],
            "wins": t["wins"],
            "win_rate": t["win_rate"],
            "mean_ms": t["mean_ms"],
            "p50_ms": t["p50_ms"],
            "p95_ms": t["p95_ms"],
            **({"iterations_mean": t["iterations_mean"]} if "iterations_mean" in t else {}),
        })
    rows.sort(key=lambda row: (-row["mu"], row["bot"]))
    return rows


def run(args) -> int:
    entries = [e.strip() for e in args.entries.split(",") if e.strip()]
    if len(entries) < 2 or len(set(entries)) != len(entries):
        print("ladder: --entries needs at least 2 distinct bots", file=sys.stderr)
        return 2
    if args.games < 1:
        print("ladder: --games must be at least 1", file=sys.stderr)
        return 2
    if not 2 <= args.min_players <= args.max_players <= 6:
        print("ladder: tables have 2 to 6 players (--min-players <= --max-players)",
              file=sys.stderr)
        return 2
    options: dict[str, dict] = {}
    try:
        for e in entries:
            # fixed unless --timed: levels their fixed form, a bare search the normal
            # level's iterations (an entry's own @budget stands)
            fixed = None if args.timed else fixed_options("search")["iterations"]
            options[e] = checked_entry(e, iterations=fixed,
                                       deterministic=not args.timed).options
    except ValueError as exc:
        print(f"ladder: {exc}", file=sys.stderr)
        return 2
    jobs = args.jobs or min(2, os.cpu_count() or 1)
    tables = schedule(entries, args.games, str(args.seed), args.min_players, args.max_players)
    started = time.perf_counter()
    outcomes = _play_all(tables, str(args.seed), options, jobs, args.quiet)
    report = {
        "games": args.games,
        "entries": entries,
        "seed": str(args.seed),
        "timed": args.timed,
        "players": [args.min_players, min(args.max_players, len(entries))],
        "jobs": jobs,
        "elapsed_s": round(time.perf_counter() - started, 2),
        "stuck_games": [o.index for o in outcomes if o.stuck],
        "model": "openskill PlackettLuce (mu 25, sigma 25/3), interval mu ± 2 sigma",
        "ratings": rate(entries, tables, outcomes),
    }
    if args.json:
        print(json.dumps(report))
    else:
        _print_table(report)
    return 0


def _play_all(tables, base, options, jobs, quiet) -> list[GameOutcome]:
    calls = [(tables[g], base, g, {e: options[e] for e in tables[g]}, "ladder")
             for g in range(len(tables))]
    return play_games("ladder", calls, jobs, quiet)


def _print_table(report: dict) -> None:
    print(f"{report['games']} games, tables of {report['players'][0]}-{report['players'][1]}, "
          f"seed {report['seed']}, {'timed' if report['timed'] else 'fixed'} levels, "
          f"{report['elapsed_s']} s")
    print(f"{'bot':<14} {'mu':>6} {'mu ± 2 sigma':>15} {'ordinal':>8} {'games':>6} "
          f"{'win rate':>8} {'p50 ms':>8}")
    for r in report["ratings"]:
        lo, hi = r["interval"]
        print(f"{r['bot']:<14} {r['mu']:>6.2f} {lo:>7.2f}-{hi:<7.2f} {r['ordinal']:>8.2f} "
              f"{r['games']:>6} {100 * r['win_rate']:>7.1f}% {r['p50_ms']:>8.2f}")

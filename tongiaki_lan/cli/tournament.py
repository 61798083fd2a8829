"""`tongiaki-lan tournament`: bots against bots, with the statistics to tell them apart.

Seat order rotates from game to game (entry i sits in seat (i + g) mod n in game g),
so no bot profits from always starting. Each game's stack seed and bot seeds are
derived from the base seed and the game number, so a game can be reproduced on its
own — except that a bot with a time budget thinks as far as the machine lets it;
give `search` a fixed `--iterations` budget (levels: `--fixed`) for exactly repeatable
runs. A seat is a bot kind or a level, with its own budget if wanted (`search@0.3s`,
`search@800i`: bots/entries.py).

A shared win (E4 tie) counts 1/k for each of the k winners, so win rates of all
entries add up to 100%. The 95% interval is Wilson's score interval.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tongiaki_lan.bots import make_bot
from tongiaki_lan.bots.entries import checked_entry, labels
from tongiaki_lan.cli.workers import run_in_workers
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.lifeline import stop_on_signals
from tongiaki_lan.measure import percentile
from tongiaki_lan.selfplay import bot_seed, game_seed

Z95 = 1.959963984540054
# A chain reaction can cycle between two islands for ever when every choice continues
# it (a gap in the engine's X2, reported to its owner). A turn that runs this long is
# stopped and the game scored as it stands, so one such game cannot hang a tournament.
MAX_MOVES_PER_TURN = 1000


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("--seats", type=T.bot_list(2, 6), default="search,greedy,greedy,greedy",
                   help="comma list of bots, one per seat (2 to 6): a kind or a level "
                        "(easy, normal, hard), a searching kind with its own budget "
                        "as search@0.3s or search@800i")
    p.add_argument("--games", type=T.whole(1, T.GAMES_MAX), default=20)
    p.add_argument("--seed", type=T.text("a seed"), default="0",
                   help="base seed; game g derives its own from it")
    p.add_argument("--think", type=T.seconds(T.THINK_MAX), default=None,
                   help="think time per decision for search bots, seconds (default 1)")
    p.add_argument("--iterations", type=T.whole(1, T.ITERATIONS_MAX), default=None,
                   help="fixed iterations per decision for search bots (repeatable runs)")
    p.add_argument("--fixed", action="store_true",
                   help="levels play their fixed-iterations form (repeatable runs; what a "
                        "LAN table plays)")
    p.add_argument("--jobs", type=T.whole(1, T.JOBS_MAX), default=None,
                   help="games played in parallel (default: number of CPUs, at most 2)")
    p.add_argument("--log", type=T.file_to_write("a log file"), default=None, metavar="FILE",
                   help="append each game to FILE as it ends; the same command run again "
                        "plays only the games FILE lacks (a long run survives a stop)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


@dataclass
class GameOutcome:
    index: int
    seats: list[int]  # seat -> entry
    scores: list[int]  # by entry
    wins: list[float]  # by entry (1/k for k shared winners)
    times: list[list[float]]  # by entry: seconds per decision
    turns: int
    stuck: bool = False
    ranks: list[int] = field(default_factory=list)  # by entry: 1 = won, ties share a rank
    # by entry: search iterations per decision (searching bots only), to see what a time
    # budget buys on this machine and to match a fixed budget to it
    iterations: list[list[int]] = field(default_factory=list)


def play_one(kinds: list[str], base: str, index: int, options: dict,
             domain: str = "tournament") -> GameOutcome:
    """Game `index`: `kinds` are the entries (a kind or level, `@budget` allowed; the kind
    is what comes before `@`), `options` their `make_bot` options by entry spec."""
    n = len(kinds)
    seed = game_seed(base, index, domain=domain)
    seats = [(s - index) % n for s in range(n)]  # seat s is played by entry seats[s]
    bots = [make_bot(kinds[e].partition("@")[0], seed=bot_seed(seed, e),
                     **options.get(kinds[e], {}))
            for e in seats]
    game = Game(COLOURS[:n], undo=False)
    dealer = Dealer(seed)
    times: list[list[float]] = [[] for _ in range(n)]
    iterations: list[list[int]] = [[] for _ in range(n)]
    turn, turn_start, stuck = game.turn, 0, False
    while not game.is_over:
        if game.turn != turn:
            turn, turn_start = game.turn, len(game.moves)
        elif len(game.moves) - turn_start > MAX_MOVES_PER_TURN:
            stuck = True
            break
        seat = game.pending.seat
        start = time.perf_counter()
        move = bots[seat].choose(game)
        times[seats[seat]].append(time.perf_counter() - start)
        done = getattr(bots[seat].inner, "last_iterations", None)
        if done is not None:
            iterations[seats[seat]].append(done)
        dealer.apply(game, move)
    scores_by_colour = game.scores()
    winners = game.winners()
    keys = game.ranking_keys()
    scores = [0] * n
    wins = [0.0] * n
    ranks = [0] * n
    for s in range(n):
        colour = game.colours[s]
        scores[seats[s]] = scores_by_colour[colour]
        ranks[seats[s]] = 1 + sum(k > keys[colour] for k in keys.values())
        if colour in winners:
            wins[seats[s]] = 1.0 / len(winners)
    return GameOutcome(index, seats, scores, wins, times, game.turn, stuck, ranks, iterations)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    if successes <= 0:  # exact ends, not 1e-17 off through rounding
        return 0.0, z * z / (n + z * z)
    if successes >= n:
        return n / (n + z * z), 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    label: str
    kind: str
    games: int = 0
    wins: float = 0.0
    score_sum: int = 0
    times: list[float] = field(default_factory=list)
    iterations: list[int] = field(default_factory=list)

    def add(self, score: int, win: float, times: list[float],
            iterations: list[int] | None = None) -> None:
        self.games += 1
        self.wins += win
        self.score_sum += score
        self.times.extend(times)
        self.iterations.extend(iterations or ())

    def summary(self) -> dict:
        lo, hi = wilson(self.wins, self.games)
        ts = sorted(self.times)
        return {
            "bot": self.label,
            "kind": self.kind,
            "games": self.games,
            "wins": round(self.wins, 3),
            "win_rate": round(self.wins / self.games, 4) if self.games else 0.0,
            "ci95": [round(lo, 4), round(hi, 4)],
            "mean_score": round(self.score_sum / self.games, 3) if self.games else 0.0,
            "decisions": len(ts),
            "mean_ms": round(1000 * sum(ts) / len(ts), 3) if ts else 0.0,
            "p50_ms": round(1000 * percentile(ts, 0.5), 3),
            "p95_ms": round(1000 * percentile(ts, 0.95), 3),
            "max_ms": round(1000 * ts[-1], 3) if ts else 0.0,
            **({"iterations_mean": round(sum(self.iterations) / len(self.iterations), 1),
                "iterations_p50": percentile(sorted(self.iterations), 0.5)}
               if self.iterations else {}),
        }


def run(args) -> int:
    kinds = [k.strip() for k in args.seats.split(",") if k.strip()]
    if not 2 <= len(kinds) <= 6:
        print("tournament: --seats needs 2 to 6 bot kinds", file=sys.stderr)
        return 2
    if args.games < 1:
        print("tournament: --games must be at least 1", file=sys.stderr)
        return 2
    options: dict[str, dict] = {}
    try:
        for k in dict.fromkeys(kinds):  # refuse bad seats and options before any game
            options[k] = checked_entry(k, args.think, args.iterations, args.fixed).options
    except ValueError as exc:
        print(f"tournament: {exc}", file=sys.stderr)
        return 2
    jobs = args.jobs or min(2, os.cpu_count() or 1)
    names = labels(kinds)
    tallies = [Tally(names[i], kinds[i]) for i in range(len(kinds))]
    by_kind = {k: Tally(k, k) for k in dict.fromkeys(kinds)}
    log = None
    if args.log:
        from tongiaki_lan.cli.runlog import LogError, RunLog

        log = RunLog(args.log, {"seats": kinds, "seed": str(args.seed), "think": args.think,
                                "iterations": args.iterations, "fixed": args.fixed})
        try:
            log.open()
        except (LogError, OSError) as exc:
            print(f"tournament: {exc}", file=sys.stderr)
            return 2
        if log.dropped_tail and not args.quiet:
            print(f"tournament: {args.log}: its last game was cut short and is played again",
                  file=sys.stderr)
    started = time.perf_counter()
    kept = {g: o for g, o in (log.games.items() if log else ()) if g < args.games}
    todo = [(kinds, str(args.seed), g, options) for g in range(args.games) if g not in kept]
    try:
        played = play_games("tournament", todo, jobs, args.quiet, log.append if log else None,
                            done=len(kept), total=args.games)
    except KeyboardInterrupt:
        if log:
            print(f"\ntournament: stopped; {len(log.games)} games are in {args.log}, and the "
                  "same command plays the rest", file=sys.stderr)
        raise
    outcomes = sorted([*kept.values(), *played], key=lambda o: o.index)
    for out in outcomes:
        for e in range(len(kinds)):
            its = out.iterations[e] if out.iterations else None
            tallies[e].add(out.scores[e], out.wins[e], out.times[e], its)
            by_kind[kinds[e]].add(out.scores[e], out.wins[e], out.times[e], its)
    elapsed = time.perf_counter() - started
    report = {
        "games": args.games,
        "seats": kinds,
        "seed": str(args.seed),
        "think": args.think,
        "iterations": args.iterations,
        "fixed": args.fixed,
        "jobs": jobs,
        "elapsed_s": round(elapsed, 2),
        "from_log": len(kept),
        "mean_turns": round(sum(o.turns for o in outcomes) / len(outcomes), 2),
        "stuck_games": [o.index for o in outcomes if o.stuck],
        "bots": [t.summary() for t in tallies],
        "by_kind": [t.summary() for t in by_kind.values()] if len(by_kind) < len(kinds)
        else [],
    }
    if args.json:
        print(json.dumps(report))
    else:
        _print_table(report)
    return 0


def play_games(label: str, calls: list[tuple], jobs: int, quiet: bool,
               ended: Callable[[GameOutcome], None] | None = None, *, done: int = 0,
               total: int | None = None) -> list[GameOutcome]:
    """Each tuple of `calls` is one `play_one` game; they run in `jobs` processes (games are
    independent and seeded by their number, so the outcome does not depend on `jobs`),
    with a progress line on stderr (`done` of `total` already played elsewhere), and come
    back in game order. `ended` sees each game as soon as it ends, in whatever order they
    end, so what it keeps is kept even if the run is stopped."""
    outcomes: list[GameOutcome] = []
    total = len(calls) + done if total is None else total

    def progress(out: GameOutcome) -> None:
        outcomes.append(out)
        if ended:
            ended(out)
        if not quiet:
            print(f"\r{label}: {done + len(outcomes)}/{total} games", end="",
                  file=sys.stderr, flush=True)

    # SIGTERM and a closed window (SIGHUP) stop the run as Ctrl-C does: the workers are
    # ended and what was kept is said (lifeline.py)
    with stop_on_signals():
        if jobs <= 1 or len(calls) <= 1:
            for call in calls:
                progress(play_one(*call))
        else:  # (cli/workers.py: why not multiprocessing.Pool)
            run_in_workers(play_one, calls, min(jobs, len(calls)), progress)
    if not quiet and calls:
        print(file=sys.stderr)
    outcomes.sort(key=lambda o: o.index)
    return outcomes


def _print_table(report: dict) -> None:
    print(f"{report['games']} games, seats {','.join(report['seats'])}, "
          f"seed {report['seed']}, {report['elapsed_s']} s")
    rows = report["bots"] + report["by_kind"]
    print(f"{'bot':<12} {'win rate':>8} {'95% CI':>15} {'mean score':>10} "
          f"{'p50 ms':>8} {'p95 ms':>8}")
    for r in rows:
        ci = f"{100 * r['ci95'][0]:.1f}-{100 * r['ci95'][1]:.1f}%"
        print(f"{r['bot']:<12} {100 * r['win_rate']:>7.1f}% {ci:>15} {r['mean_score']:>10.2f} "
              f"{r['p50_ms']:>8.2f} {r['p95_ms']:>8.2f}")

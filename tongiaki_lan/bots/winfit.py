"""Where the search's win model (evaluation.WinModel) comes from: fitted to bot games.

    python -m tongiaki_lan.bots.winfit --games 1600 --jobs 2

plays games of 2 to 6 seats (4 seats most often, as at most tables; `--seats 2
--games 800`: duels only, what WIN_MODEL_TWO holds) between `greedy` and `easy` bots,
notes at every turn's start what `evaluation.tallies` counts for each seat and, at the
end, who won; then fits a conditional logit (each seat's strength is linear in its
tallies and in the tallies times the game's progress; the winner is drawn with the
softmax of the strengths) by Newton's method, on three quarters of the games, and
reports the log-loss on the other quarter beside the evaluation `greedy` uses (its
seat values with one fitted scale). The weights it prints are what WinModel holds.

Pure Python on purpose: no numerical library is a dependency, and nine weights need
none. Its 1600 games took about five minutes on two cores here (docs/bots.md has the figures).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import astuple, fields
from functools import partial

from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.engine import decisions as D

from .entries import Entry, checked_entry
from .evaluation import (
    DEFAULT,
    TABLE_MODELS,
    WIN_MODEL,
    WinModel,
    progress,
    seat_values,
    tallies,
)

NAMES = [f.name for f in fields(WinModel)]

# One sample: the seats' feature vectors (in NAMES order), the seats' values under the
# evaluation greedy uses, and the outcome (1/k for each of k winners).
Sample = tuple[list[list[float]], list[float], list[float]]


def features(game: Game) -> list[list[float]]:
    """Per seat, the model's inputs in the order of WinModel's fields."""
    points, islands, ships, fragile = tallies(game)
    p = progress(game)
    pending = game.pending.seat if game.pending is not None else None
    return [[points[s], points[s] * p, islands[s], islands[s] * p, ships[s], ships[s] * p,
             fragile[s], fragile[s] * p, 1.0 if s == pending else 0.0]
            for s in range(game.n_seats)]


def play(index: int, seats: int | None = None,
         entries: tuple[Entry, ...] = ()) -> tuple[int, list[Sample]]:
    """Game `index` of the fitting set, as samples (none if it did not finish): of 2 to 6
    seats, or of `seats` only (its own games: seeds of their own domain). With `entries`
    (tournament entries such as `search@200i`; `seats` required) the seats are played by
    them in turn (`seated`): the positions of stronger play, to check that the model
    reads those too."""
    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.selfplay import bot_seed, game_seed

    rng = random.Random(index)
    if seats is None:
        n = rng.choice([2, 3, 4, 4, 4, 5, 6])
        seed = game_seed("evalfit", index)
    else:
        n = seats
        domain = f"evalfit{seats}"
        if entries:
            domain += ":" + ",".join(e.spec for e in entries)
        seed = game_seed(domain, index)
    if entries:
        bots = [make_bot(e.kind, seed=bot_seed(seed, s), **e.options)
                for s, e in enumerate(seated(entries, index, n))]
    else:
        kinds = [rng.choice(["greedy", "greedy", "easy"]) for _ in range(n)]
        bots = [make_bot(k, seed=bot_seed(seed, s)) for s, k in enumerate(kinds)]
    game = Game(COLOURS[:n], undo=False)
    dealer = Dealer(seed)
    rows = []
    moves = 0
    while not game.is_over and moves < 3000:
        if game.pending.kind == D.ACTION:
            rows.append((features(game), seat_values(game, DEFAULT)))
        dealer.apply(game, bots[game.pending.seat].choose(game))
        moves += 1
    if not game.is_over:
        return index, []
    winners = game.winners()
    y = [1.0 / len(winners) if c in winners else 0.0 for c in game.colours]
    return index, [(f, v, y) for f, v in rows]


def seated(entries: tuple[Entry, ...], index: int, n: int) -> list[Entry]:
    """Who plays each of the `n` seats of game `index`: entry (seat + index) mod
    len(entries), so every entry sits in every place as often."""
    return [entries[(s + index) % len(entries)] for s in range(n)]


def _softmax(v: list[float]) -> list[float]:
    top = max(v)
    e = [math.exp(x - top) for x in v]
    t = sum(e)
    return [x / t for x in e]


def log_loss(samples: list[list[list[float]]], ys: list[list[float]], w: list[float]) -> float:
    total = 0.0
    for xs, y in zip(samples, ys, strict=True):
        p = _softmax([sum(a * b for a, b in zip(x, w, strict=True)) for x in xs])
        total -= sum(t * math.log(max(q, 1e-12)) for t, q in zip(y, p, strict=True) if t)
    return total / len(samples)


def fit(samples: list[list[list[float]]], ys: list[list[float]], l2: float = 1e-3,
        steps: int = 30) -> list[float]:
    """The conditional logit's weights, by Newton's method (L2 keeps it well posed)."""
    k = len(samples[0][0])
    w = [0.0] * k
    n = len(samples)
    for _ in range(steps):
        g = [-l2 * n * x for x in w]
        h = [[(l2 * n if i == j else 0.0) for j in range(k)] for i in range(k)]
        for xs, y in zip(samples, ys, strict=True):
            p = _softmax([sum(a * b for a, b in zip(x, w, strict=True)) for x in xs])
            mean = [sum(p[s] * xs[s][i] for s in range(len(xs))) for i in range(k)]
            for s, x in enumerate(xs):
                r = y[s] - p[s]
                ps = p[s]
                for i in range(k):
                    xi = x[i]
                    if r:
                        g[i] += r * xi
                    if ps and xi:
                        row = h[i]
                        c = ps * xi
                        for j in range(k):
                            row[j] += c * x[j]
            for i in range(k):
                mi = mean[i]
                if mi:
                    row = h[i]
                    for j in range(k):
                        row[j] -= mi * mean[j]
        step = _solve(h, g)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(x) for x in step) < 1e-8:
            break
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small and positive
    definite here)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tongiaki_lan.bots.winfit",
                                description="fit the search's win model to bot games")
    p.add_argument("--games", type=int, default=1600)
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--seats", type=int, default=None, choices=range(2, 7),
                   help="fit tables of this size only (WIN_MODEL_TWO: --seats 2 --games 800)")
    p.add_argument("--bots", default="",
                   help="comma-separated tournament entries to play instead of greedy and "
                        "easy, in turn at every seat (e.g. search@200i,search1@200i); "
                        "needs --seats")
    args = p.parse_args(argv)
    specs = [e for e in args.bots.split(",") if e]
    if specs and args.seats is None:
        p.error("--bots needs --seats")
    try:
        entries = tuple(checked_entry(e) for e in specs)
    except ValueError as exc:
        p.error(str(exc))
    wins = dict.fromkeys(specs, 0.0)
    train_x, train_v, train_y, test_x, test_v, test_y = [], [], [], [], [], []
    with ProcessPoolExecutor(args.jobs) as pool:
        for index, rows in pool.map(partial(play, seats=args.seats, entries=entries),
                                    range(args.games), chunksize=8):
            if entries and rows:
                for entry, share in zip(seated(entries, index, args.seats), rows[-1][2],
                                        strict=True):
                    wins[entry.spec] += share
            for f, v, y in rows:
                if index % 4 == 0:  # every fourth game is held out
                    test_x.append(f)
                    test_v.append(v)
                    test_y.append(y)
                else:
                    train_x.append(f)
                    train_v.append(v)
                    train_y.append(y)
    print(f"{len(train_x) + len(test_x)} positions from {args.games} games", file=sys.stderr)
    for entry, won in wins.items():
        print(f"{entry}: {won:g} wins of {args.games} games")
    w = fit(train_x, train_y)
    scale = fit([[[v] for v in vs] for vs in train_v], train_y)
    held = log_loss(test_x, test_y, w)
    base = log_loss([[[v] for v in vs] for vs in test_v], test_y, scale)
    now = log_loss(test_x, test_y,
                   list(astuple(TABLE_MODELS.for_seats(args.seats) if args.seats else WIN_MODEL)))
    print(f"held-out log-loss: win model {held:.4f}, greedy's evaluation (scale "
          f"{scale[0]:.4f}) {base:.4f}, the weights in use now {now:.4f}")
    for name, x in zip(NAMES, w, strict=True):
        print(f"    {name}: float = {x:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

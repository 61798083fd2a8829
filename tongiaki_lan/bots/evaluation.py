"""How good a position looks to a Tongiaki player, as one number per seat.

The terms are the ones a player weighs at the table:
- points held now (E3), kings included — at the end this is all that counts;
- islands present on (the first tie-break, and a spread that survives migrations);
- ships on the board and in reserve: the means of future expansion;
- fragile presence: ships that sit only on beaches one berth short of full will be
  swept off by the next expansion there, so those points are worth less;
- a colony in progress: the island still to come is worth the mean value of the
  islands left in the stack.

Early in the game the means matter; as the stack runs out (E1) only points do, so the
"means" terms fade with the share of the stack already revealed. A seat's utility is
its value minus the best rival's: a bot plays to win, not to score.

`greedy` compares moves by that utility. `search` needs more than an order: its rewards
at the end of a game are wins, and a reward halfway must be a share of a win too, so it
reads the same tallies through `WinModel`, each seat's chance of winning, fitted to how
bot games end (bots/winfit.py).

Under a table variant (two colours each, rules digest V1) a seat plays for its owner:
a player's value is the sum of their colours' values, and every seat of a player has
that player's utility, so a bot deciding for one colour weighs its owner's combined
result (its other colour is a partner, not a rival).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tongiaki_lan.engine import Game
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine import variant as V
from tongiaki_lan.engine.tiles import TILES, TONGA

VALUE = tuple(t.value for t in TILES)
BERTHS = tuple(tuple(b.berths for b in t.beaches) for t in TILES)


@dataclass(frozen=True)
class Weights:
    islands: float = 0.6  # per island present
    on_board: float = 0.35  # per ship on a beach, scaled by what is left of the game
    reserve: float = 0.1  # per ship in reserve, same scaling
    fragile: float = 0.45  # share of an island's value lost when presence is fragile
    colony: float = 1.0  # share of the expected island value for a colony in progress
    rival_max: float = 1.0  # weight of the best rival in the utility
    rival_mean: float = 0.0  # weight of the rivals' mean


DEFAULT = Weights()


def progress(game: Game) -> float:
    """0 at the start, 1 when E1 ends the game."""
    isl, sea = game.revealed_counts()
    return max(isl / 15, sea / 16)


def tallies(game: Game) -> tuple[list[float], list[int], list[int], list[float]]:
    """Per seat: points held now (kings included), islands present on, ships on the board
    (a king counts as one, E4) and the value of islands held only by fragile presence."""
    n = game.n_seats
    seat_of = {c: s for s, c in enumerate(game.colour_ids())}
    points = [0.0] * n
    islands = [0] * n
    ships = [0] * n
    fragile = [0.0] * n
    kings = game.kings()
    for tid, cid in kings.items():
        s = seat_of[cid]
        points[s] += VALUE[tid]
        islands[s] += 1
        ships[s] += 1
    for tid, _rot in game.placed_tiles().values():
        if tid >= 16 or tid in kings:
            continue
        berths = BERTHS[tid]
        present: dict[int, bool] = {}  # seat -> has a ship on a safe beach
        for b, colours in enumerate(game.ships_on(tid)):
            if not colours:
                continue
            safe = berths[b] - len(colours) != 1
            for c in colours:
                s = seat_of[c]
                ships[s] += 1
                present[s] = present.get(s, False) or safe
        for s, safe in present.items():
            points[s] += VALUE[tid]
            islands[s] += 1
            if not safe and tid != TONGA:
                fragile[s] += VALUE[tid]
    return points, islands, ships, fragile


def _colony_gain(game: Game) -> tuple[int, float] | None:
    """(seat, points) of a New Colony under way: the island still to come is worth the mean
    of the islands left in the stack; None when no colony is being placed."""
    pending = game.pending
    if pending is None or pending.kind not in (D.COLONY_TILE, D.COLONY_SHIP):
        return None
    if pending.kind == D.COLONY_SHIP:
        return pending.seat, float(VALUE[pending.island])
    tile = pending.tile
    if tile is not None and tile < 16:
        return pending.seat, float(VALUE[tile])
    left_isl = [VALUE[t] for t in game.unrevealed_tiles() if t < 16]
    return pending.seat, (sum(left_isl) / len(left_isl) if left_isl else 0.0)


def seat_values(game: Game, w: Weights = DEFAULT) -> list[float]:
    points, islands, ships, fragile = tallies(game)
    left = 1.0 - progress(game)
    out = []
    for s in range(game.n_seats):
        v = points[s] + w.islands * islands[s]
        v += left * (w.on_board * ships[s] + w.reserve * game.reserve(s) - w.fragile * fragile[s])
        out.append(v)
    colony = _colony_gain(game)
    if colony is not None:
        seat, gain = colony
        out[seat] += w.colony * (gain + w.islands)
    return out


def utilities(game: Game, w: Weights = DEFAULT) -> list[float]:
    """Per seat: own value minus the rivals' (best, and optionally mean)."""
    v = seat_values(game, w)
    if game.owners is not None:  # V1: a seat's utility is its owner's
        own = game.owners
        pv = [0.0] * (max(own) + 1)
        for s, x in enumerate(v):
            pv[own[s]] += x
        gap = _rival_gap(pv, w)
        return [gap[p] for p in own]
    return _rival_gap(v, w)


def _rival_gap(v: list[float], w: Weights) -> list[float]:
    n = len(v)
    out = []
    for s in range(n):
        rivals = v[:s] + v[s + 1 :]
        u = v[s] - w.rival_max * max(rivals)
        if w.rival_mean:
            u -= w.rival_mean * sum(rivals) / len(rivals)
        out.append(u)
    return out


@dataclass(frozen=True)
class WinModel:
    """Each seat's chance of winning from here, as a conditional logit fitted to the
    outcomes of bot games (bots/winfit.py; figures in docs/bots.md): a seat's
    strength is linear in what `tallies` counts, with weights that move with the game's
    progress p (0 at the start, 1 at the end), and the chances are the softmax of the
    strengths over the seats. The fit says what a player feels: early, the ships on the
    board are what count and points barely do; towards the end, points are almost all."""

    points: float = -0.0465
    points_p: float = 0.3216  # per point, times progress
    islands: float = -0.0525
    islands_p: float = 0.0142
    ships: float = 0.0714
    ships_p: float = -0.0047
    fragile: float = -0.0621
    fragile_p: float = 0.0464
    to_move: float = 0.1040  # the seat whose decision is pending


WIN_MODEL = WinModel()

# Two seats, fitted on 2-seat games alone (`winfit --seats 2`): a duel reads differently
# from a crowded table. Islands count against a seat early (ships spread thin over them
# are ships not sailing) and for it late, more than at bigger tables; points weigh less
# at the end, since one rival is caught up with more easily than the best of five.
WIN_MODEL_TWO = WinModel(
    points=-0.0046, points_p=0.2033, islands=-0.4241, islands_p=0.6476, ships=0.0203,
    ships_p=-0.0448, fragile=0.0281, fragile_p=-0.1370, to_move=0.0522)


@dataclass(frozen=True)
class TableModels:
    """The win model for each table size: a duel has its own fit, bigger tables share
    one (docs/bots.md has the figures that chose this split)."""

    two: WinModel = WIN_MODEL_TWO
    more: WinModel = WIN_MODEL

    def for_seats(self, n_seats: int) -> WinModel:
        return self.two if n_seats == 2 else self.more


TABLE_MODELS = TableModels()


def win_chances(game: Game, m: WinModel | None = None) -> list[float]:
    """Per seat, the model's chance of winning (they add up to 1); `m` by default is the
    table size's model. A New Colony under way counts its island as held. Standard games
    only: under V1 a player wins on two colours' combined score, which this per-colour
    model does not describe (use `utilities`)."""
    if m is None:
        m = TABLE_MODELS.for_seats(game.n_seats)
    points, islands, ships, fragile = tallies(game)
    colony = _colony_gain(game)
    if colony is not None:
        seat, gain = colony
        points[seat] += gain
        islands[seat] += 1
    p = progress(game)
    a = m.points + m.points_p * p
    b = m.islands + m.islands_p * p
    c = m.ships + m.ships_p * p
    d = m.fragile + m.fragile_p * p
    v = [a * points[s] + b * islands[s] + c * ships[s] + d * fragile[s]
         for s in range(game.n_seats)]
    if game.pending is not None and game.pending.seat is not None:
        v[game.pending.seat] += m.to_move
    top = max(v)
    e = [math.exp(x - top) for x in v]
    total = sum(e)
    return [x / total for x in e]


def final_utilities(game: Game) -> list[float]:
    """At the end: 1 shared among the winners (E4), 0 for the others."""
    if game.owners is not None:  # V1: the owner's win counts for both of their seats
        won = V.winners(game)
        return [1.0 / len(won) if p in won else 0.0 for p in game.owners]
    keys = game.ranking_keys()
    best = max(keys.values())
    win = [keys[c] == best for c in game.colours]
    k = sum(win)
    return [1.0 / k if x else 0.0 for x in win]

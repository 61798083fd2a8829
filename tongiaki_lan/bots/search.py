"""`search`: information-set Monte Carlo tree search that spends its time where it matters.

The search itself is the one `search1` made (determinised worlds, a shared tree keyed by
moves, max^n selection with availability counts, progressive widening of big decisions,
greedy's judgement as root priors, a short rollout scored by the evaluation). What is new
is what it judges positions by and how it uses the time it is given (issue 20):

- **chances of winning, not points gaps**: a rollout that stops before the end is scored
  by the win model (`evaluation.win_chances`, fitted to how bot games end), so a reward
  halfway is on the scale of a reward at the end (a share of a win); the root priors are
  greedy's values under the same model. A duel has its own fit of the model (two seats
  read differently from a crowded table: `evaluation.TABLE_MODELS`). Rollouts are 2
  turns (the model reads a position well enough that the time goes further in more
  iterations; 4 before), and UCB exploration is 0.4 (0.2 suited the squashed gaps, a
  few hundredths apart; chances differ more). Measured in docs/bots.md. Under V1 (two
  colours each), which the model does not describe, positions are judged by the
  squashed utilities as before;

- **a budget per kind of decision** (`SHARE`): `think` is what a decision takes on
  average; a departure into the unknown or a New Colony tile gets twice that, an action
  that, and the follow-ups whose options differ little (which beaches, how to land,
  setup ships, the colony's ship) a half or a quarter;
- **stopping early** once the most visited option cannot be overtaken by the iterations
  left, so an obvious decision is taken at once;
- **a decision is a pure function of the seed and the position**: each decision's
  generator is drawn from the bot's seed and the position's canonical encoding, so two
  nodes of a LAN table, or a bot rebuilt from a position's text, pick the same move with
  the same `iterations`, whatever they decided before;
- a cheaper root step (its options are legal in every world: no checks); the rollout
  policy, unchanged, lives in `rollout.py`;
- **finishing a decided game**: once the model gives the seat to move at least
  `LEADING` (or, in a duel, at most `TRAILING`), its reward also grows with the game's progress
  (`HURRY`), so a bot far ahead (or hopelessly behind) reveals tiles and ends the game
  instead of shuffling ships for hundreds of turns. Without it, two bots in a decided
  duel could stall until X3's limit (the trailer loses ground with every tile revealed,
  the leader gains too little to notice); a player facing such a bot waits for nothing;
- **a time bank** (timed searches only): the time an early stop or a cheap decision
  leaves unused is not lost but kept for the bot's later decisions in the same game, so
  the close decisions, which do not stop early, get it. Without it the bot used about
  0.7 x `think` a decision (docs/bots.md, Measured).

Budget: `think` seconds per decision on average, 3 x `think` at most (wall clock, so
results depend on the machine's speed), or `iterations` for a fixed, exactly repeatable
amount of work (the same shares apply to it; the bank does not: a fixed search's move
depends on the seed and the position alone).
"""

from __future__ import annotations

import hashlib
import math
import random
import time

from tongiaki_lan.engine import Game, Move, deal_randomly
from tongiaki_lan.engine import decisions as D

from .evaluation import (
    DEFAULT,
    TABLE_MODELS,
    TableModels,
    Weights,
    WinModel,
    final_utilities,
    progress,
    utilities,
    win_chances,
)
from .greedy import GreedyBot, candidate_moves
from .rollout import rollout_move
from .view import PublicView

WIDE = 12  # decisions with more options than this are widened progressively
# A rollout stops after this many moves whatever the turn counter says: a long chain
# reaction must not eat the budget of a decision.
ROLLOUT_MOVES = 120
# The budget of a decision, as a multiple of `think` (or `iterations`), by its kind.
# Departures (which full beach sails, into which unknown) and New Colony tiles decide
# games and get twice the budget; the choice of an action gets it; the follow-ups, whose
# options rarely differ much, half; the setup and the colony's ship a quarter. Over the
# decisions of a 4-player game (greedy self-play: 28 % actions, 20 % departures, 19 %
# beach choices, 19 % landings, 5 % setup, 5 % colony tiles, 3 % colony ships) the mean
# is 1.0, so `think` stays the mean time of a decision and 2 x `think` the most.
SHARE: dict[str, float] = {
    D.DEPARTURE: 2.0,
    D.COLONY_TILE: 2.0,
    D.ACTION: 1.0,
    D.EXPAND_BEACHES: 0.5,
    D.LANDING: 0.5,
    D.T1A_SOURCE: 0.5,
    D.COLONY_SHIP: 0.25,
    D.SETUP: 0.25,
}
CHECK_EVERY = 8  # iterations between looks at the clock and at the leader's margin
HELD_BACK = 0.92  # share of a time budget the iterations may use (the rest: bookkeeping)
# The time bank (timed searches only): every decision adds `think` to the bank and takes
# out what it used; a decision may draw on what was saved before (early stops, cheap
# kinds), up to BANK_CAP x `think` in all (`most`; the levels keep 2, the most a share
# gives, so a solo bot's slowest decision stays what levels.py promises). A decision of
# kind share s draws min(1, s/2) of the bank: a departure or a colony tile all of it, an
# action half, a landing a quarter.
BANK_CAP = 3.0
# A decided game (the model's chance for the seat to move at least LEADING, or in a
# duel at most TRAILING): that seat's reward gains HURRY x progress, so ending the game
# sooner is worth a little (one island revealed: +0.02), never a real risk to its
# chance. The trailing bound is low, and only for duels: behind, a real chance is not
# given up for speed, and at a bigger table 0.05 is not hopeless (a fair share of six
# is 0.17), while the others reveal tiles anyway.
LEADING = 0.9
TRAILING = 0.05
HURRY = 0.3


class _Node:
    __slots__ = ("children", "visits", "wins", "avail", "move", "seat")

    def __init__(self, move: Move | None, seat: int):
        self.children: dict[Move, _Node] = {}
        self.visits = 0.0
        self.wins = 0.0  # reward sum for `seat`, the seat that chose `move`
        self.avail = 0.0
        self.move = move
        self.seat = seat


class SearchBot:
    kind = "search"

    def __init__(self, seed: int = 0, think: float = 1.0, iterations: int | None = None,
                 rollout_turns: int = 2, explore: float = 0.4, temperature: float = 4.0,
                 prior_visits: float = 4.0, pace: bool = True, early_stop: bool = True,
                 keen: bool = False, bank: bool = True, most: float = BANK_CAP,
                 hurry: float = HURRY,
                 weights: Weights = DEFAULT,
                 model: WinModel | TableModels | None = TABLE_MODELS,
                 clock=time.perf_counter):
        if think <= 0 and iterations is None:
            raise ValueError("think must be positive")
        self.seed = seed
        self.think = think
        self.iterations = iterations
        self.rollout_turns = rollout_turns
        self.explore = explore
        self.temperature = temperature
        self.prior_visits = prior_visits
        self.pace = pace
        self.early_stop = early_stop
        self.keen = keen
        self.hurry = hurry  # a decided game's reward for progress (0: none)
        self.weights = weights
        # None: judge positions by squashed utilities, as search1 does; a WinModel: that
        # one at every table; TableModels: the one for the table's size
        self.model = model
        self._judge: WinModel | None = None  # the model of the decision under way
        self._hurry = 0.0  # HURRY when the decision under way is in a decided game
        self._me = -1  # the seat deciding
        self.bank = bank
        self.most = most  # no decision is allowed more than `most` x `think`
        self.clock = clock  # seconds, monotonic; tests hand in their own
        self.saved = 0.0  # the time bank: seconds saved so far (negative: overspent)
        self.last_iterations = 0
        self.last_budget = 0.0  # seconds the last timed decision was allowed
        # the last decision's best options, (move, estimated chance to win), best first;
        # empty when it was forced or judged without the win model (no chances to say)
        self.last_options: tuple[tuple[Move, float], ...] = ()

    # -- entry point --------------------------------------------------------------------

    def choose(self, view: PublicView) -> Move:
        clock = self.clock
        start = clock()
        n = view.legal_move_count()
        if n == 1:
            self.last_iterations = 0
            self.last_options = ()
            return view.legal_move(0)
        pending = view.pending
        share = SHARE.get(pending.kind, 1.0) if self.pace else 1.0
        if self.iterations is None:
            move = self._search(view, share, start, self._allowance(share))
            if self.bank:
                self.saved += self.think - (clock() - start)
            return move
        return self._search(view, share, start, 0.0)

    def _allowance(self, share: float) -> float:
        """Seconds this decision may take: its share of `think`, plus (with the bank) its
        part of what earlier decisions saved, or minus its part of what they overspent."""
        own = self.think * share
        if not self.bank:
            return own
        extra = self.saved * min(1.0, share / 2)
        return min(self.most * self.think, max(own / 2, own + extra))

    def _search(self, view: PublicView, share: float, start: float, budget: float) -> Move:
        clock = self.clock
        rng = self._decision_rng(view)
        pending = view.pending
        self.last_budget = budget
        deadline = start + budget * HELD_BACK
        limit = None if self.iterations is None else max(1, round(self.iterations * share))
        seat = pending.seat
        candidates = candidate_moves(view, rng, 48)
        root = _Node(None, -1)
        model = self.model
        if isinstance(model, TableModels):
            model = model.for_seats(view.n_seats)
        self._judge = model if view.owners is None else None
        judged = self._judge is not None
        base = view.game()
        self._me = seat
        self._hurry = 0.0
        if judged:
            chance = win_chances(base, self._judge)[seat]
            if chance >= LEADING or (chance <= TRAILING and view.n_seats == 2):
                self._hurry = self.hurry
        greedy = GreedyBot(rng.getrandbits(32), weights=self.weights,
                           value=self._chance if judged else None)
        self._seed_root(view, greedy, root, candidates, seat,
                        None if limit is not None else deadline, judged)
        done = 0
        began = clock()
        while True:
            if done % CHECK_EVERY == 0:
                if limit is not None:
                    left = limit - done
                else:
                    now = clock()
                    if now >= deadline:
                        break
                    # iterations still to come at the pace so far (a guess; only the
                    # early stop uses it, never the final count)
                    left = (deadline - now) * done / (now - began) if done else math.inf
                if left <= 0 or (self.early_stop and done and _decided(root, left)):
                    break
            self._iterate(base.copy(undo=False), root, seat, rng)
            done += 1
        self.last_iterations = done
        ranked = sorted(root.children.values(), key=lambda c: (c.visits, c.wins),
                        reverse=True)
        # what a `hint` can tell the player: the best options with their chances
        # (sorted() is stable, and max() took the first of equals too: the same move)
        # (a chance: in a decided game the reward holds a bonus for progress, and a hint
        # read "about 110 % to win")
        self.last_options = tuple((c.move, min(1.0, c.wins / c.visits)) for c in ranked[:3]
                                  if c.visits > 0) if judged else ()
        return ranked[0].move

    def _decision_rng(self, view: PublicView) -> random.Random:
        """This decision's generator: from the bot's seed and the position alone."""
        seed = self.seed
        key = seed.to_bytes(8, "big") if 0 <= seed < 1 << 64 else str(seed).encode()
        h = hashlib.blake2b(key, digest_size=16)
        h.update(view.encode())
        return random.Random(int.from_bytes(h.digest(), "big"))

    # -- root knowledge -----------------------------------------------------------------

    def _seed_root(self, view: PublicView, greedy: GreedyBot, root: _Node,
                   candidates: list[Move], seat: int, deadline: float | None,
                   judged: bool) -> None:
        """Greedy's value of every option, as a few virtual visits: with no time at all
        the search plays like greedy, and the real visits correct it. With the win model
        (`judged`) greedy judges by it, and its values are already chances."""
        worlds = greedy._worlds(view)
        base = view.game()
        for move in candidates:
            child = _Node(move, seat)
            root.children[move] = child
            if deadline is not None and self.clock() >= deadline:
                continue  # out of time: no prior for the rest
            q = greedy.move_value(base, worlds, move, seat)
            child.visits = self.prior_visits
            child.wins = self.prior_visits * (q if judged else self._squash(q))
        root.visits = sum(c.visits for c in root.children.values())

    def _chance(self, game: Game, seat: int) -> float:
        """`seat`'s reward by the win model (greedy's value for the root priors)."""
        return self._rewards(game)[seat]

    def _rewards(self, game: Game) -> list[float]:
        """Every seat's chance of winning (the result once the game is over, the model's
        estimate before), and in a decided game the deciding seat's reward for progress."""
        rewards = final_utilities(game) if game.is_over else win_chances(game, self._judge)
        if self._hurry:
            rewards[self._me] += self._hurry * progress(game)
        return rewards

    def _squash(self, u: float) -> float:
        return 1.0 / (1.0 + math.exp(-u / self.temperature))

    # -- one iteration ------------------------------------------------------------------

    def _iterate(self, world: Game, root: _Node, me: int, rng: random.Random) -> None:
        node = root
        path: list[_Node] = []
        explore = self.explore
        while not world.is_over:
            if node is root:
                # the root's position is the real one, in every world: all its
                # candidates are legal, no check needed
                options = list(root.children.values())
                new = None
                n = len(options)
                seat = me
            else:
                deal_randomly(world, rng)  # chance is drawn, not searched
                if world.is_over:
                    break
                seat = world.pending_seat
                n = world.legal_move_count()
                if n <= WIDE:
                    options = []
                    fresh = []
                    children = node.children
                    for m in world.legal_moves():
                        c = children.get(m)
                        if c is None:
                            fresh.append(m)
                        else:
                            options.append(c)
                    new = rng.choice(fresh) if fresh else None
                else:
                    options = [c for c in node.children.values() if world.is_legal(c.move)]
                    allowed = 1 + int(1.5 * math.sqrt(node.visits))
                    new = None
                    if len(options) < allowed:
                        m = world.legal_move(rng.randrange(n))
                        if m not in node.children:
                            new = m
            if new is not None:
                child = _Node(new, seat)
                node.children[new] = child
                for c in options:
                    c.avail += 1
                child.avail += 1
                world.apply(new)
                path.append(child)
                break
            best = None
            best_score = -1.0
            for c in options:
                c.avail += 1
                v = c.visits
                if v <= 0:
                    score = 1e9 + rng.random()
                else:
                    score = c.wins / v + explore * math.sqrt(math.log(c.avail + 1) / v)
                if score > best_score:
                    best, best_score = c, score
            if best is None:  # widened node with nothing legal here yet
                m = world.legal_move(rng.randrange(n))
                best = node.children.setdefault(m, _Node(m, seat))
                best.avail += 1
                world.apply(best.move)
                path.append(best)
                break
            world.apply(best.move)
            path.append(best)
            node = best
        rewards = self._rollout(world, rng)
        for c in path:
            c.visits += 1
            c.wins += rewards[c.seat]
        root.visits += 1

    # -- playing on ---------------------------------------------------------------------

    def _rollout(self, world: Game, rng: random.Random) -> list[float]:
        deal_randomly(world, rng)
        stop = world.turn + self.rollout_turns
        budget = ROLLOUT_MOVES
        while not world.is_over and world.turn < stop and budget:
            world.apply(rollout_move(world, rng, self.keen))
            deal_randomly(world, rng)
            budget -= 1
        if world.is_over or self._judge is not None:
            return self._rewards(world)
        return [self._squash(u) for u in utilities(world, self.weights)]


def _decided(root: _Node, left: float) -> bool:
    """Whether the most visited option keeps its lead whatever the `left` iterations do."""
    first = second = 0.0
    for c in root.children.values():
        v = c.visits
        if v > first:
            first, second = v, first
        elif v > second:
            second = v
    return first - second > left

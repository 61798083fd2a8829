"""`search1`: the search as it was before the levels work (issue 20), kept unchanged.

It is the yardstick the issue measures the new `search` against ("head to head with
today's search"), so it must keep playing exactly as it did: do not tune it. It still
shares greedy's priors (`greedy.py`) and the evaluation with the other bots.

Monte Carlo tree search over determinised worlds (information-set MCTS).

Each iteration imagines the tiles nobody knows yet by drawing one uniformly at every
chance decision of the engine (a tile reveal), walks the shared tree with UCB (each seat picks
what is best *for that seat*), adds one node, plays on with a quick heuristic
policy for a few turns, and scores the result with the evaluation greedy uses. The
tree is keyed by moves, so what the worlds have in common (our options and the
rivals' replies) is learned across worlds, while what differs (the tiles) averages
out. Moves legal in only some worlds are judged by how often they were available.

Large decisions (a New Colony tile: ~6 per free hex; big landings) are opened up
gradually — progressive widening — so the budget goes on depth, not on 200 siblings.
At the root the greedy bot's judgement seeds every option as a few virtual visits:
with little time the search plays like greedy, and it improves on greedy as the
visits come in.

Budget: `think` seconds per decision (wall clock, so results depend on the
machine's speed), or `iterations` for a fixed, exactly repeatable amount of work.
"""

from __future__ import annotations

import math
import random
import time

from tongiaki_lan.engine import Colony, Expand, Game, Move, Royal, deal_randomly
from tongiaki_lan.engine import decisions as D

from .evaluation import DEFAULT, Weights, final_utilities, utilities
from .greedy import GreedyBot, candidate_moves
from .view import PublicView

WIDE = 12  # decisions with more options than this are widened progressively
# A rollout stops after this many moves whatever the turn counter says: a long chain
# reaction (X2d ends an endless one, but only after every option was tried) must not
# eat the budget of a decision.
ROLLOUT_MOVES = 120


class _Node:
    __slots__ = ("children", "visits", "wins", "avail", "move", "seat")

    def __init__(self, move: Move | None, seat: int):
        self.children: dict[Move, _Node] = {}
        self.visits = 0.0
        self.wins = 0.0  # reward sum for `seat`, the seat that chose `move`
        self.avail = 0.0
        self.move = move
        self.seat = seat


class SearchBot1:
    kind = "search1"

    def __init__(self, seed: int = 0, think: float = 1.0, iterations: int | None = None,
                 rollout_turns: int = 4, explore: float = 0.7, temperature: float = 4.0,
                 prior_visits: float = 4.0, weights: Weights = DEFAULT):
        if think <= 0 and iterations is None:
            raise ValueError("think must be positive")
        self._rng = random.Random(seed)
        self.think = think
        self.iterations = iterations
        self.rollout_turns = rollout_turns
        self.explore = explore
        self.temperature = temperature
        self.prior_visits = prior_visits
        self.weights = weights
        self._greedy = GreedyBot(seed ^ 0x5EA5C4, weights=weights)
        self.last_iterations = 0

    # -- entry point --------------------------------------------------------------------

    def choose(self, view: PublicView) -> Move:
        start = time.perf_counter()
        deadline = start + self.think * 0.92
        seat = view.pending.seat
        root = _Node(None, -1)
        candidates = candidate_moves(view, self._rng, 48)
        if len(candidates) == 1:
            return candidates[0]
        self._seed_root(view, root, candidates, seat, deadline)
        done = 0
        limit = self.iterations
        while True:
            if limit is not None:
                if done >= limit:
                    break
            elif done % 4 == 0 and time.perf_counter() >= deadline:
                break
            self._iterate(view.game(), root, seat)
            done += 1
        self.last_iterations = done
        best = max(root.children.values(), key=lambda c: (c.visits, c.wins))
        return best.move

    # -- root knowledge -----------------------------------------------------------------

    def _seed_root(self, view: PublicView, root: _Node, candidates: list[Move], seat: int,
                   deadline: float) -> None:
        greedy = self._greedy
        worlds = greedy._worlds(view)
        base = view.game()
        for move in candidates:
            child = _Node(move, seat)
            root.children[move] = child
            if self.iterations is None and time.perf_counter() >= deadline:
                continue  # out of time: no prior for the rest
            q = greedy.move_value(base, worlds, move, seat)
            child.visits = self.prior_visits
            child.wins = self.prior_visits * self._squash(q)
        root.visits = sum(c.visits for c in root.children.values())

    def _squash(self, u: float) -> float:
        return 1.0 / (1.0 + math.exp(-u / self.temperature))

    # -- one iteration ------------------------------------------------------------------

    def _iterate(self, world: Game, root: _Node, me: int) -> None:
        rng = self._rng
        node = root
        path: list[_Node] = []
        expanded = False
        while not world.is_over and not expanded:
            deal_randomly(world, rng)  # chance is drawn, not searched: tiles are not moves
            if world.is_over:
                break
            seat = world.pending.seat
            n = world.legal_move_count()
            if node is root:
                options = [c for c in root.children.values() if world.is_legal(c.move)]
                new = None
            elif n <= WIDE:
                moves = world.legal_moves()
                options = []
                fresh = []
                for m in moves:
                    c = node.children.get(m)
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
                deal_randomly(world, rng)
                path.append(child)
                expanded = True
                break
            for c in options:
                c.avail += 1
            log_term = self.explore
            best = None
            best_score = -1.0
            for c in options:
                if c.visits <= 0:
                    score = 1e9 + rng.random()
                else:
                    score = c.wins / c.visits + log_term * math.sqrt(
                        math.log(c.avail + 1) / c.visits)
                if score > best_score:
                    best, best_score = c, score
            if best is None:  # widened node with nothing legal here yet
                m = world.legal_move(rng.randrange(n))
                best = node.children.setdefault(m, _Node(m, seat))
                best.avail += 1
                expanded = True
            world.apply(best.move)
            path.append(best)
            node = best
        rewards = self._rollout(world)
        for c in path:
            c.visits += 1
            c.wins += rewards[c.seat]
        root.visits += 1

    # -- playing on ---------------------------------------------------------------------

    def _rollout(self, world: Game) -> list[float]:
        rng = self._rng
        stop = world.turn + self.rollout_turns
        budget = ROLLOUT_MOVES
        while not world.is_over and world.turn < stop and budget:
            world.apply(rollout_move(world, rng))
            deal_randomly(world, rng)
            budget -= 1
        if world.is_over:
            return final_utilities(world)
        return [self._squash(u) for u in utilities(world, self.weights)]


def rollout_move(game: Game, rng: random.Random) -> Move:
    """A quick, plausible move: what a casual player does without thinking long.

    Expand somewhere (bigger islands more often), found a Royal Island when one is
    there for the taking, start a New Colony only when nothing else is possible or
    very rarely; everything else uniformly at random.
    """
    pending = game.pending
    if pending.kind == D.ACTION:
        moves = game.legal_moves()
        royals = [m for m in moves if isinstance(m, Royal)]
        if royals and rng.random() < 0.5:
            return rng.choice(royals)
        expands = [m for m in moves if isinstance(m, Expand)]
        if expands and rng.random() < 0.97:
            return rng.choice(expands)
        others = [m for m in moves if not isinstance(m, (Expand, Royal, Colony))]
        if others and rng.random() < 0.9:
            return rng.choice(others)
        return rng.choice(moves)
    if pending.kind == D.LANDING:
        return game.default_landing()
    return game.legal_move(rng.randrange(game.legal_move_count()))

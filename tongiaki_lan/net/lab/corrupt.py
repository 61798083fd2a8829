"""A broken laptop at the table: a seeded fuzz of one member's outgoing messages.

One seated member's moves, draw values, heartbeats, lobbies and move logs are corrupted
*before* its own key signs them, as on a laptop with a bad memory module, a half-updated
copy of the program, or a player who patched theirs: every datagram it sends is well
formed and validly signed, but says things no honest node would say. `Corruptor` is the
fault (a test hook on `Links.outgoing`, nothing a real node ever sets), `run_one` plays
one simulated table with it on the virtual clock of `net.lab.simnet`, and `main` runs many
tables and prints the figures (docs/network.md, "A broken laptop at the table"):

    python -m tongiaki_lan.net.lab.corrupt --rate 0.02 --runs 200
    python -m tongiaki_lan.net.lab.corrupt --rate 0.2 --runs 200 --json

Every run reproduces from its seed (the network's losses, the identities, the bots, which
member is broken and what it corrupts).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from tongiaki_lan.net.protocol import codec as C

log = logging.getLogger("tongiaki_lan.net.lab.corrupt")

# what the fuzz corrupts: the messages that carry the game (the issue's "moves, draws,
# heartbeats, lobbies, logs"); the seed round and the lobby phase are left alone, so
# every run reaches a game
TARGETS = (C.MoveMsg, C.Draw, C.Heartbeat, C.Lobby, C.Log)


def _flip(rng: random.Random, data: bytes) -> bytes:
    """The same length, one byte changed (a bit error), or fresh bytes."""
    if not data:
        return data
    if rng.random() < 0.5:
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1:]
    return rng.randbytes(len(data))


class Corruptor:
    """Corrupts each outgoing game message of one core with probability `rate` (each
    send: a broadcast's copies to different peers are corrupted independently, so the
    broken laptop also tells different members different things).

    `re_sign(core, message)`, when given, signs again what was signed inside the message
    (a move statement, a lobby), so that what goes out is signed after the corruption:
    the broken laptop corrupts, then signs."""

    def __init__(self, rate: float, seed: int, re_sign=None, kinds: tuple = TARGETS) -> None:
        self.rate = rate
        self.kinds = kinds
        self.rng = random.Random(seed)
        self.core = None
        self.re_sign = re_sign
        self.counts: Counter[str] = Counter()
        self.first_at: int | None = None  # the game's move count at the first corruption
        # ... at the first corruption of a signed statement (a move, a log, a lobby: what
        # can prove it; a heartbeat or a draw value proves nothing, and is only refused)
        self.first_signed_at: int | None = None
        self.only: set[bytes] | None = None  # corrupt only what goes to these peers

    def attach(self, core) -> Corruptor:
        self.core = core
        core.links.outgoing = self
        return self

    def __call__(self, peer: bytes, msg: C.Message) -> C.Message:
        core = self.core
        if (self.rate <= 0 or core is None or core.game is None or core.watching
                or not isinstance(msg, self.kinds)
                or (self.only is not None and peer not in self.only)
                or self.rng.random() >= self.rate):
            return msg
        try:
            out, how = self._corrupt(msg)
        except Exception:  # a corruption that cannot be made of this one: send it as it is
            log.debug("no corruption of %s", type(msg).__name__, exc_info=True)
            return msg
        if out is None or out == msg:
            return msg
        if self.re_sign is not None:
            out = self.re_sign(core, out)
        self.counts[how] += 1
        if self.first_at is None:
            self.first_at = len(core.game.moves)
        if self.first_signed_at is None and isinstance(out, C.MoveMsg | C.Log | C.Lobby):
            self.first_signed_at = len(core.game.moves)
        return out

    # ------------------------------------------------------------------ the corruptions

    def _corrupt(self, msg: C.Message) -> tuple[C.Message | None, str]:
        rng = self.rng
        r = rng.random()
        if isinstance(msg, C.Heartbeat):
            if r < 0.4 and msg.digest:
                return dataclasses.replace(msg, digest=_flip(rng, msg.digest)), "heartbeat-digest"
            if r < 0.7:
                n = max(0, msg.n_moves + rng.choice((-3, -2, -1, 1, 2, 5)))
                return dataclasses.replace(msg, n_moves=n), "heartbeat-moves"
            if r < 0.85:
                v = max(0, msg.lobby_version + rng.choice((-1, 1, 7)))
                return dataclasses.replace(msg, lobby_version=v), "heartbeat-lobby"
            phase = rng.choice([p for p in C.PHASES if p != msg.phase])
            return dataclasses.replace(msg, phase=phase), "heartbeat-phase"
        if isinstance(msg, C.MoveMsg):
            return self._corrupt_move(msg, r)
        if isinstance(msg, C.Draw):
            if r < 0.6:
                values = list(msg.values)
                j = rng.randrange(len(values))
                values[j] = (values[j][0], _flip(rng, values[j][1]))
                return dataclasses.replace(msg, values=tuple(values)), "draw-value"
            if r < 0.8:
                k = min(C.MAX_DRAW, max(0, msg.draw + rng.choice((-1, 1))))
                return dataclasses.replace(msg, draw=k), "draw-index"
            values = list(msg.values)
            j = rng.randrange(len(values))
            taken = {i for i, _ in values}
            free = [i for i in range(len(self.core.contributors) or 1) if i not in taken]
            if not free:
                return None, ""
            values[j] = (rng.choice(free), values[j][1])
            return dataclasses.replace(msg, values=tuple(sorted(values))), "draw-contributor"
        if isinstance(msg, C.Lobby):
            return self._corrupt_lobby(msg, r)
        if isinstance(msg, C.Log):
            entries = list(msg.entries)
            if not entries:
                return dataclasses.replace(msg, total=msg.total + rng.randrange(1, 9)), \
                    "log-total"
            j = rng.randrange(len(entries))
            e = entries[j]
            if r < 0.4:
                entries[j] = (e[0], _flip(rng, e[1]), *e[2:])
                return dataclasses.replace(msg, entries=tuple(entries)), "log-digest"
            if r < 0.8 and len(e) == 2:
                entries[j] = (self._other_move_wire(e[0]), e[1])
                return dataclasses.replace(msg, entries=tuple(entries)), "log-move"
            start = max(0, msg.start + rng.choice((-1, 1)))
            return dataclasses.replace(msg, start=start,
                                       total=max(msg.total, start + len(entries))), "log-start"
        return None, ""

    def _other_move_wire(self, wire: list) -> list:
        """Another move's wire form: a number in it changed (it may be legal, or not)."""
        rng = self.rng
        flat = json.loads(json.dumps(wire))

        def ints(x, path=()):
            if isinstance(x, list):
                for i, y in enumerate(x):
                    yield from ints(y, (*path, i))
            elif isinstance(x, int):
                yield path

        paths = list(ints(flat))
        if not paths:
            return [rng.randrange(8)]
        path = rng.choice(paths)
        node = flat
        for i in path[:-1]:
            node = node[i]
        node[path[-1]] += rng.choice((-2, -1, 1, 2, 7))
        return flat

    def _corrupt_move(self, msg: C.MoveMsg, r: float) -> tuple[C.Message | None, str]:
        rng = self.rng
        g = self.core.game
        if r < 0.25:
            return dataclasses.replace(msg, digest=_flip(rng, msg.digest)), "move-digest"
        if r < 0.5:
            return dataclasses.replace(msg, move=self._other_move_wire(msg.move)), "move-move"
        if r < 0.75 and msg.index == len(g.moves) - 1 and len(g.moves) > 0:
            # a patched client: another legal move, with the digest it really gives, so
            # the members it tells this one follow a game the others do not
            before = g.copy()
            played = before.pop()
            others = [m for m in before.legal_moves() if m != played]
            if others:
                other = rng.choice(others)
                before.apply(other)
                return (dataclasses.replace(msg, move=other.to_wire(), digest=before.digest()),
                        "move-equivocate")
        if r < 0.85 and msg.prev:
            prev = list(msg.prev)
            j = rng.randrange(len(prev))
            prev[j] = (prev[j][0], _flip(rng, prev[j][1]), *prev[j][2:])
            return dataclasses.replace(msg, prev=tuple(prev)), "move-prev"
        index = max(len(msg.prev), msg.index + rng.choice((-1, 1, 2)))
        return dataclasses.replace(msg, index=index), "move-index"

    def _corrupt_lobby(self, msg: C.Lobby, r: float) -> tuple[C.Message | None, str]:
        rng = self.rng
        if r < 0.15:
            return dataclasses.replace(msg, version=msg.version + rng.choice((1, 3, 1000))), \
                "lobby-version"
        if r < 0.3:
            return dataclasses.replace(msg, draw_wait=rng.randrange(C.DRAW_WAIT_MIN, 61)), \
                "lobby-wait"
        if r < 0.45:
            return dataclasses.replace(msg, guests=rng.randrange(8)), "lobby-guests"
        if r < 0.6 and msg.seats:
            seats = list(msg.seats)
            j = rng.randrange(len(seats))
            s = seats[j]
            seats[j] = dataclasses.replace(s, bot="" if s.bot else "normal")
            return dataclasses.replace(msg, seats=tuple(seats)), "lobby-seat"
        if r < 0.75 and self.core.contributors:
            n = len(self.core.contributors)
            dropped = dict(msg.dropped)
            i = rng.randrange(n)
            if i in dropped:
                del dropped[i]
            else:
                dropped[i] = rng.randrange(C.MAX_DRAW + 1)
            return dataclasses.replace(msg, dropped=tuple(sorted(dropped.items()))), \
                "lobby-dropped"
        if r < 0.9 and msg.members:
            members = list(msg.members)
            j = rng.randrange(len(members))
            m = members[j]
            members[j] = dataclasses.replace(m, port=(m.port + rng.randrange(1, 100)) % 65536)
            return dataclasses.replace(msg, members=tuple(members)), "lobby-address"
        phase = rng.choice([p for p in C.PHASES if p != msg.phase])
        return dataclasses.replace(msg, phase=phase), "lobby-phase"


# ====================================================================== one table


@dataclass
class RunResult:
    seed: int
    rate: float
    players: int
    broken: int  # the broken member's seat
    finished: bool  # every honest node played to the end, with one digest, no stop
    forked: bool  # honest nodes ended with different games (or records that disagree)
    stopped: list[str] = field(default_factory=list)  # why honest nodes stopped
    crashed: list[str] = field(default_factory=list)  # internal errors on honest nodes
    moves: int = 0
    corrupted: int = 0  # messages the broken laptop corrupted
    kinds: dict = field(default_factory=dict)
    first_corrupt_at: int | None = None  # the game's move count at the first corruption
    first_signed_at: int | None = None  # ... at the first corrupted move, log or lobby
    first_proof_at: int | None = None  # an honest node's move count when it first held one
    expelled_from: int | None = None  # the table's move index the bot took over from
    expelled_at: int | None = None  # the honest nodes' move count when the last took it
    proof: str = ""
    seconds: float = 0.0  # virtual
    wall: float = 0.0

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


class _ErrorCount(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.name.startswith("tongiaki_lan.net.protocol"):
            self.lines.append(f"{record.name}: {record.getMessage()}")


def run_one(seed: int, rate: float, *, players: int = 4, loss: float = 0.05,
            think: float = 0.2, timeout: float = 3600.0, broken: int | None = None) -> RunResult:
    """One simulated table of `players` laptops (random bots thinking `think` virtual
    seconds, `loss` of every datagram lost), one of which — seat `broken`, by default
    one chosen by the seed — corrupts its game messages at `rate`."""
    from tongiaki_lan.net.lab.simnet import SimNet

    wall = time.perf_counter()
    rng = random.Random(seed)
    if broken is None:
        broken = rng.randrange(players)
    errors = _ErrorCount()
    logging.getLogger("tongiaki_lan").addHandler(errors)
    try:
        net = SimNet(seed=seed, loss=loss, think=think)
        nodes = net.table(players, handover_after=5.0)
        bad = nodes[broken]
        corruptor = Corruptor(rate, seed ^ 0x5EED, re_sign=_re_signer()).attach(bad.core)
        honest = [nd for i, nd in enumerate(nodes) if i != broken]
        result = RunResult(seed, rate, players, broken, False, False)
        try:
            net.run_until(lambda: all(nd.game.is_over or nd.core.stopped for nd in honest),
                          timeout)
        except AssertionError:
            result.stopped.append(f"not over within {timeout:.0f} virtual s")
        except Exception as exc:  # the simulation itself must never raise
            result.crashed.append(f"{type(exc).__name__}: {exc}")
    finally:
        logging.getLogger("tongiaki_lan").removeHandler(errors)
    result.crashed += errors.lines
    result.stopped += [f"{nd.core.name}: {nd.core.stopped}" for nd in honest if nd.core.stopped]
    result.moves = max(len(nd.game.moves) for nd in honest)
    result.corrupted = sum(corruptor.counts.values())
    result.kinds = dict(sorted(corruptor.counts.items()))
    result.first_corrupt_at = corruptor.first_at
    result.first_signed_at = corruptor.first_signed_at
    digests = {nd.game.digest() for nd in honest}
    records_agree = _records_agree(honest)
    result.forked = len(digests) > 1 or not records_agree
    result.finished = (not result.forked and not result.stopped and not result.crashed
                       and all(nd.game.is_over for nd in honest))
    _note_expulsion(result, honest)
    result.seconds = round(net.now - 1000.0, 1)
    result.wall = round(time.perf_counter() - wall, 2)
    return result


def _re_signer():
    """What signs a message again after the corruption (the statement inside a MOVE, a
    LOBBY's author signature), if this protocol version signs such statements."""
    try:
        from tongiaki_lan.net.protocol.proofs import re_sign
    except ImportError:
        return None
    return re_sign


def _records_agree(nodes) -> bool:
    """Every node's record replays to its digests, and any two agree on the moves both
    have (one of them may be the longer: it went on to the end)."""
    from tongiaki_lan.engine import Game

    for nd in nodes:
        g = Game([s.colour for s in nd.core.lobby.seats])
        for move, digest, _ in nd.record:
            try:
                g.apply(move)
            except Exception:
                return False
            if g.digest() != digest:
                return False
    recs = [[d for _, d, _ in nd.record] for nd in nodes]
    return all(a[:min(len(a), len(b))] == b[:min(len(a), len(b))] for a in recs for b in recs)


def _note_expulsion(result: RunResult, honest) -> None:
    """Where the honest nodes took the broken member's expulsion, if this version expels."""
    proofs = [e.moves for nd in honest for e in nd.events if e.kind == "proof"]
    result.first_proof_at = min(proofs) if proofs else None
    taken = [e for nd in honest for e in nd.events if e.kind == "expelled"]
    if not taken:
        return
    result.expelled_from = min(e.from_move for e in taken)
    result.expelled_at = max(e.moves for e in taken)
    result.proof = taken[0].proof_kind


# ====================================================================== many tables


def summary(results: list[RunResult]) -> dict:
    n = len(results)
    finished = sum(r.finished for r in results)
    # how many moves the table played between the broken laptop's first corrupted move,
    # log or lobby (what can prove it) and the last honest node taking its expulsion
    taken = [max(0, r.expelled_at - r.first_signed_at) for r in results
             if r.expelled_at is not None and r.first_signed_at is not None]
    after_proof = [max(0, r.expelled_at - r.first_proof_at) for r in results
                   if r.expelled_at is not None and r.first_proof_at is not None]
    never = sum(1 for r in results if r.expelled_at is None)
    out = {
        "runs": n,
        "finished": finished,
        "finished_percent": round(100.0 * finished / n, 1) if n else 0.0,
        "forked": sum(r.forked for r in results),
        "stopped": sum(bool(r.stopped) for r in results),
        "crashed": sum(bool(r.crashed) for r in results),
        "expelled": n - never,
        "not_expelled": never,
        "corrupted_per_run_median": statistics.median([r.corrupted for r in results]) if n
        else 0,
    }
    for key, values in (("moves_to_expulsion", taken), ("moves_from_proof", after_proof)):
        if values:
            qs = sorted(values)
            out[key] = {
                "min": qs[0], "p50": qs[len(qs) // 2],
                "p90": qs[min(len(qs) - 1, int(len(qs) * 0.9))], "max": qs[-1],
                "histogram": dict(sorted(Counter(min(t // 5 * 5, 50) for t in qs).items())),
            }
    out["not_expelled_signed_corruptions"] = sum(
        1 for r in results if r.expelled_at is None and r.first_signed_at is not None)
    kinds = Counter()
    for r in results:
        kinds.update(r.kinds)
    out["corruptions"] = dict(sorted(kinds.items()))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tongiaki_lan.net.lab.corrupt",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--rate", type=float, default=0.02,
                   help="share of the broken laptop's game messages corrupted (0.02)")
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--loss", type=float, default=0.05, help="datagrams lost (0.05)")
    p.add_argument("--think", type=float, default=0.2,
                   help="virtual seconds a bot thinks per decision (0.2)")
    p.add_argument("--seed", type=int, default=0, help="the first run's seed (then +1 each)")
    p.add_argument("--json", action="store_true", help="one JSON line per run, then the summary")
    p.add_argument("--failures", action="store_true", help="print each run that did not finish")
    args = p.parse_args(argv)
    results = []
    wall = time.perf_counter()
    for i in range(args.runs):
        r = run_one(args.seed + i, args.rate, players=args.players, loss=args.loss,
                    think=args.think)
        results.append(r)
        if args.json:
            print(json.dumps(r.to_json()), flush=True)
        elif args.failures and not r.finished:
            print(f"seed {r.seed}: forked={r.forked} stopped={r.stopped[:2]} "
                  f"crashed={r.crashed[:2]}", flush=True)
    out = summary(results)
    out.update(rate=args.rate, players=args.players, loss=args.loss, think=args.think,
               first_seed=args.seed, wall_seconds=round(time.perf_counter() - wall, 1))
    if args.json:
        print(json.dumps({"summary": out}))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

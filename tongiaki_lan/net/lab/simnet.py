"""A simulated LAN for protocol cores: seeded loss, latency and a virtual clock.

Several `NodeCore`s are wired together here exactly as `net.node` wires one to a socket,
but every datagram goes through a seeded lossy link and time only moves when the network
has nothing left to do before the next timer. A whole game with losses, crashes,
restarts and handovers then runs in milliseconds of real time; which datagrams are lost
and when they arrive follows from the seed, and so do the identities, game ids and every
secret (the OS's randomness on a real laptop), so a run reproduces exactly. The tests of
the protocol logic use it, with no sockets and no sleeps.
"""

from __future__ import annotations

import functools
import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Game
from tongiaki_lan.engine.variant import with_variant
from tongiaki_lan.net.aio.incarnation import RESERVE
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol.core import NodeCore
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.settings import net_bot_options

SIM_ITERATIONS = 20  # a table's search bot in the simulation (`SimNet.bot_options`)

Addr = tuple[str, int]


@dataclass
class SimNode:
    """One laptop: its core, where it listens, and everything it told its UI and disk."""

    core: NodeCore
    addr: Addr
    events: list[E.NodeEvent] = field(default_factory=list)
    # (move, digest, a draw's values or None), as the record file holds them
    record: list[tuple[object, bytes, list | None]] = field(default_factory=list)
    # what `<record>.net` holds: the lobby at the start, contributors, our chain secret
    sidecar: dict | None = None
    alive: bool = True
    # how far this laptop's wall clock is off (seconds): only its incarnations see it
    clock: float = 0.0

    def kinds(self, *kinds: str) -> list[E.NodeEvent]:
        return [e for e in self.events if e.kind in kinds]

    @property
    def game(self) -> Game | None:
        return self.core.game


# the simulated laptops' wall clocks read about November 2026 (plus each one's error)
WALL_EPOCH = 1_795_000_000


class SimNet:
    def __init__(self, seed: int = 0, *, loss: float = 0.0, latency: float = 0.0003,
                 jitter: float = 0.0002, think: float = 0.001) -> None:
        self.rng = random.Random(seed)
        self.loss = loss
        self.latency = latency
        self.jitter = jitter
        self.think = think  # how long a bot takes to decide (virtual seconds)
        self.now = 1000.0
        self.nodes: dict[Addr, SimNode] = {}
        # peer id -> the lowest incarnation its next run may use (the profile's `.runs`)
        self.floors: dict[bytes, int] = {}
        self._queue: list[tuple[float, int, str, object]] = []
        self._n = 0
        self._started = 0
        self.blocked: set[Addr] = set()  # addresses whose datagrams are all lost
        # stopped nodes whose socket keeps what comes: addr -> (node, how many, the first
        # or the newest, datagrams)
        self._frozen: dict[Addr, tuple[SimNode, int, bool, list[tuple[bytes, Addr]]]] = {}
        self.delivered = 0
        self.dropped = 0
        self.taps: list[Callable[[bytes, Addr, Addr], None]] = []
        # (data, src, dest) -> True to lose that datagram (targeted losses in tests)
        self.lose: Callable[[bytes, Addr, Addr], bool] | None = None

    # ------------------------------------------------------------------ nodes

    @staticmethod
    def bot_options(kind: str) -> dict:
        """The table's bot options (`net_bot_options`: a fixed amount of work), with the
        search cut to a few iterations: the simulation checks the protocol, not the play,
        and must not spend a real second on each virtual decision."""
        from tongiaki_lan.bots.levels import LEVELS, level

        opts = net_bot_options(kind)
        if "iterations" in opts:
            opts["iterations"] = min(opts["iterations"], SIM_ITERATIONS)
        elif kind in LEVELS and level(kind).kind != "greedy":  # (a searching level)
            opts["iterations"] = SIM_ITERATIONS
        return opts

    def add(self, name: str, host: str, port: int = 7000, *, clock: float = 0.0,
            **kw) -> SimNode:
        """A node started now on a laptop whose wall clock is `clock` seconds off."""
        self._started += 1  # microseconds since the epoch differ between any two runs
        identity = kw.pop("identity", None) or Identity.from_seed(self.rng.randbytes(32))
        wall = int((WALL_EPOCH + self.now + clock) * 1_000_000) + self._started
        # as net/aio/incarnation.py: the clock, or above every earlier run of this profile
        inc = max(wall, self.floors.get(identity.peer_id, 0))
        self.floors[identity.peer_id] = inc + RESERVE
        core = NodeCore(name, identity, incarnation=inc, port=port, **kw)
        core.entropy = self.rng.randbytes  # the whole run follows from the seed
        node = SimNode(core, (host, port), clock=clock)
        self.nodes[node.addr] = node
        return node

    def kill(self, node: SimNode) -> None:
        """SIGKILL: the node stops at once; datagrams to it are lost."""
        node.alive = False
        self.nodes.pop(node.addr, None)

    def suspend(self, node: SimNode, keep: int = 0, *, first: bool = False) -> None:
        """SIGSTOP, or the lid closed: the node runs nothing (no timer, no bot) and the
        datagrams sent to it meanwhile are lost, but for `keep` of them: a process stopped
        (SIGSTOP, a frozen cgroup) finds them waiting in its socket. Which ones: the last
        `keep` by default; with `first`, the first `keep`, as a real socket keeps them
        (Linux drops a datagram that finds the receive buffer full, so a long sleep leaves
        its first seconds waiting, and nothing of the table's news since: a playtest's
        woken laptop dealt a tile from them that the simulator, keeping the newest, never
        did). `wake` goes on where it stopped."""
        node.alive = False
        self.nodes.pop(node.addr, None)
        if keep:
            self._frozen[node.addr] = (node, keep, first, [])

    def wake(self, node: SimNode) -> None:
        """SIGCONT: the node's next call sees the clock jumped by the whole sleep. What
        waited in its socket comes first: the event loop hands out what its wait for
        input found before the timers that fell due meanwhile."""
        node.alive = True
        self.nodes[node.addr] = node
        _, _, _, held = self._frozen.pop(node.addr, (None, 0, False, []))
        for data, src in held:
            node.core.receive(data, src, self.now)
            self._collect(node)
        node.core.handle_timer(self.now)
        self._collect(node)

    def restart(self, old: SimNode, port: int | None = None, *, clock: float | None = None,
                **kw) -> SimNode:
        """The same player's node started again with the same profile: same peer id, a
        newer incarnation, its game replayed from its own record. `clock` sets the
        laptop's clock anew (e.g. put right, hours back); by default it stays as it was."""
        self.kill(old)
        self.now += 0.001
        host = old.addr[0]
        new = self.add(old.core.name, host, port if port is not None else old.addr[1],
                       clock=old.clock if clock is None else clock,
                       identity=old.core.identity, autoplay=old.core.autoplay,
                       handover_after=old.core.handover_after, **kw)
        lb, seed = old.core.lobby, old.core.seed
        game = with_variant(Game([s.colour for s in lb.seats]), lb.variant)
        for move, _, _ in old.record:
            game.apply(move)
        new.record = list(old.record)
        side = new.sidecar = old.sidecar
        new.core.resume(old.core.game_id, old.core.passphrase, side["lobby"], seed, game,
                        [d for _, d, _ in old.record], self.now,
                        contributors=side["contributors"], heads=side["heads"],
                        chain_secret=side["chain_secret"], proofs=[p for _, _, p in old.record],
                        late_secrets=side.get("late_secrets", []))
        self._collect(new)
        return new

    # ------------------------------------------------------------------ actions

    def act(self, node: SimNode, fn: Callable[..., object], *args) -> object:
        """Call a UI request on a node's core at the current virtual time."""
        result = fn(*args, self.now)
        self._collect(node)
        return result

    def inject(self, data: bytes, to: Addr, src: Addr = ("10.9.9.9", 6666)) -> None:
        """A stranger's datagram, delivered like any other."""
        self._push(self.now + self.latency, "dgram", (data, src, to))

    # ------------------------------------------------------------------ the loop

    def _push(self, t: float, kind: str, payload: object) -> None:
        self._n += 1
        heapq.heappush(self._queue, (t, self._n, kind, payload))

    def _collect(self, node: SimNode) -> None:
        core = node.core
        for ev in core.events():
            if isinstance(ev, E.RecordMove):
                node.record.append((ev.move, ev.digest, ev.proof))
            elif isinstance(ev, E.ChainMade) and node.sidecar is not None:
                node.sidecar = {**node.sidecar, "late_secrets": core.late_chain_secrets}
            elif isinstance(ev, E.Rewound):
                del node.record[ev.index:]
                node.events.append(ev)
            elif isinstance(ev, E.GameStarted) and not ev.resumed:
                node.sidecar = {"lobby": core.lobby,
                                "contributors": list(core.seed_contributors),
                                "heads": core.seed_heads,
                                "chain_secret": core.chain_secret, "late_secrets": []}
                node.events.append(ev)
            elif (isinstance(ev, E.LobbyChanged) and node.sidecar is not None
                  and core.game is not None and not core.watching):
                # as the real node rewrites `<record>.net`: a resume starts from the lobby
                # as it is now (handovers, the draws' drops, a newcomer in a seat)
                node.sidecar = {**node.sidecar, "lobby": core.lobby,
                                "late_secrets": core.late_chain_secrets}
                node.events.append(ev)
            elif isinstance(ev, E.BotTurn):
                g = core.game
                if (g is None or g.is_over or len(g.moves) != ev.index or g.pending is None
                        or g.pending.seat != ev.seat):
                    continue  # (as the real node: a rewind in the same step moved the game)
                move = make_bot(ev.bot, seed=ev.seed, **self.bot_options(ev.bot)).choose(
                    core.game.copy())
                self._push(self.now + self.think, "bot", (node, ev.index, move))
            else:
                node.events.append(ev)
        for data, dest in core.datagrams_to_send():
            for tap in self.taps:
                tap(data, node.addr, tuple(dest))
            if (node.addr in self.blocked or tuple(dest) in self.blocked
                    or (self.lose is not None and self.lose(data, node.addr, tuple(dest)))):
                self.dropped += 1
                continue
            if self.rng.random() < self.loss:
                self.dropped += 1
                continue
            delay = self.latency + self.rng.random() * self.jitter
            self._push(self.now + delay, "dgram", (data, node.addr, tuple(dest)))

    def step(self) -> bool:
        """Run the next thing that happens (a delivery, a bot's move or a timer)."""
        t_timer, timer_node = None, None
        for node in self.nodes.values():
            t = node.core.get_timer()
            if t is not None and (t_timer is None or t < t_timer):
                t_timer, timer_node = t, node
        t_queue = self._queue[0][0] if self._queue else None
        if t_queue is None and t_timer is None:
            return False
        if t_queue is not None and (t_timer is None or t_queue <= t_timer):
            t, _, kind, payload = heapq.heappop(self._queue)
            self.now = max(self.now, t)
            if kind == "dgram":
                data, src, dest = payload
                node = self.nodes.get(dest)
                if node is not None:
                    self.delivered += 1
                    node.core.receive(data, src, self.now)
                    self._collect(node)
                elif dest in self._frozen:  # (a stopped process's socket)
                    _, keep, first, held = self._frozen[dest]
                    if not first or len(held) < keep:
                        held.append((data, src))
                        del held[:-keep]
            else:
                node, index, move = payload
                if node.alive:
                    node.core.bot_move(index, move, self.now)
                    self._collect(node)
            return True
        self.now = max(self.now, t_timer)
        timer_node.core.handle_timer(self.now)
        self._collect(timer_node)
        return True

    def run_until(self, cond: Callable[[], bool], timeout: float = 600.0) -> None:
        """Advance virtual time until `cond()` holds; AssertionError after `timeout`
        virtual seconds."""
        end = self.now + timeout
        while not cond():
            if self.now > end or not self.step():
                raise AssertionError(f"not reached within {timeout} virtual seconds "
                                     f"(now {self.now - 1000.0:.2f})")

    def run_for(self, seconds: float) -> None:
        end = self.now + seconds
        while self.now < end and self.step():
            pass
        self.now = max(self.now, end)

    # ------------------------------------------------------------------ set-up helpers

    def table(self, n: int, *, bots: int = 0, passphrase: str | None = None,
              autoplay: str | None = "random", clocks: list[float] | None = None,
              variant: str = "standard", **kw) -> list[SimNode]:
        """`n` nodes seated in one game on hosts 10.0.0.1.., all ready: it starts.
        `clocks` gives each laptop's wall-clock error in seconds (the first one creates)."""
        clocks = clocks or [0.0] * n
        nodes = [self.add(f"p{i}", f"10.0.0.{i + 1}", autoplay=autoplay, clock=clocks[i], **kw)
                 for i in range(n)]
        first = nodes[0]
        create = functools.partial(first.core.create_game, variant=variant)
        self.act(first, create, "sim", n + bots, passphrase, "")
        for nd in nodes[1:]:
            self.act(nd, nd.core.begin_join, first.core.game_id, first.core.peer_id,
                     first.addr, passphrase, "")
            self.run_until(nd.core.seated, 30)
        for _ in range(bots):
            self.act(first, first.core.add_bot, "random", "")
        for nd in nodes:
            self.act(nd, nd.core.set_ready, True)
        self.run_until(lambda: all(nd.game is not None for nd in nodes), 60)
        return nodes

    def play_to_end(self, nodes: list[SimNode], timeout: float = 3600.0) -> None:
        self.run_until(lambda: all(nd.game is not None and (nd.game.is_over or nd.core.stopped)
                                   for nd in nodes), timeout)

"""One name, one table: where a node that asked for a table by name sits (issue 45).

Ten friends type `play --game Reef --players 2` at once. Each may open a table before it
hears of the others'; a table fills while others still wait; a friend typed a wrong
passphrase. What every node does about it follows from the tables discovery shows
(`protocol/discovery.md`, "Joining by name"), with no agreement round:

- A name's *family* is the name itself and "Reef (2)", "Reef (3)", …: the next tables of
  a party that outgrew the first. Every table of the family has a key (its number, then
  its game id); all nodes order the tables the same way.
- A table is *open* to a node while it is in the lobby with a free seat, the same lock
  (passphrase or none) as the node's, no running or full table holds its name, and it has
  not shut the node out (it never answered a passphrase, or refused it a moment ago).
- A node sits at the open table with the smallest key. At a table of its own with a free
  seat, it moves to an open table with a smaller key (the twins of one name merge), and it
  leaves its table once another table of that name runs or is full: its table is *stale*,
  and its players go on to the next. A full table stays: it starts in a moment.
- A node with no open table opens the first name of the family no table holds ("Reef",
  else "Reef (2)", …), after looking for `wait` seconds. Nodes that open the same name at
  the same moment are twins, and merge as above.
- A *latecomer* — a node that has seen no table of the family in the lobby nor one that
  started a moment ago (`FRESH_S`: the party was still arriving), and at the end of its
  look finds one running — is told the game runs (it may watch it: `watching.md`,
  Latecomers) instead of opening a table nobody waits at. Any node with no open table
  takes an open seat of a running table of the family (a bot plays it for a player who
  left) before it opens one.

Sans-I/O: `Seeker.decide` takes the clock and the tables and returns what to do; the
asyncio glue (`net/aio/matchmaking.py`) does it. `tests/net/test_tables_sim.py` runs whole
parties of seekers on a virtual clock.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tongiaki_lan.net.protocol.codec import MAX_NAME
from tongiaki_lan.net.protocol.lobby import name_key

MAX_INDEX = 99  # "Reef (99)": the last table of a family
RUNNING = ("starting", "playing")
# a table that refused us (full, gone, answering nothing without a passphrase) is not
# tried again for this long: it is full by now, or its node has moved on
RETRY_S = 2.0
# a table sat at this long, with no open table of a smaller key heard of meanwhile, is
# *settled*: a user interface shows it (long enough for a twin opened at the same moment
# to be heard of even at 40 % loss: fifteen questions, `Discovery.hurry`)
SETTLE_S = 3.0
# a table first heard of this long ago is joined: not at once, for the twins opened at the
# same moment by others are heard of within it too, and all then pick the same one (joined
# at once, two tables of one name often filled with a player each, each then running)
HOLD_S = 0.4
# a table that started less than this ago is *fresh*: it filled while the party was still
# arriving (ten friends typing the same command take a few seconds, on laptops that start
# Python at their own pace), so a node that finds it running opens the next table of the
# name instead of being told it came late. Adverts say it (TXT `fresh`, discovery.md).
FRESH_S = 10.0


def table_name(base: str, index: int) -> str:
    """The name of the family's table number `index` (1: the name itself)."""
    base = " ".join(base.split())[:MAX_NAME]
    if index <= 1:
        return base
    suffix = f" ({index})"
    return base[:MAX_NAME - len(suffix)].rstrip() + suffix


_NUMBERED = re.compile(r".* \((\d{1,2})\)")


def family_index(base: str, name: str) -> int | None:
    """Which table of `base`'s family `name` is (1, 2, …), compared as people read names
    (case, accents, spaces); None for a name of another family."""
    key = name_key(name)
    if key == name_key(table_name(base, 1)):
        return 1
    m = _NUMBERED.fullmatch(name.strip())
    if m is not None and 2 <= int(m[1]) <= MAX_INDEX:
        if key == name_key(table_name(base, int(m[1]))):
            return int(m[1])
    return None


@dataclass(frozen=True)
class Table:
    """A table as discovery shows it (or as our own lobby says it, for our own)."""

    game_id: bytes
    name: str
    phase: str  # lobby, starting, playing, over
    taken: int
    total: int
    passphrase: bool
    open_seats: int = 0  # seats a newcomer may take while it runs
    fresh: bool = False  # started less than FRESH_S ago

    @property
    def running(self) -> bool:
        return self.phase in RUNNING

    @property
    def just_started(self) -> bool:
        """Started less than FRESH_S ago (its seed is still being agreed, or it says so)."""
        return self.phase == "starting" or (self.phase == "playing" and self.fresh)

    @property
    def full(self) -> bool:
        return self.taken >= self.total


@dataclass(frozen=True)
class Stay:
    """Nothing to do now: wait (at our table, or looking) and ask again later."""


@dataclass(frozen=True)
class Join:
    """Leave the table we sit at, if any, and join this one."""

    table: Table


@dataclass(frozen=True)
class Create:
    """Leave the table we sit at, if any, and open a table of this name."""

    name: str


@dataclass(frozen=True)
class Running:
    """A latecomer: the game of that name runs and nobody waits for another table. Watch
    it, take an open seat, or say it runs."""

    table: Table


Action = Stay | Join | Create | Running
STAY = Stay()


@dataclass
class Seeker:
    """One node looking for a table of the name `base` (see the module's docstring)."""

    base: str
    passphrase: bool  # whether this node has one: it can sit only at tables of that kind
    started: float  # when it began to look (the clock `decide` is given)
    wait: float = 1.5  # how long it looks before opening a table
    # game id -> until when the node does not try that table (inf: for good)
    shut: dict[bytes, float] = field(default_factory=dict)
    # whether others wait for a table of this name (one was seen in the lobby) or this node
    # sat at one: then a running table is one that filled while it waited, not a game it
    # came late to
    waiting: bool = False
    _sat: tuple[bytes, float] | None = None  # (the table we sit at, since when)
    _seen: dict[bytes, float] = field(default_factory=dict)  # game id -> first seen

    def refused(self, table: Table, now: float, silent_lock: bool = False) -> None:
        """A join that failed. A table with a passphrase that never answered holds another
        passphrase than ours (a typo at its creator's or ours): it is never tried again, so
        it cannot keep the right ones from their table."""
        self.shut[table.game_id] = math.inf if silent_lock else now + RETRY_S

    def index(self, table: Table) -> int | None:
        return family_index(self.base, table.name)

    def key(self, table: Table) -> tuple[int, bytes]:
        return (self.index(table) or MAX_INDEX + 1, table.game_id)

    def family(self, tables: Iterable[Table]) -> list[Table]:
        return [t for t in tables if t.phase != "over" and self.index(t) is not None]

    def decide(self, now: float, tables: Iterable[Table], mine: Table | None) -> Action:
        """What to do, given the tables discovery shows (any names; this node's own advert
        left out) and the table this node sits at (None: none)."""
        action = self._decide(now, tables, mine)
        if isinstance(action, Join) and now - self._seen[action.table.game_id] < HOLD_S:
            # a table just heard of: its twins, opened at the same moment, are heard of in
            # a moment too; joining one of them at once filled two tables of one name
            if mine is not None:
                self._sat = (mine.game_id, now)  # (and ours is not settled: we may move)
            return STAY
        if not isinstance(action, Stay):
            self._sat = None
        return action

    def _decide(self, now: float, tables: Iterable[Table], mine: Table | None) -> Action:
        others = [t for t in self.family(tables) if mine is None or t.game_id != mine.game_id]
        if mine is not None or any((t.phase == "lobby" or t.just_started)
                                   and t.passphrase == self.passphrase for t in others):
            self.waiting = True
        held = {name_key(t.name) for t in others if t.running or (t.phase == "lobby" and t.full)}
        for t in others:
            self._seen.setdefault(t.game_id, now)
        openings = sorted((t for t in others
                           if t.phase == "lobby" and not t.full
                           and t.passphrase == self.passphrase
                           and name_key(t.name) not in held
                           and self.shut.get(t.game_id, 0.0) <= now), key=self.key)
        if mine is not None:
            if self._sat is None or self._sat[0] != mine.game_id:
                self._sat = (mine.game_id, now)
            if mine.phase != "lobby" or mine.full:
                return STAY  # it starts (or has): never abandoned
            if openings and self.key(openings[0]) < self.key(mine):
                return Join(openings[0])
            if name_key(mine.name) in held:  # stale: its name runs (or is full) elsewhere
                return Join(openings[0]) if openings else Create(self.free_name(others))
            return STAY
        self._sat = None
        if openings:
            return Join(openings[0])
        if now < self.started + self.wait:
            return STAY
        running = sorted((t for t in others if t.running), key=self.key)
        with_seat = [t for t in running if t.open_seats and t.passphrase == self.passphrase]
        if with_seat:  # a seat a bot plays for one who left: better than a new table
            return Running(with_seat[0])
        if running and not self.waiting:
            return Running(running[0])
        return Create(self.free_name(others))

    def settled(self, now: float, mine: Table | None) -> bool:
        """Whether the table we sit at is settled: started, or sat at for SETTLE_S with
        no reason to move (`decide` returned Stay all the while)."""
        if mine is None:
            return False
        if mine.phase != "lobby":
            return True
        return (self._sat is not None and self._sat[0] == mine.game_id
                and now - self._sat[1] >= SETTLE_S)

    def free_name(self, tables: Iterable[Table]) -> str:
        """The family's first name that no table holds (a running, full or open one, or
        one that shut us out)."""
        taken = {name_key(t.name) for t in self.family(tables)}
        for k in range(1, MAX_INDEX + 1):
            name = table_name(self.base, k)
            if name_key(name) not in taken:
                return name
        return table_name(self.base, MAX_INDEX)


def table_to_watch(name: str, tables: Iterable[Table], now: float = 0.0,
                   shut: dict[bytes, float] | None = None) -> Table | None:
    """The table called `name` a watcher follows (`watch --game NAME`, a lobby's `watch N`
    of a table still forming): the running one (the first by game id), else one that is
    full and starts in a moment, else the open one the players of the name gather at (the
    smallest game id: `Seeker`). A table in the lobby whose name runs or is full elsewhere
    is stale (its players go on to "NAME (2)"), and never one to watch. None: no table of
    that name yet (or only ones in `shut`, which did not answer a moment ago)."""
    shut = shut or {}
    same = [t for t in tables if t.phase != "over" and family_index(name, t.name) == 1
            and shut.get(t.game_id, 0.0) <= now]
    running = sorted((t for t in same if t.running), key=lambda t: t.game_id)
    full = sorted((t for t in same if t.phase == "lobby" and t.full), key=lambda t: t.game_id)
    if running or full:
        return (running or full)[0]
    forming = sorted((t for t in same if t.phase == "lobby"), key=lambda t: t.game_id)
    return forming[0] if forming else None

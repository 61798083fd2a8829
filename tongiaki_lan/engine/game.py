"""The rules of Tongiaki (rules version 2) as a state machine driven by decisions.

A `Game` always has exactly one pending `Decision` (or none once it is over).
`apply` takes one `Move`, checks it against the rules before touching anything, then
carries the game forward through everything that involves no choice: voyages,
failed crossings, closed-island removals, turn changes, and any player decision that
has a single legal option. Tile reveals are decisions too, owned by chance: the engine
holds no stack order and no seed, so nothing in it can tell the future; whoever drives
the game supplies each revealed tile (`Dealer` for local play). The clause ids in
comments and errors are those of the rules digest (docs/rules.md).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import msgpack

from . import decisions as D
from .colours import COLOURS, LETTERS, colour_id
from .errors import N_, IllegalMove, Reason
from .events import Event
from .events import event as _event
from .hexgrid import DIRECTION_NAMES, DIRECTIONS, Hex
from .moves import (
    REVEALS,
    ChooseBeaches,
    Colony,
    Expand,
    Land,
    Move,
    Place,
    PlaceTile,
    Reveal,
    Royal,
    Sail,
    Take,
    TakeNothing,
)
from .tiles import SEA_EXIT, STACK_IDS, TILES, TONGA

SHIPS_PER_COLOUR = 15  # G1
MAX_ROYALS = 2  # K1
TURN_LIMIT = 1000  # X3
STATE_FORMAT = 2

BERTHS: tuple[tuple[int, ...], ...] = tuple(tuple(b.berths for b in t.beaches) for t in TILES)
PIERS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(b.piers for b in t.beaches) for t in TILES
)
_DQ = tuple(d[0] for d in DIRECTIONS)
_DR = tuple(d[1] for d in DIRECTIONS)
_KIND_CODE = {k: i for i, k in enumerate(D.KINDS)}
# the decision kinds, as module names (read at every step of the hot paths)
_K_SETUP, _K_ACTION, _K_EXPAND_BEACHES, _K_T1A_SOURCE, _K_DEPARTURE = D.KINDS[:5]
_K_LANDING, _K_COLONY_TILE, _K_COLONY_SHIP, _K_REVEAL = D.KINDS[5:]
_EMPTY: tuple[tuple[tuple[int, ...], ...], ...] = tuple(tuple(() for _ in b) for b in BERTHS)
_NO_DANGER = 99  # a colour count no route asks for: X2b ignores dangers


# Moves are immutable values: the ones the generator offers again and again are built once
# and shared (equal either way; building a frozen dataclass costs more than finding it).
_EXPAND = tuple(Expand(t) for t in range(16))
_ROYAL = tuple(Royal(t) for t in range(16))
_PLACE1 = tuple(tuple(Place(t, (b,)) for b in range(6)) for t in range(16))
_PLACE_TONGA2 = {(a, b): Place(TONGA, (a, b)) for a in range(6) for b in range(a, 6)}
_TAKE = tuple(tuple(Take(t, b) for b in range(6)) for t in range(16))
_SAIL = tuple(tuple(tuple(Sail(t, b, p) for p in range(6)) for b in range(6)) for t in range(16))
_REVEAL = REVEALS
# island -> rotation -> beach -> its piers as board directions, and as departures (M1)
_PIER_DIRS = tuple(tuple(tuple(tuple((p + rot) % 6 for p in piers) for piers in PIERS[t])
                         for rot in range(6)) for t in range(16))
_SAILS = tuple(tuple(tuple(tuple(_SAIL[t][b][d] for d in dirs) for b, dirs in enumerate(by_b))
                     for by_b in _PIER_DIRS[t]) for t in range(16))
_COLONY = Colony()
_TAKE_NOTHING = TakeNothing()
_DECISIONS: dict[tuple, D.Decision] = {}
_DECISIONS_MAX = 20000
_PLACE_TILE: dict[tuple[int, int, int], PlaceTile] = {}
_PLACE_TILE_MAX = 50000

# (free berths per beach, group) -> every legal landing (L1); a pure function, memoised
_LANDINGS: dict[tuple, tuple[Land, ...]] = {}
_LANDINGS_MAX = 20000


def _is_island(tid: int) -> bool:
    return tid < 16


def _code(q: int, r: int) -> int:
    """A hex as one int, ordered like (q, r) (|r| < 512; MAX_COORD is 64)."""
    return q * 1024 + r


def _hex_of(code: int) -> Hex:
    q, r = divmod(code + 512, 1024)
    return q, r - 512


_DIR_CODES = tuple((dq, dr, _code(dq, dr)) for dq, dr in DIRECTIONS)


class _Landings:
    """The legal landings of one decision, in canonical order: a read-only sequence that
    builds a `Land` only for the index asked for (a random bot looks at one of dozens)."""

    __slots__ = ("_canon", "_cols")

    def __init__(self, canon: tuple, cols: tuple[int, ...]):
        self._canon = canon  # placements, colours numbered 0, 1, ... in order
        self._cols = cols  # number -> colour id

    def __len__(self) -> int:
        return len(self._canon)

    def __getitem__(self, index: int) -> Land:
        cols = self._cols
        return Land(tuple([(b, tuple([cols[c] for c in cs])) for b, cs in self._canon[index]]))

    def __iter__(self):
        for i in range(len(self._canon)):
            yield self[i]


@dataclass(frozen=True, slots=True)
class Preview:
    """Where a departure option goes over the tiles already on the board.

    outcome: "land" on `island`; "back" — it leads back home (X2a), `island` being home and
    `royal` the Royal Island that turned it back, if one did; "fail" at the route on `hex`
    that needs `danger` colours where the group has `colours`; "reveal" — a new tile
    will be revealed at `hex`; "lost" — after the last tile it would need a new one (E2).
    """

    outcome: str
    island: int | None = None
    royal: int | None = None
    hex: Hex | None = None
    danger: int = 0
    colours: int = 0
    path: tuple[Hex, ...] = ()


# The mutable containers a snapshot must copy; everything else in a Game is immutable.
_CONTAINERS = ("_placed", "_where", "_ships", "_kings")
_NOT_STATE = ("_history", "_moves", "events", "_undo")


class Game:
    """One game of Tongiaki. Mutable like python-chess's Board: `apply` advances it,
    `pop` takes the last move back, `copy` forks it."""

    # Seat -> player under a table variant (engine/variant.py, V1); None: one player per
    # seat. Not game state (no rule depends on it, the digest leaves it out); copies keep it.
    owners: tuple[int, ...] | None = None

    # ------------------------------------------------------------------ creation

    def __init__(self, colours: Sequence[str], undo: bool = True):
        colours = tuple(colours)
        if not 2 <= len(colours) <= 6:
            raise ValueError("Tongiaki is for 2 to 6 players (G1)")
        cids = tuple(colour_id(c) for c in colours)
        if len(set(cids)) != len(cids):
            raise ValueError("each seat needs its own colour (G1)")
        self._init_seats(cids)
        self._placed: dict[Hex, tuple[int, int]] = {(0, 0): (TONGA, 0)}  # S1
        self._free_rot: frozenset[Hex] = frozenset()  # tiles placed by a New Colony (C2)
        self._where: dict[int, Hex] = {TONGA: (0, 0)}
        # island -> per beach, the sorted colour ids on it. Tuples all the way down, so
        # that a copy (bots make one per decision) is a shallow dict copy.
        self._ships: dict[int, tuple[tuple[int, ...], ...]] = {TONGA: _EMPTY[TONGA]}
        self._kings: dict[int, int] = {}  # island -> colour id
        self._reserve: tuple[int, ...] = (SHIPS_PER_COLOUR,) * self.n_seats
        self._unrevealed: tuple[int, ...] = STACK_IDS  # sorted: public knowledge
        self._removed: tuple[int, ...] = ()
        self._turns = 0  # completed turns
        self._active = 0  # S2
        self._setup_done = 0
        self._kind: str | None = D.SETUP
        self._island: int | None = None
        self._count = 0
        self._group: tuple[int, ...] = ()
        self._origin: int | None = None  # home of the group at sea (K3, X2c)
        self._at: tuple[int, int, int] | None = None  # voyage waiting for a tile: q, r, dir
        self._ctile: int | None = None
        self._final = False  # E2: the last island is out: no tile is revealed any more
        # X2d: (position key, option chosen) at every departure decision of this turn
        self._seen: tuple[tuple[bytes, Sail], ...] = ()
        self._closed_turn = False  # X2b removed an island this turn
        self._end_reason = ""
        self._init_runtime()
        self._undo = undo
        self._settle()

    def _init_seats(self, cids: tuple[int, ...]) -> None:
        self.colours: tuple[str, ...] = tuple(COLOURS[c] for c in cids)
        self.n_seats = len(cids)
        self._cid: tuple[int, ...] = cids  # seat -> colour id
        self._seat_of: dict[int, int] = {c: s for s, c in enumerate(cids)}

    def _init_runtime(self) -> None:
        self._moves: list[Move] = []
        self._history: list[dict] = []  # state before each move, for pop()
        self._undo = True
        self._clear_caches()
        self.events: list[Event] = []

    def _clear_caches(self) -> None:
        self._legal: list[Move] | None = None
        # empty hexes next to a placed tile (as `_code`s, sorted), kept up to date tile by
        # tile once a New Colony has asked for them (C2); replaced, never mutated in place
        self._frontier_memo: list[int] | None = None
        self._placed_pack: bytes | None = None  # the placed tiles' part of position_key
        self._departures: list[Sail] | None = None
        self._pos_key: bytes | None = None
        self._pend: D.Decision | None = None  # `pending`, built once per decision
        # the move `legal_move` last handed out: applying it needs no legality search
        self._handed: Move | None = None
        # the full beaches, (island, beach) in order, kept up to date beach by beach: most
        # departure decisions end at "none" (M4), the others list them (M1)
        self._full = self._scan_full()
        # per seat, a bit per island where it has a ship on a beach (1 << island id):
        # turn options (T1, K1) and New Colonies (C1) read it instead of every beach
        present = [0] * self.n_seats
        for t, beaches in self._ships.items():
            for b in beaches:
                for c in b:
                    present[self._seat_of[c]] |= 1 << t
        self._present: tuple[int, ...] = tuple(present)

    @classmethod
    def replay(cls, colours: Sequence[str], moves: Iterable[Move]) -> Game:
        game = cls(colours)
        for move in moves:
            game.apply(move)
        return game

    def copy(self, undo: bool = True) -> Game:
        """An independent game in the same state (events are not carried over).

        `undo=False` gives a scratch copy that keeps no history: bots' rollouts apply
        thousands of moves they never take back, and skip the snapshot per move.
        """
        g = object.__new__(type(self))
        g.__dict__.update(self.__dict__)
        for name in _CONTAINERS:
            setattr(g, name, dict(getattr(self, name)))
        g._moves = list(self._moves)
        g._history = list(self._history) if undo else []
        g._undo = undo
        # Caches are replaced, never mutated in place: sharing them is safe and saves bots
        # a regeneration per decision.
        g.events = []
        return g

    # ------------------------------------------------------------------ undo

    def _snapshot(self) -> dict:
        snap = self.__dict__.copy()  # the bookkeeping in it is dropped again by pop()
        for name in _CONTAINERS:
            snap[name] = snap[name].copy()
        snap["#events"] = len(self.events)
        return snap

    def pop(self) -> Move:
        """Take back the last move, with every forced step that followed it."""
        if not self._moves:
            raise IndexError("no move to take back")
        if not self._history:
            raise IndexError("this game keeps no history before its last position")
        snap = self._history.pop()
        move = self._moves.pop()
        del self.events[snap["#events"]:]
        for k, v in snap.items():
            if k not in _NOT_STATE and k != "#events":
                setattr(self, k, v)
        return move

    # ------------------------------------------------------------------ public view

    @property
    def pending(self) -> D.Decision | None:
        pend = self._pend
        if pend is None and self._kind is not None:
            pend = self._pend = self._decision()
        return pend

    def _decision(self) -> D.Decision:
        """The pending decision; a player's is shared by every position with the same
        context (Decisions are immutable, and bots ask for one at every step)."""
        kind = self._kind
        if kind == _K_ACTION or kind == _K_DEPARTURE:  # the most frequent: no context
            key = (kind, self._active)
        elif kind == _K_REVEAL:
            return self._build_decision()
        else:
            seat = self._setup_done % self.n_seats if kind == _K_SETUP else self._active
            key = (kind, seat, self._island, self._count, self._group, self._ctile)
        known = _DECISIONS.get(key)
        if known is None:
            if len(_DECISIONS) >= _DECISIONS_MAX:
                _DECISIONS.clear()
            known = _DECISIONS[key] = self._build_decision()
        return known

    def _build_decision(self) -> D.Decision:
        kind = self._kind
        if kind == D.SETUP:
            return D.Decision(kind, self._setup_done % self.n_seats, island=TONGA)
        if kind == D.EXPAND_BEACHES:
            return D.Decision(kind, self._active, island=self._island, count=self._count)
        if kind in (D.T1A_SOURCE, D.COLONY_SHIP):
            return D.Decision(kind, self._active, island=self._island)
        if kind == D.LANDING:
            return D.Decision(kind, self._active, island=self._island, group=self._group)
        if kind == D.COLONY_TILE:
            return D.Decision(kind, self._active, tile=self._ctile)
        if kind == D.REVEAL:
            at = None if self._at is None else self._at[:2]
            return D.Decision(kind, None, group=self._group, tiles=self._unrevealed, hex=at)
        return D.Decision(kind, self._active)

    @property
    def pending_seat(self) -> int | None:
        """`pending.seat` without building the Decision: whose turn it is to decide (None
        at a chance node or once the game is over). Self-play asks at every step."""
        kind = self._kind
        if kind is None or kind == _K_REVEAL:
            return None
        if kind == _K_SETUP:
            return self._setup_done % self.n_seats
        return self._active

    @property
    def awaiting_reveal(self) -> bool:
        """A tile must be revealed before anyone can decide anything (a chance node)."""
        return self._kind == _K_REVEAL

    @property
    def is_over(self) -> bool:
        return self._kind is None

    @property
    def end_reason(self) -> str:
        return self._end_reason

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self._moves)

    @property
    def turn(self) -> int:
        """Completed turns (setup is not a turn)."""
        return self._turns

    @property
    def active_seat(self) -> int:
        return self._active

    def colour_of(self, seat: int) -> str:
        return self.colours[seat]

    def colour_ids(self) -> tuple[int, ...]:
        return self._cid

    def seat_of_colour(self, cid: int) -> int:
        return self._seat_of[cid]

    def reserve(self, seat: int) -> int:
        return self._reserve[seat]

    def on_board(self, seat: int) -> int:
        """Ships of `seat` on beaches (kings and a group at sea not counted)."""
        cid = self._cid[seat]
        return sum(b.count(cid) for beaches in self._ships.values() for b in beaches)

    def royals_founded(self, seat: int) -> int:
        cid = self._cid[seat]
        return sum(1 for c in self._kings.values() if c == cid)

    def placed_tiles(self) -> dict[Hex, tuple[int, int]]:
        """hex -> (tile id, rotation), in placement order."""
        return dict(self._placed)

    def tile_at(self, h: Hex) -> tuple[int, int] | None:
        return self._placed.get(h)

    def hex_of(self, tile_id: int) -> Hex | None:
        return self._where.get(tile_id)

    def islands(self) -> tuple[int, ...]:
        """Islands on the board (Royal Islands included), by id."""
        return tuple(sorted(self._ships))

    def ships_on(self, island: int) -> tuple[tuple[int, ...], ...]:
        """Colour ids on each beach of an island on the board."""
        return self._ships[island]

    def king_of(self, island: int) -> int | None:
        """Colour id of the king on a Royal Island."""
        return self._kings.get(island)

    def kings(self) -> dict[int, int]:
        return dict(self._kings)

    def removed_tiles(self) -> tuple[int, ...]:
        return self._removed

    def stack_left(self) -> int:
        return len(self._unrevealed)

    def draws(self) -> int:
        """Tiles revealed so far: the index of the next draw."""
        return len(STACK_IDS) - len(self._unrevealed)

    def revealed_counts(self) -> tuple[int, int]:
        """(islands, seas) revealed so far — E1 ends the game at 15 or 16."""
        left_islands = sum(1 for t in self._unrevealed if _is_island(t))
        islands = 15 - left_islands
        return islands, self.draws() - islands

    def unrevealed_tiles(self) -> tuple[int, ...]:
        """Tiles still in the stack, sorted by id (nobody knows their order)."""
        return self._unrevealed

    def group_at_sea(self) -> tuple[int, ...]:
        return self._group

    def free_rotation_hexes(self) -> frozenset[Hex]:
        """Hexes whose tile a New Colony placed (its red mark may point anywhere, C2)."""
        return self._free_rot

    def turn_record(self) -> tuple[tuple[bytes, Sail], ...]:
        """X2d: (position key, option chosen) at every departure decision of this turn."""
        return self._seen

    def closed_this_turn(self) -> bool:
        return self._closed_turn

    def last_tile_out(self) -> bool:
        """E2: the last island tile has been revealed; no tile will be revealed again."""
        return self._final

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self) -> list[Move]:
        """Every legal move of the pending decision, in a canonical order."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def legal_move_count(self) -> int:
        """How many legal moves there are, without building them all."""
        legal = self._legal
        if legal is not None:  # a player's decision: settled with its moves listed
            return len(legal)
        if self._kind == _K_COLONY_TILE:
            return 6 * len(self._frontier_cached())
        legal = self._legal = self._generate()
        return len(legal)

    def legal_move(self, index: int) -> Move:
        """The index-th legal move in the order of `legal_moves()`: lets a bot pick
        one uniformly without materialising a large set (C2 has 6 per free hex)."""
        legal = self._legal
        if legal is not None:
            move = self._handed = legal[index]
            return move
        if self._kind == _K_COLONY_TILE:
            q, r = _hex_of(self._frontier_cached()[index // 6])
            key = (q, r, index % 6)
            move = _PLACE_TILE.get(key)
            if move is None:
                if len(_PLACE_TILE) >= _PLACE_TILE_MAX:
                    _PLACE_TILE.clear()
                move = _PLACE_TILE[key] = PlaceTile(*key)
        else:
            legal = self._legal
            if legal is None:
                legal = self._legal = self._generate()
            move = legal[index]
        self._handed = move
        return move

    def is_legal(self, move: Move) -> bool:
        if self._kind is None:
            return False
        if self._kind == D.REVEAL:
            return isinstance(move, Reveal) and move.tile in self._unrevealed
        if self._kind == D.COLONY_TILE:
            return (
                isinstance(move, PlaceTile)
                and _code(move.q, move.r) in self._frontier_cached()
                and 0 <= move.rotation < 6
            )
        if self._legal is None:
            self._legal = self._generate()
        return move in self._legal

    def _frontier_cached(self) -> list[int]:
        frontier = self._frontier_memo
        if frontier is None:
            frontier = self._frontier_memo = [_code(q, r) for q, r in self._frontier()]
        return frontier

    def _generate(self) -> list[Move]:
        kind = self._kind
        seat = self._active
        # branches by how often they come in a game
        if kind == _K_ACTION:
            return self._action_moves(seat)
        if kind == _K_EXPAND_BEACHES:
            return list(_choices(self._free_beaches(self._island), self._count))
        if kind == _K_COLONY_SHIP:
            return list(_PLACE1[self._island][: len(BERTHS[self._island])])
        if kind == _K_DEPARTURE:
            return list(self._departures or ())
        if kind == _K_SETUP:
            ships = self._ships[TONGA]
            return [_PLACE1[TONGA][b] for b in range(6) if len(ships[b]) < BERTHS[TONGA][b] - 1]
        if kind == _K_LANDING:
            return self._landing_options()
        if kind == _K_T1A_SOURCE:
            cid = self._cid[seat]
            out: list[Move] = []
            for tid in sorted(self._ships):
                if tid == self._island or tid in self._kings:
                    continue
                for b, ships in enumerate(self._ships[tid]):
                    if cid in ships:
                        out.append(_TAKE[tid][b])
            out.append(_TAKE_NOTHING)  # T1a: "may"
            return out
        if kind == _K_REVEAL:
            return [_REVEAL[t] for t in self._unrevealed]
        if kind == _K_COLONY_TILE:
            return [PlaceTile(*_hex_of(h), rot) for h in self._frontier_cached()
                    for rot in range(6)]
        return []

    def _action_moves(self, seat: int) -> list[Move]:
        cid = self._cid[seat]
        out: list[Move] = []
        ships = self._ships
        present = self._present
        mine = present[seat]
        if mine:  # ships on beaches
            out.extend(_expands(mine))  # T1
            if list(self._kings.values()).count(cid) < MAX_ROYALS:  # K1
                seen = shared = 0  # islands where two seats or more have ships
                for m in present:
                    shared |= seen & m
                    seen |= m
                alone = mine & ~shared & ~(1 << TONGA)
                if alone:
                    out.extend(_royals(alone))
        else:  # X1
            n = min(2, self._reserve[seat])
            if TONGA in ships and n:
                out.extend(_tonga_places(ships[TONGA], n))
            if self._reserve[seat]:
                kings = self._kings
                for tid in sorted(ships):
                    if tid == TONGA or tid in kings:
                        continue
                    berths = BERTHS[tid]
                    place = _PLACE1[tid]
                    for b, s in enumerate(ships[tid]):
                        if len(s) < berths[b]:
                            out.append(place[b])
        out.append(_COLONY)  # C1: always possible
        return out

    def frontier(self) -> list[Hex]:
        """Empty hexes next to a placed tile, sorted: where a New Colony tile may go (C2)."""
        return [_hex_of(h) for h in self._frontier_cached()]

    def _frontier(self) -> list[Hex]:
        """Empty hexes next to at least one placed tile (C2), sorted; the centre when X2b
        has emptied the board."""
        placed = self._placed
        if not placed:
            return [(0, 0)]
        around = {(q + dq, r + dr) for q, r in placed for dq, dr in DIRECTIONS}
        return sorted(around.difference(placed))

    def _free_beaches(self, tid: int) -> tuple[int, ...]:
        berths = BERTHS[tid]
        return tuple([b for b, s in enumerate(self._ships[tid]) if len(s) < berths[b]])

    def _on_beaches(self, seat: int) -> int:
        """Ships of `seat` on beaches; valid whenever no group is at sea."""
        return SHIPS_PER_COLOUR - self._reserve[seat] - self.royals_founded(seat)

    # ------------------------------------------------------------------ landings (L1)

    def _landing_frame(self) -> tuple[list[tuple[int, int]], int]:
        ships = self._ships[self._island]
        berths = BERTHS[self._island]
        free = [(b, berths[b] - len(s)) for b, s in enumerate(ships) if len(s) < berths[b]]
        placed = min(len(self._group), sum(f for _, f in free))
        return free, placed

    def _landing_options(self) -> _Landings:
        """All distinct legal landings. Bounded: a group is one beach's ships (at most 5).
        They depend only on the free berths and on the group up to the names of its
        colours, so they are remembered with the colours numbered 0, 1, ... in order: the
        same few situations come back thousands of times in games and bots' rollouts. The
        real colours are put back only into the landings somebody looks at."""
        free, total = self._landing_frame()
        group = self._group
        cols = tuple(sorted(set(group)))
        if len(cols) == 1:
            canon: tuple[int, ...] = (0,) * len(group)
        else:
            label = {c: i for i, c in enumerate(cols)}
            canon = tuple([label[c] for c in group])
        key = (tuple(free), canon)
        known = _LANDINGS.get(key)
        if known is None:
            if len(_LANDINGS) >= _LANDINGS_MAX:
                _LANDINGS.clear()
            known = _LANDINGS[key] = tuple(self._enumerate_landings(free, total, canon))
        return _Landings(known, cols)

    def _enumerate_landings(self, free: list[tuple[int, int]], total: int,
                            group: tuple[int, ...]) -> list[tuple]:
        """The placements of every legal landing, in canonical order, for a group whose
        colours are numbered 0, 1, ... (see `_landing_options`)."""
        if total == 0:
            return [()]
        avail = [0] * (max(group) + 1)
        for c in group:
            avail[c] += 1
        out: list[tuple] = []
        for vec in _landing_vectors(tuple(free), total, len(group)):
            out.extend(_landing_tails(vec, tuple(avail)))
        return out

    def landing_violation(self, move: Land) -> str | None:
        """Why a proposed landing breaks L1, or None if it is legal (no enumeration)."""
        free, total = self._landing_frame()
        free_at = dict(free)
        berths = BERTHS[self._island]
        remaining: dict[int, int] = {}
        for c in self._group:
            remaining[c] = remaining.get(c, 0) + 1
        placed = 0
        for beach, cs in move.placements:
            if beach >= len(berths):
                return Reason(N_("{island} has no beach {beach}"), island=TILES[self._island].name,
                              beach=beach + 1)
            if len(cs) > free_at.get(beach, 0):
                n = free_at.get(beach, 0)
                text = (N_("beach {beach} has no free berth") if n == 0 else
                        N_("beach {beach} has only one free berth") if n == 1 else
                        N_("beach {beach} has only {n} free berths"))
                return Reason(text, beach=beach + 1, n=n)
            for c in cs:
                if remaining.get(c, 0) <= 0:
                    return Reason(N_("the group has no more {colour} ships to land"),
                                  colour=LETTERS[c])
                remaining[c] -= 1
            placed += len(cs)
        if placed != total:
            return Reason(N_("exactly {n} ship(s) must land (as many as fit), not {placed}"),
                          n=total, placed=placed)
        used = {b for b, _ in move.placements}
        if len(self._group) >= len(free):
            missing = [b + 1 for b, _ in free if b not in used]
            if missing:
                return Reason(N_("every beach with a free berth gets a ship first; beach "
                                 "{beaches} got none"), beaches=", ".join(map(str, missing)))
        elif any(len(cs) > 1 for _, cs in move.placements):
            return Reason(N_("the group is smaller than the free beaches: at most one ship per "
                             "beach"))
        return None

    def default_landing(self) -> Land:
        """The landing offered when the player just presses Enter: the mover's own ships
        first, one per free beach in beach order, then the rest in beach order."""
        free, total = self._landing_frame()
        act = self._cid[self._active]
        order = sorted(self._group, key=lambda c: (c != act, self._seat_of[c]))[:total]
        if len(self._group) < len(free):
            free = free[: len(self._group)]
        slots: list[int] = [b for b, _ in free]
        for b, f in free:
            slots.extend([b] * (f - 1))
        per: dict[int, list[int]] = {}
        for c, b in zip(order, slots, strict=False):
            per.setdefault(b, []).append(c)
        return Land(tuple((b, tuple(sorted(cs))) for b, cs in sorted(per.items())))

    # ------------------------------------------------------------------ applying moves

    def apply(self, move: Move) -> None:
        """Play one decision. Raises IllegalMove (naming the clause) and changes nothing
        if the move is not legal now."""
        kind = self._kind
        if move is self._handed:
            pass  # `legal_move` gave it out in this very position (never once it is over)
        elif kind is None:
            raise IllegalMove("E1", "the game is over")
        elif kind == _K_REVEAL and type(move) is Reveal:
            if move.tile not in self._unrevealed:
                raise self._diagnose(move)
        elif not isinstance(move, Move):
            raise IllegalMove("T0", f"not a move: {move!r}")
        elif kind == D.LANDING and isinstance(move, Land):
            why = self.landing_violation(move)
            if why is not None:
                raise IllegalMove("L1", why)
        elif not self.is_legal(move):
            raise self._diagnose(move)
        if self._undo:
            self._history.append(self._snapshot())
        self._moves.append(move)
        self._perform(move)
        while True:  # _settle, inline: it follows every move
            kind = self._kind
            if kind is None or kind == _K_REVEAL or kind == _K_COLONY_TILE:
                return
            legal = self._action_moves(self._active) if kind == _K_ACTION else self._generate()
            if len(legal) != 1:
                self._legal = legal
                return
            self._perform(legal[0])

    push = apply  # python-chess users reach for push

    def _settle(self) -> None:
        """Apply player decisions that have a single option: they involve no choice.
        Reveals are never settled here, even with one tile left: they are the dealer's."""
        while True:
            kind = self._kind
            if kind is None or kind == _K_REVEAL or kind == _K_COLONY_TILE:
                return
            legal = self._generate()
            if len(legal) != 1:
                self._legal = legal
                return
            self._perform(legal[0])

    def _perform(self, move: Move) -> None:
        self._legal = self._pend = self._handed = None
        kind = self._kind
        seat = self._active
        # branches by how often they come in a game
        if kind == _K_REVEAL:
            self._reveal(move.tile)
        elif kind == _K_ACTION:
            cls = type(move)
            if cls is Colony:
                self._new_colony(seat, take_off=True)
            elif cls is Expand:
                self._expand(seat, move.island)
            elif cls is Royal:
                self._found_royal(seat, move.island)
            else:  # Place: X1
                for b in move.beaches:
                    self._add_ship(seat, move.island, b)
                self.events.append(_event("place", (self._cid[seat], move.island, move.beaches)))
                self._next_departure()  # T2
        elif kind == _K_COLONY_TILE:
            self._place_colony_tile(move)
        elif kind == _K_EXPAND_BEACHES:
            for b in move.beaches:
                self._add_ship(seat, self._island, b)
            self.events.append(_event("expand", (self._cid[seat], self._island, move.beaches)))
            self._count = 0
            self._next_departure()  # T2
        elif kind == _K_COLONY_SHIP:
            self._add_ship(seat, self._island, move.beaches[0])
            self.events.append(_event("place", (self._cid[seat], self._island, move.beaches)))
            self._island = None
            self._end_turn()
        elif kind == _K_DEPARTURE:
            key = self._pos_key or self.position_key()  # the position is still the offer's
            self._seen = (*self._seen, (key, move))
            self._depart(move)
        elif kind == _K_LANDING:
            self._land(move)
        elif kind == _K_SETUP:
            seat = self._setup_done % self.n_seats
            self._add_ship(seat, TONGA, move.beaches[0])
            self.events.append(_event("setup", (self._cid[seat], TONGA, move.beaches[0])))
            self._setup_done += 1
            if self._setup_done == 2 * self.n_seats:
                self._start_turn(0)  # S4
        elif kind == _K_T1A_SOURCE:
            cid = self._cid[seat]
            if isinstance(move, TakeNothing):
                self.events.append(_event("expand", (cid, self._island, ())))
                self._next_departure()  # T2
                return
            ships = list(self._ships[move.island][move.beach])
            ships.remove(cid)
            self._set_beach(move.island, move.beach, tuple(ships))
            self._add_reserve(seat, 1)  # passes through the hand; placed right after
            self.events.append(_event("take", (cid, move.island, move.beach)))
            self._ask_expansion_beaches(self._island, 1)

    def _add_reserve(self, seat: int, n: int) -> None:
        r = self._reserve
        self._reserve = r[:seat] + (r[seat] + n,) + r[seat + 1 :]

    def _return_ships(self, colours: Iterable[int]) -> None:
        reserve = list(self._reserve)
        seat_of = self._seat_of
        for c in colours:
            reserve[seat_of[c]] += 1
        self._reserve = tuple(reserve)

    def _add_ship(self, seat: int, island: int, beach: int) -> None:
        """One ship from the reserve onto a beach: `_set_beach`'s bookkeeping, for the
        one case that is most of them."""
        beaches = self._ships[island]
        ships = beaches[beach]
        cid = self._cid[seat]
        if ships and ships[-1] > cid:
            ships = tuple(sorted((*ships, cid)))
        else:  # already in order: the usual case (a beach holds few colours)
            ships = (*ships, cid)
        if len(ships) == BERTHS[island][beach]:
            self._full = tuple(sorted((*self._full, (island, beach))))
        self._ships[island] = beaches[:beach] + (ships,) + beaches[beach + 1 :]
        present = self._present
        bit = 1 << island
        if not present[seat] & bit:
            self._present = present[:seat] + (present[seat] | bit,) + present[seat + 1 :]
        r = self._reserve
        self._reserve = r[:seat] + (r[seat] - 1,) + r[seat + 1 :]

    def _set_beach(self, island: int, beach: int, ships: tuple[int, ...]) -> None:
        beaches = self._ships[island]
        old = beaches[beach]
        berths = BERTHS[island][beach]
        if (len(ships) == berths) != (len(old) == berths):
            if len(ships) == berths:
                self._full = tuple(sorted((*self._full, (island, beach))))
            else:
                self._full = tuple([f for f in self._full if f != (island, beach)])
        beaches = self._ships[island] = beaches[:beach] + (ships,) + beaches[beach + 1 :]
        present = self._present
        bit = 1 << island
        seat_of = self._seat_of
        changed = None
        for c in ships:  # a colour arriving is present now
            s = seat_of[c]
            if not present[s] & bit:
                changed = changed or list(present)
                changed[s] |= bit
        for c in old:  # a colour leaving may still be on another beach
            if c not in ships:
                for b in beaches:
                    if c in b:
                        break
                else:
                    changed = changed or list(present)
                    changed[seat_of[c]] &= ~bit
        if changed:
            self._present = tuple(changed)

    def _clear_island(self, island: int) -> None:
        """`_present` once an island's beaches are emptied or it leaves the board."""
        bit = ~(1 << island)
        self._present = tuple(m & bit for m in self._present)

    def _scan_full(self) -> tuple[tuple[int, int], ...]:
        """The full beaches, read from every beach (`_full` is kept from it)."""
        out = []
        for tid in sorted(self._ships):
            berths = BERTHS[tid]
            for b, s in enumerate(self._ships[tid]):
                if len(s) == berths[b]:
                    out.append((tid, b))
        return tuple(out)

    def _unfull_island(self, island: int) -> None:
        """`_full` once an island's beaches are emptied or it leaves the board."""
        if self._full:
            self._full = tuple([f for f in self._full if f[0] != island])

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self, seat: int) -> None:
        self._active = seat
        self._seen = ()
        self._closed_turn = False
        self._kind = D.ACTION
        self.events.append(_event("turn", (seat,)))

    def _end_turn(self) -> None:
        turns = self._turns = self._turns + 1
        self._island = None
        if self._final:  # E1/E2: the last island was revealed during this turn
            self._end_game("E1")
        elif turns >= TURN_LIMIT:
            self._end_game("X3")
        else:  # _start_turn, inline: it comes at every turn
            seat = self._active = (self._active + 1) % self.n_seats
            self._seen = ()
            self._closed_turn = False
            self._kind = _K_ACTION
            self.events.append(_event("turn", (seat,)))

    def _end_game(self, reason: str) -> None:
        self._kind = None
        self._end_reason = reason
        self._group = ()
        self._origin = None
        self._at = None
        self._island = None
        self._ctile = None
        self._count = 0
        self._seen = ()
        self._closed_turn = False
        self.events.append(_event("game_over", (reason,)))

    def _expand(self, seat: int, island: int) -> None:
        cid = self._cid[seat]
        if self._reserve[seat] == 0:  # T1a (settled at once when only "nothing" is left)
            self._island = island
            self._kind = D.T1A_SOURCE
            return
        n = 0
        for b in self._ships[island]:
            n += b.count(cid)
        free = self._free_beaches(island)
        k = min(n, len(free), self._reserve[seat])  # T1, T1b
        self._ask_expansion_beaches(island, k)

    def _ask_expansion_beaches(self, island: int, k: int) -> None:
        self._island = island
        self._count = k
        self._kind = D.EXPAND_BEACHES  # single-option cases are settled automatically

    def _found_royal(self, seat: int, island: int) -> None:
        cid = self._cid[seat]
        on_it = sum(len(b) for b in self._ships[island])
        self._unfull_island(island)
        self._ships[island] = _EMPTY[island]
        self._clear_island(island)
        self._add_reserve(seat, on_it - 1)  # K2
        self._kings[island] = cid
        self.events.append(_event("royal", (cid, island)))
        self._end_turn()

    def _new_colony(self, seat: int, take_off: bool) -> None:
        cid = self._cid[seat]
        returned = 0
        if take_off:  # C1 (kings stay: Decision)
            ships = self._ships
            mine = self._present[seat]
            while mine:
                low = mine & -mine
                mine ^= low
                tid = low.bit_length() - 1
                beaches = ships[tid]
                berths = BERTHS[tid]
                kept = []
                for i, b in enumerate(beaches):
                    if cid in b:
                        returned += b.count(cid)
                        if len(b) == berths[i]:  # a beach left is never full
                            self._full = tuple([f for f in self._full if f != (tid, i)])
                        b = tuple([c for c in b if c != cid])
                    kept.append(b)
                ships[tid] = tuple(kept)
            present = list(self._present)
            present[seat] = 0
            self._present = tuple(present)
            self._add_reserve(seat, returned)
        self.events.append(_event("colony", (cid, returned)))
        self._island = None
        self._kind = D.REVEAL  # C2: the first tile of the colony

    def _place_colony_tile(self, move: PlaceTile) -> None:
        tid = self._ctile
        h = (move.q, move.r)
        self._put_tile(h, tid, move.rotation)
        self._free_rot = self._free_rot | {h}
        self.events.append(_event("colony_tile", (tid, move.q, move.r, move.rotation)))
        self._ctile = None
        if _is_island(tid):
            self._island = tid
            self._kind = D.COLONY_SHIP  # C3 (E2: the ship is placed even on the last tile)
        elif self._final:
            self._end_game("E1")  # E2: the last tile was a sea tile: no ship
        else:
            self._kind = D.REVEAL  # C2: keep revealing until an island comes

    # ------------------------------------------------------------------ tiles

    def _reveal(self, tid: int) -> None:
        """A tile comes off the stack (M2 during a voyage, C2 during a New Colony)."""
        stack = self._unrevealed
        i = stack.index(tid)
        left = self._unrevealed = stack[:i] + stack[i + 1 :]
        # E1: the stack is sorted and islands have the lowest ids
        if tid < 16:  # an island
            last = not left or left[0] >= 16
        else:
            last = not left or left[-1] < 16
        if self._at is None:  # New Colony
            self._ctile = tid
            self._kind = D.COLONY_TILE
            self._final = self._final or last
            return
        q, r, d = self._at
        self._at = None
        rot = (d + 3) % 6  # red mark against the edge the group came through
        self._put_tile((q, r), tid, rot)
        self.events.append(_event("reveal", (tid, q, r, rot)))
        if last and not _is_island(tid):  # E2: the group is lost at sea; the game ends
            self._return_ships(self._group)
            self.events.append(_event("lost", (self._group,)))
            self._group = ()
            self._origin = None
            self._end_game("E1")
            return
        self._final = self._final or last
        self._sail_from(q - _DQ[d], r - _DR[d], d)  # re-enter the hex, now placed

    def _put_tile(self, h: Hex, tid: int, rot: int) -> None:
        placed = self._placed
        placed[h] = (tid, rot)
        self._placed_pack = None
        frontier = self._frontier_memo
        if frontier is not None:
            frontier = frontier.copy()  # copies and snapshots may share the old list
            q, r = h
            code = _code(q, r)
            i = bisect_left(frontier, code)
            if i < len(frontier) and frontier[i] == code:
                del frontier[i]
            for dq, dr, step in _DIR_CODES:
                if (q + dq, r + dr) not in placed:
                    n = code + step
                    j = bisect_left(frontier, n)
                    if j == len(frontier) or frontier[j] != n:
                        frontier.insert(j, n)
            self._frontier_memo = frontier
        if tid < 16:  # an island
            self._where[tid] = h
            if tid in self._ships:  # pragma: no cover - an island is placed only once
                self._unfull_island(tid)
                self._clear_island(tid)
            self._ships[tid] = _EMPTY[tid]

    # ------------------------------------------------------------------ migration

    def _full_beaches(self) -> list[tuple[int, int]]:
        return list(self._full)

    def _piers(self, tid: int, beach: int) -> list[int]:
        """Board directions of a beach's piers."""
        return list(_PIER_DIRS[tid][self._placed[self._where[tid]][1]][beach])

    def _next_departure(self) -> None:
        """M1/M4 with X2: at every departure decision, X2b, then X2d, then X2a."""
        self._island = None
        if not self._full:  # no beach is full: nothing can close (X2b) or depart
            self._chain_over()
            return
        full = self._full_beaches()
        closed = sorted(t for t in {t for t, _ in full} if self._is_closed(t))
        if closed:  # X2b
            self._remove_closed(closed)
            full = self._full_beaches()
        if not full:
            self._chain_over()
        elif not self._offer_departures(full):
            self._endless(full)

    def _offer_departures(self, full: list[tuple[int, int]]) -> bool:
        """X2d then X2a: the options of this departure decision; False when none is left."""
        placed, where = self._placed, self._where
        options = [o for t, b in full for o in _SAILS[t][placed[where[t]][1]][b]]
        key = None
        if self._seen:  # the key is only needed once the turn has a record to look in
            key = self.position_key()
            chosen = [opt for k, opt in self._seen if k == key]
            options = [o for o in options if o not in chosen]
        if not options:
            return False
        ships = self._ships
        onward = [o for o in options  # X2a
                  if not self._leads_back(o.island, o.pier, len(set(ships[o.island][o.beach])))]
        self._departures = onward or options  # X2c: all lead back, any may be taken
        self._pos_key = key
        self._kind = D.DEPARTURE
        return True

    def _chain_over(self) -> None:
        """No beach is full: the turn ends, after a New Colony if X2b left the player with
        nothing (000: "in seguito alla rimozione"; no island left, or no ship on a beach)."""
        self._departures = None
        seat = self._active
        if (self._closed_turn and not self._final
                and (not self._ships or self._on_beaches(seat) == 0)):
            self._new_colony(seat, take_off=False)
        else:
            self._end_turn()

    def _endless(self, full: list[tuple[int, int]]) -> None:
        """X2d: every option of a repeated position was taken already this turn."""
        returned: list[int] = []
        for tid, b in full:
            returned.extend(self._ships[tid][b])
            self._set_beach(tid, b, ())
        self._return_ships(returned)
        self.events.append(_event("endless", (tuple(sorted(returned)),)))
        self._departures = None
        self._end_turn()

    def _is_closed(self, island: int) -> bool:
        """X2b: every pier of every beach returns (dangers ignored, Royal Islands return)."""
        for dirs in _PIER_DIRS[island][self._placed[self._where[island]][1]]:
            for pier in dirs:
                if not self._leads_back(island, pier, _NO_DANGER):
                    return False
        return True

    def leads_back(self, island: int, pier: int, colours: int) -> bool:
        """X2a's test on the board as it is: a group of `colours` colours leaving `island`
        by board direction `pier` comes back to it (or to a Royal Island, K3), every
        crossing safe. Public so a screen can say why a departure went where it did."""
        return self._leads_back(island, pier, colours)

    def _leads_back(self, island: int, pier: int, ncol: int) -> bool:
        """`_trace(...).outcome == "back"`, without building the Preview: X2a and X2b ask
        it for every option of every departure decision."""
        placed = self._placed
        q, r = self._where[island]
        d = pier
        while True:
            q += _DQ[d]
            r += _DR[d]
            cell = placed.get((q, r))
            if cell is None:
                return False
            tid, rot = cell
            if tid < 16:  # an island
                return tid == island or tid in self._kings
            exit_local, danger = SEA_EXIT[tid][(d + 3 - rot) % 6]
            if danger and ncol < danger:
                return False
            d = (exit_local + rot) % 6

    def preview(self, move: Sail) -> Preview:
        """Where this departure would go over the tiles already placed (see `Preview`)."""
        group = self._ships[move.island][move.beach]
        return self._trace(move.island, move.pier, len(set(group)))

    def _trace(self, island: int, pier: int, ncol: int) -> Preview:
        placed = self._placed
        q, r = self._where[island]
        d = pier
        path: list[Hex] = []
        while True:  # a route from an island edge cannot cycle: edges pair one to one
            q += _DQ[d]
            r += _DR[d]
            cell = placed.get((q, r))
            if cell is None:
                return Preview("lost" if self._final else "reveal", hex=(q, r), colours=ncol,
                               path=tuple(path))
            path.append((q, r))
            tid, rot = cell
            if _is_island(tid):
                if tid in self._kings:  # K3 turns back home
                    return Preview("back", island, royal=tid, hex=(q, r), colours=ncol,
                                   path=tuple(path))
                outcome = "back" if tid == island else "land"
                return Preview(outcome, tid, hex=(q, r), colours=ncol, path=tuple(path))
            exit_local, danger = SEA_EXIT[tid][(d + 3 - rot) % 6]
            if danger and ncol < danger:
                return Preview("fail", hex=(q, r), danger=danger, colours=ncol,
                               path=tuple(path))
            d = (exit_local + rot) % 6

    def _remove_closed(self, islands: list[int]) -> None:
        for tid in islands:
            returned = [c for b in self._ships[tid] for c in b]
            self._return_ships(returned)
            self._unfull_island(tid)
            del self._ships[tid]
            self._clear_island(tid)
            h = self._where.pop(tid)
            del self._placed[h]
            self._frontier_memo = self._placed_pack = None
            self._free_rot = self._free_rot - {h}
            self._removed = tuple(sorted((*self._removed, tid)))
            self.events.append(_event("removed", (tid, tuple(sorted(returned)))))
        self._closed_turn = True
        self.events.append(_event("closed", tuple(islands)))

    def _depart(self, move: Sail) -> None:
        group = self._ships[move.island][move.beach]
        self._group = group
        self._set_beach(move.island, move.beach, ())
        self._origin = move.island
        self._departures = None
        self._pos_key = None
        self.events.append(_event("depart", (move.island, move.beach, move.pier, group)))
        q, r = self._where[move.island]
        self._sail_from(q, r, move.pier)

    def _sail_from(self, q: int, r: int, d: int) -> None:
        """M2/M3 from hex (q, r) towards board direction d, until a landing, a failure,
        a loss, or an empty hex where a tile must be revealed (a chance decision)."""
        ncol = len(set(self._group))
        placed = self._placed
        while True:
            q += _DQ[d]
            r += _DR[d]
            cell = placed.get((q, r))
            if cell is None:
                if self._final:  # E2: no tile is revealed after the last one
                    self._lose_group("lost")
                else:
                    self._at = (q, r, d)
                    self._kind = D.REVEAL
                return
            tid, rot = cell
            if tid < 16:  # an island
                if tid in self._kings:  # K3
                    self.events.append(_event("turn_back", (tid, self._origin)))
                    tid = self._origin
                self._begin_landing(tid)
                return
            exit_local, danger = SEA_EXIT[tid][(d + 3 - rot) % 6]
            if danger and ncol < danger:  # M3; M3a: only this departure ends
                self.events.append(_event("fail", (tid, danger, ncol, self._group)))
                self._lose_group(None)
                return
            self.events.append(_event("cross", (tid, danger, ncol)))
            d = (exit_local + rot) % 6

    def _lose_group(self, event: str | None) -> None:
        self._return_ships(self._group)
        if event:
            self.events.append(Event(event, (self._group,)))
        self._group = ()
        self._origin = None
        self._next_departure()  # M4 (E2: the player completes the turn)

    def _begin_landing(self, island: int) -> None:
        self._island = island
        self._origin = None
        self._kind = D.LANDING

    def _land(self, move: Land) -> None:
        island = self._island
        left = list(self._group)
        for beach, cs in move.placements:
            for c in cs:
                left.remove(c)
            self._set_beach(island, beach, tuple(sorted(self._ships[island][beach] + cs)))
        self._return_ships(left)
        self.events.append(_event("land", (island, move.placements, tuple(left))))
        self._group = ()
        self._next_departure()  # M4

    # ------------------------------------------------------------------ diagnosis

    def _diagnose(self, move: Move) -> IllegalMove:
        """Say which clause a refused move breaks, in words a player understands.

        Every reason is a `Reason` (an English template marked with N_() and its values),
        which a console may show in the player's language."""
        kind = self._kind
        name = TILES[move.island].name if hasattr(move, "island") else "?"
        R = Reason
        not_now = {  # what the pending decision wants, when the move is of another kind
            D.SETUP: ("S3", N_("not now: place a ship on Tonga, e.g. 'place Tonga 1'")),
            D.ACTION: ("T0", N_("not now: choose your turn: expand, royal, colony (or place, "
                                "X1)")),
            D.EXPAND_BEACHES: ("T1", N_("not now: choose {n} beaches with 'beaches ...'")),
            D.T1A_SOURCE: ("T1a", N_("not now: choose the ship to bring with 'take ISLAND "
                                     "BEACH' (or 'take nothing')")),
            D.DEPARTURE: ("M1", N_("not now: choose a departure with 'sail ISLAND BEACH PIER'")),
            D.LANDING: ("L1", N_("not now: assign the landing with 'land BEACH:COLOURS ...'")),
            D.COLONY_TILE: ("C2", N_("not now: place the revealed tile with 'tile Q,R DIR'")),
            D.COLONY_SHIP: ("C3", N_("not now: put your ship on the new island with 'place "
                                     "ISLAND BEACH'")),
            D.REVEAL: ("M2", N_("not now: a tile is being revealed: 'reveal TILE' names one "
                                "still unrevealed")),
        }
        clause, hint = not_now[kind]
        if kind == D.EXPAND_BEACHES:
            hint = (R(N_("not now: choose one beach with 'beaches ...'")) if self._count == 1
                    else R(hint, n=self._count))
        wanted = {
            D.SETUP: Place, D.EXPAND_BEACHES: ChooseBeaches, D.T1A_SOURCE: Take,
            D.DEPARTURE: Sail, D.LANDING: Land, D.COLONY_TILE: PlaceTile, D.COLONY_SHIP: Place,
            D.REVEAL: Reveal,
        }.get(kind)
        if kind == D.ACTION:
            if not isinstance(move, (Expand, Royal, Colony, Place)):
                return IllegalMove(clause, R(hint))
        elif kind == D.T1A_SOURCE:
            if not isinstance(move, (Take, TakeNothing)):
                return IllegalMove(clause, R(hint))
        elif not isinstance(move, wanted):
            return IllegalMove(clause, hint if isinstance(hint, Reason) else R(hint))
        seat = self._active
        if kind == D.SETUP:
            if move.island != TONGA or len(move.beaches) != 1:
                return IllegalMove("S3", R(N_("setup ships go on Tonga, one at a time")))
            return IllegalMove("S3", R(N_("Tonga beach {beach} would have no free berth"),
                                       beach=move.beaches[0] + 1))
        if kind == D.ACTION:
            has_ships = self._on_beaches(seat) > 0
            if isinstance(move, Place):
                if has_ships:
                    return IllegalMove("X1", R(N_("you have ships on the board: expand, royal "
                                                  "or colony")))
                if move.island not in self._ships:
                    return IllegalMove("X1", R(N_("{island} is not on the board"), island=name))
                if move.island in self._kings:
                    return IllegalMove("K3", R(N_("{island} is a Royal Island"), island=name))
                if move.island == TONGA and len(move.beaches) != min(2, self._reserve[seat]):
                    return IllegalMove("X1", R(N_("on Tonga you put 2 ships, e.g. 'place Tonga "
                                                  "2 5'")))
                if move.island != TONGA and len(move.beaches) != 1:
                    return IllegalMove("X1", R(N_("on {island} you put exactly 1 ship"),
                                               island=name))
                return IllegalMove("X1", R(N_("no free berth there on {island}"), island=name))
            if not has_ships and isinstance(move, (Expand, Royal)):
                return IllegalMove("X1", R(N_("you have no ships on the board: place ships or "
                                              "colony")))
            if move.island not in self._ships:  # (a Royal Island is founded under K1)
                return IllegalMove("T1" if isinstance(move, Expand) else "K1",
                                   R(N_("{island} is not on the board"), island=name))
            if isinstance(move, Expand):
                if move.island in self._kings:
                    return IllegalMove("K3", R(N_("{island} is a Royal Island"), island=name))
                return IllegalMove("T1", R(N_("you have no ship on {island}"), island=name))
            if move.island == TONGA:
                return IllegalMove("K1", R(N_("Tonga cannot become a Royal Island")))
            if move.island in self._kings:
                return IllegalMove("K1", R(N_("{island} is already a Royal Island"), island=name))
            if self.royals_founded(seat) >= MAX_ROYALS:
                return IllegalMove("K1", R(N_("you have founded 2 Royal Islands already")))
            return IllegalMove("K1", R(N_("every ship on {island} must be yours (and at least "
                                          "one)"), island=name))
        if kind == D.EXPAND_BEACHES:
            if len(move.beaches) != self._count:  # ("beach(es)" read as a form to fill)
                if self._count == 1:
                    return IllegalMove("T1", R(N_("choose exactly one beach")))
                return IllegalMove("T1", R(N_("choose exactly {n} beaches"), n=self._count))
            return IllegalMove("T1", R(N_("each chosen beach must exist and have a free berth")))
        if kind == D.T1A_SOURCE:
            if move.island == self._island:
                return IllegalMove("T1a", R(N_("the ship must come from another island")))
            return IllegalMove("T1a", R(N_("you have no ship on beach {beach} of {island}"),
                                        beach=move.beach + 1, island=name))
        if kind == D.DEPARTURE:
            if move.island not in self._ships or move.beach >= len(BERTHS[move.island]):
                return IllegalMove("M1", R(N_("{island} has no such beach on the board"),
                                           island=name))
            beach = self._ships[move.island][move.beach]
            if len(beach) < BERTHS[move.island][move.beach]:
                return IllegalMove("M1", R(N_("beach {beach} of {island} is not full"),
                                           beach=move.beach + 1, island=name))
            rot = self._placed[self._where[move.island]][1]
            if (move.pier - rot) % 6 not in PIERS[move.island][move.beach]:
                return IllegalMove("M1", R(N_("beach {beach} of {island} has no pier {pier}"),
                                           beach=move.beach + 1, island=name,
                                           pier=DIRECTION_NAMES[move.pier]))
            if any(k == self._pos_key and o == move for k, o in self._seen):
                return IllegalMove("X2d", R(N_("this option was already taken from this very "
                                               "position this turn")))
            return IllegalMove("X2a", R(N_("that route leads back to its own island while "
                                           "another one does not")))
        if kind == D.COLONY_TILE:
            where = f"{move.q},{move.r}"
            if (move.q, move.r) in self._placed:
                return IllegalMove("C2", R(N_("hex {hex} is taken"), hex=where))
            return IllegalMove("C2", R(N_("hex {hex} is not next to a placed tile"), hex=where))
        if kind == D.REVEAL:
            return IllegalMove("M2", R(N_("{tile} is not in the stack any more"),
                                       tile=TILES[move.tile].name))
        if kind == D.COLONY_SHIP:
            return IllegalMove("C3", R(N_("the ship goes on a beach of {island}"),
                                       island=TILES[self._island].name))
        return IllegalMove(clause, R(hint))  # pragma: no cover

    # ------------------------------------------------------------------ scoring (E3, E4)

    def _presence(self) -> list[tuple[set[int], int]]:
        """Per seat: the islands they are present on and their ships on the board
        (a king is present on its island and counts as one ship, K4)."""
        islands: list[set[int]] = [set() for _ in range(self.n_seats)]
        ships = [0] * self.n_seats
        held = [(t, c) for t, beaches in self._ships.items() for b in beaches for c in b]
        for tid, c in [*held, *self._kings.items()]:
            seat = self._seat_of[c]
            islands[seat].add(tid)
            ships[seat] += 1
        return list(zip(islands, ships, strict=True))

    def scores(self) -> dict[str, int]:
        """Points by colour (E3): the value of every island where the colour is present."""
        return {
            self.colours[s]: sum(TILES[t].value for t in isl)
            for s, (isl, _) in enumerate(self._presence())
        }

    def ranking_keys(self) -> dict[str, tuple[int, int, int]]:
        """E4 order: points, then islands present, then fewer ships on the board."""
        return {
            self.colours[s]: (sum(TILES[t].value for t in isl), len(isl), -ships)
            for s, (isl, ships) in enumerate(self._presence())
        }

    def winners(self) -> list[str]:
        keys = self.ranking_keys()
        best = max(keys.values())
        return [c for c in self.colours if keys[c] == best]

    # ------------------------------------------------------------------ canonical form

    def position_key(self) -> bytes:
        """X2d's position: beaches, reserves, kings and placed tiles (8-byte BLAKE2b)."""
        # The msgpack of [placed, ships, kings, reserve], built from parts: an array of 4 is
        # its one-byte header then its items, and the placed tiles' part changes only when
        # a tile does. Tuples pack as arrays, like lists.
        placed = self._placed_pack
        if placed is None:
            placed = self._placed_pack = msgpack.packb(
                [(q, r, t, rot) for (q, r), (t, rot) in sorted(self._placed.items())])
        rest = msgpack.packb(
            [sorted(self._ships.items()), sorted(self._kings.items()), self._reserve])
        return hashlib.blake2b(b"\x94" + placed + rest[1:], digest_size=8).digest()

    def _context(self) -> list:
        """The pending decision's context: only what that kind of decision depends on."""
        kind = self._kind
        if kind in (D.EXPAND_BEACHES,):
            return [self._island, self._count]
        if kind in (D.T1A_SOURCE, D.COLONY_SHIP):
            return [self._island]
        if kind == D.LANDING:
            return [self._island, list(self._group)]
        if kind == D.REVEAL and self._at is not None:
            return [list(self._at), list(self._group), self._origin]
        if kind == D.COLONY_TILE:
            return [self._ctile]
        return []

    def state_tuple(self) -> list:
        """The canonical state peers hash and compare (protocol/state.md): the whole
        public position and nothing else — no caches, no move count, no history.

        Tuples stand for arrays where they already are tuples (msgpack writes both the
        same): every peer computes this after every move, so copying them into lists
        would only cost time."""
        free = self._free_rot
        ships = self._ships
        return [
            STATE_FORMAT,
            list(self._cid),
            [self._turns, self._setup_done, self._active],
            list(self._reserve),
            [(h[0], h[1], t, rot, 1 if h in free else 0)
             for h, (t, rot) in sorted(self._placed.items())],
            [(t, ships[t]) for t in sorted(ships)],
            sorted(self._kings.items()),
            list(self._removed),
            list(self._unrevealed),
            [-1 if self._kind is None else _KIND_CODE[self._kind], self._context()],
            [[k, o.to_wire()] for k, o in self._seen],
            [int(self._final), int(self._closed_turn)],
            self._end_reason,
        ]

    def encode(self) -> bytes:
        return msgpack.packb(self.state_tuple(), use_bin_type=True)

    def digest(self) -> bytes:
        return hashlib.blake2b(self.encode(), digest_size=32).digest()

    # ------------------------------------------------------------------ text form

    def position(self) -> str:
        """The whole public state as one line of text (see docs/rules.md), short enough
        to paste into a bug report; `Game.from_position` reads it back."""
        from .position import format_position

        return format_position(self)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """Build a game from `position()` text. Raises ValueError saying what is wrong
        with a malformed text or an impossible position."""
        from .position import parse_position

        return parse_position(cls, text)

    def status(self) -> list[str]:
        """Every broken invariant of this position, in words (empty when consistent)."""
        from .position import check

        return check(self)

    def __repr__(self) -> str:
        return f"Game.from_position({self.position()!r})"


@lru_cache(maxsize=4096)
def _landing_vectors(free: tuple[tuple[int, int], ...], total: int, g: int
                     ) -> tuple[tuple[tuple[int, int], ...], ...]:
    """L1: how many ships each beach gets, (beach, count) per receiving beach: every free
    beach at least one when the group can cover them all, else one each on g of them."""
    vectors: list[tuple[tuple[int, int], ...]] = []
    if g >= len(free):
        def spread(i: int, left: int, acc: list[tuple[int, int]]) -> None:
            if i == len(free):
                if left == 0:
                    vectors.append(tuple(acc))
                return
            b, f = free[i]
            rest_min = len(free) - i - 1
            for c in range(1, min(f, left - rest_min) + 1):
                acc.append((b, c))
                spread(i + 1, left - c, acc)
                acc.pop()
        spread(0, total, [])
    else:
        for chosen in combinations([b for b, _ in free], g):
            vectors.append(tuple((b, 1) for b in chosen))
    return tuple(vectors)


@lru_cache(maxsize=16384)
def _landing_tails(vec: tuple[tuple[int, int], ...], avail: tuple[int, ...]
                   ) -> tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]:
    """Every way to fill the beaches of `vec` (beach, ships) from `avail` ships per colour
    0, 1, ...: placements in canonical order. Shared tails make a new landing cheap."""
    if not vec:
        return ((),)
    beach, need = vec[0]
    rest_vec = vec[1:]
    out = []
    for chosen, rest in _picks(tuple(range(len(avail))), avail, need):
        head = ((beach, chosen),)
        for tail in _landing_tails(rest_vec, rest):
            out.append(head + tail)
    return tuple(out)


@lru_cache(maxsize=4096)
def _choices(free: list[int] | tuple[int, ...], k: int) -> tuple[ChooseBeaches, ...]:
    """T1: every choice of k beaches among the free ones."""
    return tuple(ChooseBeaches(c) for c in combinations(free, k))


@lru_cache(maxsize=8192)
def _expands(islands: int) -> tuple[Expand, ...]:
    """T1: Expand on every island of a bit set, by id."""
    return tuple(_EXPAND[t] for t in range(16) if islands >> t & 1)


@lru_cache(maxsize=8192)
def _royals(islands: int) -> tuple[Royal, ...]:
    """K1: Royal on every island of a bit set, by id."""
    return tuple(_ROYAL[t] for t in range(16) if islands >> t & 1)


@lru_cache(maxsize=8192)
def _tonga_places(beaches: tuple[tuple[int, ...], ...], n: int) -> tuple[Place, ...]:
    """X1: the placements of n (1 or 2) ships on Tonga whose beaches hold `beaches`."""
    free = [BERTHS[TONGA][b] - len(s) for b, s in enumerate(beaches)]
    if n == 1:
        return tuple(_PLACE1[TONGA][b] for b in range(6) if free[b])
    return tuple(_PLACE_TONGA2[a, b] for a in range(6) for b in range(a, 6)
                 if (a != b and free[a] and free[b]) or (a == b and free[a] >= 2))


@lru_cache(maxsize=4096)
def _picks(colours: tuple[int, ...], avail: tuple[int, ...], need: int
           ) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every way to take `need` ships out of `avail` (counts per colour): (the colours
    taken, sorted; the counts left)."""
    out = []
    for pick in _submultisets(list(avail), need, 0):
        chosen = tuple(c for c, k in zip(colours, pick, strict=True) for _ in range(k))
        out.append((chosen, tuple(a - k for a, k in zip(avail, pick, strict=True))))
    return tuple(out)


def _submultisets(avail: list[int], need: int, i: int):
    """Count vectors k (k[j] <= avail[j], sum k = need) over colours i.., as tuples."""
    if i == len(avail):
        if need == 0:
            yield ()
        return
    rest_cap = sum(avail[i + 1 :])
    for k in range(min(avail[i], need), -1, -1):
        if need - k > rest_cap:
            break
        for tail in _submultisets(avail, need - k, i + 1):
            yield (k, *tail)

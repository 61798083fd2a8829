"""Explicit positions for scenario tests: tiles, ships and the next tiles of the stack.

Builds a Game as if play had reached that position, keeping the engine's
invariants: reserves are 15 minus the ships on the board and kings; the stack holds
every tile not on the board, `stack` first.
"""

from __future__ import annotations

from tongiaki_lan.engine import COLOURS, Game, tile_by_name
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.colours import colour_id
from tongiaki_lan.engine.game import BERTHS, SHIPS_PER_COLOUR
from tongiaki_lan.engine.tiles import STACK_IDS, TONGA

SEED = bytes(32)


def tid(name: str) -> int:
    return tile_by_name(name).id


def build(
    players: int = 4,
    tiles: dict | None = None,
    ships: dict | None = None,
    kings: dict | None = None,
    stack: list[str] | None = None,
    active: int = 0,
    removed: list[str] | None = None,
    migrate: bool = False,
    colours: tuple[str, ...] | None = None,
) -> Game:
    """tiles: {(q, r): (name, rotation)} besides Tonga at (0, 0).
    ships: {island name: ["YYOR", "", "B"]} letters per beach (one string per beach).
    kings: {island name: colour}. stack: names of the next tiles, in order.
    migrate=True starts at the departure decision (M1) instead of the turn's action.
    """
    colours = colours or COLOURS[:players]
    g = Game.new(SEED, colours)
    placed = {} if "Tonga" in (removed or []) else {(0, 0): (TONGA, 0)}
    for h, (name, rot) in (tiles or {}).items():
        placed[h] = (tid(name), rot)
    g._placed = placed
    g._where = {t: h for h, (t, _) in placed.items() if t < 16}
    g._ships = {t: tuple(() for _ in BERTHS[t]) for t in g._where}
    for name, beaches in (ships or {}).items():
        t = tid(name)
        assert len(beaches) == len(BERTHS[t]), f"{name} has {len(BERTHS[t])} beaches"
        g._ships[t] = tuple(tuple(sorted(colour_id(c) for c in b)) for b in beaches)
    g._kings = {tid(n): colour_id(c) for n, c in (kings or {}).items()}
    g._royals = [sum(1 for c in g._kings.values() if c == g._cid[s]) for s in range(g.n_seats)]
    g._reserve = []
    for s in range(g.n_seats):
        cid = g._cid[s]
        on = sum(b.count(cid) for bs in g._ships.values() for b in bs)
        g._reserve.append(SHIPS_PER_COLOUR - on - g._royals[s])
    g._removed = [tid(n) for n in (removed or [])]
    on_board = {t for t, _ in placed.values()} | set(g._removed)
    first = [tid(n) for n in (stack or [])]
    rest = [t for t in STACK_IDS if t not in on_board and t not in first]
    g._stack = tuple(first + rest)
    g._drawn = 0
    g._islands_revealed = sum(1 for t in on_board if 0 < t < 16)
    g._seas_revealed = sum(1 for t in on_board if t >= 16)
    g._setup_done = 2 * g.n_seats
    g._active = active
    g._moves = []
    g.events = []
    g._legal = None
    if migrate:
        g._next_departure()
    else:
        g._kind = D.ACTION
    g._settle()
    return g


def beach(g: Game, name: str, b: int) -> str:
    """Letters on a beach, e.g. 'BBR'."""
    from tongiaki_lan.engine import LETTERS

    return "".join(LETTERS[c] for c in g.ships_on(tid(name))[b])


def ships_total(g: Game, seat: int) -> int:
    cid = g.colour_ids()[seat]
    on = sum(b.count(cid) for t in g._ships for b in g.ships_on(t))
    kings = sum(1 for c in g.kings().values() if c == cid)
    sea = g.group_at_sea().count(cid)
    return g.reserve(seat) + on + kings + sea


def at_landing(g: Game, island: str, group: str) -> Game:
    """Put `group` (letters) at sea, about to land on `island` (for L1 tests)."""
    g._group = sorted(colour_id(c) for c in group)
    g._island = tid(island)
    g._origin = tid(island)
    g._kind = D.LANDING
    g._legal = None
    return g

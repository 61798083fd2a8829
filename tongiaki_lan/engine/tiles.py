"""The 32 tiles of the published game, as data.

Tile ids are part of the wire protocol (protocol/moves.md): 0 is Tonga, 1..15 the
islands in catalogue order, 16..31 the sea tiles S01..S16. Piers and routes are in
*local* edge numbers (0 = bottom edge with the red mark, counting clockwise seen
from above: 1 = SW, 2 = NW, 3 = N, 4 = NE, 5 = SE); a tile's rotation maps them to
board directions.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Beach:
    berths: int
    piers: tuple[int, ...]  # local edges


@dataclass(frozen=True, slots=True)
class Route:
    a: int  # local edge
    b: int  # local edge
    danger: int  # colours needed to cross; 0 = no number, any group crosses


@dataclass(frozen=True, slots=True)
class Tile:
    id: int
    name: str
    value: int  # island points; 0 for Tonga and sea tiles
    beaches: tuple[Beach, ...] = ()
    routes: tuple[Route, ...] = ()

    @property
    def is_island(self) -> bool:
        return bool(self.beaches)

    @property
    def is_sea(self) -> bool:
        return bool(self.routes)

    @property
    def berths(self) -> int:
        return sum(b.berths for b in self.beaches)


def _island(tid: int, name: str, value: int, spec: str) -> Tile:
    beaches = []
    for part in spec.split("·"):
        berths, piers = part.split(":")
        beaches.append(Beach(int(berths), tuple(int(p) for p in piers.split(","))))
    return Tile(tid, name, value, beaches=tuple(beaches))


def _sea(tid: int, name: str, spec: str) -> Tile:
    routes = []
    for part in spec.split("·"):
        edges, danger = part.split(":")
        a, b = edges.split("-")
        routes.append(Route(int(a), int(b), 0 if danger.strip() == "-" else int(danger)))
    return Tile(tid, name, 0, routes=tuple(routes))


TONGA = 0
_ISLANDS = [
    ("Tonga", 0, "3:0 · 3:1 · 3:2 · 3:3 · 3:4 · 3:5"),
    ("Muroroa", 2, "2:1 · 2:2 · 3:4,5"),
    ("Nauru", 2, "2:1,2 · 3:3 · 2:4,5"),
    ("Tubuai", 2, "3:1,2 · 3:4,5"),
    ("Rarotonga", 3, "3:1,2 · 4:3,4,5"),
    ("Rapa Nui", 3, "5:1,2 · 3:3,4,5"),
    ("Tokelau", 3, "4:1 · 3:2,3 · 2:4,5"),
    ("Tuamotu", 3, "4:1,2,3 · 4:4,5"),
    ("Hiva Oa", 4, "2:1,2 · 2:3 · 5:4,5"),
    ("Mangareva", 4, "2:1,2 · 3:3,4 · 4:5"),
    ("Oahu", 4, "3:1,2 · 5:3 · 3:4,5"),
    ("Tahiti", 4, "2:1,2 · 3:3,4 · 4:5"),
    ("Tuvalu", 4, "2:1,2 · 4:3 · 3:4,5"),
    ("Fidschi", 5, "5:1 · 4:2,3 · 4:4,5"),
    ("Hawaii", 5, "3:1,2 · 5:3 · 2:4,5"),
    ("Samoa", 5, "3:1,2 · 4:3,4 · 5:5"),
]
_SEAS = [
    "0-1:- · 2-3:2 · 4-5:-",
    "0-1:2 · 2-3:- · 4-5:2",
    "0-1:3 · 2-3:2 · 4-5:4",
    "0-1:3 · 2-3:- · 4-5:2",
    "0-3:4 · 1-5:3 · 2-4:-",
    "0-3:3 · 1-5:3 · 2-4:3",
    "0-3:4 · 1-5:4 · 2-4:4",
    "0-3:3 · 1-5:2 · 2-4:-",
    "0-4:- · 1-3:4 · 2-5:2",
    "0-4:2 · 1-3:3 · 2-5:4",
    "0-4:4 · 1-3:4 · 2-5:3",
    "0-4:3 · 1-3:3 · 2-5:4",
    "0-5:- · 1-2:- · 3-4:-",
    "0-5:2 · 1-2:2 · 3-4:2",
    "0-5:- · 1-2:4 · 3-4:2",
    "0-5:- · 1-2:3 · 3-4:4",
]

TILES: tuple[Tile, ...] = tuple(
    [_island(i, n, v, s) for i, (n, v, s) in enumerate(_ISLANDS)]
    + [_sea(16 + i, f"S{i + 1:02d}", s) for i, s in enumerate(_SEAS)]
)
ISLAND_IDS: tuple[int, ...] = tuple(range(1, 16))
SEA_IDS: tuple[int, ...] = tuple(range(16, 32))
STACK_IDS: tuple[int, ...] = tuple(range(1, 32))
N_ISLANDS_IN_STACK = len(ISLAND_IDS)
N_SEAS_IN_STACK = len(SEA_IDS)

# Route lookup for the voyage hot path: SEA_EXIT[tile][local_entry] = (local_exit, danger).
SEA_EXIT: dict[int, tuple[tuple[int, int], ...]] = {}
for _t in TILES:
    if _t.is_sea:
        _table = [(-1, 0)] * 6
        for _r in _t.routes:
            _table[_r.a] = (_r.b, _r.danger)
            _table[_r.b] = (_r.a, _r.danger)
        SEA_EXIT[_t.id] = tuple(_table)

_BY_NAME = {t.name.lower(): t.id for t in TILES}
_BY_NAME["fiji"] = _BY_NAME["fidschi"]
# Names without spaces so that "RapaNui" / "rapa-nui" / "HivaOa" also work in typed commands.
for _t in TILES:
    _BY_NAME.setdefault(_t.name.lower().replace(" ", ""), _t.id)
    _BY_NAME.setdefault(_t.name.lower().replace(" ", "-"), _t.id)
    _BY_NAME.setdefault(_t.name.lower().replace(" ", "_"), _t.id)


def tile_by_name(name: str) -> Tile:
    """Look a tile up by its printed name (case-insensitive, spaces optional)."""
    try:
        return TILES[_BY_NAME[name.lower()]]
    except KeyError:
        raise KeyError(f"no tile named {name!r}") from None


def token_name(tile_id: int) -> str:
    """The name as a single command-line token (spaces removed), e.g. 'RapaNui'."""
    return TILES[tile_id].name.replace(" ", "")

"""Flat-topped hexes in axial coordinates (q, r).

Board directions are numbered like a tile's local edges: 0 = S, 1 = SW, 2 = NW,
3 = N, 4 = NE, 5 = SE. A tile with rotation r shows its local edge i towards board
direction (i + r) % 6.
"""

from __future__ import annotations

from .errors import N_, Reason

Hex = tuple[int, int]

DIRECTION_NAMES = ("S", "SW", "NW", "N", "NE", "SE")
DIRECTIONS: tuple[Hex, ...] = ((0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (1, 0))
_BY_NAME = {n: i for i, n in enumerate(DIRECTION_NAMES)}


def neighbour(h: Hex, d: int) -> Hex:
    dq, dr = DIRECTIONS[d]
    return (h[0] + dq, h[1] + dr)


def opposite(d: int) -> int:
    return (d + 3) % 6


def to_board(local_edge: int, rotation: int) -> int:
    return (local_edge + rotation) % 6


def to_local(board_dir: int, rotation: int) -> int:
    return (board_dir - rotation) % 6


def direction_by_name(name: str) -> int:
    try:
        return _BY_NAME[name.upper()]
    except KeyError:
        known = ", ".join(DIRECTION_NAMES)
        raise ValueError(Reason(N_("unknown direction '{name}' (use one of {known})"),
                                name=name, known=known)) from None


def rotation_for_red_mark_towards(board_dir: int) -> int:
    """The rotation that turns local edge 0 (the red mark) towards `board_dir`."""
    return board_dir % 6

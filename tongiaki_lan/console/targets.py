"""Which board elements stand for a move: what a click on the board page means, and what
the last move's highlight marks.

The vocabulary is `console/state.py`'s (`island:T`, `beach:T:B`, `pier:T:B:D`,
`place:Q:R`); `svgboard` puts the same names on the drawing as `data-target`. Both
functions are pure: they read the position in which the move is (or was) to be played
and never change it, so the table model can call them for every legal move of every
state it builds, and the page needs no rules to turn a click into a move: it looks the
clicked element up among the moves' targets (lichess's board is handed its legal
destinations the same way).
"""

from __future__ import annotations

from dataclasses import dataclass

from tongiaki_lan.engine import (
    ChooseBeaches,
    Expand,
    Game,
    Land,
    Move,
    Place,
    PlaceTile,
    Reveal,
    Royal,
    Sail,
    Take,
)


def island_target(tid: int) -> str:
    return f"island:{tid}"


def beach_target(tid: int, beach: int) -> str:
    return f"beach:{tid}:{beach}"


def pier_target(tid: int, beach: int, direction: int) -> str:
    return f"pier:{tid}:{beach}:{direction}"


def place_target(q: int, r: int) -> str:
    return f"place:{q}:{r}"


def _decision_island(game: Game) -> int | None:
    pending = game.pending
    return None if pending is None else pending.island


def move_targets(game: Game, move: Move) -> tuple[str, ...]:
    """The board elements a click on which offers `move`, in `game`, the position where
    `move` is pending (legal or not: a move that is not legal here still names the
    elements it would touch).

    Place: its beaches (one or two; `place Tonga 2 2` one). Expand, Royal: the island.
    ChooseBeaches, Land: the beaches of the island the decision is about that get a ship.
    Take: the beach the ship comes from. Sail: the pier, and the full beach it leaves
    (a click on a beach then offers its piers). PlaceTile: the empty place. Colony,
    `take nothing`, `land -` and reveals have no element of their own: ()."""
    if isinstance(move, Place):
        return tuple(beach_target(move.island, b) for b in sorted(set(move.beaches)))
    if isinstance(move, (Expand, Royal)):
        return (island_target(move.island),)
    if isinstance(move, Take):
        return (beach_target(move.island, move.beach),)
    if isinstance(move, Sail):
        return (pier_target(move.island, move.beach, move.pier),
                beach_target(move.island, move.beach))
    if isinstance(move, PlaceTile):
        return (place_target(move.q, move.r),)
    if isinstance(move, ChooseBeaches):
        island = _decision_island(game)
        return () if island is None else tuple(beach_target(island, b) for b in move.beaches)
    if isinstance(move, Land):
        island = _decision_island(game)
        return () if island is None else tuple(beach_target(island, b)
                                              for b, _colours in move.placements)
    return ()


@dataclass(frozen=True, slots=True)
class Touched:
    """What a move played changed on the board, for its highlight: the elements
    (`targets`) and whole tiles (`tiles`, tile ids: a tile placed or revealed)."""

    targets: tuple[str, ...] = ()
    tiles: tuple[int, ...] = ()


def touched(before: Game, move: Move) -> Touched:
    """What `move`, played in `before` (the position just before it), touched.

    A placed New Colony tile is marked as a tile (its place is no longer empty), a
    revealed tile likewise; a move with an element of its own marks that element, as
    `move_targets` names it (a departure: the pier it left by and the beach it emptied)."""
    if isinstance(move, PlaceTile):
        pending = before.pending
        tile = None if pending is None else pending.tile
        return Touched(tiles=() if tile is None else (tile,))
    if isinstance(move, Reveal):
        return Touched(tiles=(move.tile,))
    return Touched(targets=move_targets(before, move))

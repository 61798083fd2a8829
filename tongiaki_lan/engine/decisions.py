"""What the game is waiting for: one pending decision at a time, always owned by one seat."""

from __future__ import annotations

from dataclasses import dataclass

SETUP = "setup"  # S3: a ship onto Tonga
ACTION = "action"  # T0: expand / royal / colony, or the X1 placements
EXPAND_BEACHES = "expand_beaches"  # T1: which beaches get the k ships
T1A_SOURCE = "t1a_source"  # T1a: which of your ships moves over
DEPARTURE = "departure"  # M1: next full beach and pier
LANDING = "landing"  # L1: spread the group over the beaches
COLONY_TILE = "colony_tile"  # C2: where the revealed tile goes
COLONY_SHIP = "colony_ship"  # C3: which beach of the new island gets a ship
REVEAL = "reveal"  # M2/C2: chance — the next tile of the stack, supplied by a dealer

KINDS = (SETUP, ACTION, EXPAND_BEACHES, T1A_SOURCE, DEPARTURE, LANDING, COLONY_TILE, COLONY_SHIP,
         REVEAL)


@dataclass(frozen=True, slots=True)
class Decision:
    """The pending decision, with the context a player needs to take it.

    A tile reveal is a decision too, owned by chance (`seat is None`): the engine never
    draws tiles itself, so it holds no secret; a dealer (local and seeded, or the peers'
    joint draw) answers with a `Reveal` move.
    """

    kind: str
    seat: int | None
    island: int | None = None  # the island concerned (expansion, T1a target, landing, colony)
    count: int = 0  # ships to add (EXPAND_BEACHES)
    group: tuple[int, ...] = ()  # colour ids of the landing group, sorted
    tile: int | None = None  # the tile in hand (COLONY_TILE)
    tiles: tuple[int, ...] = ()  # REVEAL: the tiles that may come, sorted
    hex: tuple[int, int] | None = None  # REVEAL during a voyage: where the tile will lie

    @property
    def is_chance(self) -> bool:
        return self.seat is None

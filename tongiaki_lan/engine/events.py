"""What happened, for the story log: the engine records facts, the UI puts them in words."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Event:
    """`kind` names the fact; `data` holds plain ints/tuples (colour ids, tile ids, hexes).

    Kinds and their data:
      turn (seat,) · setup (colour, island, beach) · expand (colour, island, beaches)
      take (colour, island, beach) · place (colour, island, beaches) · royal (colour, island)
      colony (colour, ships_returned) · depart (island, beach, pier, group)
      reveal (tile, q, r, rotation) · cross (tile, danger, colours)
      fail (tile, danger, colours, group)
      turn_back (royal_island, origin) · land (island, placements, returned_group)
      lost (group,) · closed (islands_removed) · removed (island, returned_group)
      colony_tile (tile, q, r, rotation) · game_over (reason,)
    """

    kind: str
    data: tuple = ()


_new = object.__new__
_set_kind = Event.__dict__["kind"].__set__
_set_data = Event.__dict__["data"].__set__


def event(kind: str, data: tuple = ()) -> Event:
    """`Event(kind, data)`, built without the dataclass __init__'s generic attribute
    setting: the engine makes one at nearly every step of a game."""
    e = _new(Event)
    _set_kind(e, kind)
    _set_data(e, data)
    return e

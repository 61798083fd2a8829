"""The rules engine: pure, deterministic, no I/O.

Everything else in tongiaki-lan (console, bots, network) asks this package what is
legal and what happens; nothing else decides a rule.
"""

from .colours import COLOURS, LETTERS, colour_id
from .decisions import Decision
from .errors import IllegalMove
from .events import Event
from .game import Game
from .moves import (
    ChooseBeaches,
    Colony,
    Expand,
    Land,
    Move,
    Place,
    PlaceTile,
    Royal,
    Sail,
    Take,
    move_from_wire,
    parse_move,
)
from .shuffle import shuffled_stack
from .tiles import TILES, TONGA, Tile, tile_by_name

RULES_VERSION = 1

__all__ = [
    "COLOURS", "LETTERS", "colour_id", "Decision", "IllegalMove", "Event", "Game", "Move",
    "Place", "Expand", "Royal", "Colony", "ChooseBeaches", "Take", "Sail", "Land", "PlaceTile",
    "move_from_wire", "parse_move", "shuffled_stack", "TILES", "TONGA", "Tile", "tile_by_name",
    "RULES_VERSION",
]

"""The rules engine: pure, deterministic, no I/O.

Everything else in tongiaki-lan (console, bots, network) asks this package what is
legal and what happens; nothing else decides a rule.
"""

from .colours import COLOURS, LETTERS, colour_id
from .dealer import Dealer, deal_randomly
from .decisions import Decision
from .errors import IllegalMove
from .events import Event
from .game import Game, Preview
from .moves import (
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
    move_from_wire,
    parse_move,
)
from .shuffle import shuffled_stack
from .tiles import TILES, TONGA, Tile, tile_by_name

RULES_VERSION = 2

__all__ = [
    "COLOURS", "LETTERS", "colour_id", "Decision", "IllegalMove", "Event", "Game", "Preview",
    "Dealer", "deal_randomly", "Move", "Place", "Expand", "Royal", "Colony", "ChooseBeaches",
    "Take", "TakeNothing", "Sail", "Land", "PlaceTile", "Reveal",
    "move_from_wire", "parse_move", "shuffled_stack", "TILES", "TONGA", "Tile", "tile_by_name",
    "RULES_VERSION",
]

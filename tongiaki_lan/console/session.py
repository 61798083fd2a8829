"""The old home of the game feeds, kept while callers and tests move: the feeds live in
console/feeds/ (base.py, solo.py, replay.py)."""

from .feeds.base import STRUCK, GameSession, NotYet, _shared, bot_seed
from .feeds.replay import ReplaySession, undo_notes
from .feeds.solo import SoloSession, moves_by_seat, seed_from_text, solo_seats, undo_refusal
from .seats import HUMAN_KINDS, LEVEL_NAMES, Seat, kind_label, plain_name, seat_label

__all__ = ["HUMAN_KINDS", "LEVEL_NAMES", "STRUCK", "GameSession", "NotYet", "ReplaySession",
           "Seat", "SoloSession", "_shared", "bot_seed", "kind_label", "plain_name",
           "seat_label", "seed_from_text", "solo_seats", "moves_by_seat", "undo_refusal",
           "undo_notes"]

"""The old home of the game feeds, kept while callers and tests move: the feeds live in
console/feeds/ (base.py, solo.py, replay.py)."""

from .feeds.base import STRUCK, GameSession, NotYet, _shared, bot_seed
from .feeds.replay import ReplaySession
from .feeds.solo import SoloSession, seed_from_text, solo_seats
from .seats import HUMAN_KINDS, LEVEL_NAMES, Seat, kind_label, plain_name, seat_label

__all__ = ["HUMAN_KINDS", "LEVEL_NAMES", "STRUCK", "GameSession", "NotYet", "ReplaySession",
           "Seat", "SoloSession", "_shared", "bot_seed", "kind_label", "plain_name",
           "seat_label", "seed_from_text", "solo_seats"]

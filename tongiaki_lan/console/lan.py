"""The old home of the LAN feed, kept while callers and tests move: console/feeds/lan.py
(the session), console/feeds/lanstory.py (what its events say),
console/feeds/lanfacts.py (what the node knows of the table)."""

from .feeds.lan import LanSession
from .feeds.lanfacts import (
    GUEST_WORDS,
    TableFacts,
    caught_up,
    guests_word,
    is_watching,
    open_seats,
    peer_label,
    seats_of,
    set_guests,
    table_moves,
)
from .feeds.lanstory import REJOIN_QUIET_S, WATCH_LOOK_S, LanStory, _now
from .seats import COLOUR_NAMES, colour_name, find_colour

__all__ = ["COLOUR_NAMES", "GUEST_WORDS", "REJOIN_QUIET_S", "WATCH_LOOK_S", "LanSession",
           "LanStory", "TableFacts",
           "_now", "caught_up", "colour_name", "find_colour", "guests_word", "is_watching",
           "open_seats", "peer_label", "seats_of", "set_guests", "table_moves"]

"""Who sits where, in words: a seat's label, a bot's kind, a colour's name.

The lowest layer of what a player sees, shared by the story, the panel, the feeds and the
lobby; it imports nothing of console/ (the LAN session and the solo session imported each
other for these names).
"""

from __future__ import annotations

from dataclasses import dataclass

from tongiaki_lan.engine import COLOURS, LETTERS
from tongiaki_lan.i18n import N_, _


@dataclass
class Seat:
    name: str
    colour: str
    kind: str = "human"  # "human", a bot kind, or "remote"
    local: bool = False  # played from this keyboard
    away: bool = False
    # a laptop that plays its seat with a bot (`play --headless --bot`): labelled a bot's,
    # yet a laptop the table waits for when it goes away, as for a person's
    laptop_bot: bool = False
    # this laptop's seat, whoever plays it: its player, or its bot (the page of a headless
    # node, whose seat is not this keyboard's)
    this_laptop: bool = False
    # away because they do not play, though their laptop is here (`NodeCore.not_playing`)
    idle: bool = False


HUMAN_KINDS = ("human", "remote")


def plain_name(seat: Seat) -> str:
    """The seat's name without the bot's kind a LAN bot seat carries (`Maui (search)`)."""
    note = f" ({seat.kind})"
    if seat.kind not in HUMAN_KINDS and seat.name.endswith(note) and len(seat.name) > len(note):
        return seat.name[:-len(note)]
    return seat.name


# the levels' names as shown (`Maui — bot (facile)`); other kinds are names of their own
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}


def kind_label(kind: str) -> str:
    """A bot's kind as the player reads it: a level in their language, any other kind
    (`search`, `greedy`) by its own name, as the commands take it."""
    return _(LEVEL_NAMES[kind]) if kind in LEVEL_NAMES else kind


def seat_label(seat: Seat) -> str:
    """One label for who plays a seat, fed by what the session knows of its driver
    (`Seat.kind`: a bot kind for a bot seat, a solo bot, or a seat handed to a bot while
    its player is away): `Maui — bot (search)`, `Cat — bot (greedy)`; a player's name
    alone otherwise."""
    if seat.kind in HUMAN_KINDS:
        return seat.name
    return _("{name} — bot ({kind})").format(name=plain_name(seat), kind=kind_label(seat.kind))


# colour names as shown (typed commands take the English names or the letters)
COLOUR_NAMES = {
    "blue": N_("blue"), "red": N_("red"), "green": N_("green"),
    "yellow": N_("yellow"), "orange": N_("orange"), "purple": N_("purple"),
}


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES.get(colour, colour))


def find_colour(word: str) -> str | None:
    """A colour typed by its English name, its name in the player's language or its
    letter (`blue`, `blu`, `B`); None when it names none."""
    w = word.strip().lower()
    for i, c in enumerate(COLOURS):
        if w in (c, colour_name(c).lower(), LETTERS[i].lower()):
            return c
    return None

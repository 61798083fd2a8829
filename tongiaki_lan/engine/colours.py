"""Player colours. Colour ids (0..5) appear on the wire and in records."""

from __future__ import annotations

from .errors import N_, Reason

COLOURS: tuple[str, ...] = ("blue", "red", "green", "yellow", "orange", "purple")
LETTERS: tuple[str, ...] = ("B", "R", "G", "Y", "O", "P")
_BY_LETTER = {letter: i for i, letter in enumerate(LETTERS)}
_BY_NAME = {name: i for i, name in enumerate(COLOURS)}


def colour_id(name_or_letter: str) -> int:
    key = name_or_letter.strip()
    if key.upper() in _BY_LETTER and len(key) == 1:
        return _BY_LETTER[key.upper()]
    try:
        return _BY_NAME[key.lower()]
    except KeyError:
        raise ValueError(Reason(N_("unknown colour '{colour}'"), colour=name_or_letter)) from None

"""The placeholders of a command's shape never read as something typed: `place ISLAND B`
(B for beach) next to `land 1:BR` (B for blue) in English, `S` for spiaggia and for sud in
Italian, `R` for ranta and for red in Finnish, `P` for plage and for purple in French (a
newcomer's playtest). The beach is now the word itself (`BEACH`, `SPIAGGIA`, `RANTA`,
`PLAGE`, `STRAND`), as the setup prompt already wrote it."""

from __future__ import annotations

import re

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.console.words import MOVE_HELP
from tongiaki_lan.engine import LETTERS
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n import _, ngettext

TYPED = set(LETTERS) | set(DIRECTION_NAMES)  # what a move's text holds in capitals
# the status line's templates that show a command's shape
SHAPES = (
    "your turn, no ships out — place ISLAND BEACH [BEACH] or colony",
    "reserve empty: bring a ship to {island} — take ISLAND BEACH",
    "{beach} is full: sail ISLAND BEACH PIER (Tab: where it goes)",
    "{beach} is full: sail ISLAND BEACH PIER",
    "full: {beaches} — sail ISLAND BEACH PIER",
    "put a ship on Tonga — place Tonga BEACH",
    "New Colony: a ship on {island} — place {island} BEACH",
)
COMMAND = re.compile(r"\b(place|take|sail|beaches|land) ([^()—'\n]*)")


def _placeholders(text: str) -> list[str]:
    """The capitalised words of the commands' shapes in `text` (`ISOLA`, `SPIAGGIA`)."""
    words = []
    for _verb, args in COMMAND.findall(text):
        words += [w for w in re.split(r"[ :,\[\]…]+", args) if w.isupper()]
    return words


@pytest.mark.parametrize("lang", ["en", "it", "fi", "fr", "de"])
def test_no_placeholder_is_a_colour_letter_or_a_compass_direction(lang):
    i18n.use(lang)
    try:
        texts = [_(t).split(" — ", 1)[0] for t in MOVE_HELP.values()]  # (the shape)
        texts += [_(t) for t in SHAPES]
        texts += [ngettext("{n} new ship on {island} — beaches BEACH (its number)",
                           "{n} new ships on {island} — beaches BEACH… ({n} beach numbers)",
                           n) for n in (1, 2)]
        found = [w for t in texts for w in _placeholders(t)]
        assert len(found) > 12, found  # (the shapes were read)
        clashes = sorted({w for w in found if w in TYPED})
        assert not clashes, (lang, clashes)
        # one word for the beach in every shape of a language
        beach = _("put a ship on Tonga — place Tonga BEACH").rsplit(" ", 1)[1]
        for verb in ("place", "take", "sail", "beaches"):
            assert beach in _(MOVE_HELP[verb]).split(" — ", 1)[0].split(), (verb, beach)
        assert _(MOVE_HELP["land"]).startswith(f"land {beach}:")
    finally:
        i18n.use("en")

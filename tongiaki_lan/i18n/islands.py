"""Island names as a player reads them, in the player's language.

The engine keeps the names printed on the tiles (the German edition: `Fidschi`) as
its ids and in records and moves; the console and the SVG show an island under the
name the player's language has for it, where it has its own (docs/languages.md lists
which). Typed moves take either name: `expand Fiji` and `expand Fidschi` are the same
move (`engine_token`), so a player types what the map shows.

Only the islands whose name differs between languages are listed: the others are
Polynesian names that every language (and every rulebook) writes the same way.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tongiaki_lan.engine import TILES
from tongiaki_lan.engine.tiles import token_name

from . import current

# printed name -> {language: that language's name}. English, French and Finnish have
# names of their own for Fiji; the German edition's `Fidschi` is German, and the Italian
# rulebook (seeds/000) keeps it as printed, so Italian does too. French and Finnish write
# Hawaii in their own way; English, German and Italian as printed.
OWN_NAMES: dict[str, dict[str, str]] = {
    "Fidschi": {"en": "Fiji", "fr": "Fidji", "fi": "Fidži"},
    "Hawaii": {"fr": "Hawaï", "fi": "Havaiji"},
}

_BY_PRINTED = {t.name: t.id for t in TILES}


def island_name(tid: int, language: str | None = None) -> str:
    """The name of tile `tid` as shown in `language` (default: the one in use), with its
    spaces (`Rapa Nui`); sea tiles keep their ids (`S07`)."""
    name = TILES[tid].name
    return OWN_NAMES.get(name, {}).get(language or current(), name)


def shown_island(printed: str, language: str | None = None) -> str:
    """A printed name (`Fidschi`, as the engine's reasons carry it) as `island_name`
    shows it; any other text unchanged."""
    tid = _BY_PRINTED.get(printed)
    return printed if tid is None else island_name(tid, language)


def island_token(tid: int, language: str | None = None) -> str:
    """The name as one typed word (`RapaNui`, `Fiji`): what completion offers."""
    return island_name(tid, language).replace(" ", "")


def _fold(word: str) -> str:
    return word.casefold().replace("-", "").replace("_", "")


# every language's word for an island -> the engine's token for it
_TOKENS: dict[str, str] = {}
for _name, _own in OWN_NAMES.items():
    for _word in _own.values():
        _TOKENS[_fold(_word.replace(" ", ""))] = token_name(_BY_PRINTED[_name])
# every island's name, printed or a language's own, folded as one word -> the engine's token
_NAMES: dict[str, str] = {_fold(token_name(t.id)): token_name(t.id) for t in TILES[:16]}
_NAMES.update(_TOKENS)


def engine_token(word: str) -> str:
    """A typed word in the engine's words: an island's name in any language becomes the
    printed one's token (`Fidži` -> `Fidschi`); the start of one island's name, three
    letters or more, becomes that island (`tuva` -> `Tuvalu`: the compact map writes
    `Tuva 4`, and a newcomer typed what it showed); any other word is returned unchanged."""
    folded = _fold(word)
    if folded in _TOKENS:
        return _TOKENS[folded]
    if len(folded) < 3 or not folded.isalpha() or folded in _NAMES:
        return word
    found = {tok for name, tok in _NAMES.items() if name.startswith(folded)}
    return found.pop() if len(found) == 1 else word


def engine_text(text: str) -> str:
    """A typed move with every island named in the engine's words. An island typed as the
    map shows it, with its space (`sail Rapa Nui 1 SW`), is one word too: a newcomer
    reads "Rapa Nui" and types it so."""
    return " ".join(engine_token(w) for w in joined_islands(text).split(" "))


@lru_cache(maxsize=8)
def _spaced(language: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """The islands whose name has a space in `language`: (that name as a pattern, with
    any run of spaces, and its typed word). Built once per language: completion and the
    status line's preview ask on every key and redraw."""
    return tuple((re.compile(re.escape(name).replace(r"\ ", " +"), re.IGNORECASE),
                  island_token(t.id, language))
                 for t in TILES[:16] if " " in (name := island_name(t.id, language)))


def joined_islands(text: str) -> str:
    """`sail Rapa Nui 2` as completion and the move preview know it: `sail RapaNui 2` (the
    island as one typed word, in the language in use). A newcomer types the name as the
    map shows it, and Tab then offered nothing."""
    for pattern, token in _spaced(current()):
        text = pattern.sub(token, text)
    return text


def shown_move(text: str, language: str | None = None, spaced: bool = False) -> str:
    """A move's text form (`expand Fidschi`, `sail RapaNui 1 SW`) with its island in the
    player's language: as a typed word, or `spaced` for reading (`sail Rapa Nui 1 SW`)."""
    words = text.split(" ")
    for i, w in enumerate(words):
        for t in TILES[:16]:
            if w == token_name(t.id):
                words[i] = (island_name(t.id, language) if spaced
                            else island_token(t.id, language))
                break
    return " ".join(words)

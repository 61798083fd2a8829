"""The story's leaf phrases: a tile, a group of ships, a list of beaches, the scores.

Shared by the story (story.py), the settled departures (departures.py) and the status
line's words (words.py); it imports nothing of console/, so none of them needs another
for its words (departures.py and story.py imported each other for these).
"""

from __future__ import annotations

from collections.abc import Sequence

from tongiaki_lan.engine import LETTERS, TILES, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n.islands import island_name

END_REASONS = {
    "E1": N_("the last island or the last sea tile has been revealed"),
    "X3": N_("the turn limit was reached"),
}

# (style, text): style is one of "", "turn", "good", "bad", "info"
Line = tuple[str, str]


def tile_label(tid: int) -> str:
    tile = TILES[tid]
    if tile.is_sea:
        return _("sea {tile}").format(tile=tile.name)
    name = island_name(tid)
    return name if tid == 0 else f"{name} ({tile.value})"


def ships_text(colours: Sequence[int]) -> str:
    return " ".join(LETTERS[c] for c in colours) if colours else _("no ships")


def beaches_text(beaches: Sequence[int]) -> str:
    """`beach 3`, `beaches 3 and 4`: for lists; a sentence about beaches has its own
    template for one beach and for several (`numbers_text`), since German and French put
    an article (and a case) before them that depends on the sentence."""
    bs = [str(b + 1) for b in beaches]
    if len(bs) == 1:
        return _("beach {n}").format(n=bs[0])
    return _("beaches {list} and {last}").format(list=", ".join(bs[:-1]), last=bs[-1])


def numbers_text(beaches: Sequence[int]) -> str:
    """The beach numbers alone: `3`, `3 and 4`, `1, 2 and 5`."""
    bs = [str(b + 1) for b in beaches]
    if len(bs) == 1:
        return bs[0]
    return _("{list} and {last}").format(list=", ".join(bs[:-1]), last=bs[-1])


def final_words(game: Game, names: Sequence[str]) -> str:
    """Scores and winners by player (under two colours each, V1, a player's colours
    together, their letters after the name)."""
    keys = V.ranking_keys(game)
    pnames = V.player_names(game, names)
    if game.owners is not None:
        pnames = [f"{n} ({V.player_letters(game, p)})" for p, n in enumerate(pnames)]
    order = sorted(range(len(keys)), key=lambda p: keys[p], reverse=True)
    parts = [f"{pnames[p]} {keys[p][0]}" for p in order]
    winners = [pnames[p] for p in V.winners(game)]
    text = ngettext("Scores: {scores}. Winner: {winners}.",
                    "Scores: {scores}. Winners: {winners}.", len(winners))
    return text.format(scores=", ".join(parts), winners=" & ".join(winners))

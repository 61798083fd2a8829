"""A turn and a move are two things, and each language says them with two words.

A turn is a player's whole go (`── turn 12: Ana ──`, "your turn ends"); a move is one
decision of it, or a tile revealed (`Legal moves`, `move 40/80` in a replay, "resumed
after 67 moves"). German said "Zug" for both (issue 45): "Zug 12" on the panel and "nach
Zug 67" in the resume line counted different things with one word. The catalogues now use
the words of docs/languages.md's vocabulary table, and a text about turns never uses the
word for moves, nor the other way round.
"""

from __future__ import annotations

import re

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n.catalog import po_path, read_po

# (the language's word for a turn, its word for a move), as regular expressions over the
# forms used (German compounds too: "Zuggrenze" said the turn limit with the move's word)
WORDS = {
    "de": (r"\bRunde\w*|\w+runde\w*|\ban der Reihe\b",
           r"\b(?:Zug|Züg)\w*|\w+zug\b|\w+züge\w*"),
    "it": (r"\bturn[oi]\b", r"\bmoss[ae]\b"),
    "fi": (r"\bvuoro\w*", r"\bsiir(?:to|ro)\w*"),
    "fr": (r"\btours?\b", r"\bcoups?\b"),
}
TURN = re.compile(r"\bturns?\b")  # (as a noun or as "turns back": the latter is
MOVE = re.compile(r"\bmoves?\b")  # translated with another verb, and so never matches)


def _entries(lang: str):
    return read_po(po_path(lang))[1].values()


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_no_text_says_turn_with_the_word_for_move_or_move_with_the_word_for_turn(lang):
    turn_word, move_word = (re.compile(w) for w in WORDS[lang])
    wrong = []
    for e in _entries(lang):
        english = f"{e.msgid} {e.plural}"
        said = " ".join(e.msgstr)
        about_turns, about_moves = bool(TURN.search(english)), bool(MOVE.search(english))
        if about_turns and not about_moves and move_word.search(said):
            wrong.append(f"turn said as a move: {e.msgid!r} -> {said!r}")
        if about_moves and not about_turns and turn_word.search(said):
            wrong.append(f"move said as a turn: {e.msgid!r} -> {said!r}")
    assert not wrong, "\n".join(wrong)


def test_german_counts_turns_and_moves_with_two_words():
    """What a German player reads side by side: the panel's turn, the story's turn
    header, a replay's move and the resume line's move."""
    i18n.use("de")
    try:
        turn = [_("{title} · turn {n}").format(title="Solo", n=12),
                _("── turn {n}: {who} ──").format(n=12, who="Ana (B)"),
                _("the turn limit was reached")]
        moves = [_("move {i}/{n}").format(i=40, n=80),
                 _("Resumed after {n} moves.").format(n=67),
                 _("Legal moves: {moves}").format(moves="place Tonga 3")]
    finally:
        i18n.use("en")
    turn_word, move_word = (re.compile(w) for w in WORDS["de"])
    for text in turn:
        assert turn_word.search(text) and not move_word.search(text), text
    for text in moves:
        assert move_word.search(text) and not turn_word.search(text), text

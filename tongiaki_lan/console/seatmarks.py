"""What the side panel says of the seats beyond their rows — which seats a bot plays (and
of which kind), who is away — in the shorter forms a small window needs, and the order in
which the panel's other lines give way to them.

A seat's row has no room for a mark (at 80 columns it is 32 wide, every column used), so
who plays it is said below the rows: `Hina, Maui — bots (normal)`. At 80x24 a table of six
(and a table of four at a landing, with `At sea:`) had more lines than the panel's ten, and
the cut took those lines: a player could not tell that a bot played a colour. Now the
panel shortens step by step (`STEPS`) until it fits, and what says who plays a seat
shortens (to the rows' colour letters, `Bots (normal): R G Y`) but never goes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tongiaki_lan.i18n import _, ngettext

from .seats import kind_label
from .state import SeatView

# The panel's shortenings, tried in this order until its lines fit (docs/console.md,
# Layout): the watchers' names (their count stays on "Drawn:" or the title), the reminder
# "Ends when either kind runs out", the bots' names (their rows' letters instead), "Drawn:",
# "Removed:", "Left:", the picture of a tile a bot places, the bots' kinds when the kinds
# take more than one line, and last the bots and who is away on one line.
STEPS = ("watchers", "ends", "bot letters", "drawn", "removed", "left", "picture",
         "one bot line", "marks merged")

Line = list[tuple[str, str]]
Wrap = Callable[..., list[str]]  # the screen's wrap_words (which imports this module)


@dataclass(frozen=True)
class BotGroup:
    """The seats one kind of bot plays: names (a player's two colours named once) and the
    colour letters of every seat, as the rows print them."""

    kind: str
    names: tuple[str, ...]
    letters: tuple[str, ...]


@dataclass(frozen=True)
class SeatMarks:
    """Who plays which seat, as far as the rows cannot say it."""

    bots: tuple[BotGroup, ...]
    away_names: tuple[str, ...]
    away_letters: tuple[str, ...]


def seat_marks(seats: Sequence[SeatView], over: bool) -> SeatMarks:
    """The marks of a table: bots by kind in seat order; who is away (nobody once the game
    is over: nobody is waited for then)."""
    groups: dict[str, tuple[list[str], list[str]]] = {}
    for seat in seats:
        if not seat.bot_kind:
            continue
        who, marks = groups.setdefault(seat.bot_kind, ([], []))
        if seat.name not in who:
            who.append(seat.name)
        marks.append(seat.letter)
    away = [(seat.name, seat.letter) for seat in seats if seat.away and not over]
    return SeatMarks(
        bots=tuple(BotGroup(kind, tuple(w), tuple(m)) for kind, (w, m) in groups.items()),
        away_names=tuple(n for n, _l in away),
        away_letters=tuple(lt for _n, lt in away),
    )


def _bots_by_letters(group: BotGroup) -> str:
    return ngettext("Bot ({kind}): {letters}", "Bots ({kind}): {letters}",
                    len(group.letters)).format(kind=kind_label(group.kind),
                                               letters=" ".join(group.letters))


def _bots_on_one_line(marks: SeatMarks, width: int) -> str:
    """Every bot seat on one line, with the kinds if they fit (`Bots: R G (normal), Y
    (greedy)`), else without (`Bots: R G Y`)."""
    n = sum(len(g.letters) for g in marks.bots)
    with_kinds = ", ".join(f"{' '.join(g.letters)} ({kind_label(g.kind)})" for g in marks.bots)
    text = ngettext("Bot: {seats}", "Bots: {seats}", n).format(seats=with_kinds)
    if len(text) <= width:
        return text
    return ngettext("Bot: {seats}", "Bots: {seats}", n).format(
        seats=" ".join(lt for g in marks.bots for lt in g.letters))


def bot_texts(marks: SeatMarks, width: int, steps: frozenset[str], wrap: Wrap) -> list[str]:
    """The lines saying which seats bots play, as short as `steps` asks; a shorter form
    only where it takes fewer lines (`Hina — bot (normal)` for a bot's two colours is one
    line either way, and names read better than letters)."""
    if not marks.bots:
        return []

    def wrapped(texts: list[str]) -> list[str]:
        return [part for text in texts
                for part in wrap(text, max(10, width), subsequent_indent="  ")]

    lines = wrapped([ngettext("{names} — bot ({kind})", "{names} — bots ({kind})",
                              len(g.names)).format(names=", ".join(g.names),
                                                   kind=kind_label(g.kind))
                     for g in marks.bots])
    if "bot letters" in steps:
        letters = wrapped([_bots_by_letters(g) for g in marks.bots])
        lines = letters if len(letters) < len(lines) else lines
    if "one bot line" in steps and len(lines) > 1:
        lines = wrapped([_bots_on_one_line(marks, width)])
    return lines


def away_line(marks: SeatMarks, width: int) -> Line | None:
    """`Away: Cy, Dee`; the rows' colour letters when the names do not fit (`Away: R Y`):
    a name cut with an ellipsis no longer said who."""
    if not marks.away_names:
        return None
    label = _("Away: ")
    names = ", ".join(marks.away_names)
    if len(label) + len(names) > width:
        names = " ".join(marks.away_letters)
    return [("class:panel.head", label), ("class:panel.away", names)]


def mark_lines(marks: SeatMarks, width: int, steps: frozenset[str], wrap: Wrap) -> list[Line]:
    """The bots' lines, then who is away; on one line when the last step asks and it fits
    (`Bots: R G Y · Away: O`)."""
    bots = bot_texts(marks, width, steps, wrap)
    away = away_line(marks, width)
    if "marks merged" in steps and len(bots) == 1 and away is not None:
        merged = [("class:panel.head", bots[0] + " · "), *away]
        if sum(len(t) for _s, t in merged) <= width:
            return [merged]
    lines: list[Line] = [[("class:panel.head", text)] for text in bots]
    return lines + ([away] if away is not None else [])

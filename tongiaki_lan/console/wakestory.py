"""What a player's screen says after their laptop slept: in the order they need it.

A playtest's woken player read "Your seat is yours again" above the moves a bot had
played for them (the lobby that gives the seat back comes as soon as the table hears the
laptop, the missed moves after it, in chunks), then "this laptop follows the game again"
(a watcher's words), and a count of the bot's moves that left out those of the catch-up
(they came while the laptop was still behind, when the screen had no seat of its own).
Here the order is: what happened while away (the moves, the table's lines), the table's
answer, how many moves a bot made for the seat, and the seat given back, last.

`LanSession` feeds this the node's events; it keeps no screen of its own.
"""

from __future__ import annotations

from collections.abc import Callable

from tongiaki_lan.engine import Game, IllegalMove, Reveal
from tongiaki_lan.i18n import _, ngettext

from .story import Line


class WakeStory:
    """Since the last wake: the seat's moves a bot made, and the give-back held back."""

    def __init__(self) -> None:
        self.woke_at = -1  # how far the game was when this laptop woke (-1: it did not)
        self.answered = True  # the table's answer told (or no wake under way)
        self.handover_told = False  # "While you were away your seat was played by a bot"
        self.give_back_held = False  # "Your seat is yours again" waits for the answer
        self.give_back_due = False  # answered while a bot still played: it comes later
        self._at_wake: Game | None = None  # the game as it was then

    def woke(self, game: Game | None) -> None:
        """The laptop woke with `game` as it had it."""
        self.woke_at = len(game.moves) if game is not None else -1
        self._at_wake = game.copy() if game is not None else None
        self.answered = False
        self.handover_told = self.give_back_held = self.give_back_due = False

    def rewound(self, index: int) -> None:
        """Moves from `index` on taken back: below the wake, the game then is not ours."""
        if index < self.woke_at:
            self._at_wake = None

    def bot_moves(self, game: Game, ours: Callable[[int], bool],
                  typed: Callable[[int], bool]) -> int:
        """How many moves of our seats `game` holds since the wake that were not typed
        here: a bot's. Counted from the game, not from its move events, which come after
        the game has the moves (a chunk of the catch-up is applied at once, then told),
        and whose seats were not the screen's while it caught up (they went uncounted)."""
        if self._at_wake is None or len(game.moves) < self.woke_at:
            return 0
        replay, n = self._at_wake.copy(), 0
        for i, move in enumerate(game.moves[self.woke_at:], self.woke_at):
            p = replay.pending
            try:
                replay.apply(move)
            except IllegalMove:  # (the game was taken back below the wake, its event
                break  # not yet here: what follows is not from this wake's game)
            if (p is not None and p.seat is not None and not isinstance(move, Reveal)
                    and ours(p.seat) and not typed(i)):
                n += 1
        return n

    def reclaimed(self, bots: Callable[[], int]) -> list[Line]:
        """The lobby gave our seat back: the line, now or (before the table's answer)
        once the moves missed are told; `bots`: `bot_moves` as of now."""
        if not self.answered:
            self.give_back_held = True
            return []
        lines = self._count(bots(), with_give_back=False) if self.give_back_due else []
        self.give_back_due = False
        return [*lines, _give_back()]

    def answer(self, line: Line, still_handed: bool, bots: Callable[[], int]) -> list[Line]:
        """The table answered and the moves missed are here: its answer (`line`), then how
        many moves a bot made for the seat and that the seat is ours again — unless a bot
        still plays it (`still_handed`): both then wait for the give-back."""
        self.answered = True
        if still_handed and not self.give_back_held:
            self.give_back_due = True
            return [line]
        held, self.give_back_held = self.give_back_held, False
        if held or self.handover_told:
            return [line, *self._count(bots(), with_give_back=False),
                    *([_give_back()] if held else [])]
        return [line, *self._count(bots(), with_give_back=True)]

    @staticmethod
    def _count(n: int, with_give_back: bool) -> list[Line]:
        if not n:
            return []
        if with_give_back:  # (no other line says the seat came back: the table gave it
            # to a bot and back while this laptop slept)
            text = ngettext(
                "While you were away a bot played {n} move of your seat; the seat is yours "
                "again.",
                "While you were away a bot played {n} moves of your seat; the seat is yours "
                "again.", n)
        else:
            text = ngettext("While you were away a bot played {n} move of your seat.",
                            "While you were away a bot played {n} moves of your seat.", n)
        return [("info", text.format(n=n))]


def _give_back() -> Line:
    return ("good", _("Your seat is yours again: the bot that played it while you were away "
                      "stops."))

"""Which moves an `undo` takes back in a game against bots (solo), as Board Game Arena
allows it: the player's last decision and every bot decision after it, one of the
player's decisions per `undo`, never across a tile reveal.

Pure functions over the engine's `Game`: no I/O, no UI. The solo session calls
`take_back` to decide and `pop_back` to do it; the record reader (records.py) uses
`pop_back` too, to check an undo written in a record and to say who made each move
taken back (`replay` tells them). Why never across a reveal: the tile came from the
stack and stays revealed, and taking it back would let a player look at the stack and
choose again (docs/rules.md, U1).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from tongiaki_lan.engine import Game, Move, Reveal

# why an undo is refused (`CannotTakeBack.why`)
OVER = "over"  # the game is over: its result stands
NOTHING = "nothing"  # no decision of the player's in the game yet
REVEALED = "revealed"  # a tile was revealed after the player's last decision


@dataclass(frozen=True, slots=True)
class TakeBack:
    """What an undo takes back now."""

    back_to: int  # the game goes back to its first `back_to` moves
    moves: tuple[tuple[int, Move], ...]  # (seat that decided it, move), oldest first

    @property
    def mine(self) -> Move:
        """The player's decision taken back (the first one)."""
        return self.moves[0][1]

    @property
    def after(self) -> tuple[tuple[int, Move], ...]:
        """The bots' decisions after it, taken back with it."""
        return self.moves[1:]


@dataclass(frozen=True, slots=True)
class CannotTakeBack:
    """Why an undo takes nothing back now (`OVER`, `NOTHING`, `REVEALED`)."""

    why: str
    tile: int | None = None  # REVEALED: the tile revealed after the player's decision


def take_back(game: Game, seats: Collection[int]) -> TakeBack | CannotTakeBack:
    """What `undo` by the player of `seats` would take back in `game` now: back to that
    player's last decision, with every move after it, unless a tile was revealed since.
    Never changes `game` (it walks back on a copy)."""
    if game.is_over:
        return CannotTakeBack(OVER)
    walk = game.copy()
    taken: list[tuple[int, Move]] = []
    while walk.moves:
        try:
            move = walk.pop()
        except IndexError:  # (a game rebuilt without its history: nothing to go back to)
            break
        if isinstance(move, Reveal):
            return CannotTakeBack(REVEALED, move.tile)
        seat = walk.pending_seat
        taken.append((seat, move))
        if seat in seats:
            return TakeBack(len(walk.moves), tuple(reversed(taken)))
    return CannotTakeBack(NOTHING)


def pop_back(game: Game, back_to: int) -> list[tuple[int | None, Move]]:
    """Take `game` back to its first `back_to` moves, in place; the moves taken back with
    the seat that decided each (None: a tile reveal), oldest first."""
    taken: list[tuple[int | None, Move]] = []
    while len(game.moves) > back_to:
        move = game.pop()
        taken.append((game.pending_seat, move))
    taken.reverse()
    return taken

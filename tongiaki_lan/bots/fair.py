"""The only door through which a bot sees a game.

`make_bot` hands out `FairBot`s: callers pass the real `Game`, the wrapper turns it
into a `PublicView` before the bot's own code runs, and checks nothing else leaks
back (the chosen move must be legal in the real game, which it always is: legality
never depends on the stack order).
"""

from __future__ import annotations

import time
from typing import Protocol

from tongiaki_lan.engine import Game, Move

from .view import PublicView, public_view


class Decider(Protocol):
    def choose(self, view: PublicView) -> Move: ...


class FairBot:
    """A bot behind the public-view wall; `choose(game)` is all callers need."""

    def __init__(self, kind: str, inner: Decider):
        self.kind = kind
        self._inner = inner
        self.last_seconds = 0.0  # wall time of the last decision, for tournaments

    @property
    def inner(self) -> Decider:
        return self._inner

    def choose(self, game: Game | PublicView) -> Move:
        start = time.perf_counter()
        view = public_view(game)
        move = self._inner.choose(view)
        self.last_seconds = time.perf_counter() - start
        return move

    def __repr__(self) -> str:
        return f"FairBot({self.kind!r})"

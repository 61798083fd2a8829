"""The one error the engine raises for a bad decision."""

from __future__ import annotations


class IllegalMove(ValueError):
    """A move the rules forbid. `clause` is the rules.md clause id it breaks.

    The message is meant for the player: one line, no internals. Raising it never
    changes the game (validation happens before any mutation).
    """

    def __init__(self, clause: str, message: str):
        super().__init__(f"{clause}: {message}")
        self.clause = clause
        self.reason = message

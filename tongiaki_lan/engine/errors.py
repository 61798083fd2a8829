"""The one error the engine raises for a bad decision, and the words of its reasons."""

from __future__ import annotations


def N_(text: str) -> str:
    """Marks an English template for translation where it is shown (a no-op here: the
    engine speaks English only and knows nothing of languages or screens)."""
    return text


class Reason(str):
    """A reason in English, made from a template marked with `N_()` and named values.

    It is an ordinary string (the wire, records and scripts read it as one); a console
    that wants the player's language translates `template` and formats it with
    `values` again, so no text has to be matched back into its parts.
    """

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, **values: object) -> Reason:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template = template
        self.values = values
        return self


class IllegalMove(ValueError):
    """A move the rules forbid. `clause` is the rules.md clause id it breaks.

    The message is meant for the player: one line, no internals. Raising it never
    changes the game (validation happens before any mutation). `reason` is a `Reason`
    where the engine made it, so that a console can show it translated.
    """

    def __init__(self, clause: str, message: str):
        super().__init__(f"{clause}: {message}")
        self.clause = clause
        self.reason = message

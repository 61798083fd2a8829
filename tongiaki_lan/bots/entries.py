"""Bot entries as `tournament --seats` and `ladder --entries` write them.

An entry is a bot kind or a level, optionally with its own budget after `@`:

- `greedy`, `search`, `hard` — a kind or a level (bots/levels.py) as it comes;
- `search@0.3s` — `search` thinking at most 0.3 s a decision;
- `search@800i` — `search` with 800 iterations a decision (the same moves on any machine).

The budget is the entry's own, so one table can seat the same kind at two budgets
(`search@0.1s,search@0.5s`), which is what a ladder of budgets needs. Levels carry their
budgets already and take none after `@`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .levels import LEVELS

SEARCHERS = ("search", "search1")  # the kinds a budget applies to
# a budget past these is a typing slip, not a plan (and `@infs` thought for ever)
THINK_MAX = 600.0  # seconds a decision
ITERATIONS_MAX = 10_000_000  # iterations a decision


@dataclass(frozen=True)
class Entry:
    spec: str  # as written: the label in reports
    kind: str  # what `make_bot` is given
    options: dict[str, Any] = field(default_factory=dict)


def parse_entry(spec: str, think: float | None = None, iterations: int | None = None,
                deterministic: bool = False, known: list[str] | None = None) -> Entry:
    """The entry `spec` stands for. `think`/`iterations` are the budget of searching kinds
    given without one of their own (`tournament --think`); `deterministic` makes levels use
    their fixed form. ValueError says what is wrong with `spec`."""
    kind, at, budget = spec.partition("@")
    if known is not None and kind not in known:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(known)})")
    options: dict[str, Any] = {}
    if at:
        if kind not in SEARCHERS:
            raise ValueError(f"{spec!r}: only {' and '.join(SEARCHERS)} take a budget after @")
        options.update(_budget(spec, budget))
    elif kind in SEARCHERS:
        if iterations is not None:
            options["iterations"] = iterations
        elif think is not None:
            options["think"] = think
    elif kind in LEVELS and deterministic:
        options["deterministic"] = True
    return Entry(spec, kind, options)


def checked_entry(spec: str, think: float | None = None, iterations: int | None = None,
                  deterministic: bool = False) -> Entry:
    """`parse_entry` against the kinds that exist, with its options tried on a bot once:
    commands refuse a bad entry before any game, not in a worker halfway through."""
    from . import bot_kinds, make_bot

    entry = parse_entry(spec, think, iterations, deterministic, bot_kinds())
    make_bot(entry.kind, 0, **entry.options)
    return entry


def _budget(spec: str, text: str) -> dict[str, Any]:
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if 0 < seconds <= THINK_MAX:  # (false for nan)
                return {"think": seconds}
        elif text.endswith("i"):
            count = int(text[:-1])
            if 0 < count <= ITERATIONS_MAX:
                return {"iterations": count}
    except ValueError:
        pass
    raise ValueError(f"{spec!r}: a budget is seconds (@0.3s, at most {THINK_MAX:g}) or "
                     f"iterations (@800i, at most {ITERATIONS_MAX})")


def labels(specs: list[str]) -> list[str]:
    """Entry names for reports: the spec, numbered by entry when it sits more than once."""
    return [s if specs.count(s) == 1 else f"{s}#{i}" for i, s in enumerate(specs)]

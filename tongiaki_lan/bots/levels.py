"""Levels for people: `easy`, `normal`, `hard` — a bot kind and a budget each.

A player picks a level, not a bot kind and a number of seconds: solo play (`--level`),
the lobby's `bot` command, headless play, `hint`, `tournament` and `ladder` all take
their bot from here, so "normal" means the same thing everywhere (docs/bots.md, Levels,
has the figures each level was measured at).

Each level has two forms:
- **timed** (the default): a wall-clock budget per decision, so the bot answers in about
  the same time on any machine and thinks further on a fast one. Solo play and `hint`.
- **fixed** (`deterministic=True`): a fixed number of iterations instead, so the same
  seed and position give the same move on every machine. A LAN table's bot seat must use
  it: any node may drive the seat (after a handover, or two for a moment), and they must
  all compute the same move. The iterations match what the timed form does on the
  measured machine (a 2-core laptop-class box), so the strength is about the same.

Levels are registered as bot kinds too (`make_bot("hard", seed=7)`, `--seats hard,easy`):
a seat's label then says the level, and every place that takes a kind takes a level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"  # solo play's opponents unless told otherwise
HINT_LEVEL = "normal"  # the console's `hint`: answers within half a second


@dataclass(frozen=True)
class Level:
    name: str
    kind: str  # the bot kind that plays it
    timed: MappingProxyType  # options with a wall-clock budget
    fixed: MappingProxyType  # options with a fixed amount of work (LAN tables)
    about: str = field(default="")


def _level(name: str, kind: str, timed: dict[str, Any], fixed: dict[str, Any],
           about: str) -> Level:
    return Level(name, kind, MappingProxyType(timed), MappingProxyType(fixed), about)


# The figures behind each budget are in docs/bots.md (Levels). The fixed iterations are
# what the timed form did on the measuring machine: `think` x 0.92 (the share that goes to
# iterations) x ~1900 iterations a second (tournament hard,normal,easy,easy, 60 games:
# hard 642 iterations in 349 ms a decision on average, normal 319 in 168 ms).
_TABLE: dict[str, Level] = {
    "easy": _level(
        "easy", "greedy", {"temper": 1.5, "samples": 4}, {"temper": 1.5, "samples": 4},
        "one move ahead with a careless eye: it slips among moves that look alike and "
        "sometimes misses a better one; a newcomer can beat it"),
    "normal": _level(
        "normal", "search", {"think": 0.25, "most": 2.0}, {"iterations": 450},
        "searches a quarter of a second on a typical decision, half a second at most "
        "(a close departure or New Colony tile, with time saved on obvious ones)"),
    "hard": _level(
        "hard", "search", {"think": 0.5, "most": 2.0}, {"iterations": 900},
        "searches half a second on a typical decision, a second at most"),
}


def level(name: str) -> Level:
    """The level called `name`; ValueError naming the levels otherwise."""
    try:
        return _TABLE[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r} (levels: {', '.join(LEVELS)})") from None


def level_options(name: str, deterministic: bool = False) -> tuple[str, dict[str, Any]]:
    """(kind, options) for `make_bot(kind, seed=..., **options)` at this level: the timed
    form, or with `deterministic` the fixed-iterations form every LAN node computes alike."""
    lv = level(name)
    return lv.kind, dict(lv.fixed if deterministic else lv.timed)


def fixed_options(kind: str) -> dict[str, Any]:
    """Options that make `make_bot(kind, ...)` a fixed amount of work, for any kind or level
    (what a LAN table needs: the same move on every node). Levels: their fixed form;
    `search`/`search1`: the normal level's iterations; other kinds are fixed already."""
    if kind in _TABLE:
        return {"deterministic": True}
    if kind in ("search", "search1"):
        return {"iterations": _TABLE["normal"].fixed["iterations"]}
    return {}

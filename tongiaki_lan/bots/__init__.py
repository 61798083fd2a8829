"""Computer players. Every bot has `choose(game) -> Move` and sees only public information.

`make_bot` is the one way to get a bot: it wraps every kind, the random one
included, in `FairBot`, which turns the real game into a `PublicView` (no stack
order, no seed) before any bot code runs. Options are per kind and documented in
docs/bots.md; `think` (seconds) is accepted by every kind so that a caller can pass
one setting to mixed seats — only the searching kinds use it. The levels for people
(`easy`, `normal`, `hard`, bots/levels.py) are kinds too: a kind and a budget each.
"""

from __future__ import annotations

from collections.abc import Callable

from .fair import FairBot
from .levels import DEFAULT_LEVEL, HINT_LEVEL, LEVELS, level_options
from .random_bot import RandomBot
from .view import PublicView, public_view


def _random(seed: int = 0, think: float | None = None):
    return RandomBot(seed)


def _greedy(seed: int = 0, think: float | None = None, samples: int = 12,
            temper: float = 0.0):
    from .greedy import GreedyBot

    return GreedyBot(seed, chance_samples=int(samples), temper=float(temper))


def _search(seed: int = 0, think: float | None = 1.0, iterations: int | None = None,
            **options):
    from .search import SearchBot

    return SearchBot(seed, think=1.0 if think is None else float(think),
                     iterations=None if iterations is None else int(iterations), **options)


def _search1(seed: int = 0, think: float | None = 1.0, iterations: int | None = None,
             **options):
    from .search1 import SearchBot1

    return SearchBot1(seed, think=1.0 if think is None else float(think),
                      iterations=None if iterations is None else int(iterations), **options)


_FACTORIES: dict[str, Callable[..., object]] = {
    "random": _random,
    "greedy": _greedy,
    "search": _search,
    # the search before issue 20, frozen: the yardstick for `tournament --seats search,search1`
    "search1": _search1,
}


def _level_factory(name: str) -> Callable[..., object]:
    """A level as a kind: its bot, timed, or fixed with `deterministic=True`; an explicit
    `think` or `iterations` (solo's `--think`) replaces the level's budget."""

    def factory(seed: int = 0, think: float | None = None, iterations: int | None = None,
                deterministic: bool = False):
        from .levels import level_options

        kind, options = level_options(name, deterministic=deterministic)
        if think is not None or iterations is not None:
            options.pop("think", None)
            options.pop("iterations", None)
            if think is not None:
                options["think"] = think
            if iterations is not None and kind != "greedy":
                options["iterations"] = iterations
        return _FACTORIES[kind](seed=seed, **options)

    return factory


for _name in LEVELS:
    _FACTORIES[_name] = _level_factory(_name)


def bot_kinds() -> list[str]:
    return list(_FACTORIES)


def register(kind: str, factory: Callable[..., object]) -> None:
    """Add a kind; `factory(seed=..., **options)` returns an object with
    `choose(view: PublicView) -> Move` (it is wrapped in FairBot like the others)."""
    _FACTORIES[kind] = factory


def best_bot_kind() -> str:
    """The strongest bot kind available (levels aside)."""
    return "search"


def make_bot(kind: str, seed: int = 0, **options) -> FairBot:
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(_FACTORIES)})") from None
    try:
        inner = factory(seed=seed, **options)
    except TypeError as exc:
        raise ValueError(f"bot {kind!r}: bad option ({exc})") from None
    return FairBot(kind, inner)


__all__ = [
    "DEFAULT_LEVEL", "HINT_LEVEL", "LEVELS", "level_options",
    "FairBot", "PublicView", "RandomBot", "best_bot_kind", "bot_kinds", "make_bot",
    "public_view", "register",
]

"""Computer players. Every bot has `choose(game) -> Move` and sees only public information."""

from __future__ import annotations

from collections.abc import Callable

from .random_bot import RandomBot

_FACTORIES: dict[str, Callable[..., object]] = {"random": RandomBot}


def bot_kinds() -> list[str]:
    return list(_FACTORIES)


def register(kind: str, factory: Callable[..., object]) -> None:
    _FACTORIES[kind] = factory


def best_bot_kind() -> str:
    """The strongest bot available: what solo play and the console's `hint` use."""
    return "random"


def make_bot(kind: str, seed: int = 0, **options):
    try:
        factory = _FACTORIES[kind]
    except KeyError:
        raise ValueError(f"unknown bot {kind!r} (known: {', '.join(_FACTORIES)})") from None
    return factory(seed=seed, **options)


__all__ = ["RandomBot", "make_bot", "bot_kinds", "register", "best_bot_kind"]

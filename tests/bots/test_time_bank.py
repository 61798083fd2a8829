"""The timed search's time bank: time a decision saves is spent by later ones.

The search reads its clock through `clock` (seconds), so these tests hand it a clock
that moves a fixed step at every look: no real time, no sleeps, the same run each time.
"""

from __future__ import annotations

from tongiaki_lan.bots import make_bot
from tongiaki_lan.bots.search import BANK_CAP, SHARE

from .helpers import midgame


class Ticking:
    """A clock that moves `step` seconds each time it is read."""

    def __init__(self, step: float):
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _share(game) -> float:
    return SHARE.get(game.pending.kind, 1.0)


def test_a_decision_after_cheaper_ones_may_take_longer():
    # a choice of beaches (its share is half of `think`), then a departure
    first, second = midgame(20), midgame(8)
    banked = make_bot("search", seed=3, think=1.0, clock=Ticking(0.05))
    banked.choose(first)
    assert banked.inner.last_budget == _share(first)  # nothing saved yet
    assert banked.inner.saved > 0  # it used less than `think`
    banked.choose(second)
    assert banked.inner.last_budget > _share(second)

    plain = make_bot("search", seed=3, think=1.0, clock=Ticking(0.05), bank=False)
    plain.choose(first)
    plain.choose(second)
    assert plain.inner.last_budget == _share(second)  # without the bank: the share alone


def test_the_bank_keeps_the_mean_and_caps_a_decision():
    clock = Ticking(0.05)
    bot = make_bot("search", seed=4, think=1.0, clock=clock)
    positions = [midgame(s) for s in (3, 8, 21, 5, 13)]
    for game in positions:
        bot.choose(game)
        assert bot.inner.last_budget <= BANK_CAP * 1.0
    # every decision is credited `think` and debited what it used: the total used is
    # the decisions' count x `think` less what is still in the bank
    # (the clock is read only by the bot: once before each decision, then while it thinks)
    used = clock.now - 0.05 * len(positions)
    assert abs(used - (len(positions) * 1.0 - bot.inner.saved)) < 1e-9
    bot.inner.saved = 100.0  # a huge bank still buys at most BANK_CAP x think
    bot.choose(positions[0])
    assert bot.inner.last_budget == BANK_CAP * 1.0


def test_a_fixed_budget_ignores_the_bank():
    game = midgame(21)
    bot = make_bot("search", seed=9, iterations=40)
    first = bot.choose(game)
    bot.inner.saved = 100.0
    assert bot.choose(game) == first
    assert bot.inner.saved == 100.0  # iterations never touch it


def test_a_levels_decision_stays_within_what_the_level_promises():
    """Solo bots decide in at most half a second at `normal` (a second at `hard`): the
    bank moves time to close decisions but never past twice `think`."""
    from tongiaki_lan.bots.levels import level

    for name, most in (("normal", 0.5), ("hard", 1.0)):
        bot = make_bot("search", seed=4, clock=Ticking(0.001), **level(name).timed)
        bot.inner.saved = 100.0
        bot.choose(midgame(21))
        assert bot.inner.last_budget == most

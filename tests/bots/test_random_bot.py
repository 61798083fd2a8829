"""The random bot draws exactly what `random.Random.randrange` would: self-play games and
golden games made with it stay the same games whatever Python runs them."""

from __future__ import annotations

import random

from tongiaki_lan.bots.random_bot import RandomBot


def test_random_bot_draws_the_numbers_randrange_draws():
    for seed in (0, 1, 7, 2**40 + 3):
        bot, ref = RandomBot(seed), random.Random(seed)
        for n in [1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 100, 127, 128, 129, 1000] * 20:
            assert bot.index(n) == ref.randrange(n), (seed, n)

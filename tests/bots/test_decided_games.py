"""A decided duel is played out, not stalled (search.py: LEADING, TRAILING, HURRY).

Two bots in a duel where one is far ahead could shuffle ships for hundreds of turns:
every tile revealed makes the leader's lead count more (the trailer avoids revealing),
and the leader's chance is already so high that revealing gains it too little to see.
A player facing such a bot waits for nothing; a tournament of duels spent a quarter of
its time in such games."""

from __future__ import annotations

import hashlib

from tongiaki_lan.bots import make_bot
from tongiaki_lan.bots.evaluation import win_chances
from tongiaki_lan.engine import Dealer, Game

from .helpers import DECIDED


def _turns_to_finish(hurry: float | None, limit: int = 40) -> int | None:
    """Turns two `search` bots take to end the game from DECIDED (None: not within
    `limit`)."""
    game = Game.from_position(DECIDED)
    dealer = Dealer(hashlib.sha256(b"decided").digest())
    options = {} if hurry is None else {"hurry": hurry}
    bots = [make_bot("search", seed=s, iterations=40, **options) for s in (1, 2)]
    start = game.turn
    while not game.is_over:
        if game.turn - start >= limit:
            return None
        dealer.apply(game, bots[game.pending.seat].choose(game))
    return game.turn - start


def test_the_position_is_decided_for_the_model():
    assert win_chances(Game.from_position(DECIDED))[0] > 0.95


def test_bots_end_a_decided_duel_instead_of_stalling():
    assert _turns_to_finish(None) is not None  # the default bots finish within 40 turns
    # the same bots without the reward for progress are still shuffling ships then
    assert _turns_to_finish(0.0) is None


def test_a_hint_in_a_decided_game_says_a_chance_no_higher_than_certain():
    """The reward for progress in a decided game is the bot's own affair: a hint read
    "about 110 % to win" (a playtest)."""
    game = Game.from_position(DECIDED)
    fair = make_bot("search", seed=1, iterations=200)
    fair.choose(game)
    bot = fair.inner
    assert bot._hurry > 0  # (the bonus is on for this decision)
    assert bot.last_options and all(0.0 <= c <= 1.0 for _m, c in bot.last_options)
    assert bot.last_options[0][1] > 0.9

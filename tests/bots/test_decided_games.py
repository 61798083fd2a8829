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

# From a duel between `search` and `search1` (iterations 200, tournament seed "stall",
# game 32) at turn 64: blue holds 31 points to red's 10 with 5 tiles left in the stack.
DECIDED = (
    "tongiaki2 seats=BR turn=64 setup=4 active=0 reserve=1,3 board=Oahu@-6,2r5:B/B/B;"
    "Muroroa@-6,3r4:-/-/B;Rarotonga@-6,4r3:-/BB;Mangareva@-5,2r5:-/-/BB;S13@-5,3r5;"
    "S08@-5,4r2;S03@-4,1r0;RapaNui@-4,2r1:-/B;S10@-4,3r4;S11@-3,0r5;S09@-3,1r0;"
    "Tahiti@-3,2r5:-/-/B;S14@-3,3r5;S07@-2,-1r0;Tubuai@-2,0r1:B/B;Tuvalu@-2,1r5*:-/-/-;"
    "Samoa@-2,2r4:-/-/-;S15@-2,3r3;Hawaii@-1,-1r0*:-/-/-;S04@-1,0r1*;"
    "HivaOa@-1,1r4:R/R/RR;Tokelau@-1,2r3:-/-/-;S06@0,-1r0;"
    "Tonga@0,0r0:RR/RR/R/-/-/R;Tuamotu@0,1r1*:-/-;S01@1,-1r1;S02@1,0r2 "
    "kings=Tokelau:R,Tuamotu:R,Tuvalu:B,Samoa:B removed=- "
    "stack=Nauru,Fidschi,S05,S12,S16 pending=action seen=- flags=-"
)


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

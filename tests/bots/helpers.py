"""Positions for the bot tests: reached by seeded random play (no hidden state read), or
written out from a bot game (DECIDED)."""

from __future__ import annotations

import random

from tongiaki_lan.engine import COLOURS, Dealer, Game

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


def midgame(seed: int = 3, players: int = 4, plies: int = 45) -> Game:
    """A game some way in: tiles revealed, many still in the stack."""
    rng = random.Random(seed)
    game = Game(COLOURS[:players])
    dealer = Dealer(seed.to_bytes(32, "big"))
    for _ in range(plies):
        if game.is_over:
            break
        dealer.apply(game, game.legal_move(rng.randrange(game.legal_move_count())))
    assert not game.is_over and len(game.unrevealed_tiles()) > 5
    return game

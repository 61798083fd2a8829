"""Shared by the network tests: replaying a finished game the way the nodes' bots play it."""

from __future__ import annotations

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Dealer, Game
from tongiaki_lan.net.core import bot_seed
from tongiaki_lan.net.node import Node
from tongiaki_lan.records import read_record, replay_record


def clean_replay_digest(node: Node, autoplay: str = "random") -> bytes:
    """The final digest the game must have if no move was changed, dropped or injected:
    every seat's bot is seeded by (seed, seat, move index), so the whole game follows from
    the agreed seed alone."""
    seats = node.lobby.seats
    game = Game([s.colour for s in seats])
    dealer = Dealer(node.seed)
    dealer.deal(game)
    while not game.is_over:
        d = game.pending
        kind = seats[d.seat].bot or autoplay
        dealer.apply(game, make_bot(kind, seed=bot_seed(node.seed, d.seat, len(game.moves)))
                     .choose(game.copy()))
    return game.digest()


def verify_record(path) -> bytes:
    """Replay a record checking every move and digest; returns the final digest."""
    return replay_record(read_record(path)).digest()

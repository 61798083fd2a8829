"""Shared by the network tests: replaying a finished game the way the nodes' bots play it."""

from __future__ import annotations

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Game
from tongiaki_lan.net.aio.node import Node
from tongiaki_lan.net.protocol.core import bot_seed
from tongiaki_lan.net.protocol.settings import net_bot_options
from tongiaki_lan.records import read_record, replay_record


def clean_replay_digest(node: Node, autoplay: str = "random") -> bytes:
    """The final digest the game must have if no move was changed, dropped or injected:
    every seat's bot is seeded by (seed, seat, move index), so each decision follows from
    the agreed seed and the tiles drawn so far. The tiles come from the node's own game
    (fair draws: no single node could have dealt them; `verify_record` checks them)."""
    seats = node.lobby.seats
    game = Game([s.colour for s in seats])
    for i, move in enumerate(node.game.moves):
        d = game.pending
        if d.seat is not None:
            kind = seats[d.seat].bot or autoplay
            want = make_bot(kind, seed=bot_seed(node.seed, d.seat, i),
                            **net_bot_options(kind)).choose(game.copy())
            assert move == want, f"move {i} is {move}, the seat's bot plays {want}"
        game.apply(move)
    assert game.is_over
    return game.digest()


def verify_record(path) -> bytes:
    """Replay a record checking every move and digest; returns the final digest."""
    return replay_record(read_record(path)).digest()

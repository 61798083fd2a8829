"""A table's bot seats are part of the protocol (protocol/wire.md, Versioning).

Every node of a LAN table computes a bot seat's move itself, from the game and a seed
the game fixes (net/protocol/movesync.py `bot_seed`, settings.py `net_bot_options`): a
handover between drivers, or two drivers for a moment, then play the same move. That
holds only while every node runs bots that decide alike. Nodes whose bots decide
differently would fork the game, and a fork stops the table; so a change to any bot's
moves in its LAN form is a change of the protocol version, which keeps such nodes apart
before a game starts (discovery hides the game, the doctor says "another version").

This test notices such a change: the moves of every kind a lobby can seat, on positions
of 2-, 3- and 4-seat games, hash to the digest recorded for the current version."""

from __future__ import annotations

import hashlib

import msgpack

from tongiaki_lan.bots import bot_kinds, make_bot
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.net.protocol.codec import PROTOCOL_VERSION
from tongiaki_lan.net.protocol.movesync import bot_seed
from tongiaki_lan.net.protocol.settings import net_bot_options

from ..bots.helpers import DECIDED

# The digest of the LAN bots' moves below, by protocol version. A change of bot code
# that changes it: bump PROTOCOL_VERSION (net/protocol/codec.py, protocol/wire.md) and
# record the new digest under the new version.
MOVES = {5: "b31ad85dffdc9d19b27eceb5d92091c4", 6: "b31ad85dffdc9d19b27eceb5d92091c4",
         7: "b31ad85dffdc9d19b27eceb5d92091c4", 8: "b31ad85dffdc9d19b27eceb5d92091c4",
         9: "b31ad85dffdc9d19b27eceb5d92091c4", 10: "b31ad85dffdc9d19b27eceb5d92091c4",
         11: "b31ad85dffdc9d19b27eceb5d92091c4"}
# the kinds this package brings (other tests register kinds of their own)
KINDS = ("random", "greedy", "search", "search1", "easy", "normal", "hard")


def _positions() -> list[Game]:
    """Positions of greedy self-play at a table of 2, 3 and 4 (every 9th decision, from
    the 5th), and a duel decided by points, where the search plays the game out."""
    out = []
    for players in (2, 3, 4):
        game = Game(COLOURS[:players], undo=False)
        dealer = Dealer(bytes([players]) * 32)
        bots = [make_bot("greedy", seed=s) for s in range(players)]
        n = 0
        while not game.is_over and len(out) < 4 * (players - 1):
            if n % 9 == 4 and game.legal_move_count() > 1:
                out.append(game.copy(undo=False))
            dealer.apply(game, bots[game.pending.seat].choose(game))
            n += 1
    out.append(Game.from_position(DECIDED))
    return out


def test_the_bots_of_a_lan_table_decide_as_this_protocol_version_says():
    seed = hashlib.sha256(b"lan bots").digest()
    h = hashlib.blake2b(digest_size=16)
    positions = _positions()
    assert set(KINDS) <= set(bot_kinds())
    for kind in KINDS:
        for i, game in enumerate(positions):
            seat = game.pending.seat
            bot = make_bot(kind, seed=bot_seed(seed, seat, i), **net_bot_options(kind))
            h.update(msgpack.packb([kind, i, bot.choose(game).to_wire()]))
    assert h.hexdigest() == MOVES.get(PROTOCOL_VERSION), (
        f"the bots' moves at a LAN table changed (digest {h.hexdigest()}): nodes of this "
        f"code and of the code that recorded protocol version {PROTOCOL_VERSION} would "
        "fork a game; bump PROTOCOL_VERSION and record the new digest")

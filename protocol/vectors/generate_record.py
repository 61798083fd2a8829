"""Write record.json: `python protocol/vectors/generate_record.py`.

A small record of a LAN game with fair draws (protocol/record.md), written by the
reference writer, with every kind of entry: moves, reveals with their draw's values (a
contributor left out from a draw on, a chain taken mid-game with its head beside its
first value), a seat that changed hands (`names`) and a seat played by a bot for its
away player and given back (`bots`), and that newcomer's laptop expelled on a proof
(`expelled`: it signed a move with a state the move does not give, protocol/security.md),
its seat the table bot's from then on. The JSON gives the file's bytes, the header's keys in
the order the writer wrote them, each entry's fields and bytes, and the same file torn
inside its last entry. tests/engine/test_record_vectors.py checks both ways (these bytes
read to these entries and replay; these entries write to these bytes) and that the file
is what this script writes.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import msgpack

from tongiaki_lan.bots import make_bot
from tongiaki_lan.draws import Chain, ChainDealer, draw_tile
from tongiaki_lan.engine import Game, Reveal
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.proofs import sign_move
from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo

PATH = Path(__file__).with_name("record.json")
SEED = bytes(range(32))
SEATS = (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red", "normal"), SeatInfo("Cy", "green"))
# the seed round's two contributors; contributor 1 is left out from draw 2 on (its laptop
# slept through the table's wait) and its node takes part again as contributor 2 from
# draw 3 (protocol/draws.md, Taking part again)
CHAINS = (Chain(bytes([1]) * 32), Chain(bytes([2]) * 32))
LATE = Chain(bytes([3]) * 32, first=3)
DROPPED = ((1, 2),)
REVEALS = 5  # stop after this many tiles
NAMES_AT = 9  # a newcomer, Dan, plays Cy's seat from this move on
BOTS_AT, BACK_AT = 11, 14  # Ana's seat is played by a bot while she is away
# Dan's laptop signs its first decision from move 16 on with a false state after it (a
# broken laptop): the table expels it there and its seat is the table bot's (`normal`)
# from that move on; the entry of that move names the expulsion with its proof
EXPEL_FROM = 16
DAN = Identity.from_seed(bytes([4]) * 32)
DAN_INC = 1700000000000004
GAME_ID = bytes.fromhex("0123456789abcdef")
FALSE_STATE = bytes(range(64, 96))


def j(obj):
    if isinstance(obj, bytes):
        return {"bin": obj.hex()}
    if isinstance(obj, list | tuple):
        return [j(x) for x in obj]
    return obj


def build() -> str:
    header = RecordHeader(SEED, SEATS, created="2026-12-01T20:15:00Z", game_name="Friday night",
                          commitments=tuple(c.commitment for c in CHAINS))
    dealer = ChainDealer(SEED, (*CHAINS, LATE), DROPPED)
    game = Game(header.colours)
    bot = make_bot("random", seed=7)
    entries = []
    names = tuple(s.name for s in SEATS)
    bots = ("", "", "")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "small.tgrec"
        writer = RecordWriter.create(path, header, fsync=False)
        reveals = 0
        expelled = None  # the expulsion's entry element, once made
        while reveals < REVEALS:
            i = len(game.moves)
            proof = None
            if game.awaiting_reveal:
                k = game.draws()
                values = dealer.values(k)
                move = Reveal(draw_tile(SEED, k, [v for _, v in values],
                                        game.unrevealed_tiles()))
                proof = [(c, v, LATE.commitment) if c == 2 and k == LATE.first else (c, v)
                         for c, v in values]
                reveals += 1
            else:
                move = bot.choose(game)
            said_names = said_bots = said_expelled = None
            if (expelled is None and i >= EXPEL_FROM and not game.awaiting_reveal
                    and game.pending.seat == 2):
                after = game.copy()
                after.apply(move)
                assert after.digest() != FALSE_STATE
                st = C.MoveStatement(DAN_INC, i, game.digest(), move.to_wire(), FALSE_STATE,
                                     sign_move(DAN, GAME_ID, DAN_INC, i, game.digest(),
                                               FALSE_STATE, move.to_wire()))
                proof_msg = C.Proof(C.PROOF_REFUSED_MOVE, DAN.peer_id, DAN.public, st)
                expelled = ["Dan", [2], GAME_ID, C.pack_message(proof_msg)]
                said_expelled = [expelled]
                bots = ("", "", "normal")
                said_names, said_bots = names, bots
            if i == NAMES_AT:
                names = ("Ana", "Ben", "Dan")
                said_names = names
            if i in (BOTS_AT, BACK_AT):
                bots = ("normal", "", "") if i == BOTS_AT else ("", "", "")
                said_names, said_bots = names, bots
            game.apply(move)
            writer.append(move, game.digest(), proof, said_names, said_bots, said_expelled)
            entry = {"index": i, "move": move.to_wire(), "digest": game.digest().hex(),
                     "values": None if proof is None else [j(list(x)) for x in proof]}
            if said_names is not None:
                entry["names"] = list(said_names)
            if said_bots is not None:
                entry["bots"] = list(said_bots)
            if said_expelled is not None:
                entry["expelled"] = [j(x) for x in said_expelled]
            entries.append(entry)
        writer.close()
        data = path.read_bytes()
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    unpacker.unpack()
    start = unpacker.tell()
    for entry in entries:
        unpacker.unpack()
        entry["bytes"] = data[start:unpacker.tell()].hex()
        start = unpacker.tell()
    head_len = len(data) - sum(len(e["bytes"]) // 2 for e in entries)
    torn = data[:len(data) - len(entries[-1]["bytes"]) // 4]  # half of the last entry
    out = {
        "about": "protocol/record.md: a record file and what it holds",
        "file": data.hex(),
        "header_bytes": data[:head_len].hex(),
        "header": [[k, j(v)] for k, v in header.to_wire().items()],
        "entries": entries,
        "torn": {"file": torn.hex(), "entries": len(entries) - 1},
    }
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    PATH.write_text(build(), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()

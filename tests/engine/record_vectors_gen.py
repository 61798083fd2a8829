"""Regenerates protocol/vectors/record_undo.json: a solo game's record with undos, its exact
bytes and what a reader makes of it, and records a reader refuses (protocol/record.md,
Taking moves back).

Run `python -m tests.engine.record_vectors_gen` only when the record format deliberately
changes; tests/engine/test_record_vectors.py checks the writer and the reader against
the file, both ways.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import msgpack

from tongiaki_lan.engine import Dealer, Game, Reveal, parse_move
from tongiaki_lan.records import RecordHeader, SeatInfo, encode_entry, encode_undo

OUT = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "record_undo.json"

SEED = bytes(range(32))
HEADER = RecordHeader(SEED, (SeatInfo("Ana", "blue", "human"), SeatInfo("Hina", "red", "random")),
                      created="", game_name="solo", lang="en")

# Ana (blue, seat 0) plays against the bot Hina (red, seat 1); the seed's stack deals the
# tiles. ("undo", N): Ana types `undo`, and the game goes back to its first N moves.
SCRIPT = [
    "place Tonga 1", "place Tonga 1",  # Ana, then Hina
    ("undo", 0),  # Ana's first ship and Hina's answer, taken back
    "place Tonga 2", "place Tonga 1", "place Tonga 1", "place Tonga 2",
    "expand Tonga", "beaches 1 2",
    ("undo", 5),  # her beaches
    ("undo", 4),  # and, typed again, the expansion before them
    "expand Tonga", "beaches 1 2",
    "sail Tonga 1 S",  # the seed's stack reveals three tiles
    "land 1:B 2:B 3:R", "expand Oahu", "beaches 1",  # Ana lands, then Hina plays
    ("undo", 10),  # Ana's landing, and Hina's turn after it
    "land 1:B 2:R 3:B",
]


def build() -> tuple[list[dict], bytes, Game]:
    """The entries as the vector lists them, the record's bytes and the game at the end."""
    game, dealer = Game(HEADER.colours), Dealer(SEED)
    data = msgpack.packb(HEADER.to_wire(), use_bin_type=True)
    entries: list[dict] = []

    def write(move):
        nonlocal data
        index = len(game.moves) - 1
        data += encode_entry(index, move, game.digest())
        entries.append({"index": index, "move": str(move), "wire": move.to_wire(),
                        "digest": game.digest().hex()})

    for step in SCRIPT:
        if isinstance(step, tuple):
            while len(game.moves) > step[1]:
                game.pop()
            data += encode_undo(step[1], game.digest())
            entries.append({"back_to": step[1], "digest": game.digest().hex()})
        else:
            dealer.apply(game, parse_move(step), write)
    return entries, data, game


def reader_view(data: bytes) -> dict:
    from tongiaki_lan.records import read_record, replay_with_undos

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "undo.tgrec"
        path.write_bytes(data)
        record = read_record(path)
    game, notes = replay_with_undos(record)
    return {
        "moves": [str(m) for m in record.moves],
        "digests": [d.hex() for d in record.digests],
        "undos": [{"back_to": u.back_to, "at": u.at, "digest": u.digest.hex(),
                   "taken_back": [str(m) for m in u.moves],
                   "seats": [seat for seat, _m in note.moves]}
                  for u, note in zip(record.undos, notes, strict=True)],
        "taken_back": record.taken_back,
        "draws": game.draws(),
        "over": game.is_over,
        "final_digest": game.digest().hex(),
    }


def refused(data: bytes, game: Game) -> list[dict]:
    """Records a reader refuses, each the valid one with one more entry (or one changed)."""
    out = []

    def case(about: str, extra: bytes, reason: str, header: RecordHeader = HEADER) -> None:
        body = data[len(msgpack.packb(HEADER.to_wire(), use_bin_type=True)):]
        whole = msgpack.packb(header.to_wire(), use_bin_type=True) + body + extra
        out.append({"about": about, "record_msgpack": whole.hex(), "reason": reason})

    n = len(game.moves)
    # (back to move 6: Ana's sail, with the three reveals it brought)
    across = game.copy()
    while len(across.moves) > 6:
        across.pop()
    assert isinstance(game.moves[7], Reveal)
    case("an undo across a tile reveal", encode_undo(6, across.digest()),
         "it would take back a tile reveal (reveal S09); what was revealed stays revealed")
    case("an undo whose digest is not the state's", encode_undo(n - 1, bytes(32)),
         "the state digest differs from the record's")
    case("an undo that takes back nothing", encode_undo(n, game.digest()),
         f"the game has {n} moves, so it takes back nothing")
    # (the moves after Ana's last landing: Hina's; back to one of them is a bot's undo)
    bot = game.copy()
    bot.apply(parse_move("expand Oahu"))
    bot_line = encode_entry(n, bot.moves[-1], bot.digest())
    case("an undo that begins with a bot's decision", bot_line + encode_undo(n, game.digest()),
         "is not a player's decision")
    lan = RecordHeader(SEED, HEADER.seats, created="", game_name="Friday", lang="en")
    case("an undo in a LAN game's record", b"", "only a solo game takes moves back", lan)
    return out


def main() -> None:
    entries, data, game = build()
    vector = {
        "about": "A solo game's record with undos (protocol/record.md, Taking moves back): "
                 "the header, then its entries in file order, moves and undos.",
        "header": {"seed": SEED.hex(), "seats": [[s.name, s.colour, s.kind]
                                                  for s in HEADER.seats],
                   "created": HEADER.created, "game": HEADER.game_name, "lang": HEADER.lang},
        "entries": entries,
        "record_msgpack": data.hex(),
        "reader": reader_view(data),
        "refused": refused(data, game),
    }
    OUT.write_text(json.dumps(vector, indent=1) + "\n")


if __name__ == "__main__":
    main()

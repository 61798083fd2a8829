"""Regenerates protocol/vectors/{shuffle,moves,games}.json.

Run `python -m tests.engine.vectors_gen` only when the protocol deliberately changes
(and bump the version it names); the tests check the engine against the files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack

from tongiaki_lan.engine import COLOURS, Dealer, Game, parse_move, shuffled_stack
from tongiaki_lan.selfplay import game_seed, play_game

OUT = Path(__file__).resolve().parents[2] / "protocol" / "vectors"

SHUFFLE_SEEDS = [bytes(32), bytes(range(32)), b"\xff" * 32,
                 hashlib.sha256(b"tongiaki").digest()]
MOVE_TEXTS = ["place Tonga 3", "place Tonga 2 5", "place RapaNui 1", "expand Samoa",
              "royal Hawaii", "colony", "beaches 1 3", "take Oahu 2", "sail Oahu 2 NE",
              "land 1:BR 3:Y", "land -", "tile 1,-2 S", "tile -3,0 SE", "take nothing",
              "reveal Samoa", "reveal S12"]
GAMES = [(2, "vectors", 0), (4, "vectors", 1), (6, "vectors", 2)]


def shuffle_vectors() -> list[dict]:
    return [{"seed": s.hex(), "order": list(shuffled_stack(s))} for s in SHUFFLE_SEEDS]


def move_vectors() -> list[dict]:
    out = []
    for text in MOVE_TEXTS:
        m = parse_move(text)
        out.append({"text": str(m), "wire": m.to_wire(),
                    "msgpack": msgpack.packb(m.to_wire()).hex()})
    return out


def game_vectors() -> list[dict]:
    out = []
    for players, base, index in GAMES:
        seed = game_seed(base, index)
        result = play_game(seed, players, ["random"])
        replay = Game(COLOURS[:players])
        initial = replay.encode()
        initial_digest = replay.digest().hex()
        record = _moves_of(seed, players)
        for m in record:
            replay.apply(m)  # the reveals are in the record: no dealer needed
        assert replay.digest() == result.digest
        out.append({
            "seed": seed.hex(),
            "colours": list(COLOURS[:players]),
            "initial_state_msgpack": initial.hex(),
            "initial_digest": initial_digest,
            "moves_wire": [m.to_wire() for m in record],
            "final_digest": result.digest.hex(),
            "scores": result.scores,
            "winners": result.winners,
        })
    return out


def _moves_of(seed: bytes, players: int) -> list:
    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.selfplay import bot_seed

    g = Game(COLOURS[:players])
    dealer = Dealer(seed)
    bots = [make_bot("random", seed=bot_seed(seed, s)) for s in range(players)]
    while not g.is_over:
        dealer.apply(g, bots[g.pending.seat].choose(g))
    return list(g.moves)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in (("shuffle", shuffle_vectors()), ("moves", move_vectors()),
                       ("games", game_vectors())):
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()

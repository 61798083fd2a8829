"""Regenerates protocol/vectors/{shuffle,moves,games}.json.

Run `python -m tests.engine.vectors_gen` only when the protocol deliberately changes
(and bump the version it names); the tests check the engine against the files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import msgpack

from tongiaki_lan.bots import make_bot
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


def state_vectors() -> dict:
    """Positions of every kind of pending decision, with their canonical encoding, digest
    and X2d position key; and bot seeds (64-bit: above 2**53, so written as strings)."""
    from tongiaki_lan.engine.decisions import KINDS
    from tongiaki_lan.net.aio.node import bot_seed as lan_bot_seed

    seed = game_seed("state-vectors", 0)
    g = Game(COLOURS[:3])
    dealer = Dealer(seed)
    bots = [make_bot("random", seed=s) for s in range(3)]
    wanted = {*KINDS, "over", "reveal@voyage", "seen"}
    found: dict[str, str] = {}

    def take(game: Game) -> None:
        p = game.pending
        kind = "over" if p is None else p.kind
        if p is not None and p.kind == "reveal" and p.hex is not None:
            kind = "reveal@voyage"
        for k in (kind, "seen" if game.turn_record() else None):
            if k and k not in found:
                found[k] = game.position()

    take(g)
    i = 0
    while len(found) < len(wanted) and i < 400:
        i += 1
        g = Game(COLOURS[:3])
        dealer = Dealer(game_seed("state-vectors", i))
        bots = [make_bot("random", seed=i * 10 + s) for s in range(3)]
        take(g)
        while not g.is_over:
            if g.awaiting_reveal:
                take(g)
                dealer.deal(g)
            else:
                g.apply(bots[g.pending.seat].choose(g))
            take(g)
    positions = []
    for kind in sorted(found):
        game = Game.from_position(found[kind])
        positions.append({"kind": kind, "position": found[kind],
                          "state_msgpack": game.encode().hex(),
                          "digest": game.digest().hex(),
                          "position_key": game.position_key().hex()})
    seeds = []
    for s_, seat, index in ((seed, 0, 0), (seed, 5, 123), (bytes(32), 2, 70000)):
        value = lan_bot_seed(s_, seat, index)
        seeds.append({"seed": s_.hex(), "seat": seat, "index": index,
                      "bot_seed": str(value), "msgpack": msgpack.packb(value).hex()})
    return {"positions": positions, "lan_bot_seeds": seeds}


def draw_vectors() -> dict:
    """protocol/draws.md: three contributors' chains and every draw of a random game."""
    from tongiaki_lan.draws import Chain, ChainDealer
    from tongiaki_lan.engine import Reveal

    seed = bytes(range(32))
    secrets = [bytes([i]) * 32 for i in (1, 2, 3)]
    chains = [Chain(s) for s in secrets]
    dealer = ChainDealer(seed, chains)
    g = Game(COLOURS[:3])
    bot = make_bot("random", seed=5)
    draws = []
    while not g.is_over:
        if g.awaiting_reveal:
            k, left, tile = g.draws(), list(g.unrevealed_tiles()), dealer.tile_for(g)
            draws.append({"draw": k, "unrevealed": left, "tile": tile,
                          "values": [c.preimage(k).hex() for c in chains]})
            g.apply(Reveal(tile))
        else:
            g.apply(bot.choose(g))
    return {"seed": seed.hex(), "chain_length": chains[0].length,
            "secrets": [s.hex() for s in secrets],
            "commitments": [c.commitment.hex() for c in chains], "draws": draws}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in (("shuffle", shuffle_vectors()), ("moves", move_vectors()),
                       ("games", game_vectors()), ("state", state_vectors()),
                       ("draws", draw_vectors())):
        (OUT / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")


if __name__ == "__main__":
    main()

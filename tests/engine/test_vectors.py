"""The engine reproduces the golden vectors of protocol/ byte for byte."""

import json
from pathlib import Path

import msgpack

from tongiaki_lan.engine import COLOURS, Game, move_from_wire, parse_move, shuffled_stack

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"


def load(name):
    return json.loads((VECTORS / f"{name}.json").read_text())


def test_S1_shuffle_vectors():
    for v in load("shuffle"):
        assert list(shuffled_stack(bytes.fromhex(v["seed"]))) == v["order"]


def test_move_vectors_encode_to_exact_bytes_and_back():
    for v in load("moves"):
        move = parse_move(v["text"])
        assert move.to_wire() == v["wire"]
        assert msgpack.packb(move.to_wire()).hex() == v["msgpack"]
        assert move_from_wire(msgpack.unpackb(bytes.fromhex(v["msgpack"]))) == move
        assert str(move) == v["text"]


def test_game_vectors_replay_to_the_same_states():
    for v in load("games"):
        g = Game(v["colours"])
        assert g.encode().hex() == v["initial_state_msgpack"]
        assert g.digest().hex() == v["initial_digest"]
        for wire in v["moves_wire"]:
            g.apply(move_from_wire(wire))
        assert g.is_over
        assert g.digest().hex() == v["final_digest"]
        assert g.scores() == v["scores"] and g.winners() == v["winners"]
        assert COLOURS[: len(v["colours"])] == tuple(v["colours"])


def test_state_vectors_encode_every_kind_of_position_exactly():
    """protocol/state.md: what peers hash, for every kind of pending decision."""
    state = load("state")
    kinds = {v["kind"] for v in state["positions"]}
    assert kinds >= {"setup", "action", "departure", "landing", "reveal", "reveal@voyage",
                     "colony_tile", "colony_ship", "expand_beaches", "t1a_source", "over",
                     "seen"}
    for v in state["positions"]:
        g = Game.from_position(v["position"])
        assert g.encode().hex() == v["state_msgpack"], v["kind"]
        assert g.digest().hex() == v["digest"], v["kind"]
        assert g.position_key().hex() == v["position_key"], v["kind"]
        assert msgpack.unpackb(bytes.fromhex(v["state_msgpack"]))[0] == 2  # STATE_FORMAT


def test_lan_bot_seed_vectors_are_64_bit_written_as_strings():
    from tongiaki_lan.net.aio.node import bot_seed

    for v in load("state")["lan_bot_seeds"]:
        value = int(v["bot_seed"])
        assert isinstance(v["bot_seed"], str) and value < 2**64
        assert bot_seed(bytes.fromhex(v["seed"]), v["seat"], v["index"]) == value
        assert msgpack.packb(value).hex() == v["msgpack"]
    assert any(int(v["bot_seed"]) > 2**53 for v in load("state")["lan_bot_seeds"])

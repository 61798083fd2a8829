"""The proofs of misbehaviour of protocol/security.md, checked both ways against
protocol/vectors/net/proofs.json: each PROOF's bytes read back to its fields and its
fields pack to those bytes; its first statement's signed bytes are those of the text; and
the check (the accused's key and the checker's own game alone) holds, or refuses with
the exact reason the text gives."""

from __future__ import annotations

import json
from pathlib import Path

import msgpack
import pytest

from tongiaki_lan.engine import Game, move_from_wire
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol.proofs import check_proof

VECTORS = json.loads(
    (Path(__file__).parents[2] / "protocol" / "vectors" / "net" / "proofs.json").read_text())
GAME_ID = bytes.fromhex(VECTORS["game_id"])
ACCUSED = bytes.fromhex(VECTORS["accused"]["peer"])


def from_json(obj):
    if isinstance(obj, dict):
        return bytes.fromhex(obj["bin"])
    if isinstance(obj, list):
        return [from_json(x) for x in obj]
    return obj


def state_before(index: int):
    """The checker's own game after its first `index` moves (the vector's game)."""
    moves = VECTORS["game"]["moves"]
    if index > len(moves):
        return None
    g = Game(VECTORS["game"]["colours"])
    for wire in moves[:index]:
        g.apply(move_from_wire(wire))
    return g


def test_the_vector_game_replays_to_its_digest():
    g = state_before(len(VECTORS["game"]["moves"]))
    assert g.digest().hex() == VECTORS["game"]["digest_after_moves"]


@pytest.mark.parametrize("v", VECTORS["cases"], ids=lambda v: v["name"])
def test_a_proof_reads_and_packs_both_ways_and_holds_or_is_refused_as_written(v):
    data = bytes.fromhex(v["bytes"])
    proof = C.parse_message(msgpack.unpackb(data, raw=False))
    assert isinstance(proof, C.Proof)
    assert C.pack_message(proof).hex() == v["bytes"]  # bytes -> fields -> the same bytes
    fields = C.parse_message(from_json(v["message"]))
    assert fields == proof and C.pack_message(fields) == data  # fields -> bytes
    assert proof.first.signed_bytes(GAME_ID, ACCUSED).hex() == v["first_signed_bytes"]
    assert check_proof(proof, GAME_ID, state_before) == v["reason"]
    assert (v["reason"] is None) == v["holds"]


def test_every_kind_and_every_refusal_has_a_case():
    from tongiaki_lan.net.protocol import proofs as P

    kinds = {C.parse_message(from_json(v["message"])).kind for v in VECTORS["cases"]
             if v["holds"]}
    assert kinds == set(C.PROOF_KINDS)
    texts = [v["reason"] for v in VECTORS["cases"] if v["reason"]]
    for template in (P.NOT_THE_KEY, P.BAD_SIGNATURE, P.TWO_RUNS, P.SAME, P.CONSISTENT,
                     P.APART, P.TWO_VERSIONS, P.NOT_OUR_STATE, P.ENGINE_AGREES):
        head = template.split("{")[0]
        assert any(t.startswith(head) for t in texts), template


def test_the_checkers_digests_and_the_rules_answers_are_the_engines():
    """A reader without a rules engine checks a kind 2 proof with the vector's `digests`
    (its own game after each first k moves) and each case's `rules` (what the rules make
    of the statement's move there): both are what the engine says."""
    digests = VECTORS["game"]["digests"]
    assert len(digests) == len(VECTORS["game"]["moves"]) + 1
    assert all(state_before(k).digest().hex() == d for k, d in enumerate(digests))
    for v in VECTORS["cases"]:
        proof = C.parse_message(msgpack.unpackb(bytes.fromhex(v["bytes"]), raw=False))
        if proof.kind != C.PROOF_REFUSED_MOVE:
            assert "rules" not in v, v["name"]
            continue
        g = state_before(proof.first.index)
        try:
            g.apply(move_from_wire(proof.first.move))
        except ValueError:
            assert v["rules"] == {"legal": False, "after": None}, v["name"]
        else:
            assert v["rules"] == {"legal": True, "after": g.digest().hex()}, v["name"]


def test_proofs_json_is_exactly_what_its_generator_writes():
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "wire_vectors_generate", Path(__file__).parents[2] / "protocol" / "vectors" / "net"
        / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    written = (Path(__file__).parents[2] / "protocol" / "vectors" / "net" / "proofs.json"
               ).read_text(encoding="utf-8")
    assert module.build_proofs() == written, (
        "proofs.json is stale: run protocol/vectors/net/generate.py")


def test_one_statement_signed_twice_is_no_contradiction():
    """Two signatures over one statement (a signer whose Ed25519 signatures are not
    deterministic, signing a move again as it resends it) prove nothing: only what a
    statement says counts (security.md, "Checking a proof", step 4)."""
    import dataclasses

    from tongiaki_lan.net.protocol.proofs import contradiction

    st = C.MoveStatement(7, 12, bytes(32), [2, 7], bytes(range(32)), bytes(64))
    assert not contradiction(st, dataclasses.replace(st, sig=bytes([1]) * 64))
    assert contradiction(st, dataclasses.replace(st, after=bytes([1]) * 32))
    assert contradiction(st, dataclasses.replace(st, move=[2, 8]))

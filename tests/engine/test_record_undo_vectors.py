"""protocol/vectors/record_undo.json, both ways: our writer produces a solo record with undos
byte for byte, and our reader makes of those bytes what the vector says (the moves that
stand, each undo with the moves it took back and who made them, the final digest), and
refuses each broken variant with its reason."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tongiaki_lan.engine import Game, move_from_wire
from tongiaki_lan.records import (
    RecordError,
    RecordHeader,
    RecordWriter,
    SeatInfo,
    read_record,
    replay_record,
    replay_with_undos,
)

VECTOR = json.loads((Path(__file__).resolve().parents[2] / "protocol" / "vectors"
                     / "record_undo.json").read_text())


def _header() -> RecordHeader:
    h = VECTOR["header"]
    return RecordHeader(bytes.fromhex(h["seed"]), tuple(SeatInfo(*s) for s in h["seats"]),
                        created=h["created"], game_name=h["game"], lang=h["lang"])


def test_the_writer_writes_the_vectors_bytes(tmp_path):
    path = tmp_path / "undo.tgrec"
    with RecordWriter.create(path, _header()) as writer:
        for e in VECTOR["entries"]:
            if "back_to" in e:
                writer.undo(e["back_to"], bytes.fromhex(e["digest"]))
                assert writer.next_index == e["back_to"]  # (the next move's number)
            else:
                assert writer.next_index == e["index"]
                writer.append(move_from_wire(e["wire"]), bytes.fromhex(e["digest"]))
    assert path.read_bytes().hex() == VECTOR["record_msgpack"]


def test_the_reader_makes_of_the_bytes_what_the_vector_says(tmp_path):
    path = tmp_path / "undo.tgrec"
    path.write_bytes(bytes.fromhex(VECTOR["record_msgpack"]))
    want = VECTOR["reader"]
    record = read_record(path)
    assert [str(m) for m in record.moves] == want["moves"]
    assert [d.hex() for d in record.digests] == want["digests"]
    game, notes = replay_with_undos(record)
    assert [{"back_to": u.back_to, "at": u.at, "digest": u.digest.hex(),
             "taken_back": [str(m) for m in u.moves], "seats": [s for s, _m in n.moves]}
            for u, n in zip(record.undos, notes, strict=True)] == want["undos"]
    assert record.taken_back == want["taken_back"] and game.draws() == want["draws"]
    assert game.digest().hex() == want["final_digest"] and game.is_over == want["over"]
    # the moves that stand are a game of their own: played from the start without the
    # undos, they reach the same state
    plain = Game([s[1] for s in VECTOR["header"]["seats"]])
    for text, digest in zip(want["moves"], want["digests"], strict=True):
        plain.apply(next(m for m in plain.legal_moves() if str(m) == text))
        assert plain.digest().hex() == digest
    # and `upto` replays a beginning of them
    assert replay_record(record, upto=4).digest().hex() == want["digests"][3]


def test_verify_checks_the_moves_taken_back_and_counts_the_undos(tmp_path):
    path = tmp_path / "undo.tgrec"
    path.write_bytes(bytes.fromhex(VECTOR["record_msgpack"]))
    run = subprocess.run([sys.executable, "-m", "tongiaki_lan", "verify", str(path), "--json"],
                         capture_output=True, text=True, timeout=60)
    out = json.loads(run.stdout)
    assert run.returncode == 0 and out["ok"], run.stdout
    assert out["moves"] == len(VECTOR["reader"]["moves"])
    assert out["undos"] == len(VECTOR["reader"]["undos"]) == 4
    assert out["taken_back"] == VECTOR["reader"]["taken_back"] == 7
    run = subprocess.run([sys.executable, "-m", "tongiaki_lan", "verify", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert "4 undos: 7 moves taken back, checked too" in run.stdout, run.stdout


@pytest.mark.parametrize("case", VECTOR["refused"], ids=lambda c: c["about"])
def test_a_record_whose_undo_breaks_the_rule_is_refused_with_its_reason(tmp_path, case):
    path = tmp_path / "bad.tgrec"
    path.write_bytes(bytes.fromhex(case["record_msgpack"]))
    with pytest.raises(RecordError) as refused:
        replay_record(read_record(path))
    assert case["reason"] in str(refused.value)


def test_a_move_taken_back_that_was_tampered_with_is_named(tmp_path):
    """The moves an undo took back are checked as any other: a changed digest on one of
    them is refused, though the game that stands does not contain it."""
    data = bytearray(bytes.fromhex(VECTOR["record_msgpack"]))
    first = next(e for e in VECTOR["entries"] if "index" in e)  # (taken back by the 1st undo)
    at = data.find(bytes.fromhex(first["digest"]))
    data[at] ^= 1
    path = tmp_path / "tampered.tgrec"
    path.write_bytes(bytes(data))
    record = read_record(path)
    assert record.moves and str(record.undos[0].moves[0]) == first["move"]
    with pytest.raises(RecordError, match="move 0 .*digest differs"):
        replay_record(record)


def test_a_record_with_undos_goes_on_where_the_game_stands(tmp_path):
    """A writer continuing it (`solo --resume`) numbers its next move after the moves that
    stand, and the record reads on."""
    path = tmp_path / "undo.tgrec"
    path.write_bytes(bytes.fromhex(VECTOR["record_msgpack"]))
    game = replay_record(read_record(path))
    with RecordWriter.open_append(path) as writer:
        assert writer.next_index == len(VECTOR["reader"]["moves"])
        move = game.legal_move(0)
        game.apply(move)
        writer.append(move, game.digest())
    record = read_record(path)
    assert len(record.moves) == len(VECTOR["reader"]["moves"]) + 1
    assert replay_record(record).digest() == game.digest() and len(record.undos) == 4

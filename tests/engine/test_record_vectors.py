"""protocol/vectors/record.json both ways: its bytes read to its header and entries and
replay (every digest and every fair draw checked); its header and entries write to
exactly its bytes; a record torn inside its last entry reads to the entries before it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import msgpack

from tongiaki_lan.engine import move_from_wire
from tongiaki_lan.records import (
    RecordHeader,
    RecordWriter,
    encode_entry,
    read_record,
    replay_record,
)

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
V = json.loads((VECTORS / "record.json").read_text(encoding="utf-8"))


def from_json(obj):
    if isinstance(obj, dict):
        return bytes.fromhex(obj["bin"])
    if isinstance(obj, list):
        return [from_json(x) for x in obj]
    return obj


def _proof(entry):
    return None if entry["values"] is None else [tuple(from_json(x)) for x in entry["values"]]


def test_record_json_is_what_its_generator_writes():
    spec = importlib.util.spec_from_file_location("generate_record",
                                                  VECTORS / "generate_record.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build() == (VECTORS / "record.json").read_text(encoding="utf-8"), (
        "record.json is stale: run protocol/vectors/generate_record.py")


def test_the_record_bytes_read_to_the_vector_entries_and_replay(tmp_path):
    path = tmp_path / "small.tgrec"
    path.write_bytes(bytes.fromhex(V["file"]))
    record = read_record(path)
    assert not record.truncated
    assert record.header.to_wire() == {k: from_json(v) for k, v in V["header"]}
    assert [m.to_wire() for m in record.moves] == [e["move"] for e in V["entries"]]
    assert [d.hex() for d in record.digests] == [e["digest"] for e in V["entries"]]
    assert record.proofs == [_proof(e) for e in V["entries"]]
    assert record.names == [(e["index"], tuple(e["names"])) for e in V["entries"]
                            if "names" in e]
    assert record.bots == [(e["index"], tuple(e["bots"])) for e in V["entries"] if "bots" in e]
    assert record.expulsions == [
        (e["index"], x[0], tuple(x[1]), *from_json(x[2:])) for e in V["entries"]
        for x in e.get("expelled", ())]
    replay_record(record)  # legal moves, fair draws from the committed chains, digests


def test_the_expulsion_in_the_vector_holds_as_verify_checks_it(tmp_path):
    """The record names the expelled laptop with its proof, which `verify` checks with the
    accused's key and the game replayed from the record (protocol/record.md): it holds,
    and the same proof with its false state put right does not."""
    import dataclasses

    from tongiaki_lan.cli.verify import check_expulsions
    from tongiaki_lan.net.protocol import codec as C
    from tongiaki_lan.net.protocol.identity import Identity
    from tongiaki_lan.net.protocol.proofs import sign_move

    path = tmp_path / "small.tgrec"
    path.write_bytes(bytes.fromhex(V["file"]))
    record = read_record(path)
    assert len(record.expulsions) == 1
    out, wrong = check_expulsions(record)
    assert wrong is None and out[0]["name"] == "Dan" and out[0]["proof"] == "refused-move"
    index, name, seats, game_id, raw = record.expulsions[0]
    proof = C.parse_message(msgpack.unpackb(raw, raw=False))
    st = proof.first
    after = record.digests[st.index]  # what the move gives: the statement put right
    dan = Identity.from_seed(bytes([4]) * 32)  # (the vector's generator signs with it)
    assert dan.public == proof.public
    honest = dataclasses.replace(proof, first=dataclasses.replace(st, after=after, sig=sign_move(
        dan, game_id, st.inc, st.index, st.before, after, st.move)))
    record.expulsions[0] = (index, name, seats, game_id, C.pack_message(honest))
    assert check_expulsions(record)[1] == (
        f"move {index}: the proof of Dan's expulsion does not hold: proof: the rules accept "
        f"move {st.index} and give the state it claims")


def test_the_vector_entries_write_to_the_record_bytes(tmp_path):
    header = RecordHeader.from_wire({k: from_json(v) for k, v in V["header"]})
    assert msgpack.packb(header.to_wire(), use_bin_type=True).hex() == V["header_bytes"]
    path = tmp_path / "small.tgrec"
    with RecordWriter.create(path, header, fsync=False) as writer:
        for e in V["entries"]:
            move = move_from_wire(e["move"])
            names, bots = e.get("names"), e.get("bots")
            expelled = [from_json(x) for x in e["expelled"]] if "expelled" in e else None
            args = (move, bytes.fromhex(e["digest"]), _proof(e),
                    None if names is None else tuple(names), None if bots is None else tuple(bots),
                    expelled)
            assert encode_entry(e["index"], *args).hex() == e["bytes"]
            writer.append(*args)
    assert path.read_bytes().hex() == V["file"]
    assert V["file"] == V["header_bytes"] + "".join(e["bytes"] for e in V["entries"])


def test_a_record_torn_inside_its_last_entry_reads_to_the_entries_before(tmp_path):
    path = tmp_path / "torn.tgrec"
    path.write_bytes(bytes.fromhex(V["torn"]["file"]))
    record = read_record(path)
    assert record.truncated and len(record.moves) == V["torn"]["entries"]
    assert [d.hex() for d in record.digests] == [e["digest"] for e in V["entries"][:-1]]
    RecordWriter.open_append(path, fsync=False).close()  # a writer cuts the torn entry off
    assert path.read_bytes().hex() == V["file"][:-len(V["entries"][-1]["bytes"])]

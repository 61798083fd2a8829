"""The implementation produces exactly the bytes of protocol/vectors/net/wire.json, reads
them back to the same envelope, and refuses each malformed datagram with its reason."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol.auth import derive_key
from tongiaki_lan.net.protocol.identity import Identity, peer_id_of

VECTORS = json.loads(
    (Path(__file__).parents[2] / "protocol" / "vectors" / "net" / "wire.json").read_text())


def from_json(obj):
    if isinstance(obj, dict):
        return bytes.fromhex(obj["bin"])
    if isinstance(obj, list):
        return [from_json(x) for x in obj]
    return obj


def key_for(v):
    return derive_key(v["passphrase"], bytes.fromhex(VECTORS["game_id"])) if v.get(
        "passphrase") else None


def test_kdf_vector():
    kdf = VECTORS["kdf"]
    assert derive_key(kdf["passphrase"], bytes.fromhex(kdf["game_id"])).hex() == kdf["key"]


@pytest.mark.parametrize("v", VECTORS["valid"], ids=lambda v: v["name"])
def test_valid_vector_encodes_to_exact_bytes_and_back(v):
    items = from_json(v["envelope"])
    env = C.Envelope(*items[:10], C.parse_message(items[10]))
    key = key_for(v)
    kx = v.get("kx", VECTORS["identity"]["kx"])  # probes carry no X25519 key (all zero)
    data = C.encode_datagram(env, key, IDENTITY, bytes.fromhex(kx))
    assert data.hex() == v["datagram"]
    assert len(data) <= C.MAX_DATAGRAM
    assert C.decode_datagram(data, key, require_signature=True) == env


IDENTITY = Identity.from_seed(bytes.fromhex(VECTORS["identity"]["seed"]))


def test_a_link_keyed_datagram_round_trips_and_the_pair_derives_one_key():
    from tongiaki_lan.net.protocol.identity import KeyExchange

    a, b = KeyExchange(), KeyExchange()
    ka = a.link_key(b"A" * 8, b"B" * 8, b.public)
    kb = b.link_key(b"B" * 8, b"A" * 8, a.public)
    assert ka == kb and len(ka) == 32
    assert KeyExchange().link_key(b"C" * 8, b"B" * 8, b.public) != ka
    env = C.Envelope(bytes(8), bytes(range(8)), 1, b"B" * 8, 0, 1, 0, 1, 0, 0, C.Chat("hi"))
    data = C.encode_datagram(env, None, link_key=ka)
    assert C.decode_datagram(data, None, True, link_key=lambda s, i: kb) == env
    with pytest.raises(C.WireError, match="without a link key"):
        C.decode_datagram(data, None, True, link_key=lambda s, i: None)


def test_identity_vector():
    v = VECTORS["identity"]
    assert IDENTITY.public.hex() == v["public"]
    assert peer_id_of(IDENTITY.public).hex() == IDENTITY.peer_id.hex() == v["peer"]


@pytest.mark.parametrize("v", VECTORS["refused"], ids=lambda v: v["name"])
def test_refused_vector_is_refused_with_its_reason(v):
    """Read as a node reads: every datagram must be signed or link-MACed (wire.md), so
    no vector depends on a switch the text does not have."""
    with pytest.raises(C.WireError) as err:
        link = bytes.fromhex(v["link_key"]) if "link_key" in v else None
        C.decode_datagram(bytes.fromhex(v["datagram"]), key_for(v), require_signature=True,
                          link_key=lambda sender, inc: link)
    assert str(err.value) == v["reason"]
    assert set(v) <= {"name", "datagram", "reason", "passphrase", "link_key"}


def _generator():
    spec = importlib.util.spec_from_file_location(
        "wire_vectors_generate", Path(__file__).parents[2] / "protocol" / "vectors" / "net"
        / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wire_json_is_exactly_what_its_generator_writes():
    """So a changed message or check shows up as a vector to regenerate, and the
    regenerated file still refuses each datagram for what it is named for (the generator
    stops otherwise): `python protocol/vectors/net/generate.py`."""
    generated = _generator().build()
    written = (Path(__file__).parents[2] / "protocol" / "vectors" / "net" / "wire.json"
               ).read_text(encoding="utf-8")
    assert generated == written, "wire.json is stale: run protocol/vectors/net/generate.py"


def test_refused_vectors_test_what_they_are_named_for_at_the_current_version():
    """bad-version, unknown-flags, truncated-msgpack and not-an-array were all refused for
    their version byte once the protocol moved on: each is now refused for its own fault,
    and every datagram but bad-version's (and those too short to have one) carries this
    version."""
    named = {name: why for name, _, why in _generator().REFUSED}
    by_name = {v["name"]: v for v in VECTORS["refused"]}
    assert named.keys() <= by_name.keys()
    for name, why in named.items():
        assert by_name[name]["reason"].startswith(why), name
    assert by_name["bad-version"]["reason"] == (
        f"unsupported protocol version {C.PROTOCOL_VERSION - 1}")
    assert by_name["unknown-flags"]["reason"] == "unknown flags 0x82"
    assert by_name["truncated-msgpack"]["reason"].startswith("malformed msgpack (")
    assert by_name["not-an-array"]["reason"].startswith("envelope: expected array, got ")
    for v in VECTORS["refused"]:
        data = bytes.fromhex(v["datagram"])
        if v["name"] not in ("bad-version", "empty") and len(data) > 2:
            assert data[2] == C.PROTOCOL_VERSION, v["name"]


def test_every_message_type_has_a_vector():
    types = {from_json(v["envelope"])[10][0] for v in VECTORS["valid"]}
    assert types == set(C.MESSAGE_TYPES)


def test_codec_colour_names_match_the_engine():
    # the lobby validates colours against the engine's list; a rename must show up here
    assert set(COLOURS) == {"blue", "red", "green", "yellow", "orange", "purple"}


def _frame(obj, flags=0) -> bytes:
    return C.MAGIC + bytes([C.PROTOCOL_VERSION, flags]) + msgpack.packb(obj, use_bin_type=True)


GOOD = C.Envelope(bytes(8), bytes(range(8)), 1, bytes(range(8, 16)), 0, 1, 0, 1, 0, 0,
                  C.MoveMsg(0, [2, 7], bytes(32)))


@pytest.mark.parametrize("mutate, reason", [
    (lambda w: w[:10], "envelope: expected 11 fields"),
    (lambda w: [*w[:3], b"short", *w[4:]], "envelope.dest: expected 8 bytes"),
    (lambda w: [*w[:3], 7, *w[4:]], "envelope.dest: expected bytes"),
    (lambda w: [*w[:6], -1, *w[7:]], "envelope.echo"),
    (lambda w: [*w[:2], -1, *w[3:]], "envelope.incarnation"),
    (lambda w: [*w[:2], True, *w[3:]], "envelope.incarnation"),
    (lambda w: [w[0][:4], *w[1:]], "envelope.game: expected 8 bytes"),
    (lambda w: [*w[:10], [99]], "message: unknown type 99"),
    (lambda w: [*w[:10], [30, "x", [2, 7], bytes(32), [], bytes(32), bytes(64)]], "move.index"),
    (lambda w: [*w[:10], [30, 0, [2, 7.5], bytes(32), [], bytes(32), bytes(64)]],
     "move.move: unexpected element"),
    (lambda w: [*w[:10], [30, 0, [[[[[[[[1]]]]]]]], bytes(32), [], bytes(32), bytes(64)]],
     "nested deeper"),
    (lambda w: [*w[:10], [30, 0, list(range(250)), bytes(32), [], bytes(32), bytes(64)]],
     "more than 200"),
    (lambda w: [*w[:10], [30, 0, [2, 7], bytes(32), [], bytes(32), bytes(63)]],
     "move.signature: expected 64 bytes"),
    (lambda w: [*w[:10], [30, 1, [2, 7], bytes(32), [[[2, 7], bytes(32), b"12345678", 1]],
                         bytes(32), bytes(64)]], "expected 2, 3 or 5 fields"),
    (lambda w: [*w[:10], [40, "bell\x07"]], "control characters"),
    (lambda w: [*w[:10], [30, 1, [2, 7], bytes(32), [[[2, 7], bytes(32)]] * 2, bytes(32),
                         bytes(64)]], "more moves than came before"),
    (lambda w: [*w[:10], [30, 9, [2, 7], bytes(32), [[[2, 7], bytes(32)]] * 5, bytes(32),
                         bytes(64)]], "more than 4"),
    (lambda w: [*w[:10], [11, 1, "lobby", "g", 1, False, [], [], b"", [], "standard", 15, 7, [],
                         [], b"", 0, b""]], "2 to 6 seats"),
    (lambda w: [*w[:10], [11, 1, "lobby", "g", 2, False, [], [], b"", [], "standard", 1, 7, [],
                         [], b"", 0, b""]], "lobby.draw_wait: at least 2 s"),
    (lambda w: [*w[:10], [11, 1, "lobby", "g", 2, False, [], [], b"", [], "standard", 15, 8, [],
                         [], b"", 0, b""]], "lobby.guests: expected integer 0..7, got 8"),
    (lambda w: [*w[:10], [11, 1, "lobby", "g", 2, False, [], [], b"", [], "standard", 15, 7, [],
                         [], b"k" * 32, 0, b""]],
     "lobby.author: a 32-byte key and a 64-byte signature, or neither"),
    (lambda w: [*w[:10], [11, 1, "lobby", "g", 2, False, [], [], b"", [], "standard", 15, 7, [],
                         [[b"12345678", 3], [b"12345678", 5]], b"", 0, b""]],
     "lobby.expelled: a member is listed twice"),
    (lambda w: [*w[:10], [45, 4, b"12345678", b"k" * 32, [], []]], "proof.kind: unknown kind 4"),
    (lambda w: [*w[:10], [45, 2, b"12345678", b"k" * 32,
                         [1, 2, bytes(32), [2, 7], bytes(32), bytes(64)],
                         [1, 2, bytes(32), [2, 7], bytes(32), bytes(64)]]],
     "proof.second: a refused move is proven by one statement"),
    (lambda w: [*w[:10], [45, 3, b"12345678", b"k" * 32, [1, 2, bytes(32)], []]],
     "proof.first: expected 4 fields"),
    (lambda w: [*w[:10], [37, b"\0" * 32, [b"\0" * 8], []]],
     "watch_state: one chain head per contributor"),
    (lambda w: [*w[:10], [39, 6, "Dan", ""]], "take_seat.seat: expected integer 0..5, got 6"),
    (lambda w: [*w[:10], [34, b"12345678", 3, True, b"short", b"p" * 32, b"s" * 64]],
     "farewell.value: expected 0 or 32 bytes"),
    (lambda w: [*w[:10], [34, b"12345678", 0, True, b"v" * 32, b"p" * 32, b"s" * 64]],
     "a value needs from_draw of at least 1"),
    (lambda w: [*w[:10], [1, "dancing", 0, 0, b"", b""]], "heartbeat.phase"),
    (lambda w: [*w[:10], [1, "playing", 0, 0, b"", b"1234"]],
     "heartbeat.lobby_hash: expected 0 or 8 bytes"),
    (lambda w: [*w[:10], {"a": 1}], "malformed msgpack"),
    (lambda w: [*w[:10], "move"], "message: expected array"),
])
def test_wrong_types_and_shapes_are_refused_with_a_reason(mutate, reason):
    data = _frame(mutate(GOOD.to_wire()))
    with pytest.raises(C.WireError) as err:
        C.decode_datagram(data)
    assert reason in str(err.value)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=1400))
def test_random_bytes_never_raise_anything_but_wire_error(data):
    try:
        C.decode_datagram(data)
    except C.WireError:
        pass
    try:
        C.decode_datagram(C.MAGIC + bytes([C.PROTOCOL_VERSION, 0]) + data)
    except C.WireError:
        pass


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=60))
def test_truncated_datagrams_are_refused(cut):
    data = C.encode_datagram(GOOD)
    with pytest.raises(C.WireError):
        C.decode_datagram(data[:max(0, len(data) - cut)])


def test_seed_agreement_vectors():
    from tongiaki_lan.net.protocol.core import bot_seed
    from tongiaki_lan.net.protocol.seed import combine, commitment, seed_check

    v = VECTORS["seed_agreement"]
    gid, nonce = bytes.fromhex(v["game_id"]), bytes.fromhex(v["nonce"])
    for p in v["participants"]:
        assert commitment(gid, nonce, bytes.fromhex(p["peer"]),
                          bytes.fromhex(p["secret"])).hex() == p["commitment"]
    seed = combine(gid, nonce, [bytes.fromhex(p["secret"]) for p in v["participants"]])
    assert seed.hex() == v["seed"]
    chains = [bytes.fromhex(p["chain"]) for p in v["participants"]]
    assert seed_check(seed, chains).hex() == v["seed_check"]
    for b in v["bot_seeds"]:
        assert isinstance(b["bot_seed"], str)  # uint64 as a decimal string (wire.md)
        assert bot_seed(seed, b["seat"], b["index"]) == int(b["bot_seed"])


def test_participant_order_vector_is_first_seat_then_join_order():
    """The one order of the seed's secrets, SEED_OK's chain heads and the fair draws'
    contributors (seed-agreement.md), on a lobby where it differs from join order."""
    from tongiaki_lan.net.protocol import lobby as L

    v = VECTORS["seed_agreement"]["participant_order"]
    members = tuple(C.Member(bytes.fromhex(p), "10.0.0.1", 1)
                    for p in v["members_in_join_order"])
    seats = tuple(C.Seat("human", f"P{i}", colour, bytes.fromhex(o), True)
                  for i, (o, colour) in enumerate(zip(v["seat_owners_in_seat_order"],
                                                      ("blue", "red", "green", "yellow"),
                                                      strict=True)))
    lobby = C.Lobby(1, "starting", "g", 4, False, seats, members, bytes(8))
    assert [p.hex() for p in L.seed_order(lobby)] == v["participant_order"]
    assert v["participant_order"] != v["members_in_join_order"]


def test_link_key_vector_both_sides_derive_it_and_a_zero_key_gives_none():
    from tongiaki_lan.net.protocol.identity import KeyExchange

    v = VECTORS["link_key"]
    a, b = (KeyExchange.from_private(bytes.fromhex(v[s]["x25519_private"])) for s in "ab")
    pa, pb = bytes.fromhex(v["a"]["peer"]), bytes.fromhex(v["b"]["peer"])
    assert (a.public.hex(), b.public.hex()) == (v["a"]["x25519_public"],
                                                v["b"]["x25519_public"])
    assert a.link_key(pa, pb, b.public).hex() == v["key"]
    assert b.link_key(pb, pa, a.public).hex() == v["key"]
    for bad in v["no_key_for"]:
        assert a.link_key(pa, pb, bytes.fromhex(bad)) is None


CONFORMANCE = (Path(__file__).parents[2] / "protocol" / "conformance.md").read_text(
    encoding="utf-8")


def test_conformance_lists_every_message_type():
    """protocol/conformance.md has a row, with its fields, for every message the codec
    knows: a new message needs its line there before a second client can read it."""
    table = CONFORMANCE[CONFORMANCE.index("\n## Messages"):]
    table = table[:table.index("\n## ", 1)]
    for t, cls in C.MESSAGE_TYPES.items():
        row = next((line for line in table.splitlines()
                    if line.startswith(f"| {t} | ")), None)
        assert row is not None, f"type {t} ({cls.__name__}) is not in conformance.md"
        fields = [f for f in cls.__dataclass_fields__ if f not in ("TYPE", "RELIABLE")]
        cells = row.split(" | ")[2]
        assert cells == "–" if not fields else cells.count(":") >= len(fields), row


def test_conformance_lists_every_refuse_text_a_node_sends():
    """The texts that travel in REFUSE are the ones a console translates and one a node
    acts on (a seat given to a newcomer): a second client reads and sends them from
    protocol/conformance.md, so the page lists each one the reference sends."""
    from tongiaki_lan.net.protocol import handover as H
    from tongiaki_lan.net.protocol import lobby as L

    local = {L.NO_ANSWER, L.NO_ANSWER_PASSPHRASE, L.NO_ANSWER_WITHIN,
             L.NO_ANSWER_WITHIN_PASSPHRASE, L.GAME_ENDED,
             L.PASSPHRASE_NEEDED}  # (a watcher's own word: nothing was sent)
    sent = [r for r in L.REFUSALS if r not in local]
    sent += [H.NOBODY_PLAYS, H.IS_HERE_SHORT, H.HEARD_THROUGH]
    for text in sent:
        assert f"`{text}`" in CONFORMANCE, text

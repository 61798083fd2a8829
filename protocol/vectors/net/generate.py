"""Regenerate wire.json: `python protocol/vectors/net/generate.py`.

Only needed when the protocol version changes; tests/net/test_codec_vectors.py checks that
the implementation still produces exactly these bytes.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from tongiaki_lan.draws import Chain
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.auth import derive_key
from tongiaki_lan.net.protocol.core import bot_seed
from tongiaki_lan.net.protocol.identity import Identity, KeyExchange
from tongiaki_lan.net.protocol.proofs import lobby_statement, sign_lobby, sign_move
from tongiaki_lan.net.protocol.seed import combine, commitment, seed_check

GAME = bytes.fromhex("0123456789abcdef")
ID_A = Identity.from_seed(bytes(range(100, 132)))
ID_B = Identity.from_seed(bytes(range(200, 232)))
INC_A = 1700000000000000  # A's incarnation in every vector's envelope
INC_B = 1700000000000002
A = ID_A.peer_id
KX_A = bytes(range(64, 96))  # an X25519 public key as it travels (opaque to the codec)
B = ID_B.peer_id
DIG = bytes(range(32))
VAL = bytes(range(200, 232))  # a chain value of a fair draw
SEAT = C.Seat("human", "Ana", "blue", A, True)
BOT = C.Seat("bot", "Maui (random)", "red", A, True, "random")

DIG2 = bytes(range(32, 64))


def signed(lobby: C.Lobby) -> C.Lobby:
    """Every lobby is signed by its author (here A, in the envelope's run): security.md,
    "Signed lobbies"."""
    return sign_lobby(ID_A, GAME, INC_A, lobby)


def move(index: int, wire: list, after: bytes, before: bytes, prev: tuple = ()) -> C.MoveMsg:
    """A MOVE as A sends it: signed over its statement (security.md, "Signed moves")."""
    return C.MoveMsg(index, wire, after, prev, before,
                     sign_move(ID_A, GAME, INC_A, index, before, after, wire))


def stamped(index: int, wire: list, after: bytes, before: bytes) -> tuple:
    """A move of B's as it rides in a LOG or a MOVE's `prev`: with B's stamp."""
    return (wire, after, C.Stamp(B, INC_B, sign_move(ID_B, GAME, INC_B, index, before, after,
                                                      wire)))


def b_statement(index: int, wire: list, before: bytes, after: bytes,
                inc: int = INC_B) -> C.MoveStatement:
    return C.MoveStatement(inc, index, before, wire, after,
                           sign_move(ID_B, GAME, inc, index, before, after, wire))


def b_lobby(draw_wait: int) -> C.LobbyStatement:
    lobby = sign_lobby(ID_B, GAME, INC_B, C.Lobby(
        14, "playing", "Friday night", 2, False, (SEAT, BOT),
        (C.Member(A, "10.0.0.1", 40000), C.Member(B, "0.0.0.0", 40001)), bytes(range(8)),
        draw_wait=draw_wait))
    return lobby_statement(lobby)


# A leaves for good; its game waits on draw 4, so it gives its value for draw 4 and
# contributes nothing from draw 5 on (protocol/draws.md, "Leaving on purpose")
FAREWELL = C.Farewell(A, 5, True, VAL, ID_A.public,
                      ID_A.sign(C.farewell_bytes(GAME, A, 5, True, VAL)))

MESSAGES = [
    ("heartbeat-lobby", C.Heartbeat("lobby", 3, 0, b"")),
    ("heartbeat-playing", C.Heartbeat("playing", 9, 17, DIG, bytes(range(8)))),
    ("ack", C.Ack()),
    ("join", C.Join("Tevita", "green")),
    ("join-bot-laptop", C.Join("Kai", "", "normal")),
    ("lobby", signed(C.Lobby(4, "lobby", "Friday night", 4, False, (SEAT, BOT),
                             (C.Member(A, "0.0.0.0", 40000), C.Member(B, "10.0.0.7", 40001))))),
    ("lobby-starting", signed(C.Lobby(5, "starting", "Friday night", 2, True, (SEAT, BOT),
                                      (C.Member(A, "0.0.0.0", 40000),), bytes(range(8))))),
    ("lobby-dropped", signed(C.Lobby(9, "playing", "Friday night", 2, False, (SEAT, BOT),
                                     (C.Member(A, "0.0.0.0", 40000),), bytes(range(8)),
                                     ((1, 4),)))),
    # B was expelled on a proof; the table's bot plays its seat from move 40 on and its
    # chain is left out from draw 9 (security.md, "Expelled")
    ("lobby-expelled", signed(C.Lobby(
        15, "playing", "Friday night", 2, False,
        (SEAT, C.Seat("human", "Kai", "green", B, True, "normal")),
        (C.Member(A, "0.0.0.0", 40000),), bytes(range(8)), ((1, 9),), expelled=((B, 40),)))),
    # B was left out from draw 4, came back and committed to a fresh chain, taken from draw
    # 9 on as contributor 2 (protocol/draws.md, "Taking part again")
    ("lobby-chain-taken", signed(C.Lobby(
        12, "playing", "Friday night", 2, False, (SEAT, BOT),
        (C.Member(A, "0.0.0.0", 40000), C.Member(B, "10.0.0.7", 40001)),
        bytes(range(8)), ((1, 4),), chains=((B, DIG, 9),)))),
    ("new-chain", C.NewChain(DIG)),
    # a laptop that plays its seat with a bot (`play --headless --bot normal`)
    ("lobby-bot-laptop", signed(C.Lobby(
        3, "lobby", "Friday night", 3, False,
        (SEAT, C.Seat("human", "Kai", "green", B, False, "", "normal")),
        (C.Member(A, "0.0.0.0", 40000), C.Member(B, "10.0.0.7", 40001))))),
    # two colours each (docs/rules.md V1) once started: each player seated twice, A1 B1 A2 B2
    ("lobby-two-colours", signed(C.Lobby(
        6, "starting", "Duo", 4, False,
        (SEAT, BOT, C.Seat("human", "Ana", "green", A, True),
         C.Seat("bot", "Maui (random)", "yellow", A, True, "random")),
        (C.Member(A, "0.0.0.0", 40000),), bytes(range(8)), variant="two-colours"))),
    ("set", C.SetSeat("Tevita", "yellow")),
    ("ready", C.Ready(True)),
    ("add-bot", C.AddBot("random", "")),
    ("remove-bot", C.RemoveBot("red")),
    ("leave", C.Leave()),
    ("start", C.Start()),
    ("refuse", C.Refuse("game 'Friday night' is full")),
    ("commit", C.Commit(bytes(range(8)), DIG, bytes(range(100, 132)))),
    ("reveal", C.Reveal(bytes(range(8)), bytes(range(32, 64)))),
    ("abort", C.Abort(bytes(range(8)), "Ana (a0a1a2a3): reveal does not match its commitment")),
    ("move", move(12, [2, 7], DIG, DIG2)),
    # moves 10 and 11 ride along: B's with B's stamp, one of a record before a restart
    # without (security.md, "Signed moves")
    ("move-prev", move(12, [2, 7], DIG, DIG2, (
        stamped(10, [5, 1, [0, 2]], DIG2, VAL), ([2, 3], DIG2)))),
    ("fetch", C.Fetch(40)),
    ("log", C.Log(40, 42, (stamped(40, [2, 7], DIG, VAL), ([5, 1, [0, 2]], DIG)))),
    ("log-reveal", C.Log(40, 42, (stamped(40, [2, 7], DIG, VAL),
                                  ([10, 17], DIG, ((0, VAL), (2, VAL)))))),
    ("move-prev-reveal", move(13, [2, 7], DIG, DIG2, (([10, 17], DIG2, ((0, VAL),)),))),
    ("draw", C.Draw(4, ((1, VAL),))),
    ("farewell-for-good", FAREWELL),
    ("farewell-back-soon", C.Farewell(A, 3, False, b"", ID_A.public,
                                      ID_A.sign(C.farewell_bytes(GAME, A, 3, False, b"")))),
    ("set-wait", C.SetWait(30)),
    ("lobby-draw-wait", C.Lobby(4, "lobby", "Friday night", 4, False, (SEAT,),
                                (C.Member(A, "0.0.0.0", 40000),), draw_wait=30)),
    ("lobby-guests", C.Lobby(12, "playing", "Friday night", 2, False, (SEAT, BOT),
                             (C.Member(A, "0.0.0.0", 40000),), bytes(range(8)),
                             guests=C.GUEST_WATCH)),
    # guests (protocol/watching.md)
    ("watch", C.Watch("Dan")),
    ("watch-state", C.WatchState(DIG, (A, B), (bytes(range(100, 132)), VAL))),
    ("watchers", C.Watchers(((B, "Dan"), (A, "Eve")))),
    ("take-seat", C.TakeSeat(1, "Dan")),
    ("take-seat-bot-laptop", C.TakeSeat(2, "Kai", "easy")),
    ("away-list", C.AwayList((A, B))),
    ("chat-from-watcher", C.ChatFrom(B, "Dan", "go blue!", True)),
    ("set-guests", C.SetGuests(C.GUEST_WATCH | C.GUEST_CHAT)),
    ("chat", C.Chat("malo e lelei 👋")),
    ("seed-ok", C.SeedOk(bytes(range(8)), DIG)),
    # proofs against B (security.md, "Proof of misbehaviour"; the cases: vectors/net/
    # proofs.json)
    ("proof-two-moves", C.Proof(C.PROOF_TWO_MOVES, B, ID_B.public,
                                b_statement(20, [2, 7], DIG, DIG2),
                                b_statement(20, [2, 8], DIG, VAL))),
    ("proof-refused-move", C.Proof(C.PROOF_REFUSED_MOVE, B, ID_B.public,
                                   b_statement(20, [2, 99], DIG, DIG2))),
    ("proof-two-lobbies", C.Proof(C.PROOF_TWO_LOBBIES, B, ID_B.public, b_lobby(15),
                                  b_lobby(22))),
    ("probe", C.Probe(bytes(range(16)))),
    ("probe-answer", C.ProbeAnswer(bytes(range(16)), 1700000000123456, bytes(range(8)))),
]

BAD = [
    ("empty", b""),
    ("bad-magic", b"XX\x02\x00\x99"),
    ("bad-version", b"TK\x09\x00\x99"),
    ("unknown-flags", b"TK\x04\x80\x99"),
    ("truncated-msgpack", b"TK\x04\x00\x99\xc4\x08\x01\x23"),
    ("oversized", b"TK\x04\x00" + b"\x00" * 1300),
    ("not-an-array", b"TK\x04\x00\xa3abc"),
]


def j(obj):
    if isinstance(obj, bytes):
        return {"bin": obj.hex()}
    if isinstance(obj, list | tuple):
        return [j(x) for x in obj]
    return obj


def participant_order_vector() -> dict:
    """The order of the seed's secrets, the chain heads in SEED_OK's check and the fair
    draws' contributors: nodes by their first seat, then seatless members in join order.
    Chosen so that it differs from join order and from seat order with repeats."""
    c, d = bytes.fromhex("c0c1c2c3c4c5c6c7"), bytes.fromhex("d0d1d2d3d4d5d6d7")
    members = (C.Member(B, "10.0.0.2", 1), C.Member(A, "10.0.0.1", 1),
               C.Member(d, "10.0.0.4", 1), C.Member(c, "10.0.0.3", 1))
    seats = (C.Seat("human", "Ana", "blue", A, True),
             C.Seat("bot", "Maui (random)", "red", A, True, "random"),
             C.Seat("human", "Cy", "green", c, True),
             C.Seat("human", "Bo", "yellow", B, True))
    lobby = C.Lobby(7, "starting", "order", 4, False, seats, members, bytes(8))
    return {"members_in_join_order": [m.peer.hex() for m in members],
            "seat_owners_in_seat_order": [s.owner.hex() for s in seats],
            "participant_order": [p.hex() for p in L.seed_order(lobby)]}


def link_key_vector() -> dict:
    """Two nodes' X25519 keys for one run and the link key both derive
    (security.md, 'Link keys'); an all-zero peer key gives no link key at all."""
    xa, xb = KeyExchange.from_private(bytes(range(1, 33))), KeyExchange.from_private(
        bytes(range(33, 65)))
    ka, kb = xa.link_key(A, B, xb.public), xb.link_key(B, A, xa.public)
    assert ka == kb and ka is not None
    assert xa.link_key(A, B, bytes(32)) is None
    return {"a": {"peer": A.hex(), "x25519_private": bytes(range(1, 33)).hex(),
                  "x25519_public": xa.public.hex()},
            "b": {"peer": B.hex(), "x25519_private": bytes(range(33, 65)).hex(),
                  "x25519_public": xb.public.hex()},
            "key": ka.hex(),
            "no_key_for": [bytes(32).hex()]}


def proof_vectors() -> dict:
    """proofs.json: PROOF cases a second client checks both ways (the message's bytes and
    fields) and by the rule of security.md, "Checking a proof": whether it holds, else
    the exact refusal. A refused-move proof is checked against the checker's own game:
    `game` gives it (the colours and the moves before the statement, reveals included;
    the engine replays them, moves.md and state.md)."""
    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.engine import Dealer, Game
    from tongiaki_lan.net.protocol import proofs as P

    game = Game(["blue", "red"])
    dealer = Dealer(bytes(range(32)))
    bot = make_bot("random", seed=7)
    dealer.deal(game)
    while len(game.moves) < 12 or game.pending is None or game.pending.seat is None:
        dealer.apply(game, bot.choose(game))
    n = len(game.moves)
    before = game.digest()
    legal = game.legal_moves()
    good = game.copy()
    good.apply(legal[0])
    after = good.digest()

    def st(index, wire, b, a, inc=INC_B, ident=ID_B):
        return C.MoveStatement(inc, index, b, wire, a, sign_move(ident, GAME, inc, index, b, a,
                                                                 wire))

    genuine = st(n, legal[0].to_wire(), before, after)
    other = st(n, legal[1].to_wire(), before, DIG2)
    lie_after = st(n + 1, [2, 7], DIG2, VAL)  # claims another state before move n+1
    follows = st(n + 1, [2, 7], after, VAL)
    forged = dataclasses.replace(other, sig=ID_A.sign(other.signed_bytes(GAME, B)))
    lob15, lob22 = b_lobby(15), b_lobby(22)
    lob_v = dataclasses.replace(lob22, version=lob22.version + 1)
    lob_v = dataclasses.replace(lob_v, sig=ID_B.sign(lob_v.signed_bytes(GAME, B)))
    K1, K2, K3 = C.PROOF_TWO_MOVES, C.PROOF_REFUSED_MOVE, C.PROOF_TWO_LOBBIES
    cases = [
        ("two-moves-one-index", C.Proof(K1, B, ID_B.public, genuine, other), None),
        ("two-moves-that-do-not-follow", C.Proof(K1, B, ID_B.public, genuine, lie_after), None),
        ("refused-move-illegal", C.Proof(K2, B, ID_B.public, st(n, [2, 99, [99]], before, DIG)),
         None),
        ("refused-move-false-state", C.Proof(K2, B, ID_B.public, st(n, legal[0].to_wire(),
                                                                    before, DIG2)), None),
        ("two-lobbies", C.Proof(K3, B, ID_B.public, lob15, lob22), None),
        ("not-the-key", C.Proof(K1, B, ID_A.public, genuine, other), P.NOT_THE_KEY),
        ("bad-signature", C.Proof(K1, B, ID_B.public, genuine, forged),
         P.BAD_SIGNATURE.format(which="second")),
        ("two-runs", C.Proof(K1, B, ID_B.public, genuine,
                             st(n, legal[1].to_wire(), before, DIG2, inc=INC_B + 1)), P.TWO_RUNS),
        ("same", C.Proof(K1, B, ID_B.public, genuine, genuine), P.SAME),
        ("consistent", C.Proof(K1, B, ID_B.public, genuine, follows),
         P.CONSISTENT.format(a=n, b=n + 1)),
        ("apart", C.Proof(K1, B, ID_B.public, genuine, st(n + 2, [2, 7], DIG2, VAL)),
         P.APART.format(a=n, b=n + 2)),
        ("engine-agrees", C.Proof(K2, B, ID_B.public, genuine), P.ENGINE_AGREES.format(index=n)),
        ("not-this-game", C.Proof(K2, B, ID_B.public, st(n, legal[0].to_wire(), DIG, after)),
         P.NOT_OUR_STATE.format(index=n)),
        ("two-versions", C.Proof(K3, B, ID_B.public, lob15, lob_v),
         P.TWO_VERSIONS.format(a=lob15.version, b=lob_v.version)),
    ]

    def state_before(index):
        if index > n:
            return None
        g = Game(["blue", "red"])
        for m in game.moves[:index]:
            g.apply(m)
        return g

    out = []
    for name, proof, reason in cases:
        got = P.check_proof(proof, GAME, state_before)
        assert got == reason, (name, got, reason)
        first = proof.first
        out.append({
            "name": name,
            "message": j(proof.to_wire()),
            "bytes": C.pack_message(proof).hex(),
            "first_signed_bytes": first.signed_bytes(GAME, B).hex(),
            "holds": reason is None,
            "reason": reason,
        })
    return {
        "protocol": C.PROTOCOL_VERSION,
        "game_id": GAME.hex(),
        "accused": {"peer": B.hex(), "public": ID_B.public.hex()},
        "game": {"colours": ["blue", "red"],
                 "moves": [m.to_wire() for m in game.moves],
                 "digest_after_moves": before.hex()},
        "cases": out,
    }


def main() -> None:
    key = derive_key("correct horse", GAME)
    vectors = []
    for i, (name, msg) in enumerate(MESSAGES):
        env = C.Envelope(GAME, A, INC_A, 1700000000000001 if i % 2 else 0,
                         100 + i, i if msg.RELIABLE else 0, 7, 0b101, msg)
        for k in (None, key):
            vectors.append({
                "name": name + ("-mac" if k else ""),
                "passphrase": "correct horse" if k else None,
                "envelope": j(env.to_wire()),
                "datagram": C.encode_datagram(env, k, ID_A, KX_A).hex(),
            })
    # probes travel outside any game: game id 0, every counter 0, signed without an
    # X25519 key (protocol/wire.md, "Probe")
    for name, msg in (("probe-frame", C.Probe(bytes(range(16)))),
                      ("probe-answer-frame", C.ProbeAnswer(bytes(range(16)), 1700000000123456,
                                                           GAME))):
        env = C.Envelope(C.NO_GAME, A, 0, 0, 0, 0, 0, 0, msg)
        vectors.append({"name": name, "passphrase": None, "kx": C.NO_KX.hex(),
                        "envelope": j(env.to_wire()),
                        "datagram": C.encode_datagram(env, None, ID_A).hex()})
    refused = []
    for name, data in BAD:
        try:
            C.decode_datagram(data)
            raise SystemExit(f"{name} was accepted")
        except C.WireError as exc:
            refused.append({"name": name, "datagram": data.hex(), "reason": str(exc)})
    # a valid datagram checked with the wrong key
    env = C.Envelope(GAME, A, 1, 0, 1, 1, 0, 0, C.Chat("hi"))
    wrong = C.encode_datagram(env, derive_key("wrong", GAME))
    refused.append({"name": "wrong-passphrase", "datagram": wrong.hex(),
                    "passphrase": "correct horse",
                    "reason": "bad MAC (wrong or missing passphrase)"})
    plain = C.encode_datagram(env)
    refused.append({"name": "missing-mac", "datagram": plain.hex(), "passphrase": "correct horse",
                    "reason": "unauthenticated datagram in a game that needs a passphrase"})
    signed = C.encode_datagram(env, None, ID_A, KX_A)
    link = C.encode_datagram(env, None, link_key=bytes(range(32)))
    refused.append({"name": "bad-link-mac", "datagram": link.hex(), "link_key": "00" * 32,
                    "reason": "bad link MAC"})
    refused.append({"name": "unsigned", "datagram": plain.hex(), "require_signature": True,
                    "reason": "unsigned datagram"})
    forged = C.encode_datagram(C.Envelope(GAME, B, 1, 0, 1, 1, 0, 0, C.Chat("hi")), None, ID_A)
    refused.append({"name": "impersonation", "datagram": forged.hex(),
                    "reason": "sender id does not belong to the signing key (impersonation?)"})
    too_far = C.encode_datagram(C.Envelope(GAME, A, 1, 0, 1, 1, 0, 0, C.Draw(32, ((0, VAL),))))
    try:
        C.decode_datagram(too_far)
        raise SystemExit("a DRAW beyond the chain was accepted")
    except C.WireError as exc:
        refused.append({"name": "draw-beyond-chain", "datagram": too_far.hex(),
                        "reason": str(exc)})
    tampered = bytearray(signed)
    tampered[-10] ^= 1  # a bit of the signature
    refused.append({"name": "bad-signature", "datagram": bytes(tampered).hex(),
                    "reason": "bad signature"})
    nonce = bytes.fromhex("1122334455667788")
    peers = [A, B, bytes.fromhex("c0c1c2c3c4c5c6c7")]
    secrets = [bytes([i]) * 32 for i in (1, 2, 3)]
    chains = [Chain(bytes([0x40 + i]) * 32).commitment for i in (1, 2, 3)]
    seed_vec = {
        "game_id": GAME.hex(), "nonce": nonce.hex(),
        "participants": [
            {"peer": p.hex(), "secret": x.hex(), "commitment": commitment(GAME, nonce, p, x).hex(),
             "chain": c.hex()}
            for p, x, c in zip(peers, secrets, chains, strict=True)],
        "seed": combine(GAME, nonce, secrets).hex(),
        "seed_check": seed_check(combine(GAME, nonce, secrets), chains).hex(),
        # uint64: written as decimal strings, since many JSON readers lose 64-bit precision
        "bot_seeds": [{"seat": st, "index": ix,
                       "bot_seed": str(bot_seed(combine(GAME, nonce, secrets), st, ix))}
                      for st, ix in ((0, 0), (3, 41), (5, 300))],
        "participant_order": participant_order_vector(),
    }
    out = {
        "protocol": C.PROTOCOL_VERSION,
        "game_id": GAME.hex(),
        "identity": {"seed": ID_A.seed().hex(), "public": ID_A.public.hex(),
                     "peer": ID_A.peer_id.hex(), "kx": KX_A.hex()},
        "kdf": {"passphrase": "correct horse", "game_id": GAME.hex(), "key": key.hex()},
        "link_key": link_key_vector(),
        "valid": vectors,
        "refused": refused,
    }
    path = Path(__file__).with_name("wire.json")
    lines = ["{"]
    out["seed_agreement"] = seed_vec
    signed = C.farewell_bytes(GAME, A, FAREWELL.from_draw, True, VAL)
    out["farewell"] = {"leaver": A.hex(), "from_draw": FAREWELL.from_draw, "for_good": True,
                       "value": VAL.hex(), "signed_bytes": signed.hex(),
                       "signature": FAREWELL.signature.hex()}
    for k in ("protocol", "game_id", "identity", "kdf", "link_key", "seed_agreement",
              "farewell"):
        lines.append(f" {json.dumps(k)}: {json.dumps(out[k])},")
    for k in ("valid", "refused"):
        lines.append(f" {json.dumps(k)}: [")
        rows = [f"  {json.dumps(v, ensure_ascii=False)}" for v in out[k]]
        lines.append(",\n".join(rows))
        lines.append(" ]," if k == "valid" else " ]")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {len(vectors)} valid and {len(refused)} refused vectors to {path}")
    proofs = proof_vectors()
    ppath = Path(__file__).with_name("proofs.json")
    rows = ",\n".join(f"  {json.dumps(c, ensure_ascii=False)}" for c in proofs.pop("cases"))
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in proofs.items())
    ppath.write_text("{\n" + head + ',\n "cases": [\n' + rows + "\n ]\n}\n")
    print(f"wrote the proof cases to {ppath}")


if __name__ == "__main__":
    main()

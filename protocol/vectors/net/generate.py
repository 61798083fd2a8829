"""Regenerate wire.json: `python protocol/vectors/net/generate.py`.

Needed whenever a message, a check or the protocol version changes: wire.json is exactly
what this script writes (tests/net/test_codec_vectors.py runs it and compares), and the
implementation must still produce and refuse exactly these bytes. Every refused datagram
is built at the current version and, past the check that a signature or link MAC is
there, signed, so that each is refused for what it is named for (`REFUSED_FOR`).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import msgpack

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
SIG = bytes(range(64))  # a signature's place in a refused vector (never checked there)


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
    # an Expand, then its ChooseBeaches (beaches 1 and 3) and the move itself: the Expand
    # is B's, with B's stamp; the ChooseBeaches rides without one, as from a record before
    # a restart (security.md, "Signed moves")
    ("move-prev", move(12, [6, 10, 1], DIG, DIG2, (
        stamped(10, [2, 7], DIG2, VAL), ([5, [0, 2]], DIG2)))),
    ("fetch", C.Fetch(40)),
    ("log", C.Log(40, 42, (stamped(40, [2, 7], DIG, VAL), ([5, [0, 2]], DIG)))),
    ("log-reveal", C.Log(40, 42, (stamped(40, [2, 7], DIG, VAL),
                                  ([10, 17], DIG, ((0, VAL), (2, VAL)))))),
    ("move-prev-reveal", move(13, [2, 7], DIG, DIG2, (([10, 17], DIG2, ((0, VAL),)),))),
    ("draw", C.Draw(4, ((1, VAL),))),
    ("farewell-for-good", FAREWELL),
    ("farewell-back-soon", C.Farewell(A, 3, False, b"", ID_A.public,
                                      ID_A.sign(C.farewell_bytes(GAME, A, 3, False, b"")))),
    ("set-wait", C.SetWait(30)),
    ("lobby-draw-wait", signed(C.Lobby(4, "lobby", "Friday night", 4, False, (SEAT,),
                                       (C.Member(A, "0.0.0.0", 40000),), draw_wait=30))),
    ("lobby-guests", signed(C.Lobby(12, "playing", "Friday night", 2, False, (SEAT, BOT),
                                    (C.Member(A, "0.0.0.0", 40000),), bytes(range(8)),
                                    guests=C.GUEST_WATCH))),
    # guests (protocol/watching.md)
    ("watch", C.Watch("Dan")),
    ("watch-state", C.WatchState(DIG, (A, B), (bytes(range(100, 132)), VAL))),
    ("watchers", C.Watchers(((B, "Dan"), (A, "Eve")))),
    ("take-seat", C.TakeSeat(1, "Dan")),
    ("take-seat-bot-laptop", C.TakeSeat(2, "Kai", "easy")),
    ("away-list", C.AwayList(tuple(sorted((A, B))))),  # in byte order (wire.md)
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

def pack(obj) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def frame(body: bytes, flags: int = C.FLAG_SIGNED, version: int = C.PROTOCOL_VERSION,
          sign: bool = True) -> bytes:
    """A datagram around any envelope bytes, well-formed or not, signed by A as every
    datagram must be (wire.md): so a malformed one is refused for being malformed."""
    data = C.MAGIC + bytes([version, flags]) + body
    if sign:
        data += ID_A.public + KX_A
        data += ID_A.sign(data)
    return data


def env_bytes(message: list, seq: int = 1) -> bytes:
    """An envelope from A to B in GAME around a message given in its wire form."""
    return pack(fields(GAME, A, 1, 0, 1, seq, 0, 0, message))


def fields(game, sender, inc, dest_inc, pkt, seq, ack, sack, message, dest=None, echo=0):
    """An envelope's eleven fields in wire order (wire.md): the receiver `dest` (B unless
    told) after the incarnation, the `echo` after `pkt`; given as they were before
    version 10, so each refused vector below still reads as the check it tests."""
    return [game, sender, inc, B if dest is None else dest, dest_inc, pkt, echo, seq, ack,
            sack, message]


def good(message: list, seq: int = 1) -> bytes:
    return frame(env_bytes(message, seq))


LOBBY = C.Lobby(4, "lobby", "Friday night", 4, False, (SEAT,),
                (C.Member(A, "0.0.0.0", 40000),)).to_wire()
# a move statement and a lobby statement of B's as a PROOF carries them (their signatures
# are never checked by the decoder: a refused vector is refused before)
STATEMENT = b_statement(20, [2, 7], DIG, DIG2).to_wire()
LOBBY_STATEMENT = b_lobby(15).to_wire()
CHAT = env_bytes([40, "hi"])
SIGNED_CHAT = frame(CHAT)

# (name, datagram, what the refusal must be: the start of its reason). Each tests one
# check of wire.md's "Refusals" at the current version; a refused vector that came to be
# refused for something else (as bad-version did at version 9) fails the generator.
REFUSED = [
    ("empty", b"", "runt datagram"),
    ("runt", C.MAGIC + bytes([C.PROTOCOL_VERSION, C.FLAG_SIGNED]), "runt datagram"),
    ("oversized", frame(pack(fields(GAME, A, 1, 0, 1, 1, 0, 0, [40, "x" * 1100]))),
     "oversized datagram"),
    ("bad-magic", b"XX" + SIGNED_CHAT[2:], "not a tongiaki datagram"),
    ("bad-version", SIGNED_CHAT[:2] + bytes([C.PROTOCOL_VERSION - 1]) + SIGNED_CHAT[3:],
     "unsupported protocol version"),
    ("unknown-flags", SIGNED_CHAT[:3] + bytes([C.FLAG_SIGNED | 0x80]) + SIGNED_CHAT[4:],
     "unknown flags"),
    ("signed-and-link-mac",
     SIGNED_CHAT[:3] + bytes([C.FLAG_SIGNED | C.FLAG_LINK_MAC]) + SIGNED_CHAT[4:],
     "unknown flags"),
    ("too-short-for-mac", frame(b"\x9b" + b"\0" * 31, C.FLAG_MAC | C.FLAG_SIGNED, sign=False),
     "datagram too short for its MAC"),
    ("too-short-for-signature", frame(CHAT[:20] + b"\0" * 100, sign=False),
     "datagram too short for its signature"),
    ("too-short-for-link-mac", frame(CHAT[:20] + b"\0" * 8, C.FLAG_LINK_MAC, sign=False),
     "datagram too short for its link MAC"),
    ("unsigned", frame(CHAT, 0, sign=False), "unsigned datagram"),
    ("truncated-msgpack", frame(CHAT[:-2]), "malformed msgpack"),
    ("bytes-after-envelope", frame(CHAT + b"\xc0"), "malformed msgpack"),
    ("map", frame(env_bytes([40, {"text": "hi"}])), "malformed msgpack"),
    ("ext-type", frame(CHAT[:-3] + b"\xd4\x01\x00"), "malformed msgpack"),
    ("invalid-utf-8", frame(CHAT[:-2] + b"\xff\xfe"), "malformed msgpack"),
    ("array-of-300", frame(env_bytes([30, 0, [0] * 300, DIG, [], DIG2, SIG])), "malformed msgpack"),
    ("not-an-array", frame(pack("abc")), "envelope: expected array"),
    ("envelope-of-10", frame(pack(fields(GAME, A, 1, 0, 1, 1, 0, 0, None)[:10])),
     "envelope: expected 11 fields"),
    ("short-game-id", frame(pack(fields(GAME[:4], A, 1, 0, 1, 1, 0, 0, [40, "hi"]))),
     "envelope.game: expected 8 bytes"),
    ("negative-integer", frame(pack(fields(GAME, A, 1, 0, -1, 1, 0, 0, [40, "hi"]))),
     "envelope.pkt: expected integer"),
    ("boolean-for-integer", frame(pack(fields(GAME, A, True, 0, 1, 1, 0, 0, [40, "hi"]))),
     "envelope.incarnation: expected integer"),
    ("nil-for-integer", frame(pack(fields(GAME, A, 1, 0, 1, None, 0, 0, [40, "hi"]))),
     "envelope.seq: expected integer"),
    ("float-for-integer", frame(pack(fields(GAME, A, 1, 0, 1, 1, 0.5, 0, [40, "hi"]))),
     "envelope.ack: expected integer"),
    ("message-not-an-array", frame(pack(fields(GAME, A, 1, 0, 1, 1, 0, 0, 40))),
     "message: expected array"),
    ("empty-message", good([]), "message: empty array"),
    ("unknown-type", good([99]), "message: unknown type"),
    ("too-many-fields", good([40, "hi", "there"]), "chat: expected 1 fields"),
    ("heartbeat-phase", good([1, "dancing", 0, 0, b"", b""], 0),
     "heartbeat.phase: expected one of"),
    ("heartbeat-digest", good([1, "playing", 3, 9, b"12345", b""], 0),
     "heartbeat.digest: expected 0 or 32 bytes"),
    ("n-moves-too-large", good([1, "playing", 3, (1 << 20) + 1, DIG, b""], 0),
     "heartbeat.n_moves: expected integer 0..1048576"),
    ("name-too-long", good([10, "x" * 25, "", ""]), "join.name: longer than 24 characters"),
    # 17 characters, but 51 bytes of UTF-8: more than twice 24
    ("name-too-long-in-bytes", good([10, "\u20ac" * 17, "", ""]),
     "join.name: longer than 24 characters"),
    ("empty-name", good([10, "", "", ""]), "join.name: must not be empty"),
    ("control-character", good([40, "bell\x07"]), "chat.text: contains control characters"),
    ("c1-control-character", good([40, "next\x85line"]),
     "chat.text: contains control characters"),
    ("empty-chat", good([40, ""]), "chat.text: must not be empty"),
    ("seat-colour", good([11, *LOBBY[1:6], [["human", "Ana", "pink", A, True, "", ""]],
                          *LOBBY[7:]]), "seat.colour: expected one of"),
    ("lobby-total", good([11, *LOBBY[1:4], 1, *LOBBY[5:]]), "lobby.total: a game has 2 to 6"),
    ("lobby-more-seats-than-total",
     good([11, *LOBBY[1:4], 2, LOBBY[5], [LOBBY[6][0]] * 3, *LOBBY[7:]]),
     "lobby.seats: more seats than the game has"),
    ("lobby-draw-wait", good([11, *LOBBY[1:11], 1, *LOBBY[12:]]), "lobby.draw_wait: at least 2 s"),
    ("lobby-dropped-twice", good([11, *LOBBY[1:9], [[1, 4], [1, 5]], *LOBBY[10:]]),
     "lobby.dropped: a contributor is listed twice"),
    ("lobby-chain-head-twice",
     good([11, *LOBBY[1:13], [[A, DIG, 9], [B, DIG, 10]], *LOBBY[14:]]),
     "lobby.chains: a chain head is listed twice"),
    ("move-text-element", good([30, 0, [2, "Samoa"], DIG, [], DIG2, SIG]),
     "move.move: unexpected element"),
    ("move-integer-range", good([30, 0, [9, 1 << 31, 0, 0], DIG, [], DIG2, SIG]),
     "move.move: integer out of range"),
    ("move-too-deep", good([30, 0, [[[[[[[1]]]]]]], DIG, [], DIG2, SIG]),
     "move.move: nested deeper than 6"),
    ("move-too-many-elements", good([30, 0, [[0] * 100, [0] * 100], DIG, [], DIG2, SIG]),
     "move.move: more than 200 elements"),
    ("move-index", good([30, (1 << 20) + 1, [2, 7], DIG, [], DIG2, SIG]),
     "move.index: expected integer"),
    ("move-prev-of-5", good([30, 9, [2, 7], DIG, [[[2, 7], DIG]] * 5, DIG2, SIG]),
     "move.prev: more than 4 elements"),
    ("move-prev-before-0", good([30, 1, [2, 7], DIG, [[[2, 7], DIG]] * 2, DIG2, SIG]),
     "move.prev: more moves than came before"),
    ("log-past-total", good([32, 40, 41, [[[2, 7], DIG], [[2, 3], DIG]]]),
     "log: entries run past total"),
    ("draw-beyond-chain", good([33, 32, [[0, VAL]]]), "draw.draw: expected integer 0..31"),
    ("draw-without-values", good([33, 4, []]), "draw.values: no value"),
    ("draw-values-out-of-order", good([33, 4, [[1, VAL], [0, VAL]]]),
     "draw.values: contributors must be listed once each, in order"),
    ("draw-contributor-12", good([33, 4, [[12, VAL]]]),
     "draw.values contributor: expected integer 0..11"),
    ("farewell-value-at-draw-0", good([34, A, 0, True, VAL, ID_A.public, bytes(64)]),
     "farewell.value: a value needs from_draw of at least 1"),
    ("watch-state-heads", good([37, DIG, [A, B], [DIG]]),
     "watch_state: one chain head per contributor"),
    ("take-seat-7", good([39, 6, "Dan", ""]), "take_seat.seat: expected integer 0..5"),
    ("away-list-order", good([43, sorted((A, B), reverse=True)]),
     "away_list.list: peer ids must be in byte order"),
    ("probe-nonce", frame(pack(fields(C.NO_GAME, A, 0, 0, 0, 0, 0, 0, [50, bytes(15)],
                                      dest=C.NO_PEER))),
     "probe.nonce: expected 16 bytes"),
    # signed statements, PROOF and expulsions (security.md, "Proof of misbehaviour")
    ("message-of-21", good([40, *["hi"] * 20]), "message: more than 20 elements"),
    ("move-unsigned", good([30, 0, [2, 7], DIG, []]), "move: expected 6 fields, got 4"),
    ("move-before", good([30, 0, [2, 7], DIG, [], DIG2[:31], SIG]),
     "move.before: expected 32 bytes"),
    ("move-signature", good([30, 0, [2, 7], DIG, [], DIG2, SIG[:63]]),
     "move.signature: expected 64 bytes"),
    ("move-prev-entry-of-4", good([30, 1, [2, 7], DIG, [[[2, 7], DIG, B, 1]], DIG2, SIG]),
     "move.prev entry: expected 2, 3 or 5 fields"),
    ("move-prev-entry-of-6", good([30, 1, [2, 7], DIG, [[[2, 7], DIG, B, 1, SIG, 0]], DIG2,
                                                          SIG]),
     "move.prev entry: more than 5 elements"),
    ("log-stamp-signer", good([32, 40, 41, [[[2, 7], DIG, B[:7], 1, SIG]]]),
     "log signer: expected 8 bytes"),
    ("log-stamp-signature", good([32, 40, 41, [[[2, 7], DIG, B, 1, SIG + b"x"]]]),
     "log signature: expected 64 bytes"),
    ("heartbeat-lobby-hash", good([1, "playing", 3, 9, DIG, b"1234"], 0),
     "heartbeat.lobby_hash: expected 0 or 8 bytes"),
    ("heartbeat-without-lobby-hash", good([1, "playing", 3, 9, DIG], 0),
     "heartbeat: expected 5 fields, got 4"),
    ("lobby-unsigned-form", good(LOBBY[:14]), "lobby: expected 17 fields, got 13"),
    ("lobby-version", good([11, 1 << 32, *LOBBY[2:]]), "lobby.version: expected integer"),
    ("lobby-expelled-twice", good([11, *LOBBY[1:14], [[B, 3], [B, 5]], *LOBBY[15:]]),
     "lobby.expelled: a member is listed twice"),
    ("lobby-expelled-6", good([11, *LOBBY[1:14], [[bytes([i]) * 8, 3] for i in range(6)],
                               *LOBBY[15:]]), "lobby.expelled: more than 5 elements"),
    ("lobby-expelled-from-move", good([11, *LOBBY[1:14], [[B, (1 << 20) + 1]], *LOBBY[15:]]),
     "lobby.expelled from move: expected integer"),
    ("lobby-author-without-signature", good([11, *LOBBY[1:15], ID_A.public, INC_A, b""]),
     "lobby.author: a 32-byte key and a 64-byte signature, or neither"),
    ("lobby-signature-without-author", good([11, *LOBBY[1:15], b"", 0, SIG]),
     "lobby.author: a 32-byte key and a 64-byte signature, or neither"),
    ("proof-kind", good([45, 4, B, ID_B.public, [], []]), "proof.kind: unknown kind 4"),
    ("proof-kind-256", good([45, 256, B, ID_B.public, [], []]), "proof.kind: expected integer"),
    ("proof-accused", good([45, 1, B[:4], ID_B.public, STATEMENT, STATEMENT]),
     "proof.accused: expected 8 bytes"),
    ("proof-public", good([45, 1, B, ID_B.public[:31], STATEMENT, STATEMENT]),
     "proof.public: expected 32 bytes"),
    ("proof-statement-of-3", good([45, 1, B, ID_B.public, STATEMENT[:3], STATEMENT]),
     "proof.first: expected 6 fields, got 3"),
    ("proof-statement-of-7", good([45, 1, B, ID_B.public, STATEMENT, [*STATEMENT, 0]]),
     "proof.second: more than 6 elements"),
    ("proof-statement-index", good([45, 1, B, ID_B.public, STATEMENT,
                                    [INC_B, (1 << 20) + 1, *STATEMENT[2:]]]),
     "proof.second.index: expected integer"),
    ("proof-refused-move-with-second", good([45, 2, B, ID_B.public, STATEMENT, STATEMENT]),
     "proof.second: a refused move is proven by one statement"),
    ("proof-lobby-statement-hash", good([45, 3, B, ID_B.public, LOBBY_STATEMENT,
                                         [*LOBBY_STATEMENT[:2], DIG[:31], SIG]]),
     "proof.second.body_hash: expected 32 bytes"),
    ("proof-lobby-statement-of-6", good([45, 3, B, ID_B.public, STATEMENT, STATEMENT]),
     "proof.first: more than 4 elements"),
    # the lobby fits one datagram by construction (wire.md, Large payloads): an IPv4 host,
    # a bot's kind of at most 16 bytes
    ("member-host-16", good([11, *LOBBY[1:7], [[A, "1" * 16, 40000]], *LOBBY[8:]]),
     "member.host: longer than 15 characters"),
    ("seat-bot-bytes", good([11, *LOBBY[1:6], [["human", "Ana", "blue", A, True, "\u00e9" * 9,
                                                 ""]], *LOBBY[7:]]),
     "seat.bot: longer than 16 characters"),
    ("join-plays-bytes", good([10, "Kai", "", "\u00e9" * 9]),
     "join.plays: longer than 16 characters"),
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
    from tongiaki_lan.engine import Dealer, Game, IllegalMove, move_from_wire
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

    def rules(st) -> dict:
        """What the rules make of a kind 2 statement's move in the vector's game after its
        first `index` moves: whether they take it, and the digest it gives (a reader
        without a rules engine takes it from here; the tests check it with the engine)."""
        g = state_before(st.index)
        if g is None:
            return {"legal": None, "after": None}
        try:
            g.apply(move_from_wire(st.move))
        except (IllegalMove, ValueError):
            return {"legal": False, "after": None}
        return {"legal": True, "after": g.digest().hex()}

    out = []
    for name, proof, reason in cases:
        got = P.check_proof(proof, GAME, state_before)
        assert got == reason, (name, got, reason)
        first = proof.first
        case = {
            "name": name,
            "message": j(proof.to_wire()),
            "bytes": C.pack_message(proof).hex(),
            "first_signed_bytes": first.signed_bytes(GAME, B).hex(),
            "holds": reason is None,
            "reason": reason,
        }
        if proof.kind == K2:
            case["rules"] = rules(first)
        out.append(case)
    return {
        "protocol": C.PROTOCOL_VERSION,
        "game_id": GAME.hex(),
        "accused": {"peer": B.hex(), "public": ID_B.public.hex()},
        "game": {"colours": ["blue", "red"],
                 "moves": [m.to_wire() for m in game.moves],
                 "digest_after_moves": before.hex(),
                 # the digest after each first k moves, k = 0 … len(moves): the checker's
                 # own game, for a kind 2 proof's `before`
                 "digests": [state_before(k).digest().hex() for k in range(n + 1)]},
        "cases": out,
    }


PATH = Path(__file__).with_name("wire.json")
PROOFS_PATH = Path(__file__).with_name("proofs.json")


def build() -> str:
    """The text of wire.json."""
    key = derive_key("correct horse", GAME)
    vectors = []
    for i, (name, msg) in enumerate(MESSAGES):
        # to B; every other one names B's run and echoes B's packet 4000 + i (the others:
        # B's run not known yet, so nothing to echo)
        env = C.Envelope(GAME, A, INC_A, B, 1700000000000001 if i % 2 else 0,
                         100 + i, 4000 + i if i % 2 else 0, i if msg.RELIABLE else 0, 7,
                         0b101, msg)
        for k in (None, key):
            vectors.append({
                "name": name + ("-mac" if k else ""),
                "passphrase": "correct horse" if k else None,
                "envelope": j(env.to_wire()),
                "datagram": C.encode_datagram(env, k, ID_A, KX_A).hex(),
            })
    # probes travel outside any game: game id 0, no receiver named (8 zero bytes), every
    # counter 0, signed without an X25519 key (protocol/wire.md, "Probe")
    for name, msg in (("probe-frame", C.Probe(bytes(range(16)))),
                      ("probe-answer-frame", C.ProbeAnswer(bytes(range(16)), 1700000000123456,
                                                           GAME))):
        env = C.Envelope(C.NO_GAME, A, 0, C.NO_PEER, 0, 0, 0, 0, 0, 0, msg)
        vectors.append({"name": name, "passphrase": None, "kx": C.NO_KX.hex(),
                        "envelope": j(env.to_wire()),
                        "datagram": C.encode_datagram(env, None, ID_A).hex()})
    refused = []

    def refuse(name: str, data: bytes, refused_for: str, key: bytes | None = None,
               link: bytes | None = None, **extra) -> None:
        try:
            C.decode_datagram(data, key, require_signature=True,
                              link_key=lambda sender, inc: link)
        except C.WireError as exc:
            if not str(exc).startswith(refused_for):
                raise SystemExit(f"{name} is refused for {exc}, not for {refused_for}") from None
            refused.append({"name": name, "datagram": data.hex(), **extra,
                            "reason": str(exc)})
        else:
            raise SystemExit(f"{name} was accepted")

    for name, data, refused_for in REFUSED:
        refuse(name, data, refused_for)
    # authentication: a passphrase game's MAC, a pair's link MAC, the signature
    env = C.Envelope(GAME, A, 1, B, 0, 1, 0, 1, 0, 0, C.Chat("hi"))
    pp = {"passphrase": "correct horse"}
    refuse("wrong-passphrase", C.encode_datagram(env, derive_key("wrong", GAME), ID_A, KX_A),
           "bad MAC (wrong or missing passphrase)", key, **pp)
    refuse("missing-mac", SIGNED_CHAT, "unauthenticated datagram in a game that needs a",
           key, **pp)
    linked = C.encode_datagram(env, None, link_key=bytes(range(32)))
    refuse("bad-link-mac", linked, "bad link MAC", link=bytes(32), link_key="00" * 32)
    refuse("link-mac-without-link-key", linked, "link-MACed datagram from a sender without")
    forged = C.encode_datagram(C.Envelope(GAME, B, 1, A, 0, 1, 0, 1, 0, 0, C.Chat("hi")), None,
                               ID_A, KX_A)
    refuse("impersonation", forged, "sender id does not belong to the signing key")
    tampered = bytearray(C.encode_datagram(env, None, ID_A, KX_A))
    tampered[-10] ^= 1  # a bit of the signature
    refuse("bad-signature", bytes(tampered), "bad signature")
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
    return "\n".join(lines) + "\n"


def build_proofs() -> str:
    """The text of proofs.json."""
    proofs = proof_vectors()
    rows = ",\n".join(f"  {json.dumps(c, ensure_ascii=False)}" for c in proofs.pop("cases"))
    head = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in proofs.items())
    return "{\n" + head + ',\n "cases": [\n' + rows + "\n ]\n}\n"


def main() -> None:
    PATH.write_text(build(), encoding="utf-8")
    out = json.loads(PATH.read_text(encoding="utf-8"))
    print(f"wrote {len(out['valid'])} valid and {len(out['refused'])} refused vectors to {PATH}")
    PROOFS_PATH.write_text(build_proofs(), encoding="utf-8")
    print(f"wrote the proof cases to {PROOFS_PATH}")


if __name__ == "__main__":
    main()

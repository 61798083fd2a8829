"""Datagram framing and the message catalogue (protocol/wire.md is the normative text).

Every byte that arrives from the network passes through `decode_datagram` before anything
else looks at it, so this module is where hostile input is stopped: size first, then the
frame, then the MAC, then msgpack with tight limits, then a per-type schema. Anything that
fails raises `WireError` with a reason a human can read; nothing here touches game state.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, ClassVar

import msgpack

# chains taken mid-game (Lobby.chains: a laptop back after the table drew without it, a
# newcomer) have contributor indices after the seed round's six at most
from tongiaki_lan.draws import MAX_CONTRIBUTORS, MAX_LATE_CHAINS
from tongiaki_lan.engine.colours import COLOURS
from tongiaki_lan.engine.variant import STANDARD, VARIANTS
from tongiaki_lan.net.protocol.identity import peer_id_of, verify

MAGIC = b"TK"
# 4: incarnations, variant…; 5: bots that decide anew; 6: AWAY_LIST; 7: NEW_CHAIN;
# 8: who plays a seat from its laptop, a person or a bot (JOIN, seats); 9: the same for a
# seat taken mid-game (TAKE_SEAT); 10: the envelope names its receiver (`dest`) and echoes
# the receiver's latest packet (`echo`), so no replay makes anyone present; 11: signed moves
# and lobbies, PROOF, expulsions (protocol/wire.md, protocol/security.md "Proof of
# misbehaviour")
PROTOCOL_VERSION = 11
FLAG_MAC = 0x01
FLAG_SIGNED = 0x02
FLAG_LINK_MAC = 0x04
PUBLIC_LEN = 32
KX_LEN = 32
SIGNATURE_LEN = 64
SIGN_LEN = PUBLIC_LEN + KX_LEN + SIGNATURE_LEN
LINK_MAC_LEN = 32
NO_KX = bytes(KX_LEN)
MAC_LEN = 32
HEADER_LEN = 4
MAX_DATAGRAM = 1200
ID_LEN = 8
DIGEST_LEN = 32
SECRET_LEN = 32
MAX_NAME = 24
MAX_BOT = 16  # a bot's kind or level as a seat names it: code points and bytes alike
MAX_HOST = 15  # a member's address: an IPv4 address, dotted (every node is IPv4-only)
MAX_CHAT = 400
MAX_TEXT = 300
MAX_U64 = (1 << 64) - 1
MAX_SEATS = 6
MAX_MOVE_NODES = 200
MAX_PREV = 4  # moves repeated in each MOVE
MAX_MOVE_DEPTH = 6
MAX_DRAW = 31  # draws are numbered 0..30 (31 tiles); a chain's values cover 0..31
# the lobby's wait for a missing draw value, in whole seconds (protocol/draws.md)
DRAW_WAIT_DEFAULT = 15
DRAW_WAIT_MIN = 2
DRAW_WAIT_MAX = 600
FAREWELL_PERSON = b"tongiaki-bye"  # what a FAREWELL's signature covers starts with this
# what a move's and a lobby's statement signatures cover starts with these
# (protocol/security.md, "Proof of misbehaviour")
MOVE_PERSON = b"tongiaki-move"
LOBBY_PERSON = b"tongiaki-lobby"
LOBBY_HASH_LEN = 8  # HEARTBEAT's short hash of the sender's lobby
MAX_EXPELLED = 5  # a table keeps at least one member
# PROOF kinds
PROOF_TWO_MOVES = 1  # two move statements of one run that cannot both be true
PROOF_REFUSED_MOVE = 2  # a move statement the rules engine refuses
PROOF_TWO_LOBBIES = 3  # two lobbies of one version from one run of their author
PROOF_KINDS = (PROOF_TWO_MOVES, PROOF_REFUSED_MOVE, PROOF_TWO_LOBBIES)
# who besides the players may come to a table (Lobby.guests, protocol/watching.md): bits
GUEST_WATCH = 1  # anyone on the LAN (with the passphrase, if any) may watch
GUEST_CHAT = 2  # watchers may chat with the table
GUEST_SEATS = 4  # a newcomer may take a seat a bot plays (its player left for good, or
# the table added the bot)
GUESTS_DEFAULT = GUEST_WATCH | GUEST_CHAT | GUEST_SEATS
MAX_WATCHERS = 16  # watchers one member feeds, and names one WATCHERS message lists
PHASES = ("lobby", "starting", "playing", "over")
SEAT_KINDS = ("human", "bot")
NO_GAME = bytes(ID_LEN)
NO_PEER = bytes(ID_LEN)  # a probe's `dest`: outside any game it names no receiver


class WireError(ValueError):
    """A datagram or message that must be refused; str() says why."""


# --------------------------------------------------------------------------- validators


def _uint(v: Any, what: str, hi: int = MAX_U64) -> int:
    if type(v) is not int or v < 0 or v > hi:
        raise WireError(f"{what}: expected integer 0..{hi}, got {_show(v)}")
    return v


def _bin(v: Any, what: str, n: int | None = None, max_len: int | None = None) -> bytes:
    if type(v) is not bytes:
        raise WireError(f"{what}: expected bytes, got {_show(v)}")
    if n is not None and len(v) != n:
        raise WireError(f"{what}: expected {n} bytes, got {len(v)}")
    if max_len is not None and len(v) > max_len:
        raise WireError(f"{what}: longer than {max_len} bytes")
    return v


def _str(v: Any, what: str, max_len: int, allow_empty: bool = True,
         max_bytes: int | None = None) -> str:
    """Text of at most `max_len` code points and `max_bytes` bytes of UTF-8 (2 * max_len
    unless told: a bot's kind is a short ASCII name, and takes no more room than that)."""
    if type(v) is not str:
        raise WireError(f"{what}: expected text, got {_show(v)}")
    limit = 2 * max_len if max_bytes is None else max_bytes
    if len(v) > max_len or len(v.encode("utf-8", "surrogatepass")) > limit:
        raise WireError(f"{what}: longer than {max_len} characters")
    if not allow_empty and not v:
        raise WireError(f"{what}: must not be empty")
    if any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 for c in v):
        raise WireError(f"{what}: contains control characters")
    return v


def _bool(v: Any, what: str) -> bool:
    if type(v) is not bool:
        raise WireError(f"{what}: expected true/false, got {_show(v)}")
    return v


def _list(v: Any, what: str, max_len: int) -> list:
    if type(v) is not list:
        raise WireError(f"{what}: expected array, got {_show(v)}")
    if len(v) > max_len:
        raise WireError(f"{what}: more than {max_len} elements")
    return v


def _choice(v: Any, what: str, options: tuple[str, ...]) -> str:
    if v not in options or type(v) is not str:
        raise WireError(f"{what}: expected one of {', '.join(options)}, got {_show(v)}")
    return v


def _values(v: Any, what: str) -> tuple[tuple[int, bytes], ...]:
    """A draw's values: [[contributor, 32-byte preimage], ...], contributors increasing."""
    out = []
    for e in _list(v, what, MAX_CONTRIBUTORS):
        pair = _list(e, what, 2)
        _arity(pair, 2, what)
        out.append((_uint(pair[0], f"{what} contributor", MAX_CONTRIBUTORS - 1),
                    _bin(pair[1], f"{what} value", DIGEST_LEN)))
    if [i for i, _ in out] != sorted({i for i, _ in out}):
        raise WireError(f"{what}: contributors must be listed once each, in order")
    return tuple(out)


@dataclass(frozen=True)
class Stamp:
    """Who signed a move as it rides in MOVE `prev` and LOG (protocol/security.md, "Signed
    moves"): the mover's peer id, its incarnation then, and its signature over the move's
    statement, so a node that passes a move on cannot change it, and a member's two
    statements that cannot both be true are a proof anyone can check."""

    signer: bytes
    inc: int
    sig: bytes


def _entries(v: Any, what: str, max_len: int) -> tuple:
    """Moves of the log as they ride in MOVE and LOG: [move, digest]; for a fair draw's
    reveal [move, digest, values] (so a peer that missed the values learns them here);
    for a decision [move, digest, signer, inc, signature] (its mover's stamp)."""
    out = []
    for e in _list(v, what, max_len):
        items = _list(e, f"{what} entry", 5)
        if len(items) not in (2, 3, 5):
            raise WireError(f"{what} entry: expected 2, 3 or 5 fields, got {len(items)}")
        entry = (check_move_wire(items[0], what), _bin(items[1], f"{what} digest", DIGEST_LEN))
        if len(items) == 3:
            entry = (*entry, _values(items[2], f"{what} values"))
        elif len(items) == 5:
            entry = (*entry, Stamp(_bin(items[2], f"{what} signer", ID_LEN),
                                   _uint(items[3], f"{what} incarnation"),
                                   _bin(items[4], f"{what} signature", SIGNATURE_LEN)))
        out.append(entry)
    return tuple(out)


def entry_parts(e: tuple) -> tuple[list, bytes, tuple | None, Stamp | None]:
    """(move, digest, a reveal's values or None, a decision's stamp or None)."""
    if len(e) == 3 and isinstance(e[2], Stamp):
        return e[0], e[1], None, e[2]
    return e[0], e[1], (e[2] if len(e) == 3 else None), None


def _entries_wire(entries: tuple) -> list:
    out = []
    for e in entries:
        wire, digest, values, stamp = entry_parts(e)
        if values is not None:
            out.append([wire, digest, [[i, v] for i, v in values]])
        elif stamp is not None:
            out.append([wire, digest, stamp.signer, stamp.inc, stamp.sig])
        else:
            out.append([wire, digest])
    return out


def _show(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def check_move_wire(v: Any, what: str = "move") -> list:
    """Bound the shape of a move before the engine sees it: nested int arrays only."""
    count = 0

    def walk(x: Any, depth: int) -> None:
        nonlocal count
        count += 1
        if count > MAX_MOVE_NODES:
            raise WireError(f"{what}: more than {MAX_MOVE_NODES} elements")
        if depth > MAX_MOVE_DEPTH:
            raise WireError(f"{what}: nested deeper than {MAX_MOVE_DEPTH}")
        if type(x) is list:
            for y in x:
                walk(y, depth + 1)
        elif type(x) is int:
            if not -(1 << 31) <= x < (1 << 31):
                raise WireError(f"{what}: integer out of range")
        else:
            raise WireError(f"{what}: unexpected element {_show(x)}")

    if type(v) is not list:
        raise WireError(f"{what}: expected array, got {_show(v)}")
    walk(v, 0)
    return v


# --------------------------------------------------------------------------- messages


@dataclass(frozen=True)
class Message:
    """Base class: TYPE is the first element of the message array on the wire."""

    TYPE: ClassVar[int] = -1
    RELIABLE: ClassVar[bool] = True

    def body(self) -> list:
        raise NotImplementedError

    @classmethod
    def parse(cls, items: list) -> Message:
        raise NotImplementedError

    def to_wire(self) -> list:
        return [self.TYPE, *self.body()]


@dataclass(frozen=True)
class Heartbeat(Message):
    """Liveness plus a summary of where the sender is, so forks and gaps are noticed."""

    TYPE: ClassVar[int] = 1
    RELIABLE: ClassVar[bool] = False
    phase: str
    lobby_version: int
    n_moves: int
    digest: bytes  # empty before the game starts
    # the first 8 bytes of the sender's lobby's hash (`lobby_hash`), empty before it has
    # one: two members with one version but different lobbies find out (security.md)
    lobby_hash: bytes = b""

    def body(self) -> list:
        return [self.phase, self.lobby_version, self.n_moves, self.digest, self.lobby_hash]

    @classmethod
    def parse(cls, items: list) -> Heartbeat:
        _arity(items, 5, "heartbeat")
        digest = _bin(items[3], "heartbeat.digest", max_len=DIGEST_LEN)
        if len(digest) not in (0, DIGEST_LEN):
            raise WireError("heartbeat.digest: expected 0 or 32 bytes")
        short = _bin(items[4], "heartbeat.lobby_hash", max_len=LOBBY_HASH_LEN)
        if len(short) not in (0, LOBBY_HASH_LEN):
            raise WireError(f"heartbeat.lobby_hash: expected 0 or {LOBBY_HASH_LEN} bytes")
        return cls(
            _choice(items[0], "heartbeat.phase", PHASES),
            _uint(items[1], "heartbeat.lobby_version"),
            _uint(items[2], "heartbeat.n_moves", 1 << 20),
            digest,
            short,
        )


@dataclass(frozen=True)
class Ack(Message):
    """Carries nothing but the envelope's ack fields; sent when there is no data to piggyback."""

    TYPE: ClassVar[int] = 2
    RELIABLE: ClassVar[bool] = False

    def body(self) -> list:
        return []

    @classmethod
    def parse(cls, items: list) -> Ack:
        _arity(items, 0, "ack")
        return cls()


@dataclass(frozen=True)
class Join(Message):
    TYPE: ClassVar[int] = 10
    name: str
    colour: str  # "" = any free colour
    # the bot that plays the seat on the joining laptop (`play --headless --bot normal`),
    # "" for a person at its keyboard: the others' screens said "Winner: Kai." of a laptop
    # that ran a bot (a LAN-party playtest)
    plays: str = ""

    def body(self) -> list:
        return [self.name, self.colour, self.plays]

    @classmethod
    def parse(cls, items: list) -> Join:
        _arity(items, 3, "join")
        return cls(
            _str(items[0], "join.name", MAX_NAME, allow_empty=False),
            _str(items[1], "join.colour", 12),
            _str(items[2], "join.plays", MAX_BOT, max_bytes=MAX_BOT),
        )


@dataclass(frozen=True)
class Seat:
    """One seat of the lobby. `owner` is the node that plays (human) or drives (bot) it."""

    kind: str
    name: str
    colour: str
    owner: bytes
    ready: bool
    bot: str = ""  # bot kind, "" for humans
    # a human seat whose laptop plays it with a bot (Join.plays): that bot, else "" (a
    # person). Not a handover: `bot` is the one a table gives the seat of someone away
    plays: str = ""

    def to_wire(self) -> list:
        return [self.kind, self.name, self.colour, self.owner, self.ready, self.bot,
                self.plays]

    @classmethod
    def parse(cls, v: Any) -> Seat:
        items = _list(v, "seat", 7)
        _arity(items, 7, "seat")
        return cls(
            _choice(items[0], "seat.kind", SEAT_KINDS),
            _str(items[1], "seat.name", MAX_NAME, allow_empty=False),
            _choice(items[2], "seat.colour", COLOURS),
            _bin(items[3], "seat.owner", ID_LEN),
            _bool(items[4], "seat.ready"),
            _str(items[5], "seat.bot", MAX_BOT, max_bytes=MAX_BOT),
            _str(items[6], "seat.plays", MAX_BOT, max_bytes=MAX_BOT),
        )


@dataclass(frozen=True)
class Member:
    """A node taking part in a game and where it was last heard from."""

    peer: bytes
    host: str
    port: int

    def to_wire(self) -> list:
        return [self.peer, self.host, self.port]

    @classmethod
    def parse(cls, v: Any) -> Member:
        items = _list(v, "member", 3)
        _arity(items, 3, "member")
        return cls(
            _bin(items[0], "member.peer", ID_LEN),
            _str(items[1], "member.host", MAX_HOST, allow_empty=False),
            _uint(items[2], "member.port", 65535),
        )


@dataclass(frozen=True)
class Lobby(Message):
    """The whole replicated lobby; the coordinator bumps `version` on every change."""

    TYPE: ClassVar[int] = 11
    version: int
    phase: str
    name: str
    total: int
    passphrase: bool
    seats: tuple[Seat, ...]
    members: tuple[Member, ...]
    start_nonce: bytes = b""  # set when phase == "starting" / "playing"
    # contributors left out of the fair draws: (contributor, first draw without it)
    dropped: tuple[tuple[int, int], ...] = ()
    # the table variant (engine/variant.py): "two-colours" gives two players two seats each,
    # A1 B1 A2 B2, from the start on (lobby.start); every peer builds the game from it
    variant: str = STANDARD
    # seconds the table waits for a missing draw value before drawing without it (a
    # table setting, chosen in the lobby: protocol/draws.md, "A node that stops revealing")
    draw_wait: int = DRAW_WAIT_DEFAULT
    # who besides the players may come: GUEST_* bits (watch, chat, take a bot's seat)
    guests: int = GUESTS_DEFAULT
    # chains committed mid-game, (peer, chain head, first draw), in the order taken: their
    # contributors come after the seed round's (protocol/draws.md, "Taking part again")
    chains: tuple[tuple[bytes, bytes, int], ...] = ()
    # members the table expelled on a proof of misbehaviour, (peer, first move index their
    # seats are the table bot's), protocol/security.md "Expelled"
    expelled: tuple[tuple[bytes, int], ...] = ()
    # who wrote this lobby: its Ed25519 key, its incarnation then, and its signature over
    # `lobby_statement_bytes` (every field but the members' addresses): relayed by anyone,
    # it stays its author's word, and two of one version are a proof (security.md)
    author_key: bytes = b""
    inc: int = 0
    sig: bytes = b""

    def fields_wire(self, addresses: bool = True) -> list:
        """The fields an author signs (`addresses` False: every member's host and port
        left out, as the signature does: receivers fill them in from where datagrams
        come, and the transport keeps them, protocol/transport.md)."""
        members = ([m.to_wire() for m in self.members] if addresses
                   else [[m.peer, "", 0] for m in self.members])
        return [
            self.version, self.phase, self.name, self.total, self.passphrase,
            [s.to_wire() for s in self.seats], members,
            self.start_nonce, [[i, k] for i, k in self.dropped], self.variant, self.draw_wait,
            self.guests, [[p, h, f] for p, h, f in self.chains],
            [[p, i] for p, i in self.expelled],
        ]

    def body(self) -> list:
        return [*self.fields_wire(), self.author_key, self.inc, self.sig]

    @property
    def author(self) -> bytes:
        """The author's peer id (empty for an unsigned lobby)."""
        return peer_id_of(self.author_key) if self.author_key else b""

    @classmethod
    def parse(cls, items: list) -> Lobby:
        _arity(items, 17, "lobby")
        total = _uint(items[3], "lobby.total", MAX_SEATS)
        if total < 2:
            raise WireError("lobby.total: a game has 2 to 6 seats")
        seats = tuple(Seat.parse(s) for s in _list(items[5], "lobby.seats", MAX_SEATS))
        if len(seats) > total:
            raise WireError("lobby.seats: more seats than the game has")
        members = tuple(Member.parse(m) for m in _list(items[6], "lobby.members", MAX_SEATS))
        nonce = _bin(items[7], "lobby.start_nonce", max_len=16)
        dropped = []
        for e in _list(items[8], "lobby.dropped", MAX_CONTRIBUTORS):
            pair = _list(e, "lobby.dropped entry", 2)
            _arity(pair, 2, "lobby.dropped entry")
            dropped.append((_uint(pair[0], "lobby.dropped contributor", MAX_CONTRIBUTORS - 1),
                            _uint(pair[1], "lobby.dropped draw", MAX_DRAW)))
        if len({i for i, _ in dropped}) != len(dropped):
            raise WireError("lobby.dropped: a contributor is listed twice")
        chains = []
        for e in _list(items[12], "lobby.chains", MAX_LATE_CHAINS):
            triple = _list(e, "lobby.chains entry", 3)
            _arity(triple, 3, "lobby.chains entry")
            chains.append((_bin(triple[0], "lobby.chains peer", ID_LEN),
                           _bin(triple[1], "lobby.chains head", DIGEST_LEN),
                           _uint(triple[2], "lobby.chains first draw", MAX_DRAW - 1)))
        if len({h for _, h, _ in chains}) != len(chains):
            raise WireError("lobby.chains: a chain head is listed twice")
        expelled = []
        for e in _list(items[13], "lobby.expelled", MAX_EXPELLED):
            pair = _list(e, "lobby.expelled entry", 2)
            _arity(pair, 2, "lobby.expelled entry")
            expelled.append((_bin(pair[0], "lobby.expelled peer", ID_LEN),
                             _uint(pair[1], "lobby.expelled from move", 1 << 20)))
        if len({p for p, _ in expelled}) != len(expelled):
            raise WireError("lobby.expelled: a member is listed twice")
        key = _bin(items[14], "lobby.author", max_len=PUBLIC_LEN)
        sig = _bin(items[16], "lobby.signature", max_len=SIGNATURE_LEN)
        if len(key) not in (0, PUBLIC_LEN) or len(sig) != (SIGNATURE_LEN if key else 0):
            raise WireError("lobby.author: a 32-byte key and a 64-byte signature, or neither")
        return cls(
            _uint(items[0], "lobby.version", MAX_LOBBY_VERSION),
            _choice(items[1], "lobby.phase", PHASES),
            _str(items[2], "lobby.name", MAX_NAME, allow_empty=False), total,
            _bool(items[4], "lobby.passphrase"), seats, members, nonce, tuple(dropped),
            _choice(items[9], "lobby.variant", VARIANTS), _draw_wait(items[10]),
            _uint(items[11], "lobby.guests", GUESTS_DEFAULT), tuple(chains), tuple(expelled),
            key, _uint(items[15], "lobby.incarnation"), sig,
        )


MAX_LOBBY_VERSION = (1 << 32) - 1  # far beyond any table's changes; +1 never overflows


def lobby_body_hash(lobby: Lobby) -> bytes:
    """BLAKE2b-256 of what a lobby's author signs: the LOBBY message array without the
    members' addresses and without the author's key, incarnation and signature."""
    body = msgpack.packb([Lobby.TYPE, *lobby.fields_wire(addresses=False)], use_bin_type=True)
    return hashlib.blake2b(body, digest_size=DIGEST_LEN, person=LOBBY_PERSON).digest()


def lobby_statement_bytes(game: bytes, author: bytes, inc: int, version: int,
                          body_hash: bytes) -> bytes:
    """What a lobby's signature covers (protocol/security.md, "Signed lobbies")."""
    return (LOBBY_PERSON + game + author + inc.to_bytes(8, "big") + version.to_bytes(8, "big")
            + body_hash)


def move_statement_bytes(game: bytes, signer: bytes, inc: int, index: int, before: bytes,
                         after: bytes, move: list) -> bytes:
    """What a move's signature covers (protocol/security.md, "Signed moves"): who, in which
    run, which move index, the state before and after, and the move itself."""
    return (MOVE_PERSON + game + signer + inc.to_bytes(8, "big") + index.to_bytes(4, "big")
            + before + after + msgpack.packb(move))


def _draw_wait(v: Any) -> int:
    w = _uint(v, "lobby.draw_wait", DRAW_WAIT_MAX)
    if w < DRAW_WAIT_MIN:
        raise WireError(f"lobby.draw_wait: at least {DRAW_WAIT_MIN} s, got {w}")
    return w


@dataclass(frozen=True)
class SetSeat(Message):
    """Change this node's own name and/or colour."""

    TYPE: ClassVar[int] = 12
    name: str
    colour: str

    def body(self) -> list:
        return [self.name, self.colour]

    @classmethod
    def parse(cls, items: list) -> SetSeat:
        _arity(items, 2, "set")
        return cls(
            _str(items[0], "set.name", MAX_NAME, allow_empty=False),
            _str(items[1], "set.colour", 12),
        )


@dataclass(frozen=True)
class Ready(Message):
    TYPE: ClassVar[int] = 13
    ready: bool

    def body(self) -> list:
        return [self.ready]

    @classmethod
    def parse(cls, items: list) -> Ready:
        _arity(items, 1, "ready")
        return cls(_bool(items[0], "ready.ready"))


@dataclass(frozen=True)
class AddBot(Message):
    TYPE: ClassVar[int] = 14
    bot: str
    colour: str

    def body(self) -> list:
        return [self.bot, self.colour]

    @classmethod
    def parse(cls, items: list) -> AddBot:
        _arity(items, 2, "add_bot")
        return cls(
            _str(items[0], "add_bot.bot", MAX_BOT, allow_empty=False, max_bytes=MAX_BOT),
            _str(items[1], "add_bot.colour", 12),
        )


@dataclass(frozen=True)
class RemoveBot(Message):
    TYPE: ClassVar[int] = 15
    colour: str

    def body(self) -> list:
        return [self.colour]

    @classmethod
    def parse(cls, items: list) -> RemoveBot:
        _arity(items, 1, "remove_bot")
        return cls(_str(items[0], "remove_bot.colour", 12, allow_empty=False))


@dataclass(frozen=True)
class Leave(Message):
    TYPE: ClassVar[int] = 16

    def body(self) -> list:
        return []

    @classmethod
    def parse(cls, items: list) -> Leave:
        _arity(items, 0, "leave")
        return cls()


@dataclass(frozen=True)
class Start(Message):
    TYPE: ClassVar[int] = 17

    def body(self) -> list:
        return []

    @classmethod
    def parse(cls, items: list) -> Start:
        _arity(items, 0, "start")
        return cls()


@dataclass(frozen=True)
class Refuse(Message):
    """The answer to a request that cannot be granted, in words."""

    TYPE: ClassVar[int] = 18
    reason: str

    def body(self) -> list:
        return [self.reason]

    @classmethod
    def parse(cls, items: list) -> Refuse:
        _arity(items, 1, "refuse")
        return cls(_str(items[0], "refuse.reason", MAX_TEXT))


@dataclass(frozen=True)
class Commit(Message):
    """A seed commitment and the head of the sender's hash chain for the fair draws."""

    TYPE: ClassVar[int] = 20
    nonce: bytes
    commitment: bytes
    chain: bytes

    def body(self) -> list:
        return [self.nonce, self.commitment, self.chain]

    @classmethod
    def parse(cls, items: list) -> Commit:
        _arity(items, 3, "commit")
        return cls(
            _bin(items[0], "commit.nonce", max_len=16),
            _bin(items[1], "commit.commitment", DIGEST_LEN),
            _bin(items[2], "commit.chain", DIGEST_LEN),
        )


@dataclass(frozen=True)
class Reveal(Message):
    TYPE: ClassVar[int] = 21
    nonce: bytes
    secret: bytes

    def body(self) -> list:
        return [self.nonce, self.secret]

    @classmethod
    def parse(cls, items: list) -> Reveal:
        _arity(items, 2, "reveal")
        return cls(
            _bin(items[0], "reveal.nonce", max_len=16),
            _bin(items[1], "reveal.secret", SECRET_LEN),
        )


@dataclass(frozen=True)
class Abort(Message):
    TYPE: ClassVar[int] = 22
    nonce: bytes
    reason: str

    def body(self) -> list:
        return [self.nonce, self.reason]

    @classmethod
    def parse(cls, items: list) -> Abort:
        _arity(items, 2, "abort")
        return cls(_bin(items[0], "abort.nonce", max_len=16),
                   _str(items[1], "abort.reason", MAX_TEXT))


@dataclass(frozen=True)
class SeedOk(Message):
    """'I hold every secret and they all matched': the game starts only when every
    participant has said so, so no honest node starts a game another one aborted."""

    TYPE: ClassVar[int] = 23
    nonce: bytes
    check: bytes  # BLAKE2b of the seed (domain-separated), to catch equivocation

    def body(self) -> list:
        return [self.nonce, self.check]

    @classmethod
    def parse(cls, items: list) -> SeedOk:
        _arity(items, 2, "seed_ok")
        return cls(_bin(items[0], "seed_ok.nonce", max_len=16),
                   _bin(items[1], "seed_ok.check", DIGEST_LEN))


@dataclass(frozen=True)
class MoveMsg(Message):
    """Move number `index` (0-based) and the state digest after applying it, plus the
    moves just before it (`prev`, for `index - len(prev)` .. `index - 1`), so a peer that
    lost one of those datagrams can go on at once instead of waiting for a resend."""

    TYPE: ClassVar[int] = 30
    index: int
    move: list = field(hash=False)
    digest: bytes = b""
    prev: tuple = field(default=(), hash=False)  # entries (`_entries`)
    # the state before the move and the mover's signature over the move's statement
    # (`move_statement_bytes`, with the datagram's sender and incarnation)
    before: bytes = bytes(DIGEST_LEN)
    sig: bytes = bytes(SIGNATURE_LEN)

    def body(self) -> list:
        return [self.index, self.move, self.digest, _entries_wire(self.prev), self.before,
                self.sig]

    @classmethod
    def parse(cls, items: list) -> MoveMsg:
        _arity(items, 6, "move")
        index = _uint(items[0], "move.index", 1 << 20)
        prev = _entries(items[3], "move.prev", MAX_PREV)
        if len(prev) > index:
            raise WireError("move.prev: more moves than came before")
        return cls(index, check_move_wire(items[1], "move.move"),
                   _bin(items[2], "move.digest", DIGEST_LEN), prev,
                   _bin(items[4], "move.before", DIGEST_LEN),
                   _bin(items[5], "move.signature", SIGNATURE_LEN))


@dataclass(frozen=True)
class Fetch(Message):
    TYPE: ClassVar[int] = 31
    start: int

    def body(self) -> list:
        return [self.start]

    @classmethod
    def parse(cls, items: list) -> Fetch:
        _arity(items, 1, "fetch")
        return cls(_uint(items[0], "fetch.start", 1 << 20))


@dataclass(frozen=True)
class Log(Message):
    """A chunk of the move log: moves start..start+len(entries)-1 of `total` known."""

    TYPE: ClassVar[int] = 32
    start: int
    total: int
    entries: tuple = field(hash=False)  # ((move_wire, digest[, values]), ...)

    def body(self) -> list:
        return [self.start, self.total, _entries_wire(self.entries)]

    @classmethod
    def parse(cls, items: list) -> Log:
        _arity(items, 3, "log")
        entries = _entries(items[2], "log", 64)
        start = _uint(items[0], "log.start", 1 << 20)
        total = _uint(items[1], "log.total", 1 << 20)
        if start + len(entries) > total:
            raise WireError("log: entries run past total")
        return cls(start, total, entries)


@dataclass(frozen=True)
class Draw(Message):
    """Contributors' chain values for fair draw `draw` (protocol/draws.md). A node sends
    its own value only once it has applied the move that needs the draw; values prove
    themselves against the chain commitments, so any member may pass them on."""

    TYPE: ClassVar[int] = 33
    draw: int
    values: tuple = field(hash=False)  # ((contributor, value), ...)

    def body(self) -> list:
        return [self.draw, [[i, v] for i, v in self.values]]

    @classmethod
    def parse(cls, items: list) -> Draw:
        _arity(items, 2, "draw")
        values = _values(items[1], "draw.values")
        if not values:
            raise WireError("draw.values: no value")
        return cls(_uint(items[0], "draw.draw", MAX_DRAW), values)


@dataclass(frozen=True)
class Farewell(Message):
    """A player leaves the table on purpose (protocol/draws.md, "Leaving on purpose").

    `leaver` signs it with its identity key (`public`, `signature` over `farewell_bytes`),
    so any member may pass it on and every member can check it came from the leaver.
    `from_draw`: the first draw the leaver contributes no value to; `value`: its value
    for draw `from_draw - 1` when its game was waiting on that draw (32 bytes), else
    empty. `for_good`: False = back soon (the seat waits, as after LEAVE); True = the
    table draws without it from `from_draw` on and a bot takes its seat at once."""

    TYPE: ClassVar[int] = 34
    leaver: bytes
    from_draw: int
    for_good: bool
    value: bytes
    public: bytes
    signature: bytes

    def body(self) -> list:
        return [self.leaver, self.from_draw, self.for_good, self.value, self.public,
                self.signature]

    @classmethod
    def parse(cls, items: list) -> Farewell:
        _arity(items, 6, "farewell")
        value = _bin(items[3], "farewell.value", max_len=DIGEST_LEN)
        if len(value) not in (0, DIGEST_LEN):
            raise WireError(f"farewell.value: expected 0 or {DIGEST_LEN} bytes, got {len(value)}")
        from_draw = _uint(items[1], "farewell.from_draw", MAX_DRAW + 1)
        if value and from_draw == 0:
            raise WireError("farewell.value: a value needs from_draw of at least 1")
        return cls(_bin(items[0], "farewell.leaver", ID_LEN), from_draw,
                   _bool(items[2], "farewell.for_good"), value,
                   _bin(items[4], "farewell.public", PUBLIC_LEN),
                   _bin(items[5], "farewell.signature", SIGNATURE_LEN))


def farewell_bytes(game: bytes, leaver: bytes, from_draw: int, for_good: bool,
                   value: bytes) -> bytes:
    """What a FAREWELL's signature covers: the personalisation, the game id (a farewell
    counts in one game only), then the fields in wire order."""
    return (FAREWELL_PERSON + game + leaver + bytes([from_draw, 1 if for_good else 0])
            + value)


@dataclass(frozen=True)
class SetWait(Message):
    """Lobby request: the table's wait for a missing draw value (`Lobby.draw_wait`)."""

    TYPE: ClassVar[int] = 35
    seconds: int

    def body(self) -> list:
        return [self.seconds]

    @classmethod
    def parse(cls, items: list) -> SetWait:
        _arity(items, 1, "set_wait")
        w = _uint(items[0], "set_wait.seconds", DRAW_WAIT_MAX)
        if w < DRAW_WAIT_MIN:
            raise WireError(f"set_wait.seconds: at least {DRAW_WAIT_MIN} s, got {w}")
        return cls(w)


@dataclass(frozen=True)
class Chat(Message):
    TYPE: ClassVar[int] = 40
    text: str

    def body(self) -> list:
        return [self.text]

    @classmethod
    def parse(cls, items: list) -> Chat:
        _arity(items, 1, "chat")
        return cls(_str(items[0], "chat.text", MAX_CHAT, allow_empty=False))


@dataclass(frozen=True)
class Watch(Message):
    """Someone without a seat asks a member to show them the game (protocol/watching.md):
    sent again every few seconds while unanswered, and to another member if this one goes."""

    TYPE: ClassVar[int] = 36
    name: str

    def body(self) -> list:
        return [self.name]

    @classmethod
    def parse(cls, items: list) -> Watch:
        _arity(items, 1, "watch")
        return cls(_str(items[0], "watch.name", MAX_NAME, allow_empty=False))


@dataclass(frozen=True)
class WatchState(Message):
    """What a watcher needs besides the lobby and the moves to follow a started game: the
    seed and the fair-draw contributors with their chain heads, in contributor order. All
    of it public at every member since the seed round; nothing secret."""

    TYPE: ClassVar[int] = 37
    seed: bytes
    contributors: tuple[bytes, ...]
    heads: tuple[bytes, ...]

    def body(self) -> list:
        return [self.seed, list(self.contributors), list(self.heads)]

    @classmethod
    def parse(cls, items: list) -> WatchState:
        _arity(items, 3, "watch_state")
        contributors = tuple(_bin(c, "watch_state.contributors", ID_LEN)
                             for c in _list(items[1], "watch_state.contributors", MAX_SEATS))
        heads = tuple(_bin(h, "watch_state.heads", DIGEST_LEN)
                      for h in _list(items[2], "watch_state.heads", MAX_SEATS))
        if len(heads) != len(contributors) or not contributors:
            raise WireError("watch_state: one chain head per contributor, at least one")
        return cls(_bin(items[0], "watch_state.seed", DIGEST_LEN), contributors, heads)


@dataclass(frozen=True)
class NewChain(Message):
    """A member that plays but takes no part in the draws (back after the table drew
    without it, or new to the table) commits to a fresh chain, by its head; the table takes
    it into the lobby for a draw no value of which is out yet (protocol/draws.md, "Taking
    part again"). Sent to every member, again every few seconds until the lobby has it."""

    TYPE: ClassVar[int] = 44
    head: bytes

    def body(self) -> list:
        return [self.head]

    @classmethod
    def parse(cls, items: list) -> NewChain:
        _arity(items, 1, "new_chain")
        return cls(_bin(items[0], "new_chain.head", DIGEST_LEN))


@dataclass(frozen=True)
class Watchers(Message):
    """A member tells the table who watches through it: `[[peer, name], ...]`, the whole
    list each time (a member's list replaces its previous one)."""

    TYPE: ClassVar[int] = 38
    watchers: tuple[tuple[bytes, str], ...]

    def body(self) -> list:
        return [[[p, n] for p, n in self.watchers]]

    @classmethod
    def parse(cls, items: list) -> Watchers:
        _arity(items, 1, "watchers")
        out = []
        for e in _list(items[0], "watchers.list", MAX_WATCHERS):
            pair = _list(e, "watchers.list", 2)
            _arity(pair, 2, "watchers.list")
            out.append((_bin(pair[0], "watchers.peer", ID_LEN),
                        _str(pair[1], "watchers.name", MAX_NAME, allow_empty=False)))
        return cls(tuple(out))


@dataclass(frozen=True)
class AwayList(Message):
    """A feeder tells its watchers which members it counts away now (a laptop silent,
    asleep, cut off): the whole list each time. A watcher hears only its feeder, so it
    could not tell a player who is away from one who is thinking (protocol/watching.md)."""

    TYPE: ClassVar[int] = 43
    away: tuple[bytes, ...]

    def body(self) -> list:
        return [list(self.away)]

    @classmethod
    def parse(cls, items: list) -> AwayList:
        _arity(items, 1, "away_list")
        away = tuple(_bin(p, "away_list.peer", ID_LEN)
                     for p in _list(items[0], "away_list.list", MAX_SEATS))
        if list(away) != sorted(set(away)):  # one form for one list (protocol/wire.md)
            raise WireError("away_list.list: peer ids must be in byte order, each once")
        return cls(away)


@dataclass(frozen=True)
class TakeSeat(Message):
    """A watcher asks to play the seat (a player's seats, in the two-colour variant) that
    a bot plays; sent to every member, only the coordinator answers (protocol/watching.md)."""

    TYPE: ClassVar[int] = 39
    seat: int
    name: str
    # the bot the newcomer's laptop plays with (`play --headless --bot`), "" for a
    # person, as Join.plays: without it a bot laptop that took a seat mid-game was shown
    # to the table as a person
    plays: str = ""

    def body(self) -> list:
        return [self.seat, self.name, self.plays]

    @classmethod
    def parse(cls, items: list) -> TakeSeat:
        _arity(items, 3, "take_seat")
        return cls(_uint(items[0], "take_seat.seat", MAX_SEATS - 1),
                   _str(items[1], "take_seat.name", MAX_NAME, allow_empty=False),
                   _str(items[2], "take_seat.plays", MAX_BOT, max_bytes=MAX_BOT))


@dataclass(frozen=True)
class ChatFrom(Message):
    """A chat line passed on: by a member to its watchers (the table's lines), and by the
    member a watcher chats through to the table (`watcher` true). The sender vouches for
    `speaker`: it heard the line on an authenticated link."""

    TYPE: ClassVar[int] = 41
    speaker: bytes
    name: str
    text: str
    watcher: bool

    def body(self) -> list:
        return [self.speaker, self.name, self.text, self.watcher]

    @classmethod
    def parse(cls, items: list) -> ChatFrom:
        _arity(items, 4, "chat_from")
        return cls(_bin(items[0], "chat_from.speaker", ID_LEN),
                   _str(items[1], "chat_from.name", MAX_NAME, allow_empty=False),
                   _str(items[2], "chat_from.text", MAX_CHAT, allow_empty=False),
                   _bool(items[3], "chat_from.watcher"))


@dataclass(frozen=True)
class SetGuests(Message):
    """The host's say on who else may come to the table (Lobby.guests), in any phase."""

    TYPE: ClassVar[int] = 42
    guests: int

    def body(self) -> list:
        return [self.guests]

    @classmethod
    def parse(cls, items: list) -> SetGuests:
        _arity(items, 1, "set_guests")
        return cls(_uint(items[0], "set_guests.guests", GUESTS_DEFAULT))


@dataclass(frozen=True)
class MoveStatement:
    """A move as its mover signed it: `move_statement_bytes(game, signer, inc, index,
    before, after, move)` under `sig` (the game and the signer come from the context)."""

    inc: int
    index: int
    before: bytes
    move: list = field(hash=False)
    after: bytes = b""
    sig: bytes = b""

    def to_wire(self) -> list:
        return [self.inc, self.index, self.before, self.move, self.after, self.sig]

    @classmethod
    def parse(cls, v: Any, what: str) -> MoveStatement:
        items = _list(v, what, 6)
        _arity(items, 6, what)
        return cls(_uint(items[0], f"{what}.incarnation"),
                   _uint(items[1], f"{what}.index", 1 << 20),
                   _bin(items[2], f"{what}.before", DIGEST_LEN),
                   check_move_wire(items[3], f"{what}.move"),
                   _bin(items[4], f"{what}.after", DIGEST_LEN),
                   _bin(items[5], f"{what}.signature", SIGNATURE_LEN))

    def signed_bytes(self, game: bytes, signer: bytes) -> bytes:
        return move_statement_bytes(game, signer, self.inc, self.index, self.before,
                                    self.after, self.move)


@dataclass(frozen=True)
class LobbyStatement:
    """A lobby as its author signed it, by the hash of its body (`lobby_body_hash`)."""

    inc: int
    version: int
    body_hash: bytes
    sig: bytes

    def to_wire(self) -> list:
        return [self.inc, self.version, self.body_hash, self.sig]

    @classmethod
    def parse(cls, v: Any, what: str) -> LobbyStatement:
        items = _list(v, what, 4)
        _arity(items, 4, what)
        return cls(_uint(items[0], f"{what}.incarnation"),
                   _uint(items[1], f"{what}.version", MAX_LOBBY_VERSION),
                   _bin(items[2], f"{what}.body_hash", DIGEST_LEN),
                   _bin(items[3], f"{what}.signature", SIGNATURE_LEN))

    def signed_bytes(self, game: bytes, author: bytes) -> bytes:
        return lobby_statement_bytes(game, author, self.inc, self.version, self.body_hash)


@dataclass(frozen=True)
class Proof(Message):
    """A proof that a member sent what no honest node sends (protocol/security.md, "Proof
    of misbehaviour"): its statements, each signed by the accused's key, which the proof
    carries, so any member checks it without trusting whoever passes it on.
    `kind` 1: two move statements of one run that cannot both be true; 2: one move
    statement the rules engine refuses (`second` None); 3: two lobbies of one version."""

    TYPE: ClassVar[int] = 45
    kind: int
    accused: bytes
    public: bytes
    first: MoveStatement | LobbyStatement
    second: MoveStatement | LobbyStatement | None = None

    def body(self) -> list:
        return [self.kind, self.accused, self.public, self.first.to_wire(),
                self.second.to_wire() if self.second is not None else []]

    @classmethod
    def parse(cls, items: list) -> Proof:
        _arity(items, 5, "proof")
        kind = _uint(items[0], "proof.kind", 255)
        if kind not in PROOF_KINDS:
            raise WireError(f"proof.kind: unknown kind {kind}")
        statement = LobbyStatement if kind == PROOF_TWO_LOBBIES else MoveStatement
        first = statement.parse(items[3], "proof.first")
        if kind == PROOF_REFUSED_MOVE:
            if _list(items[4], "proof.second", 6):
                raise WireError("proof.second: a refused move is proven by one statement")
            second = None
        else:
            second = statement.parse(items[4], "proof.second")
        return cls(kind, _bin(items[1], "proof.accused", ID_LEN),
                   _bin(items[2], "proof.public", PUBLIC_LEN), first, second)


NONCE_LEN = 16


@dataclass(frozen=True)
class Probe(Message):
    """`doctor` asks "can a datagram get from me to you and back?" (protocol/wire.md,
    "Probe"). Outside any game: envelope game id 0, signed, never part of a link."""

    TYPE: ClassVar[int] = 50
    RELIABLE: ClassVar[bool] = False
    nonce: bytes

    def body(self) -> list:
        return [self.nonce]

    @classmethod
    def parse(cls, items: list) -> Probe:
        _arity(items, 1, "probe")
        return cls(_bin(items[0], "probe.nonce", NONCE_LEN))


@dataclass(frozen=True)
class ProbeAnswer(Message):
    """The answer to a PROBE: its nonce, the answerer's wall clock (microseconds since
    the epoch, for the clock difference `doctor` shows) and the game it is in (0: none)."""

    TYPE: ClassVar[int] = 51
    RELIABLE: ClassVar[bool] = False
    nonce: bytes
    wall_us: int
    game: bytes

    def body(self) -> list:
        return [self.nonce, self.wall_us, self.game]

    @classmethod
    def parse(cls, items: list) -> ProbeAnswer:
        _arity(items, 3, "probe_answer")
        return cls(_bin(items[0], "probe_answer.nonce", NONCE_LEN),
                   _uint(items[1], "probe_answer.wall_us"),
                   _bin(items[2], "probe_answer.game", ID_LEN))


MESSAGE_TYPES: dict[int, type[Message]] = {
    cls.TYPE: cls
    for cls in (Heartbeat, Ack, Join, Lobby, SetSeat, Ready, AddBot, RemoveBot, Leave, Start,
                Refuse, Commit, Reveal, Abort, SeedOk, MoveMsg, Fetch, Log, Draw, Farewell,
                SetWait, Watch, WatchState, Watchers, TakeSeat, Chat, ChatFrom, SetGuests,
                Probe, ProbeAnswer, AwayList, NewChain, Proof)
}


def _arity(items: list, n: int, what: str) -> None:
    if len(items) != n:
        raise WireError(f"{what}: expected {n} fields, got {len(items)}")


def parse_message(obj: Any) -> Message:
    items = _list(obj, "message", 20)
    if not items:
        raise WireError("message: empty array")
    t = items[0]
    if type(t) is not int or t not in MESSAGE_TYPES:
        raise WireError(f"message: unknown type {_show(t)}")
    return MESSAGE_TYPES[t].parse(items[1:])


# --------------------------------------------------------------------------- envelope


@dataclass(frozen=True)
class Envelope:
    """Everything in a datagram except the frame and the MAC.

    `dest` names the node the datagram is for (its peer id), so a datagram captured on
    its way to one member is refused by every other. `dest_inc` names the receiver's
    incarnation the sender is talking to (0 = not yet known), so acks and sequence numbers
    meant for a previous run of a restarted peer are never applied to the new one. `echo`
    is the highest `pkt` the sender has received from that run of the receiver (0: none):
    the receiver knows when and where it sent that packet, so a datagram echoing a recent
    one proves its sender alive since then, and reachable there (protocol/transport.md,
    "Liveness" and "Addresses").
    """

    game: bytes
    sender: bytes
    incarnation: int
    dest: bytes
    dest_inc: int
    pkt: int
    echo: int
    seq: int
    ack: int
    sack: int
    message: Message

    def to_wire(self) -> list:
        return [self.game, self.sender, self.incarnation, self.dest, self.dest_inc,
                self.pkt, self.echo, self.seq, self.ack, self.sack, self.message.to_wire()]


_KEYED: dict[bytes, Any] = {}  # key -> HMAC-SHA256 object holding only the key


def _mac(key: bytes, data: bytes) -> bytes:
    """HMAC-SHA256 of `data`. The keyed state is set up once per key and copied for each
    datagram: setting a key up costs more than the MAC of a small datagram."""
    keyed = _KEYED.get(key)
    if keyed is None:
        if len(_KEYED) >= 256:  # (links and games come and go; a few dozen keys are live)
            _KEYED.clear()
        keyed = _KEYED[key] = hmac.new(key, digestmod="sha256")
    h = keyed.copy()
    h.update(data)
    return h.digest()


def pack_message(message: Message) -> bytes:
    return msgpack.packb(message.to_wire(), use_bin_type=True)


def encode_datagram(env: Envelope, key: bytes | None = None, identity=None,
                    kx_public: bytes = NO_KX, link_key: bytes | None = None,
                    packed_message: bytes | None = None) -> bytes:
    """Frame a datagram and authenticate its sender: with `link_key` (the key this pair
    of nodes agreed) by an HMAC, else with `identity` (a `net.identity.Identity`) by a
    signature block carrying its public key and `kx_public` (its X25519 key for this
    run); then the passphrase MAC with `key`. `packed_message`: the message already
    packed (`pack_message`), when the same one goes to several peers."""
    if packed_message is None:
        packed_message = pack_message(env.message)
    return encode_fields([env.game, env.sender, env.incarnation, env.dest, env.dest_inc,
                          env.pkt, env.echo, env.seq, env.ack, env.sack], packed_message,
                         key, identity, kx_public, link_key)


def encode_fields(fields: list, packed_message: bytes, key: bytes | None = None,
                  identity=None, kx_public: bytes = NO_KX,
                  link_key: bytes | None = None) -> bytes:
    """`encode_datagram` from the envelope's first ten fields (in `Envelope` order) and
    the packed message: what a node sending the same message to every peer calls."""
    # the envelope is an 11-array whose last item is the message: the header of the first
    # 10 (one byte, a fixarray) becomes an 11-array's, and the packed message follows
    head = msgpack.packb(fields, use_bin_type=True)
    body = b"\x9b" + head[1:] + packed_message
    flags = FLAG_MAC if key else 0
    if link_key is not None:
        flags |= FLAG_LINK_MAC
    elif identity is not None:
        flags |= FLAG_SIGNED
    data = MAGIC + bytes([PROTOCOL_VERSION, flags]) + body
    if link_key is not None:
        data += _mac(link_key, data)
    elif identity is not None:
        data += identity.public + kx_public
        data += identity.sign(data)
    if key:
        data += _mac(key, data)
    if len(data) > MAX_DATAGRAM:
        raise WireError(f"datagram of {len(data)} bytes exceeds {MAX_DATAGRAM}")
    return data


ENVELOPE_LEN = 11


def _envelope(items: list) -> Envelope:
    return Envelope(
        _bin(items[0], "envelope.game", ID_LEN),
        _bin(items[1], "envelope.sender", ID_LEN),
        _uint(items[2], "envelope.incarnation"),
        _bin(items[3], "envelope.dest", ID_LEN),
        _uint(items[4], "envelope.dest_inc"),
        _uint(items[5], "envelope.pkt"),
        _uint(items[6], "envelope.echo"),
        _uint(items[7], "envelope.seq"),
        _uint(items[8], "envelope.ack"),
        _uint(items[9], "envelope.sack"),
        parse_message(items[10]),
    )


def decode_datagram(data: bytes, key: bytes | None = None, require_signature: bool = False,
                    link_key=None, signer: dict | None = None) -> Envelope:
    """Check and parse one datagram. With `key`, a datagram without a valid passphrase MAC
    is refused. A signed datagram is refused unless its key hashes to the sender's peer id
    and its signature holds (the signer's keys then go into `signer`); a link-MACed one
    unless `link_key(sender, incarnation)` gives the key and the MAC holds; with
    `require_signature`, a datagram that is neither is refused too."""
    if len(data) > MAX_DATAGRAM:
        raise WireError(f"oversized datagram ({len(data)} bytes, limit {MAX_DATAGRAM})")
    if len(data) < HEADER_LEN + 1:
        raise WireError(f"runt datagram ({len(data)} bytes)")
    if data[:2] != MAGIC:
        raise WireError("not a tongiaki datagram (bad magic)")
    if data[2] != PROTOCOL_VERSION:
        raise WireError(f"unsupported protocol version {data[2]}")
    flags = data[3]
    if flags & ~(FLAG_MAC | FLAG_SIGNED | FLAG_LINK_MAC) or (
            flags & FLAG_SIGNED and flags & FLAG_LINK_MAC):
        raise WireError(f"unknown flags {flags:#04x}")
    body_end = len(data)
    if flags & FLAG_MAC:
        if len(data) < HEADER_LEN + 1 + MAC_LEN:
            raise WireError("datagram too short for its MAC")
        body_end -= MAC_LEN
        if key is not None:
            want = _mac(key, data[:body_end])
            if not hmac.compare_digest(want, data[body_end:]):
                raise WireError("bad MAC (wrong or missing passphrase)")
    elif key is not None:
        raise WireError("unauthenticated datagram in a game that needs a passphrase")
    auth_end = body_end
    if flags & FLAG_SIGNED:
        if body_end < HEADER_LEN + 1 + SIGN_LEN:
            raise WireError("datagram too short for its signature")
        body_end -= SIGN_LEN
    elif flags & FLAG_LINK_MAC:
        if body_end < HEADER_LEN + 1 + LINK_MAC_LEN:
            raise WireError("datagram too short for its link MAC")
        body_end -= LINK_MAC_LEN
    elif require_signature:
        raise WireError("unsigned datagram")
    try:
        obj = msgpack.unpackb(data[HEADER_LEN:body_end], raw=False, use_list=True,
                              strict_map_key=True, max_array_len=256, max_map_len=0,
                              max_ext_len=0)
    except Exception as exc:  # msgpack raises a zoo of types for bad input
        raise WireError(f"malformed msgpack ({type(exc).__name__})") from None
    items = _list(obj, "envelope", ENVELOPE_LEN)
    _arity(items, ENVELOPE_LEN, "envelope")
    game, sender, inc, dest, *numbers, message = items
    if (type(game) is bytes and len(game) == ID_LEN and type(sender) is bytes
            and len(sender) == ID_LEN and type(dest) is bytes and len(dest) == ID_LEN
            and all(type(n) is int and 0 <= n <= MAX_U64 for n in (inc, *numbers))):
        env = Envelope(game, sender, inc, dest, *numbers, parse_message(message))  # (fast)
    else:  # the checks one by one, for the message that says which field is wrong
        env = _envelope(items)
    if flags & FLAG_SIGNED:
        public = bytes(data[body_end:body_end + PUBLIC_LEN])
        if peer_id_of(public) != env.sender:
            raise WireError("sender id does not belong to the signing key (impersonation?)")
        kx_end = body_end + PUBLIC_LEN + KX_LEN
        if not verify(public, bytes(data[kx_end:auth_end]), bytes(data[:kx_end])):
            raise WireError("bad signature")
        if signer is not None:
            signer["public"] = public
            signer["kx"] = bytes(data[body_end + PUBLIC_LEN:kx_end])
    elif flags & FLAG_LINK_MAC:
        k = link_key(env.sender, env.incarnation) if link_key is not None else None
        if k is None:
            raise WireError("link-MACed datagram from a sender without a link key")
        want = _mac(k, data[:body_end])
        if not hmac.compare_digest(want, data[body_end:auth_end]):
            raise WireError("bad link MAC")
    return env


def peek_envelope(data: bytes) -> Envelope:
    """The envelope of a well-formed datagram WITHOUT checking who sent it: for tools and
    tests that watch the wire, never for accepting anything."""
    flags = data[3] if len(data) > 3 else 0
    end = len(data) - (MAC_LEN if flags & FLAG_MAC else 0)
    end -= SIGN_LEN if flags & FLAG_SIGNED else LINK_MAC_LEN if flags & FLAG_LINK_MAC else 0
    return decode_datagram(data[:3] + bytes([0]) + data[4:end])


def peek_game(data: bytes) -> bytes | None:
    """The game id of a datagram without checking its MAC (to pick the key), or None."""
    if len(data) < HEADER_LEN + 12 or data[:2] != MAGIC:
        return None
    # envelope = fixarray(11) 0x9b, then bin8 0xc4 0x08 + 8 bytes of game id
    if data[4] != 0x9B or data[5] != 0xC4 or data[6] != ID_LEN:
        return None
    return bytes(data[7:7 + ID_LEN])

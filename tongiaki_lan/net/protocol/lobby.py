"""Lobby rules as pure functions over the replicated `Lobby` message.

One node at a time, the coordinator, applies requests and broadcasts the result with a
higher version; every node can compute who the coordinator is (the first member in join
order that is present), so when it leaves, the next one simply carries on. The same
node is the table's host: the only one whose START is taken. Nothing here does I/O, so
the rules are tested without sockets.

A refusal is an English text (REFUSE carries it as it is; a script reads it) made from
one of the templates in `REFUSALS`. They are marked for translation so that a console
can show them in its player's language by matching the text against them
(`tongiaki_lan.i18n.translate_known`): the wire stays the same for every peer.
"""

from __future__ import annotations

import dataclasses
import os
import unicodedata
from collections.abc import Collection

import msgpack

from tongiaki_lan.draws import MAX_CONTRIBUTORS, MAX_LATE_CHAINS
from tongiaki_lan.engine import COLOURS
from tongiaki_lan.engine.variant import STANDARD, TWO_COLOURS, VARIANTS
from tongiaki_lan.i18n import N_
from tongiaki_lan.net.protocol.codec import (
    DIGEST_LEN,
    DRAW_WAIT_MAX,
    GUEST_SEATS,
    GUESTS_DEFAULT,
    HEADER_LEN,
    ID_LEN,
    MAC_LEN,
    MAX_BOT,
    MAX_DATAGRAM,
    MAX_DRAW,
    MAX_EXPELLED,
    MAX_LOBBY_VERSION,
    MAX_NAME,
    MAX_U64,
    PUBLIC_LEN,
    SIGN_LEN,
    SIGNATURE_LEN,
    AddBot,
    Join,
    Leave,
    Lobby,
    Member,
    Message,
    Ready,
    RemoveBot,
    Seat,
    SetSeat,
    SetWait,
    Start,
    WireError,
)

BOT_NAMES = ("Maui", "Hina", "Tangaroa", "Rongo", "Tane", "Tu")

# Why a guest (a watcher, or a newcomer asking for a seat) is refused (protocol/watching.md)
NO_WATCHERS = N_("the table {name} takes no watchers")
TOO_MANY_WATCHERS = N_("too many people watch through this laptop: ask another player's")
NO_GUEST_SEATS = N_("the table {name} lets nobody take a seat")
SEAT_NOT_OPEN = N_("{colour} is not a seat a bot plays for a player who left: it cannot be "
                   "taken")
NOT_RUNNING = N_("the game is not running: seats are taken in the lobby")
ALREADY_SEATED = N_("you already play at this table")
SEAT_GIVEN = N_("{name} took your seat after you left for good: you may watch the game")
WATCHERS_QUIET = N_("watchers do not chat at this table")
GUEST_REFUSALS = (NO_WATCHERS, TOO_MANY_WATCHERS, NO_GUEST_SEATS, SEAT_NOT_OPEN, NOT_RUNNING,
                  ALREADY_SEATED, SEAT_GIVEN, WATCHERS_QUIET)

# Why a lobby request is refused. Placeholders hold names and colours as they are sent;
# {phase} holds a phase word (a console translates it too).
ALREADY_STARTED = N_("game {name} has already started")
FULL = N_("game {name} is full")
UNKNOWN_COLOUR = N_("unknown colour {colour}")
NO_COLOUR_LEFT = N_("no colour left")
NO_SEAT = N_("no seat")
NOT_MEMBER = N_("not a member of this game")
ALREADY_PHASE = N_("the game is already {phase}")
YOU_HAVE_NO_SEAT = N_("you have no seat")
COLOUR_TAKEN = N_("colour {colour} is taken")
NO_SEAT_FOR_BOT = N_("no free seat for a bot")
NO_SUCH_BOT = N_("no bot plays {colour}")
TOO_FEW_SEATS = N_("at least 2 seats must be taken")
NOT_READY = N_("not ready yet: {names}")
NAME_TAKEN = N_("the name {name} is already taken at this table: choose another, for example "
                "{suggestion}")
TWO_PLAYERS = N_("two colours each is for exactly 2 players")
NO_ROOM = N_("the table {name} has no room left in its lobby for so long a name: choose a "
             "shorter one")
NOT_HOST = N_("only the host starts the table: {host} (a full table where everyone is "
              "ready starts by itself)")
# Why a join fails on the joiner's side (Node.join_game): nobody answered, which with a
# passphrase most often means a wrong one (its datagrams fail the MAC and are dropped).
NO_ANSWER = N_("no answer from the game")
NO_ANSWER_PASSPHRASE = N_("no answer from the game (wrong passphrase?)")
NO_ANSWER_WITHIN = N_("no answer from the game within {seconds} s")
NO_ANSWER_WITHIN_PASSPHRASE = N_("no answer from the game within {seconds} s (wrong or "
                                 "missing passphrase?)")
# A watcher with no passphrase, of a game whose advert says it is locked: nothing is sent
# (it said "no answer … (wrong or missing passphrase?)" after the join's wait, when the
# listing had said all along that the game is locked).
PASSPHRASE_NEEDED = N_("the game {name} is locked: it needs its passphrase")
# A newcomer asking for a seat when the game ends first: the table may be gone by then
# (a headless node leaves at the end), so the watcher's own copy of the game says it.
GAME_ENDED = N_("the game ended before the seat was yours")
REFUSALS = (*GUEST_REFUSALS, ALREADY_STARTED, FULL, UNKNOWN_COLOUR, NO_COLOUR_LEFT, NO_SEAT,
            NOT_MEMBER,
            ALREADY_PHASE, YOU_HAVE_NO_SEAT, COLOUR_TAKEN, NO_SEAT_FOR_BOT, NO_SUCH_BOT,
            TOO_FEW_SEATS, NOT_READY, NOT_HOST, NAME_TAKEN, TWO_PLAYERS, NO_ROOM, NO_ANSWER,
            NO_ANSWER_PASSPHRASE,
            NO_ANSWER_WITHIN, NO_ANSWER_WITHIN_PASSPHRASE, GAME_ENDED, PASSPHRASE_NEEDED)


def new_lobby(name: str, total: int, passphrase: bool, creator: bytes, player: str,
              colour: str, port: int, variant: str = STANDARD, plays: str = "") -> Lobby:
    """`variant` "two-colours" (V1): the lobby seats 2 players, one seat each as usual;
    `start` gives each a second seat (and colour)."""
    if not 2 <= total <= 6:
        raise ValueError("a game has 2 to 6 seats")
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}")
    if variant == TWO_COLOURS and total != 2:
        raise ValueError(TWO_PLAYERS)
    colour = colour or COLOURS[0]
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}")
    return Lobby(1, "lobby", name, total, passphrase,
                 (Seat("human", player, colour, creator, False, "", plays),),
                 (Member(creator, "0.0.0.0", port),), variant=variant)


def name_key(name: str) -> str:
    """A name as people read it: case, accents and spacing do not tell two players apart
    ("Ana", "ana ", "Aña" and "ＡＮＡ" are one name at a table)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name)
                    if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def _seat_key(seat: Seat) -> str:
    # a bot seat is named "Maui (greedy)": players call it Maui
    name = seat.name.split(" (", 1)[0] if seat.kind == "bot" else seat.name
    return name_key(name)


def name_taken(lobby: Lobby, name: str, but: int | None = None) -> bool:
    """Is `name` already seated (seat `but` aside: a player renaming themselves)?"""
    key = name_key(name)
    return any(_seat_key(s) == key for i, s in enumerate(lobby.seats) if i != but)


def name_suggestion(lobby: Lobby, name: str) -> str:
    """The first of "Ana 2", "Ana 3", ... that nobody at the table has."""
    base = " ".join(name.split()) or "player"
    n = 2
    while name_taken(lobby, f"{base} {n}"):
        n += 1
    return f"{base} {n}"


def is_name_refusal(reason: str) -> bool:
    """Does a refusal's text (as REFUSE carries it) say our name is taken? Joining again
    under the same name cannot succeed, so a headless node gives up instead of retrying."""
    head = NAME_TAKEN.split("{name}", 1)[0]
    tail = NAME_TAKEN.split("{name}", 1)[1].split("{suggestion}", 1)[0]
    return reason.startswith(head) and tail in reason


def is_seat_given(reason: str) -> bool:
    """Does a REFUSE say a newcomer took our seat (SEAT_GIVEN)?"""
    head, tail = SEAT_GIVEN.split("{name}", 1)
    return reason.startswith(head) and reason.endswith(tail)


def _refuse_name(lobby: Lobby, name: str) -> str:
    return NAME_TAKEN.format(name=repr(name), suggestion=repr(name_suggestion(lobby, name)))


def free_colour(lobby: Lobby, wanted: str = "") -> str | None:
    taken = {s.colour for s in lobby.seats}
    if wanted and wanted not in taken:
        return wanted
    for c in COLOURS:
        if c not in taken:
            return c
    return None


def human_seat(lobby: Lobby, peer: bytes) -> int | None:
    for i, s in enumerate(lobby.seats):
        if s.kind == "human" and s.owner == peer:
            return i
    return None


def is_member(lobby: Lobby, peer: bytes) -> bool:
    return any(m.peer == peer for m in lobby.members)


def coordinator(lobby: Lobby, present: Collection[bytes]) -> bytes:
    """The first member in join order that is present; the first member if none is."""
    for m in lobby.members:
        if m.peer in present:
            return m.peer
    return lobby.members[0].peer


def host(lobby: Lobby, present: Collection[bytes] | None = None) -> bytes:
    """Who may start the table: the coordinator, i.e. the creator, or while the creator is
    away or gone the next member in join order that is present. `present` None counts
    every member as present (the creator then hosts)."""
    return coordinator(lobby, [m.peer for m in lobby.members] if present is None else present)


def seed_order(lobby: Lobby) -> list[bytes]:
    """Nodes taking part in the seed, ordered by their first seat."""
    order: list[bytes] = []
    for s in lobby.seats:
        if s.owner not in order:
            order.append(s.owner)
    for m in lobby.members:
        if m.peer not in order:
            order.append(m.peer)
    return order


def bot_driver(lobby: Lobby, seat: int, present: Collection[bytes]) -> bytes:
    """Who plays a bot seat: the node that added it, else the first present member."""
    owner = lobby.seats[seat].owner
    if owner in present:
        return owner
    return coordinator(lobby, present)


def can_start(lobby: Lobby) -> str | None:
    if lobby.phase != "lobby":
        return ALREADY_PHASE.format(phase=lobby.phase)
    if len(lobby.seats) < 2:
        return TOO_FEW_SEATS
    if lobby.variant == TWO_COLOURS and len(lobby.seats) != 2:
        return TWO_PLAYERS
    waiting = [s.name for s in lobby.seats if s.kind == "human" and not s.ready]
    if waiting:
        return NOT_READY.format(names=", ".join(waiting))
    return None


def _bump(lobby: Lobby, **changes) -> Lobby:
    return dataclasses.replace(lobby, version=lobby.version + 1, **changes)


def _with_seat(lobby: Lobby, i: int, **changes) -> tuple[Seat, ...]:
    seats = list(lobby.seats)
    seats[i] = dataclasses.replace(seats[i], **changes)
    return tuple(seats)


def apply_request(lobby: Lobby, peer: bytes, addr: tuple[str, int], msg: Message,
                  present: Collection[bytes] | None = None,
                  nonce: bytes | None = None) -> Lobby | str:
    """The coordinator's rules: the new lobby, or the reason the request is refused.

    `present` is who the coordinator hears (itself included): it decides who the host
    is (`host`), the only member whose START is taken. What adds to the lobby (a player,
    a name, a bot) is taken only while the lobby still fits one datagram at its fullest
    (`fits`)."""
    new = _apply_request(lobby, peer, addr, msg, present, nonce)
    adds = (isinstance(msg, SetSeat | AddBot)
            or isinstance(msg, Join) and not is_member(lobby, peer))
    if adds and isinstance(new, Lobby) and not fits(new):
        return NO_ROOM.format(name=repr(lobby.name))
    return new


def _apply_request(lobby: Lobby, peer: bytes, addr: tuple[str, int], msg: Message,
                   present: Collection[bytes] | None, nonce: bytes | None) -> Lobby | str:
    if isinstance(msg, Join):
        if is_member(lobby, peer):
            i = human_seat(lobby, peer)
            members = tuple(Member(m.peer, addr[0], addr[1]) if m.peer == peer else m
                            for m in lobby.members)
            if members != lobby.members:
                return _bump(lobby, members=members)
            return lobby if i is not None else NO_SEAT
        if lobby.phase != "lobby":
            return ALREADY_STARTED.format(name=repr(lobby.name))
        if len(lobby.seats) >= lobby.total:
            return FULL.format(name=repr(lobby.name))
        if msg.colour and msg.colour not in COLOURS:
            return UNKNOWN_COLOUR.format(colour=repr(msg.colour))
        if name_taken(lobby, msg.name):
            return _refuse_name(lobby, msg.name)
        colour = free_colour(lobby, msg.colour)
        if colour is None:
            return NO_COLOUR_LEFT
        seats = (*lobby.seats, Seat("human", msg.name, colour, peer, False, "", msg.plays))
        members = (*lobby.members, Member(peer, addr[0], addr[1]))
        return _bump(lobby, seats=seats, members=members)
    if not is_member(lobby, peer):
        return NOT_MEMBER
    if isinstance(msg, Leave):
        if lobby.phase != "lobby":
            return lobby  # seats are fixed once started; the node is shown as away
        keep = coordinator(lobby, [m.peer for m in lobby.members if m.peer != peer])
        seats = tuple(dataclasses.replace(s, owner=keep) if s.kind == "bot" and s.owner == peer
                      else s for s in lobby.seats if not (s.kind == "human" and s.owner == peer))
        members = tuple(m for m in lobby.members if m.peer != peer)
        if not members:
            return "last member cannot leave through the coordinator"
        return _bump(lobby, seats=seats, members=members)
    if lobby.phase != "lobby":
        return ALREADY_PHASE.format(phase=lobby.phase)
    i = human_seat(lobby, peer)
    if isinstance(msg, SetWait):
        return set_wait(lobby, peer, msg.seconds)
    if isinstance(msg, SetSeat):
        if i is None:
            return YOU_HAVE_NO_SEAT
        colour = msg.colour or lobby.seats[i].colour
        if colour not in COLOURS:
            return UNKNOWN_COLOUR.format(colour=repr(colour))
        if any(s.colour == colour for j, s in enumerate(lobby.seats) if j != i):
            return COLOUR_TAKEN.format(colour=colour)
        if name_taken(lobby, msg.name, but=i):
            return _refuse_name(lobby, msg.name)
        return _bump(lobby, seats=_with_seat(lobby, i, name=msg.name, colour=colour, ready=False))
    if isinstance(msg, Ready):
        if i is None:
            return YOU_HAVE_NO_SEAT
        return _bump(lobby, seats=_with_seat(lobby, i, ready=msg.ready))
    if isinstance(msg, AddBot):
        if len(lobby.seats) >= lobby.total:
            return NO_SEAT_FOR_BOT
        if msg.colour and msg.colour not in COLOURS:
            return UNKNOWN_COLOUR.format(colour=repr(msg.colour))
        colour = free_colour(lobby, msg.colour)
        if colour is None:
            return NO_COLOUR_LEFT
        n_bots = sum(1 for s in lobby.seats if s.kind == "bot")
        # the next bot name nobody at the table has (a player may be called Maui)
        base = next((b for k in range(len(BOT_NAMES))
                     if not name_taken(lobby, b := BOT_NAMES[(n_bots + k) % len(BOT_NAMES)])),
                    BOT_NAMES[n_bots % len(BOT_NAMES)])
        name = f"{base} ({msg.bot})"
        if len(name) > MAX_NAME:  # (a long kind: the name alone, as a seat's name is short)
            name = base
        seats = (*lobby.seats, Seat("bot", name, colour, peer, True, msg.bot))
        return _bump(lobby, seats=seats)
    if isinstance(msg, RemoveBot):
        idx = [j for j, s in enumerate(lobby.seats) if s.kind == "bot" and s.colour == msg.colour]
        if not idx:
            return NO_SUCH_BOT.format(colour=msg.colour)
        return _bump(lobby, seats=tuple(s for j, s in enumerate(lobby.seats) if j != idx[0]))
    if isinstance(msg, Start):
        starter = host(lobby, present)
        if peer != starter:  # the console asks first; this is the rule every peer keeps
            name = next((s.name for s in lobby.seats if s.owner == starter and s.kind == "human"),
                        starter.hex()[:8])
            return NOT_HOST.format(host=name)
        why = can_start(lobby)
        if why:
            return why
        return start(lobby, nonce)
    return f"{type(msg).__name__} is not a lobby request"


def set_wait(lobby: Lobby, peer: bytes, seconds: int) -> Lobby:
    """The table's wait for a missing draw value: a term of the game, so everyone else
    who was ready is asked again (as after a change of their own seat)."""
    if seconds == lobby.draw_wait:
        return lobby
    seats = tuple(dataclasses.replace(s, ready=False) if s.kind == "human" and s.owner != peer
                  else s for s in lobby.seats)
    return _bump(lobby, draw_wait=seconds, seats=seats)


def start(lobby: Lobby, nonce: bytes | None = None) -> Lobby:
    """Freeze the seats and open a commit-reveal round with a fresh nonce. Two colours
    each (V1): every player gets a second seat, the same player in a free colour, seated
    A1 B1 A2 B2 (engine/variant.py), so from here on seats are colours as in any game."""
    seats = lobby.seats
    if lobby.variant == TWO_COLOURS:
        taken = {s.colour for s in seats}
        spare = [c for c in COLOURS if c not in taken]
        seats = (*seats, *(dataclasses.replace(s, colour=spare[i]) for i, s in enumerate(seats)))
    return _bump(lobby, phase="starting", total=len(seats), seats=seats,
                 start_nonce=nonce if nonce is not None else os.urandom(8))


def should_autostart(lobby: Lobby) -> bool:
    return lobby.phase == "lobby" and len(lobby.seats) == lobby.total and can_start(lobby) is None


def abort_start(lobby: Lobby) -> Lobby:
    seats = lobby.seats
    if lobby.variant == TWO_COLOURS:  # back to one seat per player (see `start`)
        seats = seats[:len(seats) // 2]
    seats = tuple(dataclasses.replace(s, ready=s.kind == "bot") for s in seats)
    return _bump(lobby, phase="lobby", start_nonce=b"", seats=seats,
                 total=len(seats) if lobby.variant == TWO_COLOURS else lobby.total)


# ------------------------------------------------------------------ guests (watching.md)


def player_seats(lobby: Lobby, seat: int) -> list[int]:
    """The seats of the player who has seat `seat`: one, or two in the two-colour variant
    (the same owner and name on both)."""
    s = lobby.seats[seat]
    return [i for i, t in enumerate(lobby.seats)
            if t.owner == s.owner and t.name == s.name and t.kind == s.kind]


def open_seats(lobby: Lobby, left_for_good: Collection[bytes]) -> list[int]:
    """Seats a newcomer may take: a bot the table added, or a human seat a bot plays
    because its player said goodbye for good (`left_for_good`: those players); none when
    the host's guests setting lets nobody take a seat (the LAN listing counts these)."""
    if not lobby.guests & GUEST_SEATS:
        return []
    expelled = {p for p, _ in lobby.expelled}  # (a seat of an expelled member too)
    return [i for i, s in enumerate(lobby.seats)
            if s.kind == "bot" or (s.kind == "human" and s.bot
                                   and (s.owner in left_for_good or s.owner in expelled))]


def take_seat(lobby: Lobby, seat: int, peer: bytes, name: str, addr: tuple[str, int],
              left_for_good: Collection[bytes], plays: str = "") -> Lobby | str:
    """The coordinator's rule for a newcomer asking to play `seat` mid-game: the player's
    seats become the newcomer's (human, ready, its name, and the bot its laptop plays
    with, `plays`, as for one who joined before the start), the newcomer joins the members
    and a member left with no seat (the leaver) leaves them, so the table never lists more
    members than seats."""
    if lobby.phase != "playing":
        return NOT_RUNNING
    if not lobby.guests & GUEST_SEATS:
        return NO_GUEST_SEATS.format(name=repr(lobby.name))
    if is_member(lobby, peer):
        return ALREADY_SEATED
    if not 0 <= seat < len(lobby.seats) or seat not in open_seats(lobby, left_for_good):
        colour = lobby.seats[seat].colour if 0 <= seat < len(lobby.seats) else str(seat)
        return SEAT_NOT_OPEN.format(colour=colour)
    group = player_seats(lobby, seat)
    key = name_key(name)
    if any(_seat_key(s) == key for i, s in enumerate(lobby.seats) if i not in group):
        return _refuse_name(lobby, name)
    seats = list(lobby.seats)
    for i in group:
        seats[i] = Seat("human", name, seats[i].colour, peer, True, "", plays)
    owners = {s.owner for s in seats}
    members = tuple(m for m in lobby.members if m.peer in owners)
    new = _bump(lobby, seats=tuple(seats), members=(*members, Member(peer, addr[0], addr[1])))
    return new if fits(new) else NO_ROOM.format(name=repr(lobby.name))


# ------------------------------------------------------------------ one datagram (wire.md)

# what a lobby's fields become at their largest, whatever they hold now
_LONGEST_PHASE = "starting"
_LONGEST_HOST = "255.255.255.255"
_LONGEST_COLOUR = max(COLOURS, key=len)


def fullest(lobby: Lobby) -> Lobby:
    """`lobby` with every field that may still change without anyone asking at its largest
    (protocol/wire.md, "Large payloads"): the version, the phase, the start nonce, the
    twelve contributors a table may leave out of the draws, every member's address, every
    human seat's bot (a handover, an expulsion), an expulsion for every seat's owner that
    is no member (an expulsion of a member takes its members entry, which is larger), the
    draw wait and the guests; and, for two colours each before the start, the seats START
    adds. What a request adds (a player, a name, a bot, a chain) is not here: it is taken
    only while this still fits (`fits`), so no lobby a table comes to outgrows a datagram."""
    seats = tuple(dataclasses.replace(s, bot="b" * MAX_BOT) if s.kind == "human" else s
                  for s in lobby.seats)
    if lobby.variant == TWO_COLOURS and lobby.phase == "lobby":
        seats = (*seats, *(dataclasses.replace(s, colour=_LONGEST_COLOUR) for s in seats))
    members = tuple(Member(m.peer, _LONGEST_HOST, 65535) for m in lobby.members)
    expelled = [(p, 1 << 20) for p, _ in lobby.expelled]
    outside = sorted({s.owner for s in lobby.seats} - {m.peer for m in lobby.members}
                     - {p for p, _ in lobby.expelled})
    expelled += [(p, 1 << 20) for p in outside][:MAX_EXPELLED - len(expelled)]
    return dataclasses.replace(
        lobby, version=MAX_LOBBY_VERSION, phase=_LONGEST_PHASE, start_nonce=bytes(16),
        seats=seats, members=members, draw_wait=DRAW_WAIT_MAX, guests=GUESTS_DEFAULT,
        dropped=tuple((i, MAX_DRAW) for i in range(MAX_CONTRIBUTORS)),
        expelled=tuple(expelled), author_key=bytes(PUBLIC_LEN), inc=(1 << 62) - 1,
        sig=bytes(SIGNATURE_LEN))


def largest_datagram(lobby: Lobby) -> int:
    """The bytes of the largest datagram that could carry `lobby`: signed, with the
    passphrase MAC, and every envelope integer at its largest."""
    envelope = [bytes(ID_LEN), bytes(ID_LEN), (1 << 62) - 1, bytes(ID_LEN), MAX_U64, MAX_U64,
                MAX_U64, MAX_U64, MAX_U64, MAX_U64, [lobby.TYPE, *lobby.body()]]
    return HEADER_LEN + len(msgpack.packb(envelope, use_bin_type=True)) + SIGN_LEN + MAC_LEN


def fits(lobby: Lobby) -> bool:
    """Can a table keep `lobby`: is it one every member reads (each field within its
    limits), and does it still fit one datagram at its fullest?"""
    try:
        Lobby.parse(msgpack.unpackb(msgpack.packb(lobby.body(), use_bin_type=True)))
    except (WireError, ValueError):
        return False
    return largest_datagram(fullest(lobby)) <= MAX_DATAGRAM


def room_for_a_chain(lobby: Lobby) -> bool:
    """May the table take one more chain into its draws (protocol/draws.md, Taking part
    again)? No more than MAX_LATE_CHAINS, and only while the lobby with it still fits:
    a laptop the lobby has no room for plays on without drawing, as after the last one."""
    if len(lobby.chains) >= MAX_LATE_CHAINS:
        return False
    head = (bytes(ID_LEN), b"\xa5" * DIGEST_LEN, MAX_DRAW - 1)  # (any head not taken)
    return fits(dataclasses.replace(lobby, chains=(*lobby.chains, head)))


def takeover_refused(old: Lobby, new: Lobby) -> str | None:
    """Whether a member may take `new` after `old` mid-game, as far as who plays the seats
    goes: seats keep their colours; a seat changes hands only to a newcomer (a member of
    `new` who owned no seat in `old`), as a human seat; a member may drop out of the
    members only when it owns no seat any more. None: nothing wrong."""
    if len(old.seats) != len(new.seats):
        return "lobby with another number of seats after the game started"
    owners_before = {s.owner for s in old.seats}
    for a, b in zip(old.seats, new.seats, strict=True):
        if a.colour != b.colour:
            return "lobby with other colours after the game started"
        if (a.kind, a.owner, a.name) == (b.kind, b.owner, b.name):
            if a.kind == "bot" and a != b:
                return "lobby with another bot after the game started"
            continue
        if not (b.kind == "human" and not b.bot and is_member(new, b.owner)
                and b.owner not in owners_before):
            return "lobby that gives a seat to somebody other than a newcomer"
        if not (a.kind == "bot" or a.bot):
            return "lobby that takes a seat from a player who plays it"
    owners = {s.owner for s in new.seats}
    expelled = {p for p, _ in new.expelled}  # (checked on its own: a proof each)
    for m in old.members:
        if not is_member(new, m.peer) and m.peer in owners and m.peer not in expelled:
            return "lobby without a member who still has a seat"
    return None

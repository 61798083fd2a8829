"""Lobby rules as pure functions over the replicated `Lobby` message.

One node at a time, the coordinator, applies requests and broadcasts the result with a
higher version; every node can compute who the coordinator is (the first member in join
order that is present), so when it leaves, the next one simply carries on. Nothing here
does I/O, so the rules are tested without sockets.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Collection

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.net.codec import (
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
    Start,
)

BOT_NAMES = ("Maui", "Hina", "Tangaroa", "Rongo", "Tane", "Tu")


def new_lobby(name: str, total: int, passphrase: bool, creator: bytes, player: str,
              colour: str, port: int) -> Lobby:
    if not 2 <= total <= 6:
        raise ValueError("a game has 2 to 6 seats")
    colour = colour or COLOURS[0]
    if colour not in COLOURS:
        raise ValueError(f"unknown colour {colour!r}")
    return Lobby(1, "lobby", name, total, passphrase,
                 (Seat("human", player, colour, creator, False),),
                 (Member(creator, "0.0.0.0", port),))


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
        return f"the game is already {lobby.phase}"
    if len(lobby.seats) < 2:
        return "at least 2 seats must be taken"
    waiting = [s.name for s in lobby.seats if s.kind == "human" and not s.ready]
    if waiting:
        return "not ready yet: " + ", ".join(waiting)
    return None


def _bump(lobby: Lobby, **changes) -> Lobby:
    return dataclasses.replace(lobby, version=lobby.version + 1, **changes)


def _with_seat(lobby: Lobby, i: int, **changes) -> tuple[Seat, ...]:
    seats = list(lobby.seats)
    seats[i] = dataclasses.replace(seats[i], **changes)
    return tuple(seats)


def apply_request(lobby: Lobby, peer: bytes, addr: tuple[str, int], msg: Message) -> Lobby | str:
    """The coordinator's rules: the new lobby, or the reason the request is refused."""
    if isinstance(msg, Join):
        if is_member(lobby, peer):
            i = human_seat(lobby, peer)
            members = tuple(Member(m.peer, addr[0], addr[1]) if m.peer == peer else m
                            for m in lobby.members)
            if members != lobby.members:
                return _bump(lobby, members=members)
            return lobby if i is not None else "no seat"
        if lobby.phase != "lobby":
            return f"game {lobby.name!r} has already started"
        if len(lobby.seats) >= lobby.total:
            return f"game {lobby.name!r} is full"
        if msg.colour and msg.colour not in COLOURS:
            return f"unknown colour {msg.colour!r}"
        colour = free_colour(lobby, msg.colour)
        if colour is None:
            return "no colour left"
        seats = (*lobby.seats, Seat("human", msg.name, colour, peer, False))
        members = (*lobby.members, Member(peer, addr[0], addr[1]))
        return _bump(lobby, seats=seats, members=members)
    if not is_member(lobby, peer):
        return "not a member of this game"
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
        return f"the game is already {lobby.phase}"
    i = human_seat(lobby, peer)
    if isinstance(msg, SetSeat):
        if i is None:
            return "you have no seat"
        colour = msg.colour or lobby.seats[i].colour
        if colour not in COLOURS:
            return f"unknown colour {colour!r}"
        if any(s.colour == colour for j, s in enumerate(lobby.seats) if j != i):
            return f"colour {colour} is taken"
        return _bump(lobby, seats=_with_seat(lobby, i, name=msg.name, colour=colour, ready=False))
    if isinstance(msg, Ready):
        if i is None:
            return "you have no seat"
        return _bump(lobby, seats=_with_seat(lobby, i, ready=msg.ready))
    if isinstance(msg, AddBot):
        if len(lobby.seats) >= lobby.total:
            return "no free seat for a bot"
        if msg.colour and msg.colour not in COLOURS:
            return f"unknown colour {msg.colour!r}"
        colour = free_colour(lobby, msg.colour)
        if colour is None:
            return "no colour left"
        n_bots = sum(1 for s in lobby.seats if s.kind == "bot")
        name = f"{BOT_NAMES[n_bots % len(BOT_NAMES)]} ({msg.bot})"
        seats = (*lobby.seats, Seat("bot", name, colour, peer, True, msg.bot))
        return _bump(lobby, seats=seats)
    if isinstance(msg, RemoveBot):
        idx = [j for j, s in enumerate(lobby.seats) if s.kind == "bot" and s.colour == msg.colour]
        if not idx:
            return f"no bot plays {msg.colour}"
        return _bump(lobby, seats=tuple(s for j, s in enumerate(lobby.seats) if j != idx[0]))
    if isinstance(msg, Start):
        why = can_start(lobby)
        if why:
            return why
        return start(lobby)
    return f"{type(msg).__name__} is not a lobby request"


def start(lobby: Lobby) -> Lobby:
    """Freeze the seats and open a commit-reveal round with a fresh nonce."""
    return _bump(lobby, phase="starting", total=len(lobby.seats), start_nonce=os.urandom(8))


def should_autostart(lobby: Lobby) -> bool:
    return lobby.phase == "lobby" and len(lobby.seats) == lobby.total and can_start(lobby) is None


def abort_start(lobby: Lobby) -> Lobby:
    seats = tuple(dataclasses.replace(s, ready=s.kind == "bot") for s in lobby.seats)
    return _bump(lobby, phase="lobby", start_nonce=b"", seats=seats)

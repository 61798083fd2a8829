"""The lobby fits one datagram by construction (protocol/wire.md, "Large payloads"): the
largest LOBBY the limits allow — six seats with the longest names a table admits, bots
on every seat, the chains it takes mid-game, every member's address, the twelve
contributors it may leave out, expulsions, the largest version, envelope, signature and
passphrase MAC — encodes within 1200 bytes. The lobby is built through the coordinator's
own rules (which refuse a name the lobby has no room for, and a chain past its room);
what may still change without asking is then put at its largest here, by this test's
own hand, not by the rule's `fullest`."""

from __future__ import annotations

import dataclasses

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.auth import derive_key
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.proofs import sign_lobby

AUTHOR = Identity.from_seed(bytes(range(32)))
GAME = bytes(range(8))
KEY = derive_key("a passphrase", GAME)
LONG = "\u00e9" * 24  # 24 characters, 48 bytes: the longest name
PEERS = [bytes([i + 1]) * 8 for i in range(6)]


def _join(lb: C.Lobby, i: int, names: list[str], plays: str) -> C.Lobby:
    """Seat player `i` under the longest of `names` the coordinator admits (each its own:
    a Greek letter of its own first)."""
    for name in (chr(0x3B1 + i) + n[1:] for n in names):
        got = L.apply_request(lb, PEERS[i], (f"10.0.0.{i}", 40000 + i), C.Join(name, "", plays))
        if isinstance(got, C.Lobby):
            return got
        assert got == L.NO_ROOM.format(name=repr(lb.name)), got
    return lb  # (no room left even for one letter: the table stays smaller)


def _chains(lb: C.Lobby) -> C.Lobby:
    """Every chain the table takes mid-game, as latechains.py asks: while there is room."""
    k = 0
    while L.room_for_a_chain(lb):
        lb = dataclasses.replace(lb, chains=(*lb.chains, (PEERS[k % 6], bytes([k + 1]) * 32,
                                                          30)))
        k += 1
    return lb


def _largest(lb: C.Lobby, expel: int = 0) -> C.Lobby:
    """What nobody is asked for, at its largest: this test's own list of it."""
    seats = tuple(dataclasses.replace(s, bot="x" * C.MAX_BOT, ready=True)
                  if s.kind == "human" else s for s in lb.seats)
    members = [C.Member(m.peer, "255.255.255.255", 65535) for m in lb.members]
    expelled = list(lb.expelled)
    for m in members[1:1 + expel]:  # (a table keeps its coordinator)
        expelled.append((m.peer, 1 << 20))
    members = [m for m in members if m.peer not in dict(expelled)]
    return dataclasses.replace(
        lb, version=C.MAX_LOBBY_VERSION, phase="starting", start_nonce=bytes(range(16)),
        seats=seats, members=tuple(members),
        dropped=tuple((i, C.MAX_DRAW) for i in range(C.MAX_CONTRIBUTORS)),
        draw_wait=C.DRAW_WAIT_MAX, guests=C.GUESTS_DEFAULT, expelled=tuple(expelled))


def _datagram(lb: C.Lobby) -> bytes:
    """The lobby signed by its author, in the largest envelope, signed, with the MAC:
    encode_datagram refuses anything over 1200 bytes."""
    signed = sign_lobby(AUTHOR, GAME, (1 << 62) - 1, lb)
    env = C.Envelope(GAME, AUTHOR.peer_id, (1 << 62) - 1, PEERS[0], C.MAX_U64, C.MAX_U64,
                     C.MAX_U64, C.MAX_U64, C.MAX_U64, C.MAX_U64, signed)
    data = C.encode_datagram(env, KEY, AUTHOR, bytes(32))
    assert C.decode_datagram(data, KEY, require_signature=True).message == signed
    return data


def _table(names: list[str], plays: str, variant: str = "standard") -> C.Lobby:
    total = 2 if variant == "two-colours" else 6
    lb = L.new_lobby(names[0], total, True, PEERS[0], chr(0x3B1) + names[0][1:], "blue", 40000,
                     variant=variant, plays=plays)
    for i in range(1, total):
        lb = _join(lb, i, names, plays)
    lb = dataclasses.replace(lb, total=len(lb.seats))
    return _chains(dataclasses.replace(L.start(lb, bytes(16)), phase="playing"))


def test_the_largest_lobby_the_limits_allow_fits_one_datagram():
    names = [LONG[:n] for n in range(24, 0, -1)]  # the longest first
    for variant in ("standard", "two-colours"):
        lb = _table(names, "p" * C.MAX_BOT, variant)
        for expel in range(len(lb.members)):
            data = _datagram(_largest(lb, expel))
            assert len(data) <= C.MAX_DATAGRAM, (variant, expel, len(data))
    # (and the rule's own account agrees: it is at its limit, not far below it)
    assert C.MAX_DATAGRAM - 60 < L.largest_datagram(L.fullest(lb)) <= C.MAX_DATAGRAM


def test_the_tables_of_the_open_question():
    """Six seats with 24-letter names and bots, six chains taken mid-game, a passphrase:
    about 1270 bytes signed before (wire.md). Every such player is seated; the lobby then
    takes two chains mid-game, not six — a third laptop back plays on without drawing, as
    after the sixth. With names of a party (2 to 6 letters) it takes five."""
    lb = _table(["a" * 24], "normal")  # (α, β, … then 23 letters: two bytes more each)
    assert len(lb.seats) == 6 and len(lb.chains) == 2
    assert not L.room_for_a_chain(lb)
    assert len(_datagram(_largest(lb))) <= C.MAX_DATAGRAM
    party = L.new_lobby("Friday night", 6, True, PEERS[0], "Tevita", "blue", 40000)
    for i, name in enumerate(["Ana", "Ben", "Cy", "Dee", "Eru"], 1):
        party = L.apply_request(party, PEERS[i], (f"10.0.0.{i}", 40000), C.Join(name, "", ""))
    party = _chains(dataclasses.replace(L.start(party, bytes(16)), phase="playing"))
    assert len(party.chains) == C.MAX_LATE_CHAINS - 1  # (six under a shorter table name)
    assert len(_datagram(_largest(party))) <= C.MAX_DATAGRAM


def test_a_name_the_lobby_has_no_room_for_is_refused_with_the_reason():
    """Five players of 24 two-byte letters at a table of that name: the sixth's name of
    the same length has no room (the lobby at its fullest would take 1241 bytes); four
    letters it has. A longer name by SET is refused alike."""
    lb = L.new_lobby(LONG, 6, True, PEERS[0], LONG, "blue", 40000)
    addr = ("10.0.0.9", 40000)
    for i in range(1, 5):
        lb = L.apply_request(lb, PEERS[i], addr, C.Join(chr(0x3B1 + i) + LONG[1:], "", ""))
    got = L.apply_request(lb, PEERS[5], addr, C.Join("\u03c9" + LONG[1:], "", ""))
    assert got == L.NO_ROOM.format(name=repr(LONG)) and "choose a shorter one" in got
    lb = L.apply_request(lb, PEERS[5], addr, C.Join("\u03c9" + LONG[1:4], "", ""))
    assert isinstance(lb, C.Lobby) and L.fits(lb) and len(lb.seats) == 6
    assert L.apply_request(lb, PEERS[5], addr, C.SetSeat("\u03c9" + LONG[1:9], "")) == got
    assert isinstance(L.apply_request(lb, PEERS[5], addr, C.SetSeat("Q", "")), C.Lobby)
    assert len(_datagram(_largest(lb))) <= C.MAX_DATAGRAM


def test_a_bot_of_a_long_kind_is_seated_under_a_name_every_member_reads():
    """"Tangaroa (" and a kind of 16 letters made a seat name of 27 characters, which
    every other member refused with the whole lobby: such a bot is seated as "Tangaroa"."""
    lb = L.new_lobby("t", 6, False, PEERS[0], "Ana", "blue", 40000)
    for _ in range(5):
        lb = L.apply_request(lb, PEERS[0], ("0.0.0.0", 40000), C.AddBot("k" * C.MAX_BOT, ""))
        assert isinstance(lb, C.Lobby) and L.fits(lb)
    names = [s.name for s in lb.seats[1:]]
    assert "Tangaroa" in names and "Maui (kkkkkkkkkkkkkkkk)" in names
    assert all(len(n) <= C.MAX_NAME for n in names)


_names = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF,
                               blacklist_categories=("Cc", "Cs")), min_size=1, max_size=24)
_kinds = st.sampled_from(["", "normal", "random", "k" * C.MAX_BOT])


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(["standard", "two-colours"]), total=st.integers(2, 6),
       names=st.lists(_names, min_size=6, max_size=6), plays=st.lists(_kinds, min_size=6,
                                                                      max_size=6),
       bots=st.integers(0, 4), expel=st.integers(0, 5))
def test_whatever_the_rules_admit_fits_at_its_largest(variant, total, names, plays, bots,
                                                      expel):
    total = 2 if variant == "two-colours" else total
    lb = L.new_lobby(names[0], total, True, PEERS[0], names[0], COLOURS[0], 40000,
                     variant=variant, plays=plays[0])
    for i in range(1, 6):
        got = L.apply_request(lb, PEERS[i], (f"10.0.0.{i}", 40000),
                              C.Join(names[i], "", plays[i]))
        lb = got if isinstance(got, C.Lobby) else lb
    for _ in range(bots):
        got = L.apply_request(lb, PEERS[0], ("0.0.0.0", 40000), C.AddBot("k" * C.MAX_BOT, ""))
        lb = got if isinstance(got, C.Lobby) else lb
    assume(len(lb.seats) >= 2)  # (a table of one does not start)
    lb = dataclasses.replace(lb, total=len(lb.seats))
    lb = _chains(dataclasses.replace(L.start(lb, bytes(16)), phase="playing"))
    assert len(_datagram(_largest(lb, min(expel, len(lb.members) - 1)))) <= C.MAX_DATAGRAM


def test_a_host_and_a_bot_kind_past_their_limits_are_refused():
    seat = C.Seat("human", "Ana", "blue", PEERS[0], True)
    lobby = C.Lobby(1, "lobby", "t", 2, False, (seat,), (C.Member(PEERS[0], "1" * 16, 1),))
    for bad, why in ((lobby, "member.host: longer than 15 characters"),
                     (dataclasses.replace(lobby, members=(), seats=(dataclasses.replace(
                         seat, bot="\u00e9" * 9),)), "seat.bot: longer than 16 characters")):
        try:
            C.Lobby.parse(bad.body())
        except C.WireError as exc:
            assert str(exc) == why
        else:
            raise AssertionError(why)

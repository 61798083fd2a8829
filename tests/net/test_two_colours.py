"""Two colours each (docs/rules.md V1) over the LAN: the lobby carries the variant, the
start gives each player a second seat (A1 B1 A2 B2), and a game between two nodes on
loopback ends with one digest, records that verify and name the variant."""

from __future__ import annotations

import dataclasses

import pytest

from tongiaki_lan.engine import variant as V
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.lab.simnet import SimNet
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import Lobby, Seat, WireError
from tongiaki_lan.records import read_record, replay_record

from .helpers import verify_record

A, B = b"a" * 8, b"b" * 8  # peer ids (8 bytes)


def _lobby() -> Lobby:
    lb = L.new_lobby("duo", 2, False, A, "Ana", "", 1, variant=V.TWO_COLOURS)
    return dataclasses.replace(lb, seats=(*lb.seats, Seat("human", "Ben", "red", B, True)))


def test_V1_start_seats_each_player_twice_alternately_and_abort_undoes_it():
    lb = _lobby()
    started = L.start(lb, nonce=bytes(8))
    assert [(s.name, s.colour, s.owner) for s in started.seats] == [
        ("Ana", "blue", A), ("Ben", "red", B), ("Ana", "green", A), ("Ben", "yellow", B)]
    assert started.total == 4 and started.variant == "two-colours"
    back = L.abort_start(started)
    assert [s.name for s in back.seats] == ["Ana", "Ben"] and back.total == 2
    # only for two players
    with pytest.raises(ValueError, match="exactly 2 players"):
        L.new_lobby("trio", 3, False, A, "Ana", "", 1, variant=V.TWO_COLOURS)
    alone = L.new_lobby("duo", 2, False, A, "Ana", "", 1, variant=V.TWO_COLOURS)
    alone = dataclasses.replace(alone, seats=(*alone.seats,
                                              Seat("human", "Ben", "red", B, True)))
    assert L.can_start(dataclasses.replace(alone, seats=alone.seats[:1])) == L.TOO_FEW_SEATS


def test_the_lobby_message_carries_the_variant_and_refuses_an_unknown_one():
    lb = _lobby()
    wire = lb.to_wire()
    # (the draw wait, the guests, the chains taken mid-game, the expelled and the author's
    # key, run and signature come after it)
    assert wire[-8:-4] == ["two-colours", lb.draw_wait, lb.guests, []]
    assert Lobby.parse(wire[1:]) == lb
    with pytest.raises(WireError, match="lobby.variant"):
        Lobby.parse([*wire[1:-8], "three-colours", *wire[-7:]])
    with pytest.raises(WireError, match="lobby"):
        Lobby.parse(wire[1:-8])  # a protocol-3 LOBBY without the fields


async def test_V1_two_nodes_play_two_colours_to_one_digest(tmp_path):
    nodes = await make_table(2, tmp_path, variant=V.TWO_COLOURS)
    try:
        await play_to_end(nodes)
        assert all(nd.game.is_over and nd.stopped is None for nd in nodes)
        digests = {nd.game.digest() for nd in nodes}
        assert len(digests) == 1
        seats = nodes[0].lobby.seats
        assert [s.owner for s in seats] == [nodes[0].peer_id, nodes[1].peer_id] * 2
        assert all(nd.my_seats() == [i, i + 2] for i, nd in enumerate(nodes))
        assert {verify_record(nd.record_path) for nd in nodes} == digests
        for nd in nodes:
            record = read_record(nd.record_path)
            assert record.header.variant == "two-colours"
            game = replay_record(record)
            assert game.owners == (0, 1, 0, 1) and len(V.winners(game)) >= 1
    finally:
        await close_all(nodes)


@pytest.mark.parametrize("loss", [0.0, 0.3])
def test_V1_a_simulated_two_colour_game_ends_with_one_digest(loss):
    net = SimNet(seed=41, loss=loss)
    nodes = net.table(2, variant=V.TWO_COLOURS)
    net.play_to_end(nodes)
    assert len({nd.game.digest() for nd in nodes}) == 1
    assert all(nd.game.is_over and nd.game.owners == (0, 1, 0, 1) for nd in nodes)
    over = nodes[0].kinds("game_over")[0]
    assert over.winners == V.winner_labels(nodes[0].game)  # "blue+green", by player


def test_V1_an_absent_player_has_both_colours_handed_to_a_bot():
    net = SimNet(seed=43)
    nodes = net.table(2, variant=V.TWO_COLOURS)
    net.run_until(lambda: len(nodes[0].game.moves) > 6)
    a, gone = nodes
    net.kill(gone)
    net.run_until(lambda: a.kinds("waiting"), 300)
    net.run_for(60)
    net.act(a, a.core.replace, "p1")
    net.play_to_end([a])
    assert a.game.is_over
    assert sorted(e.seat for e in a.kinds("handover")) == [1, 3]

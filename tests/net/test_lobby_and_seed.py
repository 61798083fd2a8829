"""Lobby rules and the commit-reveal start, as players meet them."""

from __future__ import annotations

import os

from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import AddBot, Join, Leave, Ready, RemoveBot, SetSeat, Start
from tongiaki_lan.net.protocol.seed import SeedRound, combine, commitment, seed_check

A, B, C, D = (bytes([i]) * 8 for i in range(1, 5))
ADDR = ("10.0.0.9", 4000)


def lobby_with(*peers: bytes, total: int = 3):
    lb = L.new_lobby("g", total, False, A, "Ana", "", 1)
    for i, p in enumerate(peers):
        lb = L.apply_request(lb, p, ADDR, Join(f"P{i}", ""))
    return lb


def test_joining_fills_seats_with_free_colours_then_refuses():
    lb = lobby_with(B, C)
    assert [s.colour for s in lb.seats] == ["blue", "red", "green"]
    assert L.apply_request(lb, D, ADDR, Join("Dan", "")) == "game 'g' is full"


def test_colour_change_to_a_taken_colour_is_refused():
    lb = lobby_with(B)
    assert L.apply_request(lb, B, ADDR, SetSeat("Bo", "blue")) == "colour blue is taken"
    lb2 = L.apply_request(lb, B, ADDR, SetSeat("Bo", "purple"))
    assert lb2.seats[1].colour == "purple" and lb2.seats[1].name == "Bo"


def test_start_needs_everyone_ready_and_freezes_seats():
    lb = lobby_with(B)
    assert L.apply_request(lb, A, ADDR, Start()).startswith("not ready yet: Ana, P0")
    for p in (A, B):
        lb = L.apply_request(lb, p, ADDR, Ready(True))
    started = L.apply_request(lb, A, ADDR, Start())
    assert started.phase == "starting" and started.total == 2 and len(started.start_nonce) == 8
    assert L.apply_request(started, C, ADDR, Join("late", "")) == "game 'g' has already started"


def test_only_the_host_starts_and_the_next_present_member_hosts_while_the_creator_is_away():
    lb = lobby_with(B, C)
    for p in (A, B, C):
        lb = L.apply_request(lb, p, ADDR, Ready(True))
    # a START from a member who did not open the table is refused, naming the host
    why = L.apply_request(lb, B, ADDR, Start())
    assert why == ("only the host starts the table: Ana (a full table where everyone is "
                   "ready starts by itself)")
    assert L.apply_request(lb, B, ADDR, Start(), present={A, B, C}) == why
    # the creator is away: Bo (first present in join order) hosts, Cy still may not start
    away = {B, C}
    assert L.host(lb, away) == L.coordinator(lb, away) == B
    assert L.apply_request(lb, C, ADDR, Start(), present=away).endswith(
        "host starts the table: P0 (a full table where everyone is ready starts by itself)")
    started = L.apply_request(lb, B, ADDR, Start(), present=away)
    assert started.phase == "starting"
    # the host's START still needs everyone ready (the reason the host then reads)
    unready = L.apply_request(lb, C, ADDR, Ready(False))
    assert L.apply_request(unready, A, ADDR, Start()) == "not ready yet: P1"


def test_bots_are_added_removed_and_handed_over_when_their_node_leaves():
    lb = lobby_with(B, total=4)
    lb = L.apply_request(lb, B, ADDR, AddBot("random", "orange"))
    assert lb.seats[2].kind == "bot" and lb.seats[2].owner == B and lb.seats[2].colour == "orange"
    lb = L.apply_request(lb, B, ADDR, Leave())
    assert [s.kind for s in lb.seats] == ["human", "bot"] and lb.seats[1].owner == A
    lb = L.apply_request(lb, A, ADDR, RemoveBot("orange"))
    assert len(lb.seats) == 1
    assert L.apply_request(lb, A, ADDR, RemoveBot("orange")) == "no bot plays orange"


def test_coordinator_and_bot_driver_fall_to_the_next_present_member():
    lb = lobby_with(B, C)
    lb = L.apply_request(lb, A, ADDR, AddBot("random", ""))  # total 3: refused, full
    assert lb == "no free seat for a bot"
    lb = lobby_with(B, total=4)
    lb = L.apply_request(lb, A, ADDR, AddBot("random", ""))
    assert L.coordinator(lb, {A, B}) == A
    assert L.coordinator(lb, {B}) == B
    assert L.bot_driver(lb, 2, {A, B}) == A
    assert L.bot_driver(lb, 2, {B}) == B


def test_seed_needs_every_secret_and_a_wrong_reveal_is_caught():
    gid, nonce = os.urandom(8), os.urandom(8)
    rounds = {p: SeedRound(gid, nonce, p, [A, B, C]) for p in (A, B, C)}
    for r in rounds.values():
        for p, other in rounds.items():
            if p != r.me:
                assert r.add_commit(p, other.my_commitment) is None
    assert all(r.all_committed() for r in rounds.values())
    for r in rounds.values():
        for p, other in rounds.items():
            if p != r.me:
                assert r.add_reveal(p, other.secret) is None
    seeds = {r.seed() for r in rounds.values()}
    assert len(seeds) == 1
    assert seeds == {combine(gid, nonce, [rounds[p].secret for p in (A, B, C)])}
    # every node confirms the seed it holds; a node told other secrets is caught
    r = rounds[A]
    assert not r.confirmed()
    assert r.add_ok(B, seed_check(r.seed(), r.chain_heads())) is None and not r.confirmed()
    assert r.add_ok(C, seed_check(r.seed(), r.chain_heads())) is None and r.confirmed()
    assert "different seed" in r.add_ok(C, seed_check(bytes(32)))
    # a node that told its peers different fair-draw chain heads is caught the same way
    heads = list(r.chain_heads())
    heads[1] = bytes([7]) * 32
    assert "different seed" in r.add_ok(C, seed_check(r.seed(), heads))
    # a different secret for the same commitment is caught, naming nothing else
    fresh = SeedRound(gid, nonce, A, [A, B])
    fresh.add_commit(B, commitment(gid, nonce, B, bytes(32)))
    assert fresh.add_reveal(B, bytes([1]) * 32) == "reveal does not match its commitment"
    # a commitment of one start attempt does not fit another
    assert commitment(gid, nonce, B, bytes(32)) != commitment(gid, os.urandom(8), B, bytes(32))


async def test_a_node_that_reveals_another_secret_aborts_the_start_and_is_named(tmp_path):
    nodes = await make_table(3, tmp_path, autoplay="random")
    cheat = nodes[2]
    aborts: list[str] = []
    for nd in nodes[:2]:
        nd.add_listener(lambda ev: aborts.append(ev.data["reason"]) if ev.kind == "abort" else None)

    def swap_secret(ev):
        if ev.kind == "starting" and not aborts:
            cheat.core._round.secret = os.urandom(32)  # committed to the old one

    cheat.add_listener(swap_secret)
    try:
        await nodes[0].wait_for(lambda: len(aborts) >= 2, 20)
        assert all("reveal does not match its commitment" in a and "p2" in a for a in aborts)
        assert nodes[0].game is None
        await nodes[0].wait_for(lambda: nodes[0].lobby.phase == "lobby"
                                and nodes[2].lobby.phase == "lobby", 20)
        # everyone is asked to ready up again; the next start uses a fresh nonce and works
        for nd in nodes:
            nd.set_ready(True)
        await play_to_end(nodes)
        assert len({nd.game.digest() for nd in nodes}) == 1
    finally:
        await close_all(nodes)


async def test_lobby_survives_its_creator_leaving(tmp_path):
    a, b, late = (Node(n, host="127.0.0.1", record_dir=tmp_path) for n in ("a", "b", "late"))
    try:
        for nd in (a, b, late):
            await nd.start()
        await a.create_game("harbour", 3)
        await b.join_game(GameRef(a.game_id, a.peer_id, "127.0.0.1", a.address[1]))
        await a.leave()
        await b.wait_for(lambda: len(b.lobby.members) == 1, 20)
        assert b.coordinator() == b.peer_id
        assert [s.name for s in b.lobby.seats] == ["b"]
        await late.join_game(GameRef(b.game_id, b.peer_id, "127.0.0.1", b.address[1]))
        assert [s.name for s in late.lobby.seats] == ["b", "late"]
    finally:
        await close_all([a, b, late])


async def test_joining_a_game_that_does_not_answer_says_so(tmp_path):
    lonely = Node("lonely", host="127.0.0.1", record_dir=tmp_path)
    await lonely.start()
    try:
        await lonely.join_game(GameRef(os.urandom(8), os.urandom(8), "127.0.0.1", 9),
                               timeout=0.5)
        raise AssertionError("joined nothing")
    except JoinRefused as exc:
        assert "no answer from the game" in str(exc)
    finally:
        await lonely.close()


def test_the_host_of_a_full_table_with_a_bot_hears_of_a_newcomer_turned_away():
    """A newcomer came to a table whose last seat a bot held and could not sit down; the
    host, who could free the bot's seat, was told nothing."""
    from tongiaki_lan.net.lab.simnet import SimNet

    net = SimNet(seed=5)
    host, dee = net.add("Ana", "10.0.0.1"), net.add("Dee", "10.0.0.2")
    net.act(host, host.core.create_game, "Reef", 2, None, "")
    net.act(host, host.core.add_bot, "random", "red")
    for _ in range(2):  # (a joiner asks again: the host is told once)
        net.act(dee, dee.core.begin_join, host.core.game_id, host.core.peer_id, host.addr,
                None, "")
        net.run_until(lambda: dee.core.join_refusal is not None, 10)
        dee.core.join_refusal = None
    (ev,) = host.kinds("turned_away")
    assert (ev.name, ev.bots) == ("Dee", ["red"])

"""The protocol core on a simulated LAN (net.simnet): no sockets, no sleeps, a virtual
clock. Each test is a situation a player at a LAN party meets; each runs in milliseconds
and reproduces exactly from its seed."""

from __future__ import annotations

import os

import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.bots.levels import DEFAULT_LEVEL
from tongiaki_lan.draws import Chain, ChainDealer, DrawBook, draw_tile
from tongiaki_lan.engine import Game
from tongiaki_lan.net.lab.simnet import SimNet, SimNode
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol.codec import (
    Draw,
    Envelope,
    Heartbeat,
    MoveMsg,
    encode_datagram,
    peek_envelope,
)
from tongiaki_lan.net.protocol.core import bot_seed
from tongiaki_lan.net.protocol.seed import SeedRound
from tongiaki_lan.net.protocol.settings import HANDOVER_BOT


def chain_dealer(nodes: list[SimNode]) -> ChainDealer:
    """Deals as the table's fair draws do, with every contributor's chain secret at hand
    (which no real node ever has)."""
    core = nodes[0].core
    secret = {nd.core.peer_id: nd.core.chain_secret for nd in nodes}
    chains = [Chain(secret[p]) for p in core.seed_contributors]
    late = {Chain(s).commitment: s for nd in nodes for s in nd.core.late_chain_secrets}
    chains += [Chain(late[head]).starting_at(first) for _, head, first in core.lobby.chains]
    return ChainDealer(core.seed, chains, core.lobby.dropped)


def clean_digest(nodes: list[SimNode]) -> bytes:
    """The final digest if no move was changed, dropped or injected: every seat's bot (a
    handed-over seat's too) is seeded by (seed, seat, move index)."""
    node = nodes[0]
    seats = node.core.lobby.seats
    game = Game([s.colour for s in seats])
    dealer = chain_dealer(nodes)
    dealer.deal(game)
    while not game.is_over:
        d = game.pending
        kind = seats[d.seat].bot or "random"
        dealer.apply(game, make_bot(kind, seed=bot_seed(node.core.seed, d.seat, len(game.moves)),
                                    **SimNet.bot_options(kind)).choose(game.copy()))
    return game.digest()


def record_digest(node: SimNode) -> bytes:
    """Replays the node's record, checking every digest on the way."""
    game = Game([s.colour for s in node.core.lobby.seats])
    for move, digest, _ in node.record:
        game.apply(move)
        assert game.digest() == digest
    return game.digest()


def one_digest(nodes: list[SimNode]) -> bytes:
    digests = {nd.game.digest() for nd in nodes}
    assert len(digests) == 1, "nodes disagree"
    assert all(nd.game.is_over and nd.core.stopped is None for nd in nodes)
    assert {record_digest(nd) for nd in nodes} == digests
    return digests.pop()


@pytest.mark.parametrize("loss", [0.0, 0.3])
def test_a_game_with_bots_finishes_with_one_digest_through_a_lossy_network(loss):
    net = SimNet(seed=3, loss=loss)
    nodes = net.table(4, bots=1, passphrase="kava" if loss else None)
    net.play_to_end(nodes)
    assert one_digest(nodes) == clean_digest(nodes)
    if not loss:  # (under loss a joiner may hear a newer member before the lobby naming it)
        assert all(nd.core.refusals == 0 for nd in nodes)
    else:
        assert net.dropped > 0 and sum(nd.core.links.stats.retransmissions for nd in nodes) > 0


def test_a_silent_player_is_away_the_game_waits_and_goes_on_when_they_are_back():
    net = SimNet(seed=5)
    nodes = net.table(3)
    quiet, watcher = nodes[1], nodes[0]
    net.run_until(lambda: len(watcher.game.moves) > 10)
    net.blocked.add(quiet.addr)  # the quiet player's Wi-Fi drops
    net.run_until(lambda: watcher.kinds("waiting"), 120)
    stalled = len(watcher.game.moves)
    net.run_for(20)
    assert len(watcher.game.moves) == stalled  # it is that player's decision: the game waits
    away = watcher.kinds("away")
    assert [e.peer for e in away] == [quiet.core.peer_id.hex()] and not away[0].left
    assert watcher.kinds("waiting")[0].seat == 1
    net.blocked.clear()
    net.play_to_end(nodes)
    assert [e.peer for e in watcher.kinds("back")] == [quiet.core.peer_id.hex()]
    assert one_digest(nodes) == clean_digest(nodes)


def test_a_crashed_node_restarts_fetches_what_it_missed_and_plays_on():
    net = SimNet(seed=7, loss=0.1)
    nodes = net.table(3, bots=1)
    victim = nodes[0]  # it also drives the bot seat: someone else must take it over
    net.run_until(lambda: len(victim.game.moves) > 12 and victim.game.pending.seat == 1)
    crashed_at = len(victim.game.moves)
    net.kill(victim)
    survivor = nodes[1]
    net.run_until(lambda: survivor.kinds("waiting"), 300)
    assert len(survivor.game.moves) > crashed_at  # the bot went on, driven by a survivor
    back = net.restart(victim)
    everyone = [back, *nodes[1:]]
    net.play_to_end(everyone)
    assert one_digest(everyone) == clean_digest(everyone)
    assert [e.peer for e in survivor.kinds("restarted")] == [victim.core.peer_id.hex()]


def test_a_move_its_sender_did_not_sign_is_refused_naming_it_and_stops_nothing():
    """A MOVE carries its mover's own signature over the move, the states before and after
    and its index (protocol/security.md, "Signed moves"). One without a valid one — a
    false digest, bytes changed on the way, a move made up — is refused, naming the
    sender; it is no proof against anyone (anybody can send garbage in a member's link),
    and, unlike before, it stops nothing: the game goes on to the end (a signed false
    digest is a proof: tests/net/test_proof_sim.py)."""
    net = SimNet(seed=11)
    nodes = net.table(3, autoplay=None)
    liar = nodes[2]

    def play_own_turns_until_the_liars():
        while True:
            net.run_until(lambda: len({len(nd.game.moves) for nd in nodes}) == 1
                          and any(nd.kinds("your_turn") and nd.kinds("your_turn")[-1].index
                                  == len(nd.game.moves) for nd in nodes))
            g = nodes[0].game
            mover = nodes[g.pending.seat]
            if mover is liar and len(g.moves) > 6:
                return
            net.act(mover, mover.core.send_move, g.legal_moves()[0])

    play_own_turns_until_the_liars()
    g = liar.game
    idx = len(g.moves)
    move = g.legal_moves()[-1]
    before = liar.core.digest_before(idx)
    for nd in nodes[:2]:  # a legal move, sent with a false digest and no valid signature
        liar.core.links.send(nd.core.peer_id, None, MoveMsg(idx, move.to_wire(), bytes(32),
                                                            (), before))
    net.act(liar, lambda now: None)
    net.run_until(lambda: all(nd.kinds("refused") for nd in nodes[:2]))
    for nd in nodes[:2]:
        (refused,) = nd.kinds("refused")
        assert refused.what == f"move {idx}" and "p2" in refused.sender
        assert "signature does not hold" in refused.reason
        assert len(nd.game.moves) == idx and nd.core.stopped is None
    net.act(liar, liar.core.send_move, move)  # its real move, signed
    while not nodes[0].game.is_over:
        net.run_until(lambda: len({len(nd.game.moves) for nd in nodes}) == 1
                      and (nodes[0].game.is_over or any(
                          nd.kinds("your_turn") and nd.kinds("your_turn")[-1].index
                          == len(nd.game.moves) for nd in nodes)))
        g = nodes[0].game
        if not g.is_over:
            mover = nodes[g.pending.seat]
            net.act(mover, mover.core.send_move, g.legal_moves()[0])
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not any(nd.kinds("proof") or nd.kinds("expelled") for nd in nodes)


def test_a_reveal_that_does_not_match_its_commitment_aborts_the_start_naming_the_node():
    class Lying(SeedRound):
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.secret = os.urandom(32)  # committed to another one

    net = SimNet(seed=13)
    a, b, c = (net.add(f"p{i}", f"10.0.0.{i + 1}", autoplay="random") for i in range(3))
    c.core.new_round = Lying
    net.act(a, a.core.create_game, "sim", 3, None, "")
    for nd in (b, c):
        net.act(nd, nd.core.begin_join, a.core.game_id, a.core.peer_id, a.addr, None, "")
        net.run_until(nd.core.seated)
    for nd in (a, b, c):
        net.act(nd, nd.core.set_ready, True)
    net.run_until(lambda: a.kinds("abort") and b.kinds("abort"))
    for nd in (a, b):
        assert "p2" in nd.kinds("abort")[0].reason
        assert "does not match its commitment" in nd.kinds("abort")[0].reason
        assert nd.game is None
    net.run_until(lambda: a.core.lobby.phase == "lobby" and b.core.lobby.phase == "lobby")
    assert not any(s.ready for s in a.core.lobby.seats)  # everyone must say ready again


@pytest.mark.parametrize("players", [2, 4])
def test_every_node_killed_at_the_same_moment_and_restarted_finishes_the_game(players):
    net = SimNet(seed=17 + players, loss=0.05)
    nodes = net.table(players)
    net.run_until(lambda: len(nodes[0].game.moves) > 20)
    for nd in nodes:  # a power cut: every laptop at once
        net.kill(nd)
    net.run_for(2)
    back = [net.restart(nd) for nd in nodes]  # same command: the same port if it is free
    net.play_to_end(back)
    assert one_digest(back) == clean_digest(back)


def test_restarted_nodes_on_new_ports_find_each_other_through_the_members_that_stayed():
    net = SimNet(seed=19)
    nodes = net.table(4)
    net.run_until(lambda: len(nodes[0].game.moves) > 15)
    net.kill(nodes[1])
    net.kill(nodes[2])
    net.run_for(5)
    # their old ports were taken meanwhile: they come back on others
    back = [net.restart(nodes[1], port=7101), net.restart(nodes[2], port=7102)]
    everyone = [nodes[0], *back, nodes[3]]
    net.play_to_end(everyone)
    assert one_digest(everyone) == clean_digest(nodes)
    for a in back:  # and they talk to each other directly, not only through the others
        other = back[1] if a is back[0] else back[0]
        assert a.core.links.links[other.core.peer_id].addr == other.addr
        assert not a.core.presence.is_absent(other.core.peer_id)


def test_two_restarted_nodes_on_new_ports_learn_each_others_address_from_adverts():
    net = SimNet(seed=23)
    nodes = net.table(2)
    net.run_until(lambda: len(nodes[0].game.moves) > 10)
    net.kill(nodes[0])
    net.kill(nodes[1])
    a, b = net.restart(nodes[0], port=7200), net.restart(nodes[1], port=7201)
    net.run_for(5)
    assert a.core.presence.is_absent(b.core.peer_id)  # nobody at the old addresses
    assert b.core.presence.is_absent(a.core.peer_id)
    net.act(a, a.core.learn_address, b.core.peer_id, b.addr)  # b's zeroconf advert
    net.act(b, b.core.learn_address, a.core.peer_id, a.addr)
    net.play_to_end([a, b])
    assert one_digest([a, b]) == clean_digest([a, b])


def test_an_absent_players_seat_is_handed_to_a_bot_and_taken_back_on_return():
    net = SimNet(seed=29)
    nodes = net.table(3)
    net.run_until(lambda: len(nodes[0].game.moves) > 4)
    gone = nodes[2]
    net.kill(gone)
    a, b = nodes[0], nodes[1]
    net.run_until(lambda: a.kinds("waiting"), 300)
    with pytest.raises(ValueError, match="after 60 s"):
        a.core.replace("p2", net.now)
    with pytest.raises(ValueError, match="no player"):
        a.core.replace("nobody", net.now)
    net.run_for(60)
    stalled = len(a.game.moves)
    net.act(b, b.core.replace, "p2")  # any player may ask; the coordinator decides
    net.run_until(lambda: len(a.game.moves) > stalled + 3)
    (ha,), (hb,) = a.kinds("handover"), b.kinds("handover")
    assert ha.seat == hb.seat == 2 and ha.driver == hb.driver == a.core.peer_id.hex()
    assert ha.bot == HANDOVER_BOT == DEFAULT_LEVEL  # what solo play uses
    back = net.restart(gone)
    net.run_until(lambda: a.kinds("reclaimed") and back.core.lobby.seats[2].bot == "")
    net.play_to_end([a, b, back])
    assert one_digest([a, b, back])
    assert [e.seat for e in b.kinds("reclaimed")] == [2]


def test_a_headless_node_hands_a_seat_over_by_itself_after_its_timeout():
    net = SimNet(seed=31)
    nodes = net.table(3, handover_after=10.0)
    net.run_until(lambda: len(nodes[0].game.moves) > 5)
    net.kill(nodes[1])
    rest = [nodes[0], nodes[2]]
    net.play_to_end(rest)
    assert one_digest(rest)
    assert all(nd.kinds("handover") for nd in rest)


def _capture(net: SimNet, src: SimNode, dest: SimNode) -> list[bytes]:
    got: list[bytes] = []
    net.taps.append(lambda data, s, d: got.append(data) if (s, d) == (src.addr, dest.addr)
                    else None)
    return got


@pytest.mark.parametrize("passphrase", [None, "kava"])
def test_replayed_datagrams_never_make_a_departed_player_look_present(passphrase):
    net = SimNet(seed=37)
    nodes = net.table(3, passphrase=passphrase)
    a, b, c = nodes
    to_b = _capture(net, c, b)
    to_a = _capture(net, c, a)
    net.run_until(lambda: len(a.game.moves) > 10)
    net.kill(c)
    net.run_until(lambda: a.kinds("away") and b.kinds("away"), 60)
    for _ in range(20):  # 20 s of replaying c's old datagrams, to b and across to a
        for data in to_b[-40:] + to_a[-40:]:
            net.inject(data, b.addr)
            net.inject(data, a.addr)
        net.run_for(1)
    assert not a.kinds("back") and not b.kinds("back")
    assert a.core.presence.is_absent(c.core.peer_id) and b.core.presence.is_absent(c.core.peer_id)


@pytest.mark.parametrize("passphrase", [None, "kava"])
def test_a_stranger_cannot_speak_for_a_member_open_game_or_not(passphrase):
    """Forged moves, hijacking heartbeats (incarnation 2**64-1) and signs of life in a
    member's name: all refused, the game unchanged, the member's address kept."""
    from tongiaki_lan.net.protocol.auth import derive_key
    from tongiaki_lan.net.protocol.identity import Identity

    net = SimNet(seed=41)
    a, b = net.table(2, passphrase=passphrase)
    net.run_until(lambda: len(a.game.moves) > 5)
    key = derive_key(passphrase, a.core.game_id) if passphrase else None
    stranger = Identity.generate()
    n = len(a.game.moves)
    forged = [
        Heartbeat("playing", 1, 999, b"\x00" * 32),
        MoveMsg(n, a.game.legal_moves()[0].to_wire(), bytes(32)),
    ]
    for k, msg in enumerate(forged):
        seq = 1 if msg.RELIABLE else 0
        for inc in (2**64 - 1, b.core.incarnation + 1):
            env = Envelope(a.core.game_id, b.core.peer_id, inc, a.core.peer_id,
                           a.core.incarnation, 9000 + k, 0, seq, 0, 0, msg)
            # (in a passphrase game: a stranger who knows the passphrase, and one who does not)
            for k_ in {key, None}:
                net.inject(encode_datagram(env, k_), a.addr)  # unsigned, in b's name
                net.inject(encode_datagram(env, k_, stranger), a.addr)  # signed, not b's key
    net.run_for(0.01)
    reasons = {e.reason for e in a.kinds("refused")}
    expected = {"unsigned datagram",
                "sender id does not belong to the signing key (impersonation?)"}
    if passphrase:
        expected.add("unauthenticated datagram in a game that needs a passphrase")
    assert reasons == expected
    net.play_to_end([a, b])
    assert one_digest([a, b]) == clean_digest([a, b])
    assert a.core.links.links[b.core.peer_id].addr == b.addr
    assert not a.kinds("restarted") and not a.kinds("mismatch")


def test_a_member_claiming_a_restart_beyond_every_later_run_is_refused():
    """Even with its own key, a modified client cannot jump to incarnation 2**64-1 (after
    which no real restart could ever be accepted again): incarnations stay below 2**62."""
    net = SimNet(seed=47)
    a, b = net.table(2)
    net.run_until(lambda: len(a.game.moves) > 5)
    env = Envelope(a.core.game_id, b.core.peer_id, 2**64 - 1, a.core.peer_id, 0, 1, 0, 0, 0, 0,
                   Heartbeat("playing", 1, 0, b""))
    net.inject(encode_datagram(env, None, b.core.identity), a.addr)
    net.run_for(0.01)
    assert any("out of range" in e.reason for e in a.kinds("refused"))
    back = net.restart(b)  # the real restart that follows is accepted
    net.play_to_end([a, back])
    assert one_digest([a, back]) == clean_digest([a, back])
    assert [e.peer for e in a.kinds("restarted")] == [b.core.peer_id.hex()]


def test_decoding_a_captured_datagram_shows_who_sent_it():
    """The simulated wire carries the same bytes as UDP (sanity for the taps above)."""
    net = SimNet(seed=43)
    a, b = net.table(2)
    got = _capture(net, a, b)
    net.run_for(1)
    assert got and peek_envelope(got[0]).sender == a.core.peer_id
    assert isinstance(a.kinds("game_start")[0], E.GameStarted)


def test_a_lost_move_is_recovered_from_the_next_one_without_waiting_for_a_resend():
    """Every MOVE repeats the moves before it, and a MOVE that overtakes a lost datagram is
    used at once: the node that lost move k plays it the moment move k+1 arrives. (When
    move k calls for a tile, no MOVE k+1 comes before the draw, which waits for the node
    that lost move k: then a draw value going to it ends the losses and the resend of
    move k brings it back.)"""
    from tongiaki_lan.net.protocol.codec import Draw
    from tongiaki_lan.net.protocol.codec import MoveMsg as M

    net = SimNet(seed=53)
    a, b, c = net.table(3)
    net.run_until(lambda: len(a.game.moves) > 10)
    together = 0
    for _ in range(30):
        if c.game.is_over:
            break
        lost: list[int] = []

        def lose_one_move_to_c(data, src, dest, lost=lost):
            """Every copy of one MOVE to c, until a later MOVE has gone to c."""
            if dest != c.addr:
                return False
            msg = peek_envelope(data).message
            if lost and isinstance(msg, Draw):
                lost.append(-1)  # move k called for a tile: stop losing
            if not isinstance(msg, M):
                return False
            if not lost and msg.index >= len(c.game.moves):
                lost.append(msg.index)
            if lost and msg.index > lost[0]:
                lost.append(-1)  # the next move is on its way: stop losing
            return len(lost) == 1 and msg.index == lost[0]

        net.lose = lose_one_move_to_c
        net.run_until(lambda lost=lost: c.game.is_over or (
            lost and len(c.game.moves) > lost[0] + 1))
        net.lose = None
        if not lost or len(c.game.moves) <= lost[0] + 1:
            continue
        k = lost[0]
        nxt = next(e for e in c.kinds("move", "reveal") if e.index == k + 1)
        if nxt.kind == "move" and nxt.by != c.core.peer_id.hex():
            # k+1 came from a peer: k was applied with it, not after a resend (20 ms+)
            assert c.core.move_times[k] == c.core.move_times[k + 1]
            together += 1
    assert together >= 3
    net.play_to_end([a, b, c])
    assert one_digest([a, b, c]) == clean_digest([a, b, c])


def test_after_one_signed_exchange_members_use_their_pair_key_and_recover_a_lost_one():
    """Signatures open each link (Ed25519 + X25519 key); then each datagram carries an
    HMAC under the pair's key. A node that lost the key gets it again from the next
    signed datagram (a resend, or the periodic one) and the game goes on."""
    from tongiaki_lan.net.protocol import codec as C
    net = SimNet(seed=59)
    a, b, c = net.table(3)
    flags: list[int] = []
    net.taps.append(lambda data, s, d: flags.append(data[3]))
    net.run_until(lambda: len(a.game.moves) > 20)
    keyed = sum(1 for f in flags if f & C.FLAG_LINK_MAC)
    assert keyed > 0.8 * len(flags)
    lk = b.core.links.links[a.core.peer_id]
    lk.key = lk.their_kx = None  # b loses the key it shares with a
    net.play_to_end([a, b, c])
    assert one_digest([a, b, c]) == clean_digest([a, b, c])
    assert b.core.links.links[a.core.peer_id].key == a.core.links.links[b.core.peer_id].key
    assert not any("bad link MAC" in e.reason for nd in (a, b, c) for e in nd.kinds("refused"))


# ------------------------------------------------------------------ fair draws (issue 10)


def test_every_tile_is_drawn_from_every_nodes_chain_and_the_records_prove_it():
    """Each reveal in every node's record carries the values of all three contributors,
    each hashing back to that node's chain commitment (what `verify` re-checks)."""
    net = SimNet(seed=11)
    nodes = net.table(3)
    net.play_to_end(nodes)
    one_digest(nodes)
    for nd in nodes:
        reveals = [proof for move, _, proof in nd.record if proof is not None]
        assert len(reveals) == nd.game.draws() > 0
        assert all([i for i, _ in proof] == [0, 1, 2] for proof in reveals)
        book = DrawBook(nd.core.seed, nd.core.draw_book.commitments)
        game = Game([s.colour for s in nd.core.lobby.seats])
        for move, _, proof in nd.record:
            if proof is not None:
                assert book.check(game.draws(), proof, game.unrevealed_tiles(), move.tile) is None
            game.apply(move)


@pytest.mark.parametrize("players", [2, 3])
def test_a_node_that_stops_revealing_is_left_out_after_the_handover_time_and_the_game_ends(
        players):
    """A modified client that stays present but never sends its draw values: after the
    handover time the others leave it out of the draws, every log says so, and the game
    finishes with one digest among the honest nodes."""
    net = SimNet(seed=13)
    nodes = net.table(players, handover_after=5.0)
    cheat = nodes[-1]
    core = cheat.core
    send, entry = core.links.send, core._entry
    # never a DRAW, no log served, and no value riding along in its MOVEs
    core.links.send = lambda peer, addr, msg: (None if isinstance(msg, Draw)
                                               else send(peer, addr, msg))
    core._on_fetch = lambda peer, msg: None
    core._entry = lambda i: entry(i)[:2]
    honest = nodes[:-1]
    net.run_until(lambda: all(nd.kinds("draw_dropped") for nd in honest), 120)
    # first everyone is told what the tile waits for
    (waiting,) = {tuple(ev.names) for nd in honest for ev in nd.kinds("draw_waiting")}
    assert waiting == (cheat.core.peer_name(cheat.core.peer_id),)
    for nd in honest:
        (ev,) = nd.kinds("draw_dropped")
        assert ev.contributor == players - 1 and ev.peer == cheat.core.peer_id.hex()
    net.play_to_end(honest)
    assert len({nd.game.digest() for nd in honest}) == 1
    assert all(nd.game.is_over and not nd.core.stopped for nd in honest)
    for nd in honest:  # from the drop on, draws use the two honest chains only
        k = nd.kinds("draw_dropped")[0].draw
        proofs = [p for _, _, p in nd.record if p is not None]
        assert all([i for i, _ in p] == list(range(players - 1)) for p in proofs[k:])
        assert all([i for i, _ in p] == list(range(players)) for p in proofs[:k])


def test_a_forged_draw_value_is_refused_naming_the_sender_and_changes_nothing():
    net = SimNet(seed=17)
    a, b, c = net.table(3)
    net.run_until(lambda: a.game.awaiting_reveal)
    k = a.game.draws() + 1  # the next draw but one: nobody can have dealt it yet
    forged = Draw(k, ((0, bytes(32)),))  # "contributor 0's value", made up by c
    net.act(c, lambda now: (setattr(c.core, "now", now), c.core._broadcast(forged)))
    net.run_until(lambda: a.kinds("refused") and b.kinds("refused"), 10)
    for nd in (a, b):
        ev = nd.kinds("refused")[-1]
        assert ev.peer == c.core.peer_id.hex() and ev.what == f"draw {k}"
        assert "does not hash" in ev.reason
    net.play_to_end([a, b, c])
    assert one_digest([a, b, c]) == clean_digest([a, b, c])


def test_what_one_node_knows_does_not_fix_the_next_tile():
    """Everything one node holds when a draw begins — its own secret, every message it
    received, its record — leaves the tile open: another node's chain secret still
    decides it (two runs differing only there draw different tiles)."""
    net = SimNet(seed=19)
    nodes = net.table(3)
    net.run_until(lambda: nodes[0].game.awaiting_reveal)
    core = nodes[0].core
    k, unrevealed = core.game.draws(), core.game.unrevealed_tiles()
    mine = core.chain_secret
    tiles = set()
    for n in range(40):  # node 1's secret as any value it could have had
        values = [Chain(mine).preimage(k), Chain(bytes([n]) * 32).preimage(k),
                  Chain(nodes[2].core.chain_secret).preimage(k)]
        tiles.add(draw_tile(core.seed, k, values, unrevealed))
    assert len(tiles) > 10


def test_a_laptop_cut_off_alone_takes_back_what_it_played_and_follows_the_table():
    """Wi-Fi gone on one laptop, on its own turn: it plays its move into the void while
    the others hand its seat to a bot, leave it out of the draws and go on. When it
    hears the table again it takes back what nobody saw and follows the table: one game,
    one digest, nobody stopped."""
    net = SimNet(seed=23)
    nodes = net.table(3, handover_after=5.0)
    a, b, c = nodes
    net.run_until(lambda: len(a.game.moves) > 12 and not c.game.awaiting_reveal
                  and c.game.pending.seat == 2)
    net.blocked.add(c.addr)  # c plays its decision, but nobody hears it
    net.run_until(lambda: a.kinds("draw_dropped") and b.kinds("draw_dropped")
                  and len(a.game.moves) > len(c.game.moves) + 3, 300)
    assert a.kinds("handover")  # its seat went to a bot meanwhile
    played_alone = len(c.game.moves)
    alone = [m.to_wire() for m in c.game.moves]
    # alone on a table of three, it is the one cut off: it gives nobody's seat to its bots
    assert all(h.seat in c.core.my_seats() for h in c.kinds("handover"))
    net.blocked.clear()
    net.play_to_end(nodes)
    assert all(nd.core.stopped is None for nd in nodes)
    rewinds = c.kinds("rewound")  # (to the draw the table left it out of, then further)
    if alone != [m.to_wire() for m in a.game.moves[:played_alone]]:
        assert rewinds and min(r.index for r in rewinds) <= played_alone
        assert sum(r.undone for r in rewinds) >= 1
    assert len({nd.game.digest() for nd in nodes}) == 1
    assert {record_digest(nd) for nd in nodes} == {a.game.digest()}


@pytest.mark.parametrize("seed", [0, 1])
def test_a_jittery_wi_fi_shows_no_refusal_when_players_join(seed):
    """Datagrams 0.3 s late, give or take 1.5 s: a newcomer's first heartbeat overtakes
    the lobby that makes it a member. Nobody's screen may say it was refused."""
    net = SimNet(seed=seed, latency=0.3, jitter=1.5)
    nodes = net.table(4, passphrase="kava")
    net.play_to_end(nodes, 7200)
    one_digest(nodes)
    assert [e for nd in nodes for e in nd.kinds("refused")] == []

"""No replay makes anyone present, on the simulated LAN (virtual clock, no sockets).

A stranger on the LAN captures a member's signed datagrams — its first ones after a
restart or its JOIN, which name no run of their receiver (`dest_inc` 0), or ones a
receiver never got — and, once the member is gone and shown away, sends the captured
bytes unchanged to the members, from its own address or from the member's. Before
protocol version 10 a member took a capture of what the gone member had sent another
one: it showed the member back for about 4 s while the others still showed it away, and
sent the member's heartbeats, moves and draws to the stranger (4-30 datagrams a capture).
Now a datagram names its receiver (`dest`), a member is back only on a datagram that
echoes a packet sent to it within the away time (`echo`), and a member's traffic moves to
an address only when the member answers from there (protocol/transport.md)."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.lab.simnet import SimNet, SimNode
from tongiaki_lan.net.protocol.codec import FLAG_SIGNED, Ack, peek_envelope

from .test_core_sim import one_digest

STRANGER = ("10.9.9.9", 6666)


def capture_from(net: SimNet, host: str) -> list[tuple[bytes, tuple]]:
    """Every datagram the laptop at `host` puts on the LAN from now on, with where it went
    (a stranger's sniffer on the Wi-Fi)."""
    got: list[tuple[bytes, tuple]] = []
    net.taps.append(lambda data, src, dest: got.append((data, dest)) if src[0] == host
                    else None)
    return got


def traffic_to(net: SimNet, addr: tuple) -> list[tuple[tuple, object]]:
    """What reaches `addr` from now on: (sender's address, decoded envelope)."""
    got: list[tuple[tuple, object]] = []
    net.taps.append(lambda data, src, dest: got.append((src, peek_envelope(data)))
                    if tuple(dest) == addr else None)
    return got


def replay_everywhere(net: SimNet, captured, members: list[SimNode], gone: SimNode,
                      cross_only: bool = False) -> int:
    """Send every captured datagram, unchanged, to every member it was not for (and, unless
    `cross_only`, to the one it was for), from the stranger's address and from the gone
    member's own: what a stranger on the LAN can do without anyone's key."""
    n = 0
    for data, dest in captured:
        for m in members:
            if cross_only and m.addr == tuple(dest):
                continue
            for src in (STRANGER, gone.addr):
                net.inject(data, m.addr, src)
                n += 1
    return n


def assert_still_away(members: list[SimNode], gone: SimNode, n_back: dict) -> None:
    peer = gone.core.peer_id
    for m in members:
        assert m.core.presence.is_absent(peer), m.core.name
        assert peer not in m.core.present()
        assert len(m.kinds("back")) == n_back[m.core.name], m.kinds("back")
        # its traffic still goes where it was: never to the stranger
        assert m.core.links.links[peer].addr == gone.addr


def assert_nothing_of_it_went_to_the_stranger(to_stranger) -> None:
    """At most a bare challenge (an ACK: no message, no sequence number), which the
    stranger cannot answer: never a heartbeat, a move, a draw or a lobby."""
    assert all(isinstance(env.message, Ack) and env.seq == 0
               for _, env in to_stranger), [type(env.message).__name__ for _, env in to_stranger]


@pytest.mark.parametrize("passphrase", [None, "kava"])
def test_a_members_first_datagrams_after_a_restart_replayed_to_the_others_bring_nobody_back(
        passphrase):
    net = SimNet(seed=61)
    a, b, c = net.table(3, passphrase=passphrase, autoplay=None)
    net.run_for(2.0)
    captured = capture_from(net, c.addr[0])
    c2 = net.restart(c)  # its first datagrams to each: dest_inc 0, small packet numbers
    net.run_until(lambda: a.kinds("restarted") and b.kinds("restarted"), 10)
    net.run_for(1.0)
    assert any(peek_envelope(d).dest_inc == 0 for d, _ in captured)
    net.kill(c2)  # cut off for good
    net.run_until(lambda: all(m.core.presence.is_absent(c.core.peer_id) for m in (a, b)), 10)
    backs = {m.core.name: len(m.kinds("back")) for m in (a, b)}
    to_stranger = traffic_to(net, STRANGER)
    for _ in range(20):  # 20 s of replays, every captured datagram each second
        replay_everywhere(net, captured, [a, b], c2)
        net.run_for(1.0)
    assert_still_away([a, b], c2, backs)
    assert_nothing_of_it_went_to_the_stranger(to_stranger)
    # each member says why: signed for another node, MACed with another pair's link key,
    # or seen already
    for m in (a, b):
        reasons = [e.reason for e in m.kinds("refused")]
        assert any(r.startswith("datagram for another node") for r in reasons), reasons
        assert all(r.startswith(("datagram for another node", "bad link MAC",
                                 "replayed or duplicated")) for r in reasons), sorted(
            {r[:30] for r in reasons})


def test_a_members_join_replayed_to_another_member_brings_nobody_back():
    """The JOIN (and the first heartbeats) a laptop sent the table's creator, replayed to
    the other member once that laptop is gone."""
    net = SimNet(seed=67)
    captured = capture_from(net, "10.0.0.3")  # the third laptop, from its very first word
    a, b, c = net.table(3)
    assert any(type(peek_envelope(d).message).__name__ == "Join" for d, _ in captured)
    net.run_until(lambda: len(a.game.moves) > 10)
    net.kill(c)
    net.run_until(lambda: all(m.core.presence.is_absent(c.core.peer_id) for m in (a, b)), 10)
    backs = {m.core.name: len(m.kinds("back")) for m in (a, b)}
    to_stranger = traffic_to(net, STRANGER)
    first = captured[:60]
    for _ in range(10):
        replay_everywhere(net, first, [a, b], c, cross_only=True)
        net.run_for(1.0)
    assert_still_away([a, b], c, backs)
    assert not to_stranger  # (refused before anything is answered)


def test_datagrams_a_member_never_got_replayed_after_the_sender_went_bring_nobody_back():
    """The last second of what one laptop sent another is lost on the way (a stranger's
    sniffer caught it); the laptop then goes. Those datagrams were for that member and it
    never saw them, so they pass its replay window: they are not a sign of life now, nor
    do they move the gone laptop's traffic."""
    net = SimNet(seed=71)
    a, b, c = net.table(3)
    net.run_until(lambda: len(a.game.moves) > 10)
    captured = capture_from(net, c.addr[0])
    net.lose = lambda data, src, dest: src == c.addr and dest == b.addr
    net.run_for(1.0)
    net.kill(c)
    net.lose = None
    missed = [(d, dest) for d, dest in captured if tuple(dest) == b.addr]
    assert missed
    net.run_until(lambda: all(m.core.presence.is_absent(c.core.peer_id) for m in (a, b)), 10)
    backs = {m.core.name: len(m.kinds("back")) for m in (a, b)}
    to_stranger = traffic_to(net, STRANGER)
    for src in (STRANGER, c.addr):
        for d, _ in missed:
            net.inject(d, b.addr, src)
        net.run_for(3.0)
    assert_still_away([a, b], c, backs)
    assert_nothing_of_it_went_to_the_stranger(to_stranger)
    assert len(to_stranger) <= 2  # (one challenge a replay, at most one each 0.2 s)


def test_a_replay_to_a_member_that_restarted_since_brings_nobody_back():
    """A member restarts (a new run, which never saw anything) after another laptop went:
    the gone laptop's datagrams that named no run of their receiver would be news to the
    new run. They prove nothing there either."""
    net = SimNet(seed=73)
    captured = capture_from(net, "10.0.0.3")
    a, b, c = net.table(3, autoplay=None)
    net.run_for(2.0)
    net.kill(c)
    net.run_until(lambda: b.core.presence.is_absent(c.core.peer_id), 10)
    b2 = net.restart(b)
    net.run_until(lambda: b2.core.presence.is_absent(c.core.peer_id), 10)
    early = [(d, dest) for d, dest in captured if peek_envelope(d).dest_inc == 0
             and tuple(dest) == b.addr]
    assert early
    to_stranger = traffic_to(net, STRANGER)
    for _ in range(5):
        for d, _ in early:
            net.inject(d, b2.addr, STRANGER)
            net.inject(d, b2.addr, c.addr)
        net.run_for(1.0)
    assert b2.core.presence.is_absent(c.core.peer_id)
    assert not b2.kinds("back") and not b2.kinds("restarted")
    assert b2.core.links.links[c.core.peer_id].addr == c.addr
    assert_nothing_of_it_went_to_the_stranger(to_stranger)


def test_an_advert_claiming_an_away_members_address_draws_none_of_its_traffic():
    """Anyone can announce a member at an address of theirs (zeroconf adverts are not
    signed). The members ask there, and move nothing until the member answers from there;
    the member itself, back at its own address, is heard at once."""
    net = SimNet(seed=79)
    a, b, c = net.table(3, autoplay=None)
    net.run_for(1.0)
    net.blocked.add(c.addr)  # (its Wi-Fi gone: nothing it sends arrives)
    net.run_until(lambda: a.core.presence.is_absent(c.core.peer_id), 10)
    to_stranger = traffic_to(net, STRANGER)
    for _ in range(10):
        net.act(a, a.core.learn_address, c.core.peer_id, STRANGER)
        net.run_for(0.5)
    assert a.core.links.links[c.core.peer_id].addr == c.addr
    assert_nothing_of_it_went_to_the_stranger(to_stranger)
    assert to_stranger  # (it did ask there)
    net.blocked.discard(c.addr)
    net.run_until(lambda: not a.core.presence.is_absent(c.core.peer_id), 5)
    assert a.kinds("back")


def test_a_member_restarted_on_another_port_is_found_once_it_answers_from_there():
    """The way an address does move: a laptop that restarted and could not bind its old
    port speaks from a new one; the others answer there, it echoes, its traffic moves
    there, and the game plays to its end (no advert needed)."""
    net = SimNet(seed=83)
    a, b, c = net.table(3)
    net.run_until(lambda: len(a.game.moves) > 10)
    c2 = net.restart(c, port=7100)
    net.run_until(lambda: all(m.core.links.links[c.core.peer_id].addr == c2.addr
                              for m in (a, b)), 5)
    net.play_to_end([a, b, c2])
    one_digest([a, b, c2])


def test_a_datagram_of_another_node_is_refused_naming_it():
    net = SimNet(seed=89)
    got = capture_from(net, "10.0.0.2")
    a, b = net.table(2, autoplay=None)
    data = next(d for d, dest in got if tuple(dest) == a.addr and d[3] & FLAG_SIGNED)
    assert peek_envelope(data).dest == a.core.peer_id
    c = net.add("Dan", "10.0.0.9")  # a watcher: in the game, and no member's link
    net.act(c, c.core.watch_game, a.core.game_id, a.core.peer_id, a.addr, None)
    net.run_until(lambda: c.core.lobby is not None, 10)
    net.inject(data, c.addr, STRANGER)
    net.run_for(0.1)
    (refused,) = [e for e in c.kinds("refused") if "another node" in e.reason]
    assert refused.reason == (f"datagram for another node {a.core.peer_id.hex()} "
                              "(replayed?)")
    assert refused.peer == b.core.peer_id.hex()


# ---------------------------------------------------------------- the rule, link by link

GAME = bytes.fromhex("0a0b0c0d0e0f1011")
A_ADDR, B_ADDR, B_NEW = ("10.0.0.1", 7000), ("10.0.0.2", 7000), ("10.0.0.2", 7100)


class Pair:
    """Two `Links` wired by hand on a virtual clock: what each delivered, with the `Sign`
    of the datagram that brought it."""

    def __init__(self) -> None:
        from tongiaki_lan.net.protocol.identity import Identity
        from tongiaki_lan.net.protocol.links import Links

        self.got: dict[str, list] = {"a": [], "b": []}
        ids = [Identity.generate(), Identity.generate()]
        self.a = Links(ids[0].peer_id, 11, self._on("a"), identity=ids[0])
        self.b = Links(ids[1].peer_id, 22, self._on("b"), identity=ids[1])
        for lk in (self.a, self.b):
            lk.set_game(GAME, None)
        self.now = 100.0

    def _on(self, who: str):
        def on_message(peer, addr, msg):
            links = self.a if who == "a" else self.b
            self.got[who].append((msg, links.sign))
        return on_message

    def flush(self, frm, to, to_addr, src) -> list[bytes]:
        """Deliver what `frm` queued for `to_addr` to `to`, as coming from `src`."""
        out = [d for d, dest in frm.datagrams_to_send() if dest == to_addr]
        for d in out:
            to.receive(d, src, self.now)
        return out


def test_an_echo_proves_its_sender_alive_since_the_packet_it_echoes_and_no_longer():
    from tongiaki_lan.net.protocol.codec import Heartbeat
    from tongiaki_lan.net.protocol.links import PROOF_S

    p = Pair()
    hb = Heartbeat("lobby", 1, 0, b"")
    p.a.now = p.now
    p.a.send(p.b.peer_id, B_ADDR, hb)  # a -> b: b learns a's run
    p.flush(p.a, p.b, B_ADDR, A_ADDR)
    p.now += 1.0
    p.b.now = p.now
    p.b.send(p.a.peer_id, A_ADDR, hb)  # b -> a, sent at 101: it echoes a's packet
    sent_at = p.now
    p.flush(p.b, p.a, A_ADDR, B_ADDR)
    p.b.datagrams_to_send()
    p.now += 0.5
    p.a.now = p.now
    p.a.send(p.b.peer_id, None, hb)  # a -> b, echoing b's packet of 101
    p.flush(p.a, p.b, B_ADDR, A_ADDR)
    (_, first), (_, second) = p.got["b"]
    assert first.proven_at is None  # (a's first word: it knew nothing of b yet)
    assert second.proven_at == sent_at and second.newer
    # the same datagram, had b missed it and a stranger sent it later: it proves no more
    # than it did, and past the away time nothing at all
    p.a.now = p.now
    p.a.send(p.b.peer_id, None, hb)
    late = [d for d, _ in p.a.datagrams_to_send()]
    p.now = sent_at + PROOF_S + 0.1
    for d in late:
        p.b.receive(d, ("10.9.9.9", 6666), p.now)
    (_, replayed) = p.got["b"][-1]
    assert replayed.proven_at is None
    assert p.b.links[p.a.peer_id].addr == A_ADDR  # and its traffic stays where it was


def test_a_peers_traffic_moves_only_to_where_it_answered_a_packet_sent_there():
    from tongiaki_lan.net.protocol.codec import Heartbeat

    p = Pair()
    hb = Heartbeat("lobby", 1, 0, b"")
    for _ in range(3):  # a few heartbeats each way: both know the other's run
        p.now += 0.4
        p.a.now = p.b.now = p.now
        p.a.send(p.b.peer_id, B_ADDR, hb)
        p.flush(p.a, p.b, B_ADDR, A_ADDR)
        p.b.send(p.a.peer_id, A_ADDR, hb)
        p.flush(p.b, p.a, A_ADDR, B_ADDR)
    # b speaks from another port (multi-homed, or a socket bound anew): its datagram
    # echoes a packet a sent to the old address, so it proves b alive but not that b
    # receives at the new one; a asks there instead
    p.now += 0.4
    p.b.now = p.now
    p.b.send(p.a.peer_id, A_ADDR, hb)
    p.flush(p.b, p.a, A_ADDR, B_NEW)
    assert p.a.links[p.b.peer_id].addr == B_ADDR
    challenge = [(d, dest) for d, dest in p.a.datagrams_to_send() if dest == B_NEW]
    assert len(challenge) == 1 and isinstance(peek_envelope(challenge[0][0]).message, Ack)
    # b gets the challenge; its next datagram, from the new port, echoes it: that moves
    # a's traffic there (and only that: the same datagram from elsewhere would not)
    p.b.receive(challenge[0][0], A_ADDR, p.now)
    p.b.datagrams_to_send()
    p.now += 0.4
    p.b.now = p.now
    p.b.send(p.a.peer_id, None, hb)
    (answer,) = [d for d, dest in p.b.datagrams_to_send() if dest == A_ADDR]
    assert peek_envelope(answer).echo == peek_envelope(challenge[0][0]).pkt
    p.a.receive(answer, B_NEW, p.now)
    assert p.a.links[p.b.peer_id].addr == B_NEW

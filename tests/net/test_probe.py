"""PROBE / PROBE_ANSWER on a virtual clock (net.protocol.probe, protocol/wire.md "Probe"):
a node answers in the lobby and mid-game, never changes game state for it, answers at a
bounded rate, and the prober learns who answered, the round trip and the clock difference."""

from __future__ import annotations

from tongiaki_lan.net.lab.simnet import SimNet
from tongiaki_lan.net.protocol import probe as P
from tongiaki_lan.net.protocol.codec import (
    MAGIC,
    NO_GAME,
    PROTOCOL_VERSION,
    Envelope,
    Heartbeat,
    Probe,
    ProbeAnswer,
    decode_datagram,
    encode_datagram,
)
from tongiaki_lan.net.protocol.identity import Identity

DOCTOR = ("10.0.0.99", 5999)


def _ids(n: int) -> list[Identity]:
    return [Identity.from_seed(bytes([i + 1]) * 32) for i in range(n)]


def test_a_prober_learns_who_answered_the_round_trip_and_the_clock_difference():
    me, them = _ids(2)
    prober = P.Prober(me, wall_offset_us=1_700_000_000_000_000)
    # their wall clock is 3 h ahead of ours
    responder = P.Responder(them, wall_offset_us=1_700_000_000_000_000 + 3 * 3600 * 10**6)
    prober.probe(("10.0.0.2", 7000), 100.0, expect=them.peer_id)
    [(data, addr)] = prober.datagrams_to_send()
    assert addr == ("10.0.0.2", 7000)
    reply = responder.answer(data, DOCTOR, 100.002)
    prober.receive(reply, addr, 100.004)
    [result] = prober.results.values()
    assert result.answered and result.peer == them.peer_id
    assert round(result.rtt_s, 6) == 0.004
    assert round(result.clock_offset_s) == 3 * 3600
    assert prober.done() and prober.get_timer() is None


def test_an_unanswered_probe_is_tried_a_few_times_then_given_up():
    prober = P.Prober(_ids(1)[0])
    prober.probe(("10.0.0.2", 7000), 0.0)
    sent = len(prober.datagrams_to_send())
    while (t := prober.get_timer()) is not None:
        prober.handle_timer(t)
        sent += len(prober.datagrams_to_send())
    [result] = prober.results.values()
    assert sent == P.TRIES == result.sent and not result.answered


def test_an_answer_from_another_key_than_the_advertised_one_is_not_taken():
    me, them, impostor = _ids(3)
    prober = P.Prober(me)
    prober.probe(("10.0.0.2", 7000), 0.0, expect=them.peer_id)
    [(data, addr)] = prober.datagrams_to_send()
    prober.receive(P.Responder(impostor).answer(data, DOCTOR, 0.001), addr, 0.002)
    [result] = prober.results.values()
    assert not result.answered and impostor.peer_id.hex() in result.wrong


def test_a_node_mid_game_answers_probes_and_its_game_goes_on_unchanged():
    net = SimNet(seed=7)
    nodes = net.table(3)
    net.run_until(lambda: len(nodes[0].record) >= 10, 600)
    target = nodes[1]
    before = (len(target.record), target.game.digest(), target.core.lobby,
              sorted(target.core.links.links), len(target.events))
    prober = P.Prober(Identity.from_seed(b"\x09" * 32))
    prober.probe(target.addr, net.now, expect=target.core.peer_id)
    [(probe, _addr)] = prober.datagrams_to_send()
    target.core.receive(probe, DOCTOR, net.now)
    answers = [(d, a) for d, a in target.core.datagrams_to_send() if a == DOCTOR]
    assert len(answers) == 1
    after = (len(target.record), target.game.digest(), target.core.lobby,
             sorted(target.core.links.links), len(target.events))
    assert after == before  # nothing of the game moved, no event, no link to the prober
    prober.receive(answers[0][0], target.addr, net.now + 0.001)
    [result] = prober.results.values()
    assert result.answered and result.game == target.core.game_id
    for _ in range(30):  # probes keep coming while the game is played out
        net.inject(probe, target.addr, DOCTOR)
        net.run_for(0.2)
    net.play_to_end(nodes)
    assert len({nd.game.digest() for nd in nodes}) == 1


def test_a_node_in_the_lobby_answers_too():
    net = SimNet(seed=3)
    node = net.add("ana", "10.0.0.1")
    net.act(node, node.core.create_game, "lagoon", 3, None, "")
    prober = P.Prober(Identity.from_seed(b"\x09" * 32))
    prober.probe(node.addr, net.now)
    [(probe, _addr)] = prober.datagrams_to_send()
    node.core.receive(probe, DOCTOR, net.now)
    [(answer, addr)] = node.core.datagrams_to_send()
    assert addr == DOCTOR
    assert isinstance(decode_datagram(answer).message, ProbeAnswer)


def test_probes_are_answered_at_a_bounded_rate():
    responder = P.Responder(_ids(1)[0])
    prober_id = _ids(2)[1]
    probe = P._frame(prober_id, Probe(b"n" * 16))
    one_sender = sum(responder.answer(probe, ("10.0.0.5", 1), 10.0) is not None
                     for _ in range(100))
    assert one_sender == P.BURST
    many = sum(responder.answer(probe, (f"10.0.1.{i}", 1), 10.0) is not None
               for i in range(100))
    assert one_sender + many == P.RATE_PER_S  # the whole node's budget for that instant
    # a second later the budget is back
    assert responder.answer(probe, ("10.0.0.5", 1), 11.0) is not None


def test_anything_else_outside_a_game_is_refused_without_an_answer():
    me = _ids(1)[0]
    responder = P.Responder(me)
    other = _ids(2)[1]
    unsigned = encode_datagram(Envelope(NO_GAME, other.peer_id, 0, bytes(8), 0, 0, 0, 0, 0, 0,
                                        Probe(b"n" * 16)))
    heartbeat = P._frame(other, Heartbeat("lobby", 1, 0, b""))
    answer = P._frame(other, ProbeAnswer(b"n" * 16, 5, NO_GAME))
    garbage = MAGIC + bytes([PROTOCOL_VERSION, 0]) + b"garbage"  # this version's header
    for data in (unsigned, heartbeat, answer, garbage, probe_truncated(other)):
        assert responder.answer(data, DOCTOR, 1.0) is None
    assert responder.refused == 5 and responder.answered == 0


def probe_truncated(who: Identity) -> bytes:
    return P._frame(who, Probe(b"n" * 16))[:-5]


def test_an_answer_is_19_bytes_longer_than_its_probe_at_most():
    """wire.md, Probe: a node cannot amplify a flood; with its rate limit, what it sends
    back is at most 1.10 times what reaches it (209 bytes against 190)."""
    me, them = _ids(2)
    prober = P.Prober(me)
    responder = P.Responder(them, wall_offset_us=2**63)  # the widest clock it can give
    prober.probe(("10.0.0.2", 7000), 0.0)
    [(data, _)] = prober.datagrams_to_send()
    reply = responder.answer(data, DOCTOR, 0.0)
    assert (len(data), len(reply)) == (190, 209)
    assert len(reply) <= 1.11 * len(data)

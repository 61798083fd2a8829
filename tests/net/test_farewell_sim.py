"""Leaving on purpose, and sleeping (issue 21 items 1, 2, 3, 6; issue 18 item 2), on the
simulated LAN with a virtual clock: who drives a seat when its player leaves, sleeps or
vanishes, and what the table waits for then."""

from __future__ import annotations

import pytest

from tests.net.test_core_sim import one_digest, record_digest
from tongiaki_lan.draws import Chain, draw_tile
from tongiaki_lan.net.lab.simnet import SimNet, SimNode
from tongiaki_lan.net.protocol.codec import Farewell, Lobby, farewell_bytes, peek_envelope
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.settings import HANDOVER_BOT
from tongiaki_lan.net.protocol.wake import WAKE_WATCH_S
from tongiaki_lan.records import Record, RecordHeader, SeatInfo, replay_record


def verify_record(node: SimNode) -> int:
    """What `verify` re-checks of a record: every digest, and every reveal's values against
    the chain commitments (a chain taken mid-game's head rides beside its first value) and
    the tile it says. Returns the number of moves."""
    core = node.core
    record_digest(node)
    seats = tuple(SeatInfo(s.name, s.colour) for s in core.lobby.seats)
    header = RecordHeader(core.seed, seats, variant=core.lobby.variant,
                          commitments=core.seed_heads)
    record = Record(header, [m for m, _, _ in node.record], [d for _, d, _ in node.record],
                    proofs=[p for _, _, p in node.record])
    replay_record(record)
    return len(node.record)


def leave_when_a_draw_waits(net: SimNet, leaver: SimNode, after: int = 10) -> float:
    """The leaver quits for good while its game waits on a draw; returns when."""
    net.run_until(lambda: len(leaver.game.moves) > after and leaver.game.awaiting_reveal)
    net.act(leaver, leaver.core.say_farewell, True)
    net.kill(leaver)  # the process ends right after (its datagrams are on their way)
    return net.now


def first_reveal_after(node: SimNode, index: int) -> int:
    return next(ev.index for ev in node.kinds("reveal") if ev.index >= index)


@pytest.mark.parametrize("who", [0, 2])  # the coordinator, or another player
def test_a_player_who_leaves_for_good_is_never_waited_for_and_a_bot_takes_the_seat(who):
    net = SimNet(seed=41)
    nodes = net.table(4)
    leaver = nodes[who]
    rest = [nd for nd in nodes if nd is not leaver]
    n_left = len(leaver.game.moves)
    t_leave = leave_when_a_draw_waits(net, leaver)
    n_left = len(leaver.game.moves)
    seat = leaver.core.my_seats()[0]
    # the next two draws (the one waiting and the one after) come without any wait
    net.run_until(lambda: all(sum(ev.index >= n_left for ev in nd.kinds("reveal")) >= 2
                              for nd in rest), 60)
    stalls = []
    for nd in rest:
        (handed,) = nd.kinds("handover")
        assert handed.seat == seat and handed.bot == HANDOVER_BOT
        (left,) = nd.kinds("left")
        assert left.for_good and left.seats == [seat] and left.bot == HANDOVER_BOT
        assert not nd.kinds("draw_waiting")  # nobody was ever told to wait for it
        k = first_reveal_after(nd, n_left)
        stalls.append(nd.core.move_times[k] - t_leave)
    print(f"\n[farewell sim] next tile dealt {max(stalls) * 1000:.1f} ms after the leave "
          f"(virtual clock, slowest of {len(rest)} nodes)")
    net.play_to_end(rest)
    one_digest(rest)
    for nd in rest:  # the leaver's contributor is out from its goodbye on, on every node
        (dropped,) = nd.kinds("draw_dropped")
        assert dropped.peer == leaver.core.peer_id.hex()
        assert nd.core.lobby.dropped == ((leaver.core.my_contributor, dropped.draw),)
        assert verify_record(nd) == len(nd.game.moves)
    assert verify_record(leaver) == n_left  # the leaver's own record verifies, up to there


def test_a_farewell_gives_the_value_the_table_waits_for_and_nothing_later():
    net = SimNet(seed=43)
    nodes = net.table(4)
    leaver = nodes[1]
    sent: list[Farewell] = []
    net.taps.append(lambda data, src, dest: None)
    net.run_until(lambda: len(leaver.game.moves) > 8 and leaver.game.awaiting_reveal)
    k = leaver.game.draws()
    fw = net.act(leaver, leaver.core.say_farewell, True)
    sent.append(fw)
    assert fw.from_draw == k + 1 and fw.value == Chain(leaver.core.chain_secret).preimage(k)
    net.kill(leaver)
    rest = [nd for nd in nodes if nd is not leaver]
    net.play_to_end(rest)
    one_digest(rest)
    i = leaver.core.my_contributor
    for nd in rest:  # its value was in draw k, and in no later one
        proofs = [p for _, _, p in nd.record if p is not None]
        assert any(j == i for j, _ in proofs[k])
        assert all(j != i for p in proofs[k + 1:] for j, _ in p)


def test_with_everything_one_node_knows_the_next_tile_still_ranges_widely():
    """After a goodbye, neither the leaver (its own chain secret, all it received, even if
    it came back) nor a remaining player can tell the next tile: the remaining chains
    decide it, each still secret to all but its owner. Whether the leaver's own future
    values are public changes nothing, since they are out of the draws."""
    net = SimNet(seed=47)
    nodes = net.table(4)
    leaver, keeper = nodes[3], nodes[0]
    leave_when_a_draw_waits(net, leaver, after=6)
    rest = nodes[:3]
    net.run_until(lambda: all(nd.core.lobby.dropped for nd in rest)
                  and rest[0].game.awaiting_reveal, 60)
    core = rest[0].core
    k, unrevealed = core.game.draws(), core.game.unrevealed_tiles()
    active = core._active(k)
    assert leaver.core.my_contributor not in active
    secrets = {nd.core.my_contributor: nd.core.chain_secret for nd in rest}
    for knower in (leaver, keeper):  # all that one node knows, the rest made up
        own = knower.core.my_contributor
        tiles = set()
        for n in range(40):
            values = [Chain(secrets[i] if i == own else bytes([n, i]) * 16).preimage(k)
                      for i in active]
            tiles.add(draw_tile(core.seed, k, values, unrevealed))
        assert len(tiles) > 10, f"{knower.core.name} narrows the tile to {sorted(tiles)}"


def test_two_players_one_leaves_for_good_the_other_plays_on_against_a_bot():
    net = SimNet(seed=53)
    a, b = net.table(2)
    leave_when_a_draw_waits(net, b, after=8)
    net.play_to_end([a])
    assert a.game.is_over and a.core.stopped is None
    (handed,) = a.kinds("handover")
    assert handed.bot == HANDOVER_BOT and handed.seat == b.core.my_seats()[0]
    assert not a.kinds("draw_waiting")
    verify_record(a)
    verify_record(b)


def test_back_soon_keeps_the_seat_waiting_as_before():
    net = SimNet(seed=59)
    nodes = net.table(3)
    leaver = nodes[2]
    net.run_until(lambda: len(leaver.game.moves) > 6)
    net.act(leaver, leaver.core.say_farewell, False)
    net.kill(leaver)
    rest = nodes[:2]
    net.run_until(lambda: all(nd.kinds("left") for nd in rest), 5)
    assert all(not nd.kinds("left")[0].for_good for nd in rest)
    net.run_for(10)
    assert not any(nd.kinds("handover") for nd in rest)  # nobody took the seat
    assert all(nd.core.lobby.seats[2].bot == "" for nd in rest)


def test_a_farewell_not_signed_by_the_leaver_is_refused_and_changes_nothing():
    net = SimNet(seed=61)
    a, b, c = net.table(3)
    net.run_until(lambda: len(a.game.moves) > 6)
    # c says b left for good, signing with its own key, then with a key not b's
    for ident in (c.core.identity, Identity.generate()):
        sig = ident.sign(farewell_bytes(a.core.game_id, b.core.peer_id, 0, True, b""))
        forged = Farewell(b.core.peer_id, 0, True, b"", ident.public, sig)
        net.act(c, lambda now, m=forged: (setattr(c.core, "now", now), c.core._broadcast(m)))
    # b's true key over other fields (a replayed signature) fails too
    real = b.core._sign_farewell(9, False, b"")
    bent = Farewell(real.leaver, 0, True, b"", real.public, real.signature)
    net.act(c, lambda now: (setattr(c.core, "now", now), c.core._broadcast(bent)))
    net.run_until(lambda: len(a.kinds("refused")) >= 3, 10)
    reasons = [ev.reason for ev in a.kinds("refused") if ev.what == "farewell"]
    assert reasons == ["farewell: the key does not belong to the leaver"] * 2 + [
        "farewell: bad signature"]
    assert not a.kinds("left") and not a.kinds("handover")
    net.play_to_end([a, b, c])
    one_digest([a, b, c])


# ------------------------------------------------------------------ sleep and wake (18.2)


def test_a_node_asleep_longer_than_the_handover_follows_the_table_on_waking():
    """The lid closed for 90 s with a handover time of 10 s: the table hands the sleeper's
    seat over and draws without it; the sleeper, waking, hands nobody's seat to its own
    bots, asks first, follows the table and finishes with the same digest."""
    net = SimNet(seed=67)
    nodes = net.table(4, handover_after=10.0)
    sleeper = nodes[1]
    net.run_until(lambda: len(sleeper.game.moves) > 10)
    net.suspend(sleeper)
    net.run_for(90)
    others = [nd for nd in nodes if nd is not sleeper]
    assert all(nd.kinds("handover") for nd in others)
    net.wake(sleeper)
    (woke,) = sleeper.kinds("woke")
    assert woke.slept >= 89
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not [ev for ev in sleeper.kinds("handover")
                if ev.seat != sleeper.core.my_seats()[0]]  # never the others' seats
    assert not sleeper.kinds("table_gone")


def test_a_move_typed_before_the_wake_is_seen_waits_for_the_tables_word():
    """A laptop frozen on its own decision, its seat played by a bot meanwhile: on the
    thaw, the keys typed at the frozen screen reached the node before any datagram or
    timer showed it the jump, and the move was played, dealt a tile, and was struck a
    moment later (a playtest's "✗ Wrecked on S06"). The move is refused as while
    waking: the table is asked first."""
    from tongiaki_lan.net.protocol.movesync import WAKING

    net = SimNet(seed=67)
    nodes = net.table(3, handover_after=10.0)
    sleeper = nodes[1]
    sleeper.core.autoplay = None  # (a person: the decision waits for the keyboard)
    mine = sleeper.core.my_seats()[0]
    net.run_until(lambda: sleeper.game.pending is not None
                  and sleeper.game.pending.seat == mine, 300)
    n = len(sleeper.game.moves)
    stale = sleeper.game.legal_moves()[0]
    net.suspend(sleeper)
    net.run_for(60)
    assert all(len(nd.game.moves) > n for nd in nodes if nd is not sleeper)
    sleeper.alive = True  # (SIGCONT; the keys come first, before any timer)
    net.nodes[sleeper.addr] = sleeper
    with pytest.raises(ValueError, match=WAKING):
        net.act(sleeper, sleeper.core.send_move, stale)
    assert len(sleeper.game.moves) == n
    net.wake(sleeper)
    assert sleeper.kinds("woke")
    sleeper.core.autoplay = "random"
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not sleeper.kinds("rewound")


@pytest.mark.parametrize("sleeper_at", [0, 1])
def test_a_stopped_laptop_deals_no_tile_from_what_waited_in_its_socket(sleeper_at):
    """A duel; one laptop frozen (the lid, SIGSTOP) for 90 s while the table dealt tiles
    without its draw value. The other's values of those draws waited in its socket: on
    waking it dealt one of them itself — a tile the table never drew, which its player
    read as a discovery — and only then heard the table and took it back (a playtest).
    Now it deals nothing before the table answered its wake."""
    net = SimNet(seed=73)
    nodes = net.table(2, handover_after=10.0)
    sleeper = nodes[sleeper_at]
    other = nodes[1 - sleeper_at]
    net.run_until(lambda: len(sleeper.game.moves) > 10)
    n = len(sleeper.game.moves)
    net.suspend(sleeper, keep=64)
    net.run_until(lambda: any(ev.index >= n for ev in other.kinds("reveal")), 120)
    net.run_for(30)
    assert other.kinds("draw_dropped")  # the table draws without the sleeper
    net.wake(sleeper)
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not sleeper.kinds("rewound")
    verify_record(sleeper)


def _freeze_during_anothers_turn(net: SimNet, nodes: list[SimNode], after: int,
                                 **suspend) -> SimNode:
    """Stop nodes[1] (SIGSTOP, a closed lid) while another seat decides, after `after`
    moves; returns it."""
    sleeper = nodes[1]
    mine = sleeper.core.my_seats()
    net.run_until(lambda: len(sleeper.game.moves) > after and sleeper.game.pending is not None
                  and sleeper.game.pending.seat not in (None, *mine), 300)
    net.suspend(sleeper, **suspend)
    return sleeper


def _told_of_the_bot(net: SimNet, sleeper: SimNode) -> list[str]:
    """Wake the sleeper and let the table answer: what its node told the player about its
    own seat ("While you were away your seat was played by a bot …", "Your seat is
    yours again …" on the console)."""
    seats = sleeper.core.my_seats()
    mark = len(sleeper.events)
    net.wake(sleeper)
    net.run_until(lambda: sleeper.kinds("answered") and sleeper.core.caught_up_with_table(),
                  30)
    net.run_for(5)
    return [ev.kind for ev in sleeper.events[mark:]
            if ev.kind in ("handover", "reclaimed") and ev.seat in seats]


@pytest.mark.parametrize("seed,players", [(2, 3), (4, 3), (6, 4), (7, 4)])
def test_a_laptop_woken_past_the_handover_deals_no_tile_from_its_socket_before_the_lobby(
        seed, players):
    """Playtests: a laptop stopped 86 s (handover 60 s) during another's turn; the table
    left it out of a draw and a bot played its seat. Its socket had kept what came in the
    first seconds of the sleep (a full buffer drops the rest: the values of that draw, not
    the lobby that left it out), so the table's acknowledgements ended its hold while
    that lobby was still on its way: it dealt the draw with its own value, a tile its
    player saw appear and struck a moment later; and the take-back's fresh links skipped
    the lobbies that handed its seat to a bot and back, so its screen never said that a
    bot had played for its player."""
    net = SimNet(seed=seed, think=1.0)  # (bots of a second: the table still plays on)
    nodes = net.table(players, handover_after=60.0)
    sleeper = _freeze_during_anothers_turn(net, nodes, 8 + seed % 20, keep=64, first=True)
    net.run_for(86)
    others = [nd for nd in nodes if nd is not sleeper]
    assert all(nd.kinds("draw_dropped") and nd.kinds("handover") for nd in others)
    assert not others[0].game.is_over
    assert _told_of_the_bot(net, sleeper) == ["handover", "reclaimed"]
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not sleeper.kinds("rewound")  # no tile dealt here that the table replaced
    verify_record(sleeper)


def test_a_laptop_woken_past_the_handover_waits_for_a_lobby_lost_on_the_way():
    """The same with the lobby that left the sleeper out of the draws waiting in its
    socket no more, and lost on the Wi-Fi for a moment after the wake: the table's
    acknowledgements came, the lobby did not yet."""
    net = SimNet(seed=1, think=1.0)
    nodes = net.table(4, handover_after=60.0)
    sleeper = _freeze_during_anothers_turn(net, nodes, 9, keep=64)
    net.run_for(86)
    assert not nodes[0].game.is_over
    woke = net.now
    net.lose = lambda data, src, dest: (dest == sleeper.addr and net.now - woke < 0.3
                                        and isinstance(peek_envelope(data).message, Lobby))
    assert _told_of_the_bot(net, sleeper) == ["handover", "reclaimed"]
    net.play_to_end(nodes)
    one_digest(nodes)
    assert not sleeper.kinds("rewound")
    verify_record(sleeper)


def test_the_tables_creator_asleep_past_the_handover_gets_its_seat_back_on_waking():
    """The creator is the table's coordinator, which gave seats back: waking after its
    seat was handed over, it was the coordinator again and nobody gave it back, so its
    player watched a bot play for them to the end. The bot's driver gives it back."""
    net = SimNet(seed=67)
    nodes = net.table(4, handover_after=10.0)
    sleeper = nodes[0]
    seat = sleeper.core.my_seats()[0]
    net.run_until(lambda: len(sleeper.game.moves) > 10)
    net.suspend(sleeper)
    net.run_for(90)
    assert all(nd.core.lobby.seats[seat].bot for nd in nodes[1:])
    net.wake(sleeper)
    net.run_until(lambda: all(nd.kinds("reclaimed") and not nd.core.lobby.seats[seat].bot
                              for nd in nodes), 30)
    net.play_to_end(nodes)
    one_digest(nodes)


def test_a_node_that_slept_through_the_end_of_the_game_says_the_table_is_gone():
    net = SimNet(seed=71)
    nodes = net.table(3, handover_after=5.0)
    sleeper = nodes[2]
    net.run_until(lambda: len(sleeper.game.moves) > 10)
    net.suspend(sleeper)
    others = nodes[:2]
    net.play_to_end(others)
    one_digest(others)
    for nd in others:  # the others' processes end with the game
        net.kill(nd)
    net.now += 30
    net.wake(sleeper)
    net.run_until(lambda: sleeper.core.stopped is not None, 30)
    (gone,) = sleeper.kinds("table_gone")
    assert gone.moves == len(sleeper.game.moves) < len(others[0].game.moves)
    assert not sleeper.kinds("handover")  # it did not play on alone
    assert "did not answer" in sleeper.core.stopped
    verify_record(sleeper)


def test_a_node_that_slept_through_the_end_follows_a_table_still_there_to_its_result():
    net = SimNet(seed=73)
    nodes = net.table(3, handover_after=5.0)
    sleeper = nodes[0]  # the coordinator, even
    net.run_until(lambda: len(sleeper.game.moves) > 10)
    net.suspend(sleeper)
    others = nodes[1:]
    net.play_to_end(others)
    net.run_for(20)
    net.wake(sleeper)
    net.play_to_end([sleeper])
    one_digest(nodes)
    (over,) = sleeper.kinds("game_over")
    assert over.digest == others[0].game.digest().hex()


@pytest.mark.parametrize("who", [2, 0])  # another player, or the table's creator
def test_a_leaver_for_good_who_starts_again_gets_the_seat_back_and_draws_with_a_new_chain(
        who):
    """A goodbye for good, then the same player starts the game again from its record: a
    late datagram of the run that left gives nothing back, a new run gets the seat (a bot
    still played it), and its part in the draws with a fresh chain, never its old one. The
    creator too, who is the coordinator again once back (only the coordinator gave seats
    back: nobody did), and takes its own fresh chain once abreast of the table."""
    net = SimNet(seed=79, think=1.0)  # (bots of a second: tiles are left when it is back)
    nodes = net.table(3)
    leaver = nodes[who]
    leave_when_a_draw_waits(net, leaver, after=8)
    rest = [nd for nd in nodes if nd is not leaver]
    net.run_until(lambda: all(nd.kinds("handover") for nd in rest), 5)
    net.run_for(5)
    seat = leaver.core.my_seats()[0]
    assert all(nd.core.lobby.seats[seat].bot for nd in rest)  # still the bot's
    back = net.restart(leaver)
    net.run_until(lambda: all(nd.kinds("reclaimed") for nd in rest), 30)
    net.play_to_end([*rest, back])
    one_digest([*rest, back])
    old = rest[0].core.seed_contributors.index(leaver.core.peer_id)
    assert all(old in dict(nd.core.lobby.dropped) for nd in (*rest, back))
    proofs = [p for _, _, p in rest[0].record if p is not None]
    k = dict(rest[0].core.lobby.dropped)[old]
    assert all(j != old for p in proofs[k:] for j, *_ in p)
    for nd in (*rest, back):
        (taken,) = nd.kinds("draw_taken")
        assert taken.peer == leaver.core.peer_id.hex() and taken.again
    assert [j for j, *_ in proofs[-1]] == [j for j in range(4) if j != old]


def test_a_datagram_sent_after_a_goodbye_for_good_does_not_bring_the_leaver_back():
    """The last datagrams of a player who said goodbye for good (a chat line it typed as
    it quit, a heartbeat already on its way) arrive after the goodbye: the table must not
    show it back, for a few seconds, nor take it for the coordinator (who answers seat
    requests and hands seats to bots) in that time. Only a new run of it comes back."""
    net = SimNet(seed=83)
    nodes = net.table(3)
    leaver = nodes[0]
    assert leaver.core.coordinator() == leaver.core.peer_id
    net.run_until(lambda: len(leaver.game.moves) > 8 and leaver.game.awaiting_reveal)
    net.act(leaver, leaver.core.say_farewell, True)
    net.act(leaver, leaver.core.chat, "bye all")  # sent after the goodbye
    net.kill(leaver)
    rest = nodes[1:]
    net.run_until(lambda: all(nd.kinds("chat") for nd in rest), 5)  # the late datagram came
    seen = []
    for _ in range(20):  # 10 virtual seconds, looked at every half second
        net.run_for(0.5)
        seen += [nd.core.coordinator() == leaver.core.peer_id for nd in rest]
    assert not any(seen), "a node took the player who left for good as its coordinator"
    for nd in rest:
        assert not nd.kinds("back"), f"{nd.core.name} showed the leaver back"
        assert nd.core.presence.has_left(leaver.core.peer_id)
    net.play_to_end(rest)
    one_digest(rest)


def test_a_leaver_back_in_a_new_run_is_back_for_a_node_that_started_again_meanwhile():
    """A node that started again after a goodbye for good (it crashed, say) learns of the
    goodbye from the others and never saw the leaver's earlier run, so the leaver's new
    run is no restart to it; still it must see the leaver back once the old run's late
    datagrams are over, or the table splits on who its coordinator is (the leaver first
    in join order: back for one node, gone for good for the other)."""
    net = SimNet(seed=89)
    nodes = net.table(3)
    leaver = nodes[0]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=8)
    net.run_until(lambda: all(nd.kinds("handover") for nd in nodes[1:]), 5)
    crashed = net.restart(nodes[1])
    net.run_until(lambda: crashed.core.left_for_good(leaver.core.peer_id), 10)
    back = net.restart(leaver)
    table = [back, crashed, nodes[2]]
    me = back.core.peer_id
    net.run_until(lambda: all(nd.core.coordinator() == me for nd in table), 30)
    net.run_until(lambda: all(not nd.core.lobby.seats[seat].bot for nd in table), 30)
    assert crashed.kinds("back")  # shown back to its player too
    net.play_to_end(table)
    one_digest(table)


def test_a_whole_table_started_again_gives_a_returning_leaver_its_seat_back():
    """A player left for good, then everyone's program was started again (a power cut,
    or the party moved to another room), the leaver's too. Nobody remembers the goodbye
    (a goodbye is news, not a record) and nobody saw anyone come back, since for each
    new run the others were simply there from the start; the lobby still says a bot
    plays the seat. Its driver gives it back to the player it hears."""
    net = SimNet(seed=97, think=1.0)  # a game of minutes: it is on when they return
    nodes = net.table(3)
    leaver = nodes[2]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=8)
    net.run_until(lambda: all(nd.kinds("handover") for nd in nodes[:2]), 5)
    net.run_for(3)
    table = [net.restart(nd) for nd in nodes]
    net.run_until(lambda: all(not nd.core.lobby.seats[seat].bot for nd in table), 30)
    net.play_to_end(table)
    one_digest(table)


def test_the_draw_wait_is_a_lobby_setting_and_the_countdown_shows_it():
    from tongiaki_lan.net.protocol.codec import Draw

    net = SimNet(seed=83)
    a, b, c = (net.add(f"p{i}", f"10.0.0.{i + 1}", autoplay="random") for i in range(3))
    net.act(a, a.core.create_game, "wait", 3, None, "")
    for nd in (b, c):
        net.act(nd, nd.core.begin_join, a.core.game_id, a.core.peer_id, a.addr, None, "")
        net.run_until(nd.core.seated, 30)
    net.act(b, b.core.set_ready, True)
    net.run_until(lambda: c.core.lobby.seats[1].ready, 5)
    assert a.core.lobby.draw_wait == 15  # the default
    net.act(c, c.core.set_draw_wait, 6)  # any member may ask, in the lobby
    net.run_until(lambda: all(nd.core.lobby.draw_wait == 6 for nd in (a, b, c)), 5)
    assert not a.core.lobby.seats[1].ready  # b agreed to other terms: asked again
    cheat = c.core  # never sends a draw value
    send = cheat.links.send
    cheat.links.send = lambda peer, addr, msg: (None if isinstance(msg, Draw)
                                                else send(peer, addr, msg))
    cheat._on_fetch = lambda peer, msg: None
    entry = cheat._entry
    cheat._entry = lambda i: entry(i)[:2]
    for nd in (a, b, c):
        net.act(nd, nd.core.set_ready, True)
    net.run_until(lambda: a.kinds("draw_dropped") and b.kinds("draw_dropped"), 120)
    shown = [ev.drop_in for nd in (a, b) for ev in nd.kinds("draw_waiting")]
    assert shown and max(shown) <= 6  # the countdown counts from the table's setting


def test_the_last_player_at_the_table_is_not_alone_with_those_who_said_goodbye():
    """Cat leaves for good, Bob 'back soon' (or his laptop goes): Ana, the last one here,
    is not 'cut off from everyone' — both said goodbye — so the tile waiting for Bob's
    value is drawn without it after the table's wait, and a bot plays his seat."""
    net = SimNet(seed=163)
    ana, bob, cat = net.table(3, handover_after=5.0)
    leave_when_a_draw_waits(net, cat, after=6)
    net.run_until(lambda: len(ana.game.moves) > len(cat.game.moves) + 4, 30)
    net.act(bob, bob.core.say_farewell, False)
    net.kill(bob)
    net.play_to_end([ana], 600)
    assert ana.game.is_over and ana.core.stopped is None
    dropped = {ev.peer for ev in ana.kinds("draw_dropped")}
    assert bob.core.peer_id.hex() in dropped and cat.core.peer_id.hex() in dropped
    verify_record(ana)


def test_a_tile_that_waits_for_the_last_one_who_draws_says_it_waits_for_them():
    """Everyone else was left out of the draws: a tile then waits for the last contributor
    (never dropped: nobody would be left to draw), and says so instead of a countdown."""
    net = SimNet(seed=167, think=1.0)  # (bots of a second: the game outlasts b's wake)
    a, b = net.table(2, handover_after=3.0)
    net.run_until(lambda: len(a.game.moves) > 6 and a.game.awaiting_reveal, 60)
    net.suspend(b)  # b's laptop sleeps: a leaves b out of the draws after the table's wait
    net.run_until(lambda: a.kinds("draw_dropped"), 60)
    # b offers no fresh chain (as once the table has taken all it may: `MAX_LATE_CHAINS`),
    # so it stays out of the draws (tests/net/test_late_chain_sim.py has it take part again)
    b.core._chain_tick = lambda: None
    net.wake(b)
    woke = net.now
    net.run_until(lambda: b.core.lobby.dropped, 30)
    # a tile that needs a's value only, once b's wake is over: a table whose every other
    # laptop goes quiet just as we woke was finishing (`table_gone`), not this case
    net.run_until(lambda: b.game.awaiting_reveal and b.game.draws() > a.kinds(
        "draw_dropped")[0].draw + 1 and net.now > woke + WAKE_WATCH_S, 600)
    net.suspend(a)  # and now a's laptop goes: b holds no part in the draws
    net.run_until(lambda: b.kinds("draw_waiting"), 30)
    (waiting,) = [ev for ev in b.kinds("draw_waiting") if ev.peers == [a.core.peer_id.hex()]]
    assert waiting.drop_in == -1  # never: the tile waits until a is back
    net.wake(a)
    net.play_to_end([a, b], 600)
    one_digest([a, b])

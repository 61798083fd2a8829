"""Guests at a table on the simulated LAN (issue 21 items 4, 5; issue 18 item 4): watchers
follow a game from anywhere in it, checked by their own engine, and change nothing; a
newcomer takes the seat of a player who left for good. Virtual clock, no sockets."""

from __future__ import annotations

import pytest

from tests.net.test_core_sim import one_digest
from tests.net.test_farewell_sim import leave_when_a_draw_waits, verify_record
from tongiaki_lan.net.lab.simnet import SimNet, SimNode
from tongiaki_lan.net.protocol.codec import (
    GUEST_WATCH,
    Draw,
    MoveMsg,
    decode_datagram,
)
from tongiaki_lan.net.protocol.watching import GUESTS_BY_WORD


def watcher(net: SimNet, via: SimNode, name: str = "Dan", *, passphrase: str | None = None,
            host: str = "10.0.0.50", **kw) -> SimNode:
    w = net.add(name, host, **kw)
    net.act(w, w.core.watch_game, via.core.game_id, via.core.peer_id, via.addr, passphrase)
    return w


def types_sent(net: SimNet, node: SimNode) -> list[str]:
    """Every message type `node` puts on the wire from now on (a tap on the LAN)."""
    seen: list[str] = []

    def tap(data: bytes, src, dest) -> None:
        if src == node.addr:
            try:
                env = decode_datagram(data, node.core.links.key, require_signature=False,
                                      link_key=lambda *_: None)
            except Exception:  # a link-MACed datagram: its type is in the clear all the same
                from tongiaki_lan.net.protocol.codec import peek_envelope

                env = peek_envelope(data)
            seen.append(type(env.message).__name__)
    net.taps.append(tap)
    return seen


def test_a_watcher_follows_a_running_game_to_its_end_and_its_record_verifies():
    net = SimNet(seed=101)
    nodes = net.table(4)
    net.run_until(lambda: len(nodes[0].game.moves) > 25)
    dan = watcher(net, nodes[2])
    sent = types_sent(net, dan)
    net.run_until(lambda: dan.game is not None and len(dan.game.moves) >= 25
                  and dan.kinds("watching"), 10)  # (its first heartbeat may come last)
    (w,) = dan.kinds("watching")
    assert w.game == "sim" and w.feeder == nodes[2].core.peer_id.hex()
    # every player is told who watches
    net.run_until(lambda: all(nd.core.watchers() == [{"peer": dan.core.peer_id.hex(),
                                                       "name": "Dan"}] for nd in nodes), 5)
    net.play_to_end([*nodes, dan])
    one_digest([*nodes, dan])
    assert dan.kinds("game_over")[0].digest == nodes[0].game.digest().hex()
    assert verify_record(dan) == len(nodes[0].game.moves)
    # a watcher asks and listens: it never sends a move, a draw value, a lobby request
    assert set(sent) <= {"Watch", "Heartbeat", "Fetch", "Ack"}, sorted(set(sent))
    assert not dan.kinds("your_turn") and not dan.kinds("refused")


def test_a_watcher_from_the_lobby_on_sees_the_start_and_learns_no_draw_value_early():
    net = SimNet(seed=103)
    a, b = (net.add(f"p{i}", f"10.0.0.{i + 1}", autoplay="random") for i in range(2))
    net.act(a, a.core.create_game, "early", 2, None, "")
    net.act(b, b.core.begin_join, a.core.game_id, a.core.peer_id, a.addr, None, "")
    net.run_until(b.core.seated, 30)
    dan = watcher(net, b)
    net.run_until(lambda: dan.core.lobby is not None, 5)
    assert dan.game is None and dan.core.lobby.phase == "lobby"
    # what reaches the watcher: never a DRAW, never a MOVE (values come only in LOG
    # entries of tiles already dealt)
    got: list[str] = []

    def tap(data, src, dest):
        if dest == dan.addr:
            from tongiaki_lan.net.protocol.codec import peek_envelope

            got.append(type(peek_envelope(data).message).__name__)
    net.taps.append(tap)
    for nd in (a, b):
        net.act(nd, nd.core.set_ready, True)
    net.play_to_end([a, b, dan])
    one_digest([a, b, dan])
    assert "Draw" not in got and "MoveMsg" not in got and "Commit" not in got
    assert "Reveal" not in got  # (the seed round's secrets stay between the players)
    assert dan.core.chain_secret is None and dan.core.my_contributor is None


def test_ten_watchers_of_a_six_player_table_all_finish_with_its_digest():
    net = SimNet(seed=107)
    nodes = net.table(6)
    watchers = [watcher(net, nodes[i % 6], f"w{i}", host=f"10.0.1.{i + 1}") for i in range(10)]
    net.play_to_end([*nodes, *watchers])
    one_digest([*nodes, *watchers])
    names = [w["name"] for w in nodes[0].core.watchers()]
    assert sorted(names) == sorted(f"w{i}" for i in range(10))


def test_a_watcher_that_sends_a_move_or_a_draw_value_is_refused_and_changes_nothing():
    net = SimNet(seed=109)
    nodes = net.table(3)
    dan = watcher(net, nodes[0])
    net.run_until(lambda: dan.game is not None and len(dan.game.moves) > 10, 60)
    g = nodes[0].game
    n, k = len(g.moves), g.draws()
    fake_move = MoveMsg(n, [0], b"\0" * 32)
    fake_draw = Draw(k, ((0, b"\1" * 32),))

    def send(now):
        dan.core.now = now
        for nd in nodes:
            dan.core.links.send(nd.core.peer_id, nd.addr, fake_move)
            dan.core.links.send(nd.core.peer_id, nd.addr, fake_draw)
    before = [len(nd.kinds("refused")) for nd in nodes]
    net.act(dan, send)
    net.run_until(lambda: all(len(nd.kinds("refused")) >= b + 2
                              for nd, b in zip(nodes, before, strict=True)), 5)
    for nd, b in zip(nodes, before, strict=True):
        # the feeder names the watcher; the others do not know the sender at all
        for e in nd.kinds("refused")[b:]:
            assert ("watches this table" in e.reason if nd is nodes[0]
                    else "is not a member of this game" in e.reason), e.reason
    net.play_to_end([*nodes, dan])
    one_digest([*nodes, dan])  # the game went on as if nothing had been sent


def test_watchers_chat_when_the_table_lets_them_and_are_told_when_it_does_not():
    net = SimNet(seed=113)
    a, b = net.table(2)
    dan = watcher(net, b)
    net.run_until(lambda: dan.game is not None, 10)
    net.act(dan, dan.core.chat, "go blue!")
    net.run_until(lambda: all(nd.kinds("chat") for nd in (a, b)), 5)
    for nd in (a, b):
        (line,) = nd.kinds("chat")
        assert (line.name, line.text, line.watcher) == ("Dan", "go blue!", True)
    net.act(a, a.core.chat, "thanks")
    net.run_until(lambda: any(c.text == "thanks" for c in dan.kinds("chat")), 5)
    # the host says watchers keep quiet: the next line is refused, with the reason
    net.act(a, a.core.set_guests, GUESTS_BY_WORD["quiet"])
    net.run_until(lambda: dan.core.lobby.guests == GUEST_WATCH, 5)
    net.act(dan, dan.core.chat, "and now?")
    net.run_until(lambda: dan.kinds("guest_refused"), 5)
    assert "do not chat" in dan.kinds("guest_refused")[0].reason
    assert not any(c.text == "and now?" for nd in (a, b) for c in nd.kinds("chat"))


def test_a_table_closed_to_watchers_refuses_one_and_a_wrong_passphrase_gets_nothing():
    net = SimNet(seed=127)
    a, b = net.table(2, passphrase="kava")
    net.act(a, a.core.set_guests, GUESTS_BY_WORD["closed"])
    net.run_until(lambda: b.core.lobby.guests == 0, 5)
    dan = watcher(net, a, passphrase="kava")
    net.run_until(lambda: dan.kinds("guest_refused"), 5)
    assert "takes no watchers" in dan.kinds("guest_refused")[0].reason
    assert dan.core.lobby is None
    net.act(a, a.core.set_guests, GUESTS_BY_WORD["open"])
    eve = watcher(net, a, "Eve", passphrase="wrong", host="10.0.0.51")
    net.run_for(5)
    assert eve.core.lobby is None and not eve.kinds("watching")  # its datagrams fail the MAC
    fay = watcher(net, a, "Fay", passphrase="kava", host="10.0.0.52")
    net.run_until(lambda: fay.kinds("watching"), 5)


def test_a_watcher_whose_feeder_goes_follows_through_another_member():
    net = SimNet(seed=131)
    nodes = net.table(3, handover_after=5.0)
    dan = watcher(net, nodes[1])
    net.run_until(lambda: dan.game is not None and len(dan.game.moves) > 10, 30)
    net.kill(nodes[1])  # the feeder's laptop is gone; a bot takes its seat
    rest = [nodes[0], nodes[2]]
    net.play_to_end([*rest, dan])
    one_digest([*rest, dan])
    assert dan.core.feeder != nodes[1].core.peer_id


def test_a_watcher_killed_and_started_again_catches_up_again():
    net = SimNet(seed=137)
    nodes = net.table(3)
    dan = watcher(net, nodes[0])
    net.run_until(lambda: dan.game is not None and len(dan.game.moves) > 10, 30)
    net.kill(dan)
    net.run_until(lambda: len(nodes[0].game.moves) > 40, 120)
    again = net.add("Dan", "10.0.0.50", identity=dan.core.identity)
    net.act(again, again.core.watch_game, nodes[0].core.game_id, nodes[0].core.peer_id,
            nodes[0].addr, None)
    net.play_to_end([*nodes, again])
    one_digest([*nodes, again])
    assert verify_record(again) == len(nodes[0].game.moves)


def test_a_newcomer_takes_the_seat_of_a_player_who_left_for_good_and_plays_it():
    # (bots that take a moment to decide: with the default, the game could end in the
    # virtual quarter second the newcomer's request takes)
    net = SimNet(seed=139, think=0.05)
    nodes = net.table(3)
    leaver = nodes[1]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=10)
    rest = [nodes[0], nodes[2]]
    net.run_until(lambda: all(nd.core.lobby.seats[seat].bot for nd in rest), 10)
    dan = watcher(net, nodes[2], autoplay="random")
    net.run_until(lambda: dan.game is not None
                  and seat in dan.core.lobby_json()["open_seats"], 10)
    # while the host lets nobody take a seat, none is open (nor counted in the LAN listing)
    net.act(nodes[0], nodes[0].core.set_guests, GUESTS_BY_WORD["watch"])
    net.run_until(lambda: all(nd.core.lobby.guests == GUESTS_BY_WORD["watch"]
                              for nd in (*rest, dan)), 5)
    assert all(nd.core.lobby_json()["open_seats"] == [] for nd in (*rest, dan))
    net.act(nodes[0], nodes[0].core.set_guests, GUESTS_BY_WORD["open"])
    net.run_until(lambda: seat in dan.core.lobby_json()["open_seats"], 5)
    net.act(dan, dan.core.take_seat, seat)
    net.run_until(lambda: not dan.core.watching, 60)
    players = [*rest, dan]
    net.run_until(lambda: all(nd.core.lobby.seats[seat].owner == dan.core.peer_id
                              for nd in players), 10)
    for nd in players:
        (taken,) = nd.kinds("seat_taken")
        assert taken.seats == [seat] and taken.name == "Dan" and taken.was == "p1"
        assert taken.mine is (nd is dan)
        assert not any(m.peer == leaver.core.peer_id for m in nd.core.lobby.members)
        # Dan's laptop plays with a bot: the table says so, as of one seated in the lobby
        assert nd.core.lobby.seats[seat].plays == "random"
    net.play_to_end(players)
    one_digest(players)
    mine = [ev for ev in dan.kinds("move") if ev.by == dan.core.peer_id.hex()]
    assert mine and all(ev.seat == seat for ev in mine)  # the newcomer played its seat
    assert verify_record(dan) == len(nodes[0].game.moves)


def test_a_watcher_hears_a_goodbye_for_good_before_the_seat_goes_to_a_bot():
    """Someone watching when a player leaves for good learns of the goodbye first, as the
    players do, and then of the bot in the seat and the draws without the leaver: their
    screen says "left for good" and has no "played by a bot until they are back" nor
    "sent no draw value in time" to say (it said all three, goodbye last)."""
    net = SimNet(seed=151)
    nodes = net.table(3)
    dan = watcher(net, nodes[0])
    net.run_until(lambda: dan.game is not None and len(dan.game.moves) > 6, 10)
    leaver = nodes[2]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=8)
    net.run_until(lambda: dan.core.lobby.seats[seat].bot and dan.kinds("draw_dropped"), 10)
    kinds = [e.kind for e in dan.events if e.kind in ("left", "handover", "draw_dropped")]
    assert kinds[0] == "left", kinds


def test_nobody_is_sent_the_goodbye_of_a_player_whose_seat_a_newcomer_took():
    """Once a newcomer has the seat, its old player is no member: a watcher (or a member
    back from a sleep) sent that player's goodbye refused it, and its screen said
    "refused from …: farewell of node …, which is not a member" to someone who did
    nothing. Neither the newcomer's own watchers nor anyone else gets it any more."""
    net = SimNet(seed=157, think=0.3)
    nodes = net.table(3)
    leaver = nodes[1]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=8)
    dan = watcher(net, nodes[2], autoplay="random")
    net.run_until(lambda: dan.game is not None
                  and seat in dan.core.lobby_json()["open_seats"], 10)
    net.act(dan, dan.core.take_seat, seat)
    net.run_until(lambda: not dan.core.watching, 60)
    eve = watcher(net, dan, "Eve", host="10.0.0.51")  # fed by the newcomer
    net.run_until(lambda: eve.game is not None and len(eve.game.moves) > 30, 60)
    assert not eve.kinds("refused"), [e.reason for e in eve.kinds("refused")]


def test_a_seat_a_player_still_plays_is_not_taken_and_a_name_at_the_table_is_refused():
    net = SimNet(seed=149)
    nodes = net.table(3)
    dan = watcher(net, nodes[0], "p2")  # the name of a player at the table
    net.run_until(lambda: dan.game is not None, 10)
    net.act(dan, dan.core.take_seat, 1)
    net.run_until(lambda: dan.kinds("guest_refused"), 10)
    assert "cannot be taken" in dan.kinds("guest_refused")[0].reason
    leave_when_a_draw_waits(net, nodes[1], after=len(nodes[0].game.moves) + 2)
    net.run_until(lambda: nodes[0].core.lobby.seats[1].bot, 10)
    net.act(dan, dan.core.take_seat, 1)
    net.run_until(lambda: len(dan.kinds("guest_refused")) == 2, 40)
    assert "already taken" in dan.kinds("guest_refused")[1].reason
    assert dan.core.watching


def seat_taken_after_goodbye(net: SimNet, leaving: int = 2, after: int = 8
                             ) -> tuple[list[SimNode], SimNode, int, SimNode]:
    """A table of three whose player `leaving` (the third) leaves for good while a draw
    waits, `after` moves in, and Dan, watching, takes that seat: (nodes, the leaver, its
    seat, Dan)."""
    nodes = net.table(3)
    leaver = nodes[leaving]
    seat = leaver.core.my_seats()[0]
    leave_when_a_draw_waits(net, leaver, after=after)
    dan = watcher(net, nodes[0], autoplay="random")
    net.run_until(lambda: dan.game is not None
                  and seat in dan.core.lobby_json()["open_seats"], 20)
    net.act(dan, dan.core.take_seat, seat)
    net.run_until(lambda: not dan.core.watching, 60)
    return nodes, leaver, seat, dan


def test_a_player_back_after_a_newcomer_took_the_seat_is_told_and_the_table_goes_on():
    net = SimNet(seed=151, think=0.2)  # (bots of 0.2 s: the game outlasts the take)
    nodes, leaver, seat, dan = seat_taken_after_goodbye(net)
    rest = nodes[:2]
    back = net.restart(leaver)  # the same player starts the game again from its record
    # (never taken back as a member meanwhile: the lobby waits for that word, or this
    # refusal, before it opens the game screen)
    net.run_until(lambda: back.core.stopped is not None or back.core.heard_as_member(), 30)
    assert back.core.stopped == "Dan took your seat after you left for good: you may watch " \
                                "the game"
    assert back.kinds("guest_refused")
    net.play_to_end([*rest, dan])
    one_digest([*rest, dan])
    assert all(nd.core.lobby.seats[seat].owner == dan.core.peer_id for nd in (*rest, dan))


def test_a_player_whose_seat_a_newcomer_took_can_watch_the_game_it_drew_for():
    """Back after a goodbye for good, its seat a newcomer's, the player watched the game
    instead: its node, still one of the draws' contributors, tried to add its own value
    to the early draws of the game it was fed, with no chain to draw from, and refused
    every LOG chunk with "internal error" (a LAN-party playtest: the screen froze)."""
    net = SimNet(seed=151, think=0.2)  # (bots of 0.2 s: the game outlasts the take)
    nodes, leaver, seat, dan = seat_taken_after_goodbye(net)
    rest = nodes[:2]
    net.kill(leaver)
    again = net.add(leaver.core.name, leaver.addr[0], leaver.addr[1],
                    identity=leaver.core.identity)  # (the same player, a new run)
    net.act(again, again.core.watch_game, nodes[0].core.game_id, nodes[0].core.peer_id,
            nodes[0].addr, None)
    net.play_to_end([*rest, dan])
    net.run_until(lambda: again.game is not None and again.game.is_over, 60)
    one_digest([*rest, dan, again])
    assert not [e for nd in (*rest, dan, again) for e in nd.kinds("refused")
                if "internal" in e.reason]


def test_a_watcher_is_told_at_once_how_far_the_table_is_and_when_it_has_caught_up():
    net = SimNet(seed=157)
    nodes = net.table(3)
    net.run_until(lambda: len(nodes[0].game.moves) > 30)
    dan = watcher(net, nodes[1])
    net.run_until(lambda: dan.kinds("watching"), 5)
    (w,) = dan.kinds("watching")
    assert w.moves >= 30  # "running, N moves in", from the feeder's first word
    net.run_until(dan.core.caught_up_with_table, 10)
    assert dan.core.table_moves() == len(dan.game.moves) >= w.moves


def test_a_watcher_hears_a_goodbye_for_good_after_the_same_players_back_soon():
    """Cat said 'back soon' and came back; Dan started watching later; then Cat left for
    good. Dan was told the old 'back soon' as news, and never the goodbye for good, so the
    seat he could have taken stayed closed to him (found in a playtest)."""
    net = SimNet(seed=149, think=0.2)  # (bots of 0.2 s: the game outlasts the goodbye)
    nodes = net.table(3)
    cat = nodes[2]
    seat = cat.core.my_seats()[0]
    net.run_until(lambda: len(cat.game.moves) > 6)
    net.act(cat, cat.core.say_farewell, False)
    rest = nodes[:2]
    net.run_until(lambda: all(nd.kinds("left") for nd in rest), 5)
    cat = net.restart(cat)  # back soon, and back
    net.run_until(lambda: all(nd.kinds("back", "restarted") for nd in rest)
                  and len(cat.game.moves) >= len(nodes[0].game.moves), 30)
    dan = watcher(net, nodes[0])
    net.run_until(lambda: dan.game is not None
                  and len(dan.game.moves) >= len(nodes[0].game.moves) > 12, 30)
    assert not dan.kinds("left")  # Cat is at the table: her old 'back soon' is no news
    leave_when_a_draw_waits(net, cat, after=len(cat.game.moves))
    net.run_until(lambda: dan.kinds("left"), 10)
    (left,) = dan.kinds("left")
    assert left.for_good
    net.run_until(lambda: seat in dan.core.lobby_json()["open_seats"], 10)


def test_a_newcomer_gets_the_seat_of_the_coordinator_who_left_for_good():
    """The player who left was the table's coordinator, which answers seat requests:
    its last datagrams, arriving after its goodbye, must not make it the coordinator
    again, nor may a request asked of the table be lost when the coordinator changes
    (CI: a newcomer's request went unanswered until the game ended). Bots take 0.3 s
    a decision, as `play --bot-delay 0.3`, so the game outlasts the coordinator's few
    seconds of seeming back."""
    net = SimNet(seed=139, think=0.3)
    nodes = net.table(3)
    leaver = nodes[0]
    assert leaver.core.coordinator() == leaver.core.peer_id
    seat = leaver.core.my_seats()[0]
    net.run_until(lambda: len(leaver.game.moves) > 10 and leaver.game.awaiting_reveal)
    net.act(leaver, leaver.core.say_farewell, True)
    net.act(leaver, leaver.core.chat, "bye")  # a datagram that comes after the goodbye
    net.kill(leaver)
    rest = nodes[1:]
    net.run_until(lambda: all(nd.core.lobby.seats[seat].bot for nd in rest), 10)
    dan = watcher(net, nodes[2], autoplay="random")
    net.run_until(lambda: dan.game is not None
                  and seat in dan.core.lobby_json()["open_seats"], 10)
    net.act(dan, dan.core.take_seat, seat)
    net.run_until(lambda: not dan.core.watching, 60)
    players = [*rest, dan]
    net.run_until(lambda: all(nd.core.lobby.seats[seat].owner == dan.core.peer_id
                              for nd in players), 10)
    net.play_to_end(players)
    one_digest(players)


def test_a_refused_seat_request_is_not_granted_later_by_the_next_coordinator():
    """Every member keeps a seat request in case the coordinator changes; one the
    coordinator refused must not come back: when, long after, the seat opens and the
    coordinator leaves, the next one seats nobody who did not ask again."""
    net = SimNet(seed=149, think=1.0)  # a game of minutes: time to leave in
    nodes = net.table(3)
    dan = watcher(net, nodes[2])
    net.run_until(lambda: dan.game is not None, 10)
    net.act(dan, dan.core.take_seat, 1)  # p1 still plays it: refused
    net.run_until(lambda: dan.kinds("guest_refused"), 10)
    asked = net.now
    net.run_until(lambda: net.now > asked + 40, 60)  # the newcomer's own wait is over
    leave_when_a_draw_waits(net, nodes[1], after=len(nodes[0].game.moves) + 2)
    net.run_until(lambda: nodes[2].core.lobby.seats[1].bot, 10)
    leave_when_a_draw_waits(net, nodes[0], after=len(nodes[2].game.moves) + 2)
    net.run_until(lambda: nodes[2].core.coordinator() == nodes[2].core.peer_id, 20)
    now = net.now
    net.run_until(lambda: nodes[2].game.is_over or net.now > now + 20, 30)
    assert dan.core.watching
    assert not nodes[2].kinds("seat_taken")


def test_a_watcher_is_told_who_the_table_waits_for_and_when_they_are_back():
    """A watcher hears its feeder only: a player's laptop asleep for a minute showed, on
    the watcher's screen, "Waiting for Ben (R): choosing beaches…" with nothing away,
    while the players' panels said "Away: Ben" (a playtest). The feeder now tells it
    (AWAY_LIST, protocol/watching.md)."""
    net = SimNet(seed=131)
    nodes = net.table(3)
    net.run_until(lambda: len(nodes[0].game.moves) > 10)
    dan = watcher(net, nodes[0])
    net.run_until(lambda: dan.game is not None and dan.core.caught_up_with_table(), 10)
    assert not dan.kinds("away") and dan.core.table_away() == set()
    ben = nodes[1]
    net.suspend(ben)  # the lid closed
    net.run_until(lambda: dan.kinds("away"), 30)
    (away,) = dan.kinds("away")
    assert away.peer == ben.core.peer_id.hex() and not away.left
    assert dan.core.table_away() == {ben.core.peer_id}
    net.run_for(20)
    net.wake(ben)
    net.run_until(lambda: dan.kinds("back"), 30)
    assert dan.kinds("back")[0].peer == ben.core.peer_id.hex()
    assert dan.core.table_away() == set() and not dan.kinds("refused")
    net.play_to_end([*nodes, dan])
    one_digest([*nodes, dan])


def test_a_newcomer_who_took_a_seat_is_no_longer_listed_as_watching():
    """The players' panels list who watches. A newcomer who took a seat stayed on the
    list to the end of the game at every laptop (a playtest: "Watching: Eve, Kai" while
    Kai held red and won), since the member that had fed it still counted it."""
    net = SimNet(seed=151, think=0.2)
    nodes, _leaver, seat, dan = seat_taken_after_goodbye(net)
    eve = watcher(net, nodes[1], "Eve", host="10.0.0.51")
    everyone = [*nodes[:2], dan, eve]
    net.run_until(lambda: all(nd.core.lobby is not None
                              and nd.core.lobby.seats[seat].owner == dan.core.peer_id
                              for nd in everyone), 20)
    taken_at = len(nodes[0].game.moves)
    net.run_until(lambda: len(nodes[0].game.moves) > taken_at + 10 or nodes[0].game.is_over,
                  60)
    net.run_until(lambda: all(eve.core.peer_id.hex() in [w["peer"] for w in nd.core.watchers()]
                              for nd in nodes[:2]), 20)
    for nd in everyone:
        listed = [w["name"] for w in nd.core.watchers()]
        assert "Dan" not in listed, (nd.core.name, listed)


def watcher_names(node: SimNode) -> list[str]:
    """Who watches the table, as the players' panels list them."""
    return [w["name"] for w in node.core.watchers()]


def eve_watching_ben(net: SimNet, humans: int, bots: int) -> tuple[list[SimNode], SimNode]:
    """A table of `humans` players and `bots` table bots, and Eve watching it through its
    last player, Ben, up to move 7 (the playtest's screen froze there); a seat she takes
    plays itself: (players, Eve)."""
    nodes = net.table(humans, bots=bots)
    eve = watcher(net, nodes[-1], "Eve", host="10.0.0.51", autoplay="random")
    net.run_until(lambda: eve.game is not None and len(eve.game.moves) >= 7, 30)
    return nodes, eve


@pytest.mark.parametrize(("humans", "bots"), [(1, 2), (2, 1)])
def test_a_watcher_whose_laptop_slept_past_its_feeders_patience_comes_back_by_itself(
        humans, bots):
    """Eve's lid closed for 50 s (kill -STOP) at move 7. Her feeder Ben dropped her ("went
    quiet") and forgot her link: its key, its sequence numbers. Woken, her node asked Ben
    again on the old link every 4 s for the rest of the game: the WATCH waited in Ben's
    reorder buffer behind messages Ben had had long before, and the rest Ben refused as a
    stranger's. Her screen stayed at move 7 while the table played to the end, her chat
    line reached nobody and `take` timed out three times (a playtest; Ben was the only
    player she could ask). Now she asks afresh, catches up, and is heard again."""
    net = SimNet(seed=163, think=2.0)
    nodes, eve = eve_watching_ben(net, humans, bots)
    ben = nodes[-1]
    net.suspend(eve)  # kill -STOP: nothing in or out
    net.run_for(50)
    assert "Eve" not in watcher_names(ben)  # dropped: she went quiet
    net.wake(eve)  # kill -CONT: her clock jumps by 50 s
    net.run_until(lambda: eve.core.caught_up_with_table()
                  and len(eve.game.moves) >= len(ben.game.moves), 20)
    assert eve.kinds("woke") and eve.kinds("answered")  # her screen says both
    net.run_until(lambda: all("Eve" in watcher_names(nd) for nd in nodes), 5)
    net.act(eve, eve.core.chat, "hei")
    net.run_until(lambda: all(any(c.text == "hei" for c in nd.kinds("chat")) for nd in nodes),
                  5)
    seat = eve.core.lobby_json()["open_seats"][0]
    net.act(eve, eve.core.take_seat, seat)
    net.run_until(lambda: not eve.core.watching, 40)
    players = [*nodes, eve]
    net.play_to_end(players)
    one_digest(players)
    assert all(nd.core.lobby.seats[seat].owner == eve.core.peer_id for nd in players)
    assert verify_record(eve) == len(ben.game.moves)


def test_a_watcher_asleep_while_its_feeder_restarted_follows_the_new_run_to_the_end():
    """Ben, the one player Eve can ask, started again while her laptop slept: his new run
    has new keys, another incarnation, and no idea of her. Woken, she asks him afresh
    and watches the game to its end."""
    net = SimNet(seed=167, think=2.0)
    (ben,), eve = eve_watching_ben(net, 1, 2)
    net.suspend(eve)
    net.run_for(20)
    ben = net.restart(ben)  # the same player, a new run from his record
    net.run_for(30)
    net.wake(eve)
    net.play_to_end([ben, eve])
    one_digest([ben, eve])
    assert verify_record(eve) == len(ben.game.moves)


def test_a_watcher_cut_off_past_its_feeders_patience_is_told_and_comes_back():
    """Eve's Wi-Fi loses everything for long enough that Ben drops her (no sleep: her
    clock runs on). Her screen says she is cut off once she has asked every player in
    vain, and that the table answers again once it does; she follows it to the end."""
    net = SimNet(seed=173, think=2.0)
    (ben,), eve = eve_watching_ben(net, 1, 2)
    net.blocked.add(eve.addr)
    net.run_until(lambda: "Eve" not in watcher_names(ben) and eve.kinds("watch_cut"), 30)
    (cut,) = eve.kinds("watch_cut")
    assert cut.cut and cut.moves == len(eve.game.moves) < len(ben.game.moves)
    net.blocked.discard(eve.addr)
    net.run_until(lambda: len(eve.kinds("watch_cut")) == 2, 15)
    assert not eve.kinds("watch_cut")[1].cut
    net.run_until(lambda: "Eve" in watcher_names(ben), 5)
    net.act(eve, eve.core.chat, "taas täällä")
    net.run_until(lambda: any(c.text == "taas täällä" for c in ben.kinds("chat")), 5)
    net.play_to_end([ben, eve])
    one_digest([ben, eve])


def test_a_watcher_that_wakes_to_a_table_gone_is_told_so():
    """While Eve's laptop slept the table played to its end and closed: nobody answers
    her. Her screen says she is cut off (the console says what to type) instead of
    waiting for ever at the move where she fell asleep."""
    net = SimNet(seed=179, think=0.5)
    (ben,), eve = eve_watching_ben(net, 1, 2)
    net.suspend(eve)
    net.play_to_end([ben])
    net.kill(ben)  # the table's last laptop closes
    net.wake(eve)
    net.run_until(lambda: eve.kinds("watch_cut"), 30)
    assert eve.kinds("woke") and eve.core.watching and not eve.game.is_over


def test_a_watcher_back_from_a_short_sleep_is_fed_afresh_by_the_feeder_that_kept_it(caplog):
    """Asleep 6 s, Eve is still Ben's watcher when she asks again as a new incarnation;
    her first WATCH is lost and a heartbeat of hers comes first. Ben starts her feed over
    as for a watcher that restarted — which set her goodbyes-sent to a set, and every
    tick of Ben's failed on it ("tick failed": no heartbeat, no draw, no handover) until
    the WATCH came again, at a table where a player had left."""
    net = SimNet(seed=181, think=2.0)
    nodes = net.table(3)
    ben = nodes[0]
    leave_when_a_draw_waits(net, nodes[2], after=6)
    eve = watcher(net, ben, "Eve", host="10.0.0.51")
    net.run_until(lambda: eve.game is not None and eve.kinds("left"), 30)
    net.suspend(eve)
    net.run_for(6)
    lost: list[str] = []

    def lose_first_watch(data: bytes, src, dest) -> bool:
        from tongiaki_lan.net.protocol.codec import Watch, peek_envelope

        if src == eve.addr and not lost and isinstance(peek_envelope(data).message, Watch):
            lost.append("Watch")
            return True
        return False
    net.lose = lose_first_watch
    with caplog.at_level("ERROR"):
        net.wake(eve)
        net.run_until(lambda: eve.core.caught_up_with_table()
                      and len(eve.game.moves) >= len(ben.game.moves), 20)
    assert lost and not [r for r in caplog.records if r.levelname == "ERROR"]
    players = nodes[:2]
    net.play_to_end([*players, eve])
    one_digest([*players, eve])


def test_a_watcher_sees_a_bots_last_move_for_a_player_before_the_player_is_back():
    """A watcher reads who played a move off the lobby it has when the move comes (the
    wire does not say). Ben's seat was played by a bot while his laptop was cut off; the
    bot's move for him and the lobby that gave him his seat back came to the feeder within
    one tick, and the watcher was fed the lobby first: its record told the bot's move as
    Ben's own (a test of four laptops on real sockets, now and then)."""
    net = SimNet(seed=11)
    ana, ben, cy = nodes = net.table(3)
    for nd in nodes:
        nd.core.handover_after = 1.0
    net.run_until(lambda: len(ana.game.moves) > 8)
    dan = watcher(net, ana)
    net.run_until(lambda: dan.game is not None and dan.core.caught_up_with_table(), 10)
    seat = ben.core.my_seats()[0]
    ben.core.autoplay = None
    net.blocked.add(ben.addr)
    net.run_until(lambda: ana.core.lobby.seats[seat].bot, 30)
    net.run_until(lambda: ana.game.pending is not None and ana.game.pending.seat == seat, 120)
    net.run_until(lambda: ana.game.pending is None or ana.game.pending.seat != seat, 60)
    played = len(ana.game.moves)  # the bot's decision for Ben is in: Ben is back at once
    net.blocked.discard(ben.addr)
    ben.core.autoplay = "random"
    net.run_until(lambda: not ana.core.lobby.seats[seat].bot, 30)
    net.run_until(lambda: dan.core.lobby is not None and not dan.core.lobby.seats[seat].bot
                  and len(dan.game.moves) >= played, 10)
    handed, seen = False, {}  # Ben's seat's moves: handed to a bot as the watcher saw them
    for e in dan.events:
        if e.kind == "lobby":
            handed = bool(e.lobby["seats"][seat]["bot"])
        elif e.kind == "move" and e.seat == seat:
            seen[e.index] = handed
    last = max(i for i in seen if i < played)
    assert seen[last], seen

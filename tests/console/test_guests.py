"""Guests at a LAN table, on the console (issue 21 items 4, 5; issue 18 item 4): a watcher's
screen follows a real game with no move prompt, `follow NAME` looks from one player's
side, the players are told who watches and read a watcher's chat, a newcomer takes the
seat of a player who left for good and gets its decisions, and the lobby's `join` of a
running game says how far it is and offers `watch`.

Real nodes on 127.0.0.1 (`make_table`, no autoplay: the players' moves are typed through
their console sessions, so the game is where the test says); the watcher's screen is the
real Application on a pipe input."""

from __future__ import annotations

import asyncio

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.plain.lines import said_status
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.console.terminal.screen import GameScreen, run_game_screen
from tongiaki_lan.console.web.payload import state_payload
from tongiaki_lan.net.aio.discovery import Advert, GameInfo
from tongiaki_lan.net.aio.node import GameRef, Node
from tongiaki_lan.net.aio.sidecar import read_sidecar
from tongiaki_lan.net.lab.loopback import close_all, make_table

from .conftest import FakeLan, start_screen, wait_until


def advertised(node: Node, open_seats: int = 0, watchable: bool = True) -> GameInfo:
    lb = node.lobby
    ad = Advert("x", node.peer_id, node.game_id, lb.name, node.name, "playing",
                len(lb.seats), lb.total, False, ("127.0.0.1",), node.address[1], 0.0,
                open_seats, watchable)
    return GameInfo(node.game_id, lb.name, "playing", len(lb.seats), lb.total, False, 0.0,
                    (ad,), open_seats, watchable)


async def table(tmp_path):
    """Two players, p0 (the host) and p1, their console sessions (no screens), started."""
    nodes = await make_table(2, tmp_path / "players", autoplay=None)
    await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
    for nd in nodes:
        nd.core.handover_bot = "random"  # (a seat given up plays on at once, quickly)
    sessions = [LanSession(nd) for nd in nodes]
    for s in sessions:
        await s.start()
    return nodes, sessions


async def play(sessions, until, seed: int = 3, watchers=()) -> None:
    """Type a random legal move for whichever player's decision it is, until `until()`
    (or the end); `watchers`: sessions that have each move before the next is typed (a
    table at people's pace, not a bot's)."""
    bots = [make_bot("random", seed=seed + i) for i in range(len(sessions))]

    def over() -> bool:
        return until() or sessions[0].game.is_over

    while not over():
        await wait_until(lambda: over() or any(s.my_decision() for s in sessions),
                         what="a player's decision")
        if over():
            return
        i = next(k for k, s in enumerate(sessions) if s.my_decision())
        s = sessions[i]
        n = len(s.game.moves)
        await s.submit(bots[i].choose(s.game.copy()))
        await wait_until(lambda s=s, n=n: len(s.game.moves) > n, what="the move applied")
        for w in watchers:
            await wait_until(lambda w=w, n=n: len(w.game.moves) > n, what="the watcher told")


async def watcher(tmp_path, via: Node, name: str = "Dan") -> Node:
    w = Node(name, host="127.0.0.1", record_dir=tmp_path / name)
    await w.start()
    await w.watch_game(GameRef(via.game_id, via.peer_id, "127.0.0.1", via.address[1], False))
    await w.wait_for(lambda: w.game is not None, 30)
    return w


def texts(session) -> list[str]:
    return [t for _s, t in session.lines]


async def test_a_watchers_screen_follows_a_game_to_its_end_with_no_move_prompt(tmp_path):
    nodes, players = await table(tmp_path)
    dan = None
    try:
        await play(players, lambda: len(players[0].game.moves) >= 12)
        dan = await watcher(tmp_path, nodes[1])
        session = LanSession(dan)
        statuses: list[str] = []
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            session.subscribe(lambda: statuses.append(screen.status_text()))
            await wait_until(lambda: len(session.game.moves) == len(nodes[0].game.moves),
                             what="the watcher caught up")
            assert screen.prompt_text() == "watching> "
            assert screen.status_text().startswith("Watching loopback — ")
            # the players are told, and their panel says who looks on
            await wait_until(lambda: "Dan is watching." in texts(players[0]),
                             what="the players told")
            with create_app_session(output=DummyOutput()):
                assert "Watching: Dan" in GameScreen(players[0], colour=False).panel_text(32)
            # a move typed by a watcher goes nowhere, and says why
            n = len(nodes[0].game.moves)
            inp.send_text("expand Tonga\r")
            await wait_until(lambda: "you are watching" in screen.message[1],
                             what="the refusal")
            assert len(nodes[0].game.moves) == n
            # no seat is open here: the refusal does not send them looking for one
            assert "take COLOUR" not in screen.message[1], screen.message
            # ... and stays to be read while the players play on (it went with the next
            # player's move, 0.3 s after it showed)
            await play(players, lambda: len(nodes[0].game.moves) >= n + 2, watchers=[session])
            assert "you are watching" in screen.message[1], screen.message
            # Tab offers the watcher's commands only (no moves, no hint)
            inp.send_text("\t")
            await wait_until(lambda: screen.buffer.complete_state is not None,
                             what="the menu")
            offered = {c.text for c in screen.buffer.complete_state.completions}
            assert offered == {"say", "follow", "help", "quit"}, offered
            screen.buffer.reset()  # (the menu closed, the line empty)
            # follow p1: p1's row marked, the status says so, and when the decision comes
            # back to p1 the log sums up what p0 did since
            inp.send_text("follow p1\r")
            await wait_until(lambda: "following p1" in screen.status_text(),
                             what="following p1")
            rows = [r for r in screen.panel_lines(32)
                    if any(t.startswith("p1") for _s, t in r)]
            assert ("class:panel.me", "p1".ljust(len(rows[0][1][1]))) in rows[0], rows
            await play(players, lambda: False, watchers=[session])  # to the end
            await wait_until(lambda: session.game.is_over, what="the end on the watcher")
            assert session.game.digest() == nodes[0].game.digest()
            summary = [t for t in texts(session) if t.startswith("Since ")]
            assert summary and set(summary) == {"Since p1's last move:"}, summary
            seen = [t for t in statuses if t]
            assert not any("Your decision" in t for t in seen)
            assert all(t.startswith(("Watching loopback", "Game over")) for t in seen), \
                {t for t in seen if not t.startswith(("Watching", "Game over"))}
            await wait_until(lambda: screen.status_text().startswith("Game over"),
                             what="game over shown")
            inp.send_text("quit\r")  # nothing to lose: no question
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all([*nodes, *([dan] if dan else [])])


async def test_watchers_chat_is_marked_and_the_host_can_quiet_it(tmp_path):
    nodes, players = await table(tmp_path)
    dan = None
    try:
        await play(players, lambda: len(players[0].game.moves) >= 6)
        dan = await watcher(tmp_path, nodes[0])
        session = LanSession(dan)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            await wait_until(lambda: "Dan is watching." in texts(players[1]))
            inp.send_text("say go blue!\r")
            for p in players:
                await wait_until(lambda p=p: "<Dan (watching)> go blue!" in texts(p),
                                 what="the watcher's line on a player's screen")
            # a player's line reaches the watcher; only the host says who may chat
            players[1].commands()["say"][1]("thanks")
            await wait_until(lambda: "<p1> thanks" in texts(session))
            assert players[1].commands()["guests"][1]("quiet") == \
                "guests: p0 hosts this table and says who may come"
            assert players[0].commands()["guests"][1]("quiet") is None
            await wait_until(lambda: nodes[0].lobby.guests == 1 and dan.lobby.guests == 1)
            # told at the table (it was said on the host's screen only: the watcher
            # learnt it from a refused line), not twice on the host's
            news = ("p0 changed the table's guests: quiet: anyone may watch, watchers do "
                    "not chat")
            for who in (session, players[1]):
                await wait_until(lambda who=who: news in texts(who), what="the guests told")
            assert news not in texts(players[0])
            # and `take` says why no seat can be had (not "one opens when a player leaves")
            assert session.take("") == (f"take: the table '{session.game_name}' lets nobody "
                                        "take a seat")
            inp.send_text("chat again\r")  # (the watcher knows the table's setting)
            await wait_until(lambda: screen.message[1] == "watchers do not chat at this table",
                             what="the refusal on the watcher's screen")
            assert "<Dan (watching)> again" not in texts(session)
            # a line that reached the table all the same is refused there, and said so
            dan.chat("again")
            await wait_until(lambda: "watchers do not chat at this table" in texts(session),
                             what="the table's refusal")
            assert "<Dan (watching)> again" not in texts(players[1])
            inp.send_text("quit\r")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all([*nodes, *([dan] if dan else [])])


async def p1_goes_home(nodes, players) -> str:
    """Ten moves in, p1 leaves for good (a bot plays its seat, which is open to a
    newcomer); returns its colour once p0 has the decision. The table plays on (the bot
    plays p1's seat on p0's laptop) until p0 decides: p0 thinks while a newcomer comes (a
    table of bots alone moves faster than any newcomer catches up: net/ is asked to hold
    a newcomer's decisions until it has caught up)."""
    await play(players, lambda: len(players[0].game.moves) >= 10)
    red = nodes[1].lobby.seats[nodes[1].my_seats()[0]].colour
    await nodes[1].leave(for_good=True)
    # (`records` lists the game "left for good" on p1's laptop, not "unfinished")
    assert read_sidecar(nodes[1].record_path)["left"] is True
    await wait_until(lambda: any("p1 left for good" in t for t in texts(players[0])))
    await play(players[:1], lambda: players[0].my_decision())
    return red


@pytest.mark.parametrize("how", ["join from the lobby", "take on the watcher's screen"])
async def test_a_newcomer_takes_the_seat_of_a_player_who_left_for_good(tmp_path, how):
    nodes, players = await table(tmp_path)
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan")
    driver = None
    try:
        red = await p1_goes_home(nodes, players)
        await dan.start()
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            if how == "join from the lobby":  # `join 1` offers the seat and takes it
                lobby = LobbyScreen("Dan", lan=False, colour_output=False)
                task = asyncio.ensure_future(lobby.run())
                await wait_until(lambda: lobby.app.is_running, what="the lobby")
                lobby.lan_error = None
                lobby.attach(dan, FakeLan(advertised(nodes[0], open_seats=1)))
                lobby.app.invalidate()
                await wait_until(lambda: "1 bot seat to take · watch" in "".join(
                    t for row in lobby.draw_top(80, 24) for _s, t in row), what="the list")
                # (the open seat is not counted as taken: "2/2 seats · 1 seat open" read
                # as a contradiction; and it is a bot's: "1 seat open" read as empty)
                assert "1/2 seats" in "".join(t for row in lobby.draw_top(80, 24)
                                              for _s, t in row)
                inp.send_text("join 1\r")
                result = await asyncio.wait_for(task, 30)
                assert result[0] == "game" and lobby.take_wanted == ""
                session = LanSession(dan, take=lobby.take_wanted)
                screen, task = await start_screen(session)
            else:  # watching: the screen says the seat is open, `take red` plays it
                await dan.watch_game(GameRef(nodes[0].game_id, nodes[0].peer_id, "127.0.0.1",
                                             nodes[0].address[1], False))
                await dan.wait_for(lambda: dan.game is not None, 30)
                session = LanSession(dan)
                screen, task = await start_screen(session)
                await wait_until(lambda: f"The {red} seat is open: take {red} plays it."
                                 in texts(session), what="the open seat told")
                # and said where it stays in sight, whatever the log says after it
                assert screen.status_text().startswith(
                    f"Watching loopback — open: {red}; take COLOUR plays one — ")
                # the board page types nothing: it shows the seat open and what the
                # console types stays the console's (a headless `watch --board` page
                # read "take COLOUR plays one" and "say TEXT chats, follow NAME …")
                page = state_payload(screen.model.state)
                assert page["status"].startswith(f"Watching loopback — open seats: {red} — ")
                assert "take" not in page["status"], page["status"]
                story = [t for _s, t in page["story"]]
                assert "You are watching loopback: no seat, no moves." in story
                assert not any("say TEXT" in t or "follow NAME" in t for t in story), story
                assert ("say TEXT chats, follow NAME shows a player's side, help lists the "
                        "rest.") in texts(session)  # (the console's own line)
                inp.send_text("follow p0\r")  # (the line said nothing of it: a playtest)
                await wait_until(lambda: screen.status_text().startswith(
                    f"Watching loopback, following p0 — open: {red}; take COLOUR plays "
                    "one — "), what="the status naming whom they follow")
                inp.send_text("\t")  # `take` is offered now
                await wait_until(lambda: screen.buffer.complete_state is not None)
                assert "take" in {c.text for c in screen.buffer.complete_state.completions}
                screen.buffer.reset()
                inp.send_text("expand Tonga\r")  # a move, not yet theirs: `take` says how
                await wait_until(lambda: "take COLOUR" in screen.message[1],
                                 what="the refusal naming take")
                inp.send_text(f"take {red}\r")
            await wait_until(lambda: f"You take p1's seat ({red}): its decisions are yours "
                             "from now on." in texts(session),
                             what=f"the seat taken: {texts(session)[-6:]}")
            await wait_until(lambda: any("Dan takes p1's seat" in t for t in texts(players[0])),
                             what="the host told")
            assert screen.prompt_text() == "> "
            driver = asyncio.ensure_future(play(players[:1], lambda: session.my_decision()))
            await wait_until(lambda: screen.status_text().startswith("Your decision"),
                             what="our decision")
            n = len(session.game.moves)
            move = screen.legal_texts()[0]
            inp.send_text(move + "\r")
            await wait_until(lambda: len(nodes[0].game.moves) > n,
                             what=f"our move at the host ({move}: {screen.message})")
            assert str(nodes[0].game.moves[n]).split()[0] == move.split()[0]
            assert "Dan" in players[0].names
            # new at that seat, not "back" at it
            assert not any("Dan is back" in t for t in texts(players[0]) + texts(session))
            inp.send_text("quit\r")  # a player now: quit asks first
            await wait_until(lambda: "the game is not over" in screen.message[1])
            inp.send_text("\r")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        if driver is not None:
            driver.cancel()
        await close_all([*nodes, dan])


async def test_join_of_a_running_game_with_no_seat_open_says_how_far_and_offers_watch(tmp_path):
    nodes, players = await table(tmp_path)
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan")
    try:
        await play(players, lambda: len(players[0].game.moves) >= 15)
        # the table still: a player's decision, the tiles that move drew dealt
        await wait_until(lambda: any(s.my_decision() for s in players), what="a still table")
        moves = len(nodes[0].game.moves)
        await dan.start()
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            lobby = LobbyScreen("Dan", lan=False, colour_output=False)
            task = asyncio.ensure_future(lobby.run())
            await wait_until(lambda: lobby.app.is_running, what="the lobby")
            lobby.lan_error = None
            lobby.attach(dan, FakeLan(advertised(nodes[0])))
            inp.send_text("join 1\r")
            await wait_until(lambda: lobby.message.startswith("join: loopback is running"),
                             what="the answer")
            assert lobby.message == (f"join: loopback is running, {moves} moves in; you may "
                                     "watch: watch 1")
            assert not task.done() and dan.lobby is None  # still in the lobby, at no table
            inp.send_text("watch 1\r")  # and watching opens the game screen
            result = await asyncio.wait_for(task, 30)
            assert result[0] == "game" and lobby.take_wanted is None
            session = LanSession(dan)
            assert session.watching
            await asyncio.wait_for(run_game_screen_quitting(session, inp), 30)
    finally:
        await close_all([*nodes, dan])


async def run_game_screen_quitting(session, inp) -> None:
    task = asyncio.ensure_future(run_game_screen(session, colour=False))
    await wait_until(lambda: any(t.startswith("You are watching loopback")
                                 for t in texts(session)), what="the watcher's screen")
    inp.send_text("quit\r")
    assert await task == 0


def test_a_gone_watchers_late_datagrams_stay_out_of_the_players_log(monkeypatch):
    """A watcher that quit is off the table's list before its last datagrams arrive: the
    players read "refused from 10.77.5.13:41905: link-MACed datagram from a sender
    without a link key" three times. Routine (the log file keeps it), as while it watched;
    a stranger's refused datagram is still said."""
    from types import SimpleNamespace

    from tongiaki_lan.engine import Game
    from tongiaki_lan.net.protocol import events as E
    from tongiaki_lan.net.protocol import lobby as L
    from tongiaki_lan.net.protocol.codec import Join

    ana, bea, dan = bytes([1]) * 8, bytes([2]) * 8, bytes([3]) * 8
    lb = L.new_lobby("Reef", 2, False, ana, "Ana", "", 1)
    node = SimpleNamespace(
        lobby=L.apply_request(lb, bea, ("10.0.0.9", 4000), Join("Bea", "")), peer_id=ana,
        game=Game(["blue", "red"]), game_id=b"g" * 8, name="Ana",
        core=SimpleNamespace(watching=False), watchers=[{"peer": dan.hex(), "name": "Dan"}],
        transport=SimpleNamespace(links={dan: SimpleNamespace(addr=("10.77.5.13", 41905))}),
        lobby_json=lambda: {"watchers": node.watchers, "open_seats": [], "seats": []},
        present=lambda: {ana, bea}, coordinator=lambda: ana, add_listener=lambda fn: None)
    from tongiaki_lan.console.feeds import lanstory as lan

    clock = [100.0]
    monkeypatch.setattr(lan, "_now", lambda: clock[0])
    session = LanSession(node)
    # a look from the lobby, then `watch`: one watch to the players, not three lines
    watching = node.watchers
    for listed, after in (([], 1.0), (watching, 2.0)):
        node.watchers = listed
        session._on_node_event(E.WatchersChanged([]))
        clock[0] += after
    assert not any("watching" in t for t in texts(session)), texts(session)
    node.watchers, node.transport.links = [], {}  # Dan quits: off the list, link gone
    session._on_node_event(E.WatchersChanged([]))
    assert "Dan stopped watching." not in texts(session)
    clock[0] += lan.WATCH_LOOK_S  # said once Dan stays away
    session._on_node_event(E.WatchersChanged([]))
    assert texts(session).count("Dan stopped watching.") == 1
    for peer in (None, dan.hex()):  # before the sender is known, and after
        session._on_node_event(E.Refused(peer, "", "10.77.5.13:41905", "link-MACed "
                                         "datagram from a sender without a link key"))
    assert not any("refused" in t for t in texts(session)), texts(session)
    session._on_node_event(E.Refused(None, "", "10.77.5.99:5000", "bad signature"))
    assert "refused from 10.77.5.99:5000: bad signature" in texts(session)


@pytest.mark.parametrize("told_by", ["a member", "a laptop it did not know"])
async def test_a_player_back_after_a_goodbye_whose_seat_was_taken_is_shown_the_way_out(
        told_by):
    """Cat left for good, Ben took her seat, Cat started again and `join`ed the game still
    marked hers: the table answers that Ben plays it now. Her screen stood at her record's
    last move with her prompt, as if she were still to play; now it says whose the seat is,
    offers her no decision, and `lobby` takes her to the list (where `watch N` follows the
    game)."""
    from types import SimpleNamespace

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.output import DummyOutput

    from tongiaki_lan.console.input import BACK_TO_LOBBY
    from tongiaki_lan.console.terminal.screen import GameScreen
    from tongiaki_lan.engine import Game
    from tongiaki_lan.net.protocol import events as E
    from tongiaki_lan.net.protocol import lobby as L

    cat, ana = bytes([1]) * 8, bytes([2]) * 8
    lb = L.new_lobby("Secret", 2, False, ana, "Ana", "", 1)
    lb = L.apply_request(lb, cat, ("10.0.0.9", 4000), L.Join("Cat", ""))
    node = SimpleNamespace(
        lobby=lb, peer_id=cat, game=Game(["blue", "red"]), game_id=b"g" * 8, name="Cat",
        core=SimpleNamespace(watching=False, caught_up_with_table=lambda: True,
                             table_moves=lambda: 0),
        watchers=[], transport=SimpleNamespace(links={}),
        lobby_json=lambda: {"watchers": [], "open_seats": [], "seats": []},
        present=lambda: {ana, cat}, coordinator=lambda: ana, add_listener=lambda fn: None)
    session = LanSession(node)
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        assert session.local_seats()  # her seat, as her record has it
        reason = L.SEAT_GIVEN.format(name="Ben")
        # (each member says it every 5 s; one that this laptop's old lobby does not list
        # — the newcomer — came as a plain refusal, and the screen still waited for Cat)
        for _ in range(3):
            session._on_node_event(E.GuestRefused(reason) if told_by == "a member"
                                   else E.RequestRefused(bytes([3] * 8).hex(), reason))
        assert texts(session).count(
            "Ben took your seat after you left for good: you may watch the game") == 1
        assert any("watch N follows this one" in t for t in texts(session))
        assert not session.local_seats() and not session.my_decision()
        assert "Someone else plays your seat now" in screen.status_text()
        exits = []
        screen.app.exit = lambda result=None: exits.append(result)
        await screen.command("lobby")
        assert exits == [BACK_TO_LOBBY]
        # nothing is lost by leaving: `quit` does not ask whether to go for good
        await screen.command("quit")
        assert exits == [BACK_TO_LOBBY, 0]


async def test_after_the_game_a_player_whose_program_ended_left_the_table_not_is_away(
        tmp_path):
    """After the game a laptop that goes silent has quit (a headless player ends with the
    game, a friend closes the window): the log said "p1 is away", a worry about a game
    that waits for nobody. It says "p1 left the table." once."""
    nodes, players = await table(tmp_path)
    try:
        await play(players, lambda: False)
        assert players[0].game.is_over
        await nodes[1].close()  # (no goodbye: its program simply ended)
        await wait_until(lambda: "p1 left the table." in texts(players[0]),
                         what="the line for the silent laptop")
        assert "p1 is away." not in texts(players[0])
        assert texts(players[0]).count("p1 left the table.") == 1
    finally:
        await close_all(nodes)


async def test_a_player_whose_seat_comes_back_is_told_in_the_second_person(tmp_path):
    """The table's line for a seat given back names its player ("p1 is back and plays
    their seat again"); on that player's own screen it read as if about someone else."""
    from tongiaki_lan.net.protocol import events as E

    nodes, players = await table(tmp_path)
    try:
        seat = nodes[1].core.my_seats()[0]
        for s in players:  # as each node reports the lobby that gives the seat back
            s._on_node_event(E.SeatReclaimed(seat, "p1"))
        assert texts(players[0])[-1] == "p1 is back and plays their seat again."
        assert texts(players[1])[-1] == ("Your seat is yours again: the bot that played it "
                                         "while you were away stops.")
        # "p1 is back." just before it: one line says both (a playtest saw the two)
        p1 = nodes[1].peer_id.hex()
        players[0]._on_node_event(E.Back(p1, "p1"))
        players[0]._on_node_event(E.SeatReclaimed(seat, "p1"))
        said = texts(players[0])
        assert said[-1] == "p1 is back and plays their seat again." and "p1 is back." not in said
        # their own laptop hears of its seat and its draws in the second person too
        p0 = nodes[0].peer_id.hex()
        players[1]._on_node_event(E.SeatHandedOver(seat, "p1", "normal", p0, "p0"))
        assert texts(players[1])[-1].startswith("While you were away your seat was played by "
                                                "a bot (normal, on p0")
        players[1]._on_node_event(E.ContributorDropped(1, p1, "p1", 4))
        assert texts(players[1])[-2].startswith("While this laptop was away the table drew "
                                                "tile 5 without it:")
        players[0]._on_node_event(E.ContributorDropped(1, p1, "p1", 4))
        assert texts(players[0])[-2].startswith("p1 did not answer in time for tile 5")
        # one laptop is left drawing the tiles: said once, on every screen, in its words
        assert texts(players[0])[-1].startswith("Only this laptop still draws the tiles")
        assert texts(players[1])[-1].startswith("Only p0's laptop still draws the tiles")
        players[0]._on_node_event(E.ContributorDropped(1, p1, "p1", 5))
        assert sum("still draws the tiles" in t for t in texts(players[0])) == 1
    finally:
        await close_all(nodes)


async def test_a_laptop_that_restarted_is_one_line_rejoined_not_also_back(tmp_path):
    """A playtest's table read "Ben is back." and "Ben rejoined." for one restart of Ben's
    laptop, and "Dee is back and plays their seat again." then "Dee rejoined." for a
    laptop that woke and took moves back (it starts its links afresh, as a restart does):
    whichever its node tells first, the log says it once."""
    from tongiaki_lan.net.protocol import events as E

    nodes, players = await table(tmp_path)
    try:
        p1 = nodes[1].peer_id.hex()
        screen = players[0]
        screen._on_node_event(E.Away(p1, "p1", False))
        screen._on_node_event(E.Back(p1, "p1"))  # heard first, known restarted next
        screen._on_node_event(E.Restarted(p1, "p1"))
        assert texts(screen)[-2:] == ["p1 is away.", "p1 is back."]
        seat = nodes[1].core.my_seats()[0]
        screen._on_node_event(E.Away(p1, "p1", False))  # a seat given back, then the
        screen._on_node_event(E.SeatReclaimed(seat, "p1"))  # links started afresh
        screen._on_node_event(E.Restarted(p1, "p1"))
        assert texts(screen)[-2:] == ["p1 is away.", "p1 is back and plays their seat again."]
        screen._on_node_event(E.Away(p1, "p1", False))
        screen._on_node_event(E.Restarted(p1, "p1"))  # known restarted, then heard
        screen._on_node_event(E.Back(p1, "p1"))
        assert texts(screen)[-2:] == ["p1 is away.", "p1 rejoined."]
        screen._on_node_event(E.Away(p1, "p1", False))  # away once more: back is news
        screen._on_node_event(E.Back(p1, "p1"))
        assert texts(screen)[-2:] == ["p1 is away.", "p1 is back."]
    finally:
        await close_all(nodes)


async def test_take_while_catching_up_says_it_waits_and_then_takes_the_seat(tmp_path):
    """`take red` typed before the watcher's laptop has the game as it is now is kept
    and asked for once it has (a seat taken while catching up would show decisions long
    played); the screen said nothing, and the command seemed lost."""
    nodes, players = await table(tmp_path)
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan")
    try:
        red = await p1_goes_home(nodes, players)
        await dan.start()
        await dan.watch_game(GameRef(nodes[0].game_id, nodes[0].peer_id, "127.0.0.1",
                                     nodes[0].address[1], False))
        await dan.wait_for(lambda: dan.game is not None, 30)
        session = LanSession(dan)
        await session.start()
        await wait_until(lambda: f"The {red} seat is open: take {red} plays it."
                         in texts(session), what="the open seat told")
        dan.core.caught_up_with_table = lambda: False  # (as while moves still come in)
        assert session.take(red) == (f"take: this laptop is catching up with the table; "
                                     f"it asks for the {red} seat as soon as it has")
        del dan.core.caught_up_with_table  # caught up: the next news takes the seat
        players[0].commands()["say"][1]("welcome")  # (news, while p0 thinks)
        await wait_until(lambda: f"You take p1's seat ({red}): its decisions are yours "
                         "from now on." in texts(session), what="the seat taken")
        await session.close()
    finally:
        await close_all([*nodes, dan])


async def test_a_laptop_that_hears_nobody_at_the_table_says_it_may_be_cut_off(tmp_path):
    """Every other player's laptop goes quiet at once: each "is away" line read as their
    trouble, while most likely this laptop is the one cut off (its Wi-Fi, a firewall that
    blocks what comes in). The screen says so, once."""
    nodes = await make_table(3, tmp_path / "players", autoplay=None)
    await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
    players = [LanSession(nd) for nd in nodes]
    for s in players:
        await s.start()
    line = ("This laptop hears nobody at the table: it may be cut off (its Wi-Fi, a "
            "firewall). The game goes on here once it hears the others again.")
    try:
        await nodes[1].close()  # (no goodbye: as far as p0 can tell, a silence)
        await wait_until(lambda: "p1 is away." in texts(players[0]), what="p1 away")
        assert line not in texts(players[0])  # (p2 still talks: not us)
        await nodes[2].close()
        await wait_until(lambda: line in texts(players[0]), what="the cut-off line")
        assert texts(players[0]).count(line) == 1
        assert texts(players[0]).index("p1 is away.") < texts(players[0]).index(line)
    finally:
        await close_all(nodes)


def test_a_game_whose_seat_a_newcomer_took_is_no_longer_offered_as_yours(tmp_path):
    """After the table answered "Ben took your seat after you left for good", the lobby
    (even after a restart) still marked the game "yours: join resumes your seat", and
    `join` led back to the same refusal. The resume data goes; the record stays."""
    from tongiaki_lan.net.aio.node import Node
    from tongiaki_lan.net.aio.sidecar import sidecar_path
    from tongiaki_lan.net.protocol import events as E
    from tongiaki_lan.net.protocol import lobby as L

    record = tmp_path / "Reef.tgrec"
    record.write_bytes(b"kept")
    sidecar_path(record).write_bytes(b"resume data")
    cat = Node("Cat", host="127.0.0.1", record_dir=tmp_path)
    cat.record_path = record
    told = []
    cat.add_listener(told.append)
    cat._handle(E.GuestRefused("bad passphrase"))  # (another refusal: nothing goes)
    assert sidecar_path(record).exists()
    cat._handle(E.GuestRefused(L.SEAT_GIVEN.format(name="Ben")))
    assert not sidecar_path(record).exists() and record.read_bytes() == b"kept"
    assert [e.kind for e in told] == ["guest_refused", "guest_refused"]
    # said by a laptop the old lobby does not list (the newcomer): the same
    sidecar_path(record).write_bytes(b"resume data")
    cat._handle(E.RequestRefused("03" * 8, L.SEAT_GIVEN.format(name="Ben")))
    assert not sidecar_path(record).exists()


async def test_a_watcher_is_shown_who_the_table_waits_for(tmp_path):
    """A player's laptop gone quiet at their own decision: the players' panels said
    "Away: Ben" while the watcher's status line read "Waiting for Ben (R): choosing
    beaches…" as if Ben were thinking (a playtest). Its feeder now tells it (AWAY_LIST)."""
    nodes, players = await table(tmp_path)
    dan = None
    try:
        await play(players, lambda: len(players[0].game.moves) >= 8
                   and players[1].my_decision())
        dan = await watcher(tmp_path, nodes[0])
        session = LanSession(dan)
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            await wait_until(lambda: len(session.game.moves) == len(nodes[0].game.moves),
                             what="the watcher caught up")
            assert "Waiting for p1 (" in screen.status_text(), screen.status_text()
            await nodes[1].close()  # p1's laptop: the lid closed
            await wait_until(lambda: "p1 is away." in texts(session), what="told away")
            await wait_until(lambda: "Waiting for p1 to come back" in screen.status_text(),
                             what=f"the status line: {screen.status_text()}")
            assert "replace" not in screen.status_text()  # (a watcher has no seat to give)
            with create_app_session(output=DummyOutput()):
                assert "Away: p1" in GameScreen(session, colour=False).panel_text(32)
            inp.send_text("quit\r")
            assert await asyncio.wait_for(task, 30) == 0
        await session.close()
    finally:
        await close_all([*nodes, *([dan] if dan else [])])


async def test_a_watcher_from_the_lobby_goes_back_to_it_mid_game(tmp_path):
    """Nobody waits for a watcher: `lobby` takes it back to the lobby at any time (it was
    told "lobby: after the game; to leave it now, quit", and `quit` left the program)."""
    from tongiaki_lan.console.input import BACK_TO_LOBBY

    nodes, players = await table(tmp_path)
    dan = None
    try:
        await play(players, lambda: len(players[0].game.moves) >= 6)
        dan = await watcher(tmp_path, nodes[0])
        session = LanSession(dan)
        session.from_lobby = True
        with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
            screen, task = await start_screen(session)
            inp.send_text("help\r")
            await wait_until(lambda: any(t.startswith("  lobby — stop watching")
                                         for t in texts(session)), what="the help")
            inp.send_text("lobby\r")
            assert await asyncio.wait_for(task, 30) == BACK_TO_LOBBY
            assert not nodes[0].game.is_over
        await session.close()
    finally:
        await close_all([*nodes, *([dan] if dan else [])])


async def test_a_woken_player_is_told_when_a_bot_played_their_seat_meanwhile(tmp_path):
    """The table may give a sleeping player's seat to a bot and back before the laptop
    wakes: its screen then told the bot's moves as the player's own ("Finn expands on
    Tonga"), with no word that Finn had not played them (a playtest). Once the table
    has answered, the screen says how many of the seat's moves a bot made."""
    from tongiaki_lan.net.protocol import events as E

    nodes, players = await table(tmp_path)
    try:
        await play(players, lambda: len(players[0].game.moves) >= 4)
        finn = players[1]
        finn._on_node_event(E.Woke(86.0))
        bots = [make_bot("random", seed=9), make_bot("random", seed=10)]
        mine = 0
        start = len(finn.game.moves)
        while mine < 2 and not finn.game.is_over:  # (the seat's moves, not typed here)
            await wait_until(lambda: any(s.my_decision() for s in players), what="a decision")
            i = next(k for k, s in enumerate(players) if s.my_decision())
            n = len(finn.game.moves)
            move = bots[i].choose(players[i].game.copy())
            if i == 1:
                nodes[1].send_move(move)
                mine += 1
            else:
                await players[0].submit(move)
            await wait_until(lambda n=n: len(finn.game.moves) > n, what="the move applied")
        assert mine == 2 and len(finn.game.moves) > start
        finn._on_node_event(E.Answered(86.0))
        said = texts(finn)
        assert said[-1] == ("While you were away a bot played 2 moves of your seat; the seat "
                            "is yours again."), said[-3:]
        # told already by the table's own line: not said twice
        finn._on_node_event(E.Woke(40.0))
        seat = nodes[1].core.my_seats()[0]
        finn._on_node_event(E.SeatHandedOver(seat, "p1", "normal", nodes[0].peer_id.hex(),
                                             "p0"))
        finn._on_node_event(E.Answered(40.0))
        assert sum(t.startswith("While you were away") for t in texts(finn)) == 2
    finally:
        await close_all(nodes)


async def test_a_watcher_cut_off_from_the_table_is_told_so_and_the_way_out():
    """A playtest's watcher, woken from a sleep, sat at move 7 while the table played to
    its end: her status line went on with the decision of move 7 and its open seats, and
    nothing said that no move came any more. Now the screen says it asks the table, then
    (nobody answering) that the laptop is cut off and that `lobby` leaves, and that it
    follows the game again once the table answers."""
    from types import SimpleNamespace

    from tongiaki_lan.console.input import BACK_TO_LOBBY
    from tongiaki_lan.engine import Game
    from tongiaki_lan.net.protocol import events as E
    from tongiaki_lan.net.protocol import lobby as L

    ben, cat, eve = bytes([1]) * 8, bytes([2]) * 8, bytes([3]) * 8
    lb = L.new_lobby("Lagon", 2, False, ben, "Ben", "", 1)
    lb = L.apply_request(lb, cat, ("10.0.0.9", 4000), L.Join("Cat", ""))
    state = {"asking": None, "caught_up": True}
    node = SimpleNamespace(
        lobby=lb, peer_id=eve, game=Game(["blue", "red"]), game_id=b"g" * 8, name="Eve",
        core=SimpleNamespace(watching=True, caught_up_with_table=lambda: state["caught_up"],
                             table_moves=lambda: 0, rewatching=lambda: state["asking"]),
        watchers=[], transport=SimpleNamespace(links={}),
        lobby_json=lambda: {"watchers": [], "open_seats": [], "seats": []},
        present=lambda: {ben, cat}, coordinator=lambda: ben, add_listener=lambda fn: None)
    session = LanSession(node)
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        exits = []
        screen.app.exit = lambda result=None: exits.append(result)
        state.update(asking=50.0, caught_up=False)  # (its node asks its feeder afresh)
        session._on_node_event(E.Woke(50.0))
        assert "Asking the table what happened" in screen.status_text()
        session._on_node_event(E.WatchCut(True, 7))  # every player asked in vain
        assert ("Nobody at the table answers this laptop: it is cut off (its Wi-Fi, or a long "
                "sleep), or the game ended meanwhile. It keeps asking; the game here goes up "
                "to move 7.") in texts(session)
        assert texts(session)[-1] == ("Type lobby to go back to the list of games, where "
                                      "watch N follows this one.")
        assert screen.status_text() == ("Nobody at the table answers  (lobby: the list of "
                                        "games · quit leaves)")
        # the console's page types nothing: it says the laptop keeps asking, and leaves
        # `lobby` to the console
        page = state_payload(screen.model.state)
        assert page["status"] == "Nobody at the table answers this laptop: it keeps asking."
        assert not any("lobby" in t for _s, t in page["story"]), page["story"]
        await screen.command("lobby")
        assert exits == [BACK_TO_LOBBY]
        state.update(asking=None, caught_up=True)  # the table answers after all
        session._on_node_event(E.WatchCut(False, 7))
        assert texts(session)[-1] == "The table answered: this laptop follows the game again."
        assert screen.status_text().startswith("Watching Lagon")
    # `watch --plain` and a headless `watch --board` page have no lobby to go back to:
    # neither says `lobby` (the line mode said "Type lobby to go back to the list of
    # games" and "(lobby: the list of games · quit leaves)", where `lobby` did nothing)
    plain = LanSession(node)
    plain.from_lobby = False  # (as cli/watch.py and nodeboard.py make it)
    plain._on_node_event(E.WatchCut(True, 7))
    assert texts(plain)[-1].startswith("Nobody at the table answers this laptop"), texts(plain)
    state = TableModel(plain).state
    assert said_status(state) == "Nobody at the table answers  (quit leaves)"
    assert state_payload(state)["status"] == ("Nobody at the table answers this laptop: it "
                                              "keeps asking.")

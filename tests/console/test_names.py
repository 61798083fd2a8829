"""Players are shown by name: no internal peer ids in chat and log lines (unless two
players share a name), and names whole in the side panel where they fit."""

from __future__ import annotations

from types import SimpleNamespace

from prompt_toolkit.application import create_app_session
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.lanfacts import peer_label
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import Game
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import Join

A, B, C = (bytes([i]) * 8 for i in range(1, 4))
ADDR = ("10.0.0.9", 4000)


def _node(*joins: tuple[bytes, str]):
    lb = L.new_lobby("Reef", 4, False, A, "Ana", "", 1)
    for peer, name in joins:
        lb = L.apply_request(lb, peer, ADDR, Join(name, ""))
    return SimpleNamespace(lobby=lb, peer_id=A)


def test_chat_and_presence_lines_name_the_player_not_the_peer_id():
    node = _node((B, "Bob"))
    with create_app_session(output=DummyOutput()):
        lobby = LobbyScreen("Ana", lan=False, colour_output=False)
        lobby.node = node
        lobby.node.present = lambda: {A, B}
        # as the net layer reports them: its names carry the peer id for its own logs
        lobby._on_node_event(E.ChatLine(B.hex(), f"Bob ({B.hex()[:8]})", "hello"))
        lobby._on_node_event(E.Away(B.hex(), f"Bob ({B.hex()[:8]})", False))
    assert [t for _s, t in lobby.lines[-2:]] == ["<Bob> hello", "Bob is away."]


def test_the_host_of_a_full_table_is_told_how_to_free_a_bots_seat_in_their_words():
    from tongiaki_lan.i18n import use

    node = _node((B, "Bob"))
    try:
        for lang, line in (("en", "Dee wanted to join, but every seat is taken: unbot red "
                                  "frees a bot's seat."),
                           ("de", "Dee wollte mitspielen, aber alle Plätze sind besetzt: "
                                  "unbot rot macht den Platz eines Bots frei.")):
            use(lang)
            with create_app_session(output=DummyOutput()):
                lobby = LobbyScreen("Ana", lan=False, colour_output=False)
                lobby.node = node
                lobby._on_node_event(E.TurnedAway("Dee", ["red"]))
            assert lobby.lines[-1] == ("info", line)
    finally:
        use("en")


def test_two_players_of_one_name_are_told_apart_by_their_id():
    # a table refuses a second Bob at the join (tests/net/test_names.py); a lobby written
    # by an older or modified peer may still hold two, and the label tells them apart
    import dataclasses

    node = _node((B, "Bob"), (C, "Bob 2"))
    seats = tuple(dataclasses.replace(s, name="Bob") if s.name == "Bob 2" else s
                  for s in node.lobby.seats)
    node.lobby = dataclasses.replace(node.lobby, seats=seats)
    names = {peer_label(node, {"peer": p.hex(), "name": "?"}) for p in (B, C)}
    assert names == {f"Bob ({B.hex()[:8]})", f"Bob ({C.hex()[:8]})"}
    # someone no longer at the table: the id the net layer added is dropped all the same
    gone = bytes([9]) * 8
    assert peer_label(node, {"peer": gone.hex(), "name": f"Cy ({gone.hex()[:8]})"}) == "Cy"


def test_the_panel_shows_a_bot_seat_by_its_name_and_lists_who_is_away():
    game = Game(["blue", "red", "green"])
    seats = [Seat("Ana", "blue", local=True), Seat("Maui (search)", "red", kind="search"),
             Seat("Fay", "green", kind="remote", away=True)]
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(GameSession(game, seats), colour=False)
        panel = screen.panel_text(32).splitlines()
    rows = panel[2:5]
    assert rows[1].split()[:2] == ["Maui", "R"]  # not `Maui (se R`
    assert "Maui — bot (search)" in panel  # and who plays it, under the rows
    assert rows[2].split()[:2] == ["Fay", "G"]
    assert "Away: Fay" in panel
    assert all(len(line) <= 32 for line in panel)
    # once the game is over nobody is waited for: nobody is "away"
    over = Game.from_position(_finished().position())
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(GameSession(over, seats), colour=False)
        assert "Away:" not in screen.panel_text(32)


def _finished() -> Game:
    from tongiaki_lan.bots import make_bot
    from tongiaki_lan.engine import Dealer

    game = Game(["blue", "red", "green"])
    dealer = Dealer(bytes(32))
    bot = make_bot("random", seed=1)
    while not game.is_over:
        dealer.apply(game, bot.choose(game))
    return game


def test_the_log_says_why_a_tile_waits_who_left_the_draws_and_what_a_rewind_took_back():
    """Fair draws speak to the player: what the next tile waits for, a node left out of
    the draws, moves taken back after a cut — by name, and in the player's language."""
    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.i18n import use

    node = _node((B, "Bob"))
    node.game = Game(["blue", "red"])
    node.present = lambda: {A}
    node.add_listener = lambda fn: None
    tagged = f"Bob ({B.hex()[:8]})"
    try:
        for lang, words in (("en", ("waits for Bob, whose laptop", "about 57 s",
                                    "Bob did not answer in time for tile 5",
                                    "went on without it: this laptop now follows the game")),
                            ("it", ("attende Bob, il cui portatile", "circa 57 s",
                                    "Bob non ha risposto in tempo per la tessera 5",
                                    "senza di esso: questo portatile segue la partita"))):
            use(lang)
            with create_app_session(output=DummyOutput()):
                session = LanSession(node)
                session._on_node_event(E.DrawWaiting(4, [tagged], [B.hex()], 57))
                session._on_node_event(E.ContributorDropped(1, B.hex(), tagged, 4))
                session._on_node_event(E.Rewound(20, 3, 4))
            text = " ".join(t for _s, t in session.lines[-3:])
            assert all(w in text for w in words), text
            assert B.hex()[:8] not in text
            # the moves taken back were mostly the table's: none is called the player's
            assert "your" not in text and "tue" not in text
    finally:
        use("en")


def test_a_members_set_aside_datagrams_stay_out_of_the_game_log_but_refused_moves_show():
    """After a cut, renewed link keys make the transport set a member's datagrams aside
    for a moment: routine, kept in the log file, not a screenful of alarms. A refused move
    is the game's business and shows — and a handover names the driving laptop plainly."""
    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.game = Game(["blue", "red"])
    node.present = lambda: {A, B}
    node.add_listener = lambda fn: None
    tagged = f"Bob ({B.hex()[:8]})"
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        before = len(session.lines)
        for _ in range(12):
            session._on_node_event(E.Refused(B.hex(), tagged, "10.0.0.2:4000",
                                             "link-MACed datagram from a sender without a "
                                             "link key"))
        # the same, refused before the sender is known: from where a member speaks
        member_at = next(f"{m.host}:{m.port}" for m in node.lobby.members if m.peer == B)
        for _ in range(12):
            session._on_node_event(E.Refused(None, "?", member_at,
                                             "link-MACed datagram from a sender without a "
                                             "link key"))
        assert len(session.lines) == before
        session._on_node_event(E.Refused(None, "?", "10.9.9.9:6666", "bad magic"))
        assert "10.9.9.9:6666" in session.lines[-1][1]  # a stranger's still shows
        before = len(session.lines)
        session._on_node_event(E.Refused(B.hex(), tagged, "10.0.0.2:4000",
                                         "conflicts with the move already played", "move 3"))
        session._on_node_event(E.SeatHandedOver(1, "Bob", "greedy", A.hex(),
                                                f"Ana ({A.hex()[:8]})"))
    shown = [t for _s, t in session.lines[before:]]
    assert len(shown) == 2 and "conflicts with the move already played" in shown[0]
    assert shown[0].startswith("refused from Bob: ")  # (a member by name, not by id)
    assert "on Ana's laptop" in shown[1] and A.hex()[:8] not in shown[1]


def test_replace_says_what_was_asked_before_what_the_table_answered():
    """On the coordinator the table's answer (the seat handed over) arrives while `replace`
    is still being asked: the log still reads request first, answer second."""
    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.game = Game(["blue", "red"])
    node.present = lambda: {A}
    node.add_listener = lambda fn: None
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        node.replace = lambda who: session._on_node_event(E.SeatHandedOver(
            1, "Bob", "greedy", A.hex(), f"Ana ({A.hex()[:8]})"))
        _help, replace = session.commands()["replace"]
        assert replace("Bob") is None
    asked, answered = (t for _s, t in session.lines[-2:])
    assert asked.startswith("Asked the table to give Bob's seat to a bot")
    assert "Bob's seat is played by a bot" in answered


async def test_back_at_the_table_the_summary_lists_what_a_bot_played_for_our_seat():
    """Moves of our own seat that were not typed here (a bot played it while we were
    away) are listed when the decision comes back to us, marked as a bot's."""
    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.game = Game(["blue", "red"])
    node.present = lambda: {A, B}
    node.add_listener = lambda fn: None
    node.send_move = node.game.apply  # (as the node does once the move is valid)

    def others_move():  # a move that reaches us from the table
        node.game.apply(node.game.legal_moves()[0])
        session.changed()

    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        session.changed()  # our first decision: nothing to sum up yet
        await session.submit(node.game.legal_moves()[0])  # typed here
        others_move()  # Bob
        assert session.lines[-1][1] == f"  Bob: {node.game.moves[-1]}"
        others_move()  # our seat, played by a bot while we were away
        others_move()  # Bob
    listed = [t for _s, t in session.lines[-3:]]
    assert listed[0] == "Since your last move:"
    assert listed[1] == f"  Ana (a bot's moves): {node.game.moves[-2]}"
    assert listed[2] == f"  Bob: {node.game.moves[-1]}"


def test_the_status_line_says_which_bot_is_thinking():
    """While a bot decides, the status line names it as a bot and says it is thinking
    (and turns), instead of only "Waiting for Maui"; a person is still waited for."""
    game = Game(["blue", "red"])
    seats = [Seat("Ana", "blue", kind="remote"), Seat("Maui", "red", kind="search")]
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(GameSession(game, seats), colour=False)
        assert screen.status_text().startswith("Waiting for Ana (B)")
        game.apply(game.legal_moves()[0])  # Ana's setup ship: Maui's decision now
        screen.session.changed()
        status = screen.status_text()
    assert "Maui — bot (search) (R) is thinking: placing a ship on Tonga…" in status
    assert status[0] in "|/-\\"


def test_a_seat_handed_to_a_bot_reads_as_the_bots_in_panel_and_turn_header():
    """`Cat — bot (search)` while a bot plays Cat's seat (the lobby's seat says so, as the
    net reports a hand-over); `Cat` again once Cat plays it."""
    import dataclasses

    from tongiaki_lan.console.feeds.lanfacts import seats_of

    node = _node((B, "Cat"))
    node.present = lambda: {A}
    handed = dataclasses.replace(node.lobby.seats[1], bot="search")
    node.lobby = dataclasses.replace(node.lobby, seats=(node.lobby.seats[0], handed))
    seats = seats_of(node)
    session = GameSession(Game(["blue", "red"]), seats)
    assert session.labels == ["Ana", "Cat — bot (search)"]
    with create_app_session(output=DummyOutput()):
        panel = GameScreen(session, colour=False).panel_text(32)
    assert "Cat — bot (search)" in panel and "Away: Cat" in panel
    back = dataclasses.replace(handed, bot="")
    node.lobby = dataclasses.replace(node.lobby, seats=(node.lobby.seats[0], back))
    assert GameSession(Game(["blue", "red"]), seats_of(node)).labels == ["Ana", "Cat"]


def test_a_laptop_that_plays_its_seat_with_a_bot_is_shown_as_a_bot():
    """Kai's laptop ran `play --headless --bot normal`: every screen showed Kai as a
    person, on the panel and in the results ("Winner: Kai."), and the lobby's seat list
    said "human" (a LAN-party playtest). The laptop says so in its JOIN."""
    from tongiaki_lan.console.feeds.lanfacts import seats_of

    lb = L.new_lobby("Reef", 4, False, A, "Ana", "", 1)
    lb = L.apply_request(lb, B, ADDR, Join("Kai", "", "normal"))
    assert [(s.name, s.plays) for s in lb.seats] == [("Ana", ""), ("Kai", "normal")]
    node = SimpleNamespace(lobby=lb, peer_id=A, present=lambda: {A, B})
    session = GameSession(Game(["blue", "red"]), seats_of(node))
    assert session.labels == ["Ana", "Kai — bot (normal)"]
    with create_app_session(output=DummyOutput()):
        panel = GameScreen(session, colour=False).panel_text(32)
    assert "Kai — bot (normal)" in panel
    # on Kai's laptop itself (were it to show a screen) the seat is its own, not a bot's
    mine = SimpleNamespace(lobby=lb, peer_id=B, present=lambda: {A, B})
    assert GameSession(Game(["blue", "red"]), seats_of(mine)).labels == ["Ana", "Kai"]
    # a person's JOIN says nothing of a bot
    plain = L.apply_request(lb, C, ADDR, Join("Dee", ""))
    assert plain.seats[-1].plays == ""
    three = SimpleNamespace(lobby=plain, peer_id=A, present=lambda: {A, B, C})
    assert GameSession(Game(["blue", "red", "green"]), seats_of(three)).labels[2] == "Dee"


async def test_the_lobbys_chat_goes_on_into_the_game_log():
    """A line said at the table just before the start is the game log's first news."""
    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.present = lambda: {A, B}
    node.game = Game(["blue", "red"])
    node.record_path = "reef.tgrec"
    node.add_listener = lambda fn: None
    with create_app_session(output=DummyOutput()):
        lobby = LobbyScreen("Ana", lan=False, colour_output=False)
        lobby.node = node
        lobby._on_node_event(E.ChatLine(B.hex(), f"Bob ({B.hex()[:8]})", "ready when you are"))
        lobby.lines.append(("info", "Everyone is ready: agreeing on the seed…"))
    session = LanSession(node, carried=lobby.carried_lines())
    await session.start()
    texts = [t for _s, t in session.lines]
    assert texts[:2] == ["From the lobby:", "<Bob> ready when you are"]


def test_the_summary_names_a_lan_bot_seat_as_the_story_does():
    """A LAN bot seat is named `Maui (search)` in the lobby; the summary read "Maui
    (search): expand Tonga, …" where the story and the panel say "Maui"."""
    game = Game(["blue", "red"])
    seats = [Seat("Ana", "blue", local=True), Seat("Maui (search)", "red", kind="search")]
    with create_app_session(output=DummyOutput()):
        session = GameSession(game, seats)
        session.changed()  # our first decision: nothing to sum up yet
        game.apply(game.legal_moves()[0])  # ours
        game.apply(game.legal_moves()[0])  # Maui's
        session.changed()
    assert session.lines[-2:] == [("summary", "Since your last move:"),
                                  ("summary", f"  Maui: {game.moves[-1]}")]


def test_the_status_line_says_the_game_waits_for_an_away_player_to_come_back():
    """The panel said "Away: Ben" while the status line said "Waiting for Ben (R):
    choosing an action…", as if Ben were thinking (a LAN-party playtest)."""
    from tongiaki_lan.engine import Dealer

    game = Game(["blue", "red"])
    dealer = Dealer(bytes(32))
    while game.pending.seat != 1:
        dealer.apply(game, game.legal_moves()[0])
    seats = [Seat("Ana", "blue", local=True), Seat("Ben", "red", kind="remote")]
    with create_app_session(output=DummyOutput()):
        screen = GameScreen(GameSession(game, seats), colour=False)
        assert screen.status_text().startswith("Waiting for Ben (R): ")
        seats[1].away = True
        assert screen.status_text() == ("Waiting for Ben to come back — replace Ben gives the "
                                        "seat to a bot")


def test_replace_says_when_the_tiles_still_wait_for_the_last_laptop_that_draws():
    """`replace Bob` gave Bob's seat to a bot, and the table still stood still: his laptop
    was the only one left drawing the tiles (a LAN-party playtest)."""
    import dataclasses

    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.lobby = dataclasses.replace(node.lobby, dropped=((0, 3),))  # (Ana's draws: gone)
    node.game = Game(["blue", "red"])
    node.core = SimpleNamespace(contributors=[A, B])
    node.present = lambda: {A}  # Bob's laptop sleeps
    node.add_listener = lambda fn: None
    node.replace = lambda who: None
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        assert session.commands()["replace"][1]("Bob") is None
    assert [t for _s, t in session.lines[-2:]] == [
        "Asked the table to give Bob's seat to a bot.",
        "The tiles still wait for Bob's laptop: it is the only one left that draws them."]
    node.present = lambda: {A, B}  # awake: nothing waits for it
    session.lines.clear()
    session.commands()["replace"][1]("bob")  # (named as the table knows the player)
    assert [t for _s, t in session.lines] == ["Asked the table to give Bob's seat to a bot."]


def test_a_members_move_refused_while_this_laptop_catches_up_stays_in_the_log_file():
    """Back from a sleep, behind the table: a bot's move for our seat, refused as the
    lobby had just given the seat back, read "refused from 03d9f2b8fe3e07d2: it is Ben's
    (red) decision, not Ana (03d9f2b8)'s" on Ben's Italian screen (a playtest); the move
    comes again with the table's log."""
    from tongiaki_lan.console.feeds.lan import LanSession

    node = _node((B, "Bob"))
    node.game = Game(["blue", "red"])
    node.present = lambda: {A, B}
    node.add_listener = lambda fn: None
    behind = [True]
    node.core = SimpleNamespace(watching=False, caught_up_with_table=lambda: not behind[0])
    why = "it is Ana's (blue) decision, not Bob's"
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        before = len(session.lines)
        session._on_node_event(E.Refused(B.hex(), f"Bob ({B.hex()[:8]})", "10.0.0.2:4000",
                                         why, "move 9"))
        assert len(session.lines) == before
        behind[0] = False  # caught up: a refusal now is news
        session._on_node_event(E.Refused(B.hex(), f"Bob ({B.hex()[:8]})", "10.0.0.2:4000",
                                         why, "move 9"))
        assert session.lines[-1][1].startswith("refused from Bob: ")

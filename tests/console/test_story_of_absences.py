"""What the story says of moves made while someone was away from the table (a LAN-party
playtest with a laptop's lid closed mid-game).

A laptop cut off while the table went on takes back what it played and drew alone
(net/protocol/drawsync.py, `_take_back_to`). Its story must then match the board: the
playtest read "Discovered at 2,-1: Tokelau (3)." on the laptop that came back, while the
table had drawn a sea tile there, and the table's discovery was never told. And the
moves a bot made for an away player were summed up as that player's."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.story import tile_label
from tongiaki_lan.engine import Dealer, Game, Reveal
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import Join

A, B = bytes([1]) * 8, bytes([2]) * 8


def _node(game: Game):
    lb = L.new_lobby("Reef", 2, False, A, "Ana", "", 1)
    lb = L.apply_request(lb, B, ("10.0.0.9", 4000), Join("Bob", ""))
    return SimpleNamespace(lobby=lb, peer_id=A, game=game, present=lambda: {A, B},
                           add_listener=lambda fn: None)


def _forked() -> tuple[Game, Game, int, int]:
    """One game played on to a few moves past its 3rd reveal, and the same game up to
    that reveal, where another tile came (the table's), played on until it shows."""
    game = Game(["blue", "red"])
    dealer = Dealer(bytes(32))
    bot = make_bot("random", seed=3)
    reveals = 0
    while reveals < 3 or not isinstance(game.moves[-1], Reveal):
        dealer.apply(game, bot.choose(game))
        reveals = sum(isinstance(m, Reveal) for m in game.moves)
    at = len(game.moves) - 1
    ours = game.moves[at].tile
    for _ in range(6):  # the laptop alone goes on a little
        dealer.apply(game, bot.choose(game))
    table = Game(["blue", "red"])
    for m in game.moves[:at]:
        table.apply(m)
    theirs = next(t for t in table.unrevealed_tiles() if t != ours
                  and tile_label(t) != tile_label(ours))
    table.apply(Reveal(theirs))
    seen = len(table.events)
    while not any(theirs in e.data[:1] for e in table.events[seen - 1:]):  # (a colony
        dealer.apply(table, bot.choose(table))  # tile shows once it is placed)
    return game, table, ours, theirs


@pytest.mark.parametrize("dropped_first", [False, True])
def test_a_laptop_taken_back_to_the_table_strikes_what_never_happened_and_tells_the_rest(
        dropped_first):
    """(`dropped_first`: the lobby that leaves this laptop out of the draws is told first,
    as it is after a lid closed past the table's wait; the game has changed by then, and
    the line that explains the ✗ marks went missing, a playtest found)"""
    alone, table, ours, theirs = _forked()
    node = _node(alone)
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        session._on_node_event(E.MoveApplied(len(alone.moves) - 1, 0, "blue", "Ana", "", None))
        ours_text, theirs_text = tile_label(ours), tile_label(theirs)
        told = [t for _s, t in session.lines if ours_text in t]
        assert told, session.lines
        # the table's game comes in: the node took its own moves back and follows it
        node.game = table
        if dropped_first:
            session._on_node_event(E.ContributorDropped(0, A.hex(), "Ana", 2))
        session._on_node_event(E.Rewound(len(table.moves) - 1, 7, 2))
        lines = session.lines
    mark = next(i for i, (_s, t) in enumerate(lines) if "marked ✗" in t)
    struck = [(s, t) for s, t in lines[:mark] if ours_text in t]
    assert struck and all(s == "void" and t.startswith("✗ ") for s, t in struck), struck
    assert not any(t.startswith("✗ ") for _s, t in lines[mark:])
    # the table's discovery is told, after the line that says why
    assert any(theirs_text in t for _s, t in lines[mark:]), lines[mark:]
    assert not any(theirs_text in t for _s, t in lines[:mark])


def _bob_away_twice(handed, sent_by_bot) -> LanSession:
    """Ana's laptop to her second decision (the first summary behind her), then Bob's
    first four decisions, on to Ana's next; at Bob's k-th decision (from 1) the lobby
    shows his seat handed to a bot if `handed(k)`, and his moves say `sent_by_bot(k)` of
    who sent them (None: nothing, as a move from a log)."""
    game = Game(["blue", "red"])
    node = _node(game)
    dealer = Dealer(bytes(32))
    bot = make_bot("random", seed=5)
    lobby = node.lobby
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)

        def play(by_bot: bool | None = None) -> None:
            seat, index = game.pending.seat, len(game.moves)
            if seat == 0:
                session.facts.typed.add(index)  # (Ana's own, typed at this keyboard)
            dealer.apply(game, bot.choose(game))
            if seat is not None:
                session._on_node_event(E.MoveApplied(index, seat, "", "", "", None, by_bot))

        ours = 0
        while ours < 2:
            if session.my_decision():
                ours += 1
                session.changed()  # (the summary's snapshot is taken at our decision)
                if ours == 2:
                    break
            play()
        theirs = 0
        while theirs < 4 or game.pending.seat != 0:
            bobs = game.pending.seat == 1
            if bobs:
                theirs += 1
                seat = dataclasses.replace(lobby.seats[1],
                                           bot="normal" if handed(theirs) else "")
                node.lobby = dataclasses.replace(lobby, seats=(lobby.seats[0], seat))
            play(sent_by_bot(theirs) if bobs else None)
        session.changed()
    return session


def test_the_summary_of_the_last_moves_says_which_a_bot_made_for_an_away_player():
    """"Since your last move: Ben: expand Hiva Oa, …" named Ben for moves the bot in his
    seat made while his laptop was away (the playtest). A bot makes Bob's first two
    decisions, then Bob is back; the moves say nothing of their sender, the lobby tells."""
    session = _bob_away_twice(lambda k: k <= 2, lambda k: None)
    summary = [t for style, t in session.lines if style == "summary"]
    assert summary[-2].startswith("  Bob (a bot's moves): "), summary
    assert summary[-1].startswith("  Bob: "), summary


def test_the_summary_goes_by_who_sent_each_move_not_by_the_lobby_of_the_moment():
    """A bot's last moves for Bob can reach a laptop after the lobby gave Bob his seat back
    (the record had this flaw: a playtest's replay called the bot's turn Bob's), and Bob's
    first move back can come before the lobby that says so. Each move says whether a bot
    sent it (`by_bot`); the summary goes by that, and by the lobby only for moves from a
    log. Here the lobby says the opposite of the truth all along."""
    session = _bob_away_twice(lambda k: k > 2, lambda k: k <= 2)
    summary = [t for style, t in session.lines if style == "summary"]
    assert summary[-2].startswith("  Bob (a bot's moves): "), summary
    assert summary[-1].startswith("  Bob: "), summary
    # the turn's header too (Bob's own laptop, catching up, headed the bot's turn "Bob")
    headers = [t for style, t in session.lines if style == "turn" and "Bob" in t]
    assert any("Bob — bot (normal) (R)" in t for t in headers), headers


def test_a_laptop_nobody_hears_says_so_and_that_its_moves_will_be_taken_back():
    """A laptop that hears the table but is heard by nobody (a firewall blocking what goes
    out) saw everyone present and played on: its player must know why nothing they play
    counts, and when it does again."""
    from tongiaki_lan.i18n import use

    game = Game(["blue", "red"])
    node = _node(game)
    try:
        for lang, gone, back in (("en", "The others do not hear this laptop",
                                  "The others hear this laptop again."),
                                 ("it", "Gli altri non sentono questo portatile",
                                  "Gli altri sentono di nuovo questo portatile.")):
            use(lang)
            with create_app_session(output=DummyOutput()):
                session = LanSession(node)
                session._on_node_event(E.Unheard(True))
                said = session.lines[-1]
                session._on_node_event(E.Unheard(False))
            assert said[0] == "bad" and said[1].startswith(gone)
            assert session.lines[-1] == ("info", back)
    finally:
        use("en")


def test_a_laptop_left_out_of_the_draws_is_told_when_it_draws_again():
    """After a lid closed past the table's wait: every screen said the others draw the
    tiles without it; once its fresh chain is taken, every screen says it draws again, and
    the line that one laptop is left drawing may be told anew later."""
    from tongiaki_lan.i18n import use

    game = Game(["blue", "red"])
    node = _node(game)
    node.core = SimpleNamespace(contributors=[A, B])
    node.lobby = dataclasses.replace(node.lobby, dropped=((1, 2),))
    try:
        for lang, again, mine in (
                ("en", "Bob's laptop takes part in the draws again from tile 6.",
                 "This laptop takes part in the draws from tile 9."),
                ("it", "Il portatile di Bob partecipa di nuovo alle estrazioni dalla tessera 6.",
                 "Questo portatile partecipa alle estrazioni dalla tessera 9.")):
            use(lang)
            with create_app_session(output=DummyOutput()):
                session = LanSession(node)
                session._on_node_event(E.ContributorDropped(1, B.hex(), "Bob", 2))
                alone = session.lines[-1]
                session._on_node_event(E.ContributorTaken(2, B.hex(), "Bob", 5, True))
                told = session.lines[-1]
                redo = session.story.last_drawer_said
                session._on_node_event(E.ContributorTaken(3, A.hex(), "Ana", 8, False))
            assert alone[0] == "info"  # ("Only this laptop still draws the tiles: …")
            assert told == ("good", again) and not redo
            assert session.lines[-1] == ("good", mine)
    finally:
        use("en")


def test_a_laptop_left_out_near_the_end_is_not_promised_it_draws_again():
    """Dropped at tile 30 of 31, a playtest's laptop read that it would take part again
    "a few tiles on": too few tiles were left for a fresh chain to be taken."""
    def few_left(g: Game) -> bool:
        left = g.unrevealed_tiles()
        islands = sum(1 for t in left if t < 16)
        return min(islands, len(left) - islands) <= 3

    said = {}
    for when in ("early", "late"):
        game = Game(["blue", "red"])
        dealer, bot = Dealer(bytes(32)), make_bot("random", seed=5)
        while when == "late" and not few_left(game):
            dealer.apply(game, bot.choose(game))
        assert not game.is_over
        node = _node(game)
        node.core = SimpleNamespace(contributors=[A, B])
        with create_app_session(output=DummyOutput()):
            session = LanSession(node)
            session._on_node_event(E.ContributorDropped(0, A.hex(), "Ana", game.draws()))
        said[when] = next(t for _s, t in session.lines if t.startswith("While this laptop"))
    assert "until it takes part again, a few tiles on" in said["early"]
    assert "from then on the others draw the tiles" in said["late"]


def test_a_lan_panel_counts_the_tiles_drawn_that_the_lines_name_by_number():
    """"…takes part in the draws again from tile 13": a playtest's player found no tile
    numbers anywhere on the screen. The LAN panel says how many were drawn."""
    from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
    from tongiaki_lan.console.terminal.screen import GameScreen

    game = Game(["blue", "red"])
    dealer, bot = Dealer(bytes(32)), make_bot("random", seed=5)
    while game.draws() < 5:
        dealer.apply(game, bot.choose(game))
    with create_app_session(output=DummyOutput()):
        lan = GameScreen(LanSession(_node(game)), colour=False).panel_text(32)
        solo = GameScreen(SoloSession(seed_from_text("drawn"), solo_seats(2, "Ana", "random"),
                                      pace=0), colour=False).panel_text(32)
    assert "Drawn: 5 tiles" in lan.splitlines()
    assert "Drawn:" not in solo


async def test_a_laptop_resumed_while_left_out_of_the_draws_is_told_so():
    """A playtest's laptop crashed while the table drew without it: started again, its
    story read only that it "takes part in the draws again", never that tiles were drawn
    without it (the node does not tell a drop its resume data holds already)."""
    game = Game(["blue", "red"])
    dealer, bot = Dealer(bytes(32)), make_bot("random", seed=5)
    while game.draws() < 4:
        dealer.apply(game, bot.choose(game))
    said = {}
    for dropped in ((), ((0, 2),), ((0, 2), (2, 3))):  # (index 2: our fresh chain, dropped)
        node = _node(game)
        node.record_path = "reef.tgrec"
        node.core = SimpleNamespace(contributors=[A, B, A])
        node.lobby = dataclasses.replace(node.lobby, dropped=dropped)
        with create_app_session(output=DummyOutput()):
            session = LanSession(node)
            await session.start()
        said[dropped] = [t for _s, t in session.lines if "without it" in t]
    assert said[()] == [] and said[((0, 2),)] == []  # (it draws with its fresh chain)
    assert said[((0, 2), (2, 3))] == [
        "While this laptop was away the table drew tile 4 without it: the others draw the "
        "tiles until it takes part again, a few tiles on (your moves count as before)."]

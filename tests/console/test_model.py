"""The table model: one frozen state per change, handed to every view subscribed, with
what every view draws (seats, the decision and its legal moves, the status line, the LAN
table's facts) and nothing that refers back to the live game."""

from __future__ import annotations

import dataclasses
import time
from types import SimpleNamespace

import pytest

from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import TableInput
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.state import Countdown, TableState
from tongiaki_lan.console.status import status_line
from tongiaki_lan.engine import Game, Sail
from tongiaki_lan.i18n.islands import shown_move
from tongiaki_lan.records import read_record

from .conftest import wait_until
from .test_replay_lobby import _record
from .test_table import _game_at


def _solo(seed: str = "model-0") -> SoloSession:
    return SoloSession(seed_from_text(seed), solo_seats(3, "Ana", "random"), record_path=None,
                       pace=0)


async def test_every_change_hands_each_subscriber_a_new_frozen_state():
    session = _solo()
    model = TableModel(session)
    seen: list[TableState] = []
    model.subscribe(seen.append)
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        first = model.state
        assert seen and seen[-1] is first and first.move_index == len(session.game.moves)
        with pytest.raises(dataclasses.FrozenInstanceError):
            first.move_index = 99  # type: ignore[misc]
        count = len(seen)
        await TableInput(model).submit(first.decision.moves[0].text)
        await wait_until(lambda: session.my_decision() or session.game.is_over,
                         what="our next decision")
        assert len(seen) > count
        assert [s.version for s in seen] == sorted({s.version for s in seen})  # (growing)
        assert model.state.move_index > first.move_index
        model.unsubscribe(seen.append)
        count = len(seen)
        session.say("a line of the story")
        assert len(seen) == count and model.state.story[-1] == ("info", "a line of the story")
    finally:
        await session.close()


async def test_a_state_draws_a_copy_of_the_game_never_the_live_one():
    session = _solo("model-1")
    model = TableModel(session)
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        before = model.state
        assert before.board is not session.game
        moves = len(before.board.moves)
        await TableInput(model).submit(before.decision.moves[0].text)
        assert len(session.game.moves) > moves
        assert len(before.board.moves) == moves  # (the old state still shows its position)
    finally:
        await session.close()


def test_the_decision_holds_this_keyboards_legal_moves_with_where_they_go():
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "departure")
    seat = game.pending.seat
    names = ["Ana", "Ben", "Cy"]
    mine = GameSession(game, [Seat(n, c, local=i == seat)
                              for i, (n, c) in enumerate(zip(names, game.colours, strict=True))])
    d = TableModel(mine).state.decision
    assert d.mine and d.seat == seat and d.kind == "departure"
    assert [o.text for o in d.moves] == [shown_move(str(m)) for m in game.legal_moves()]
    sail = next(o for o, m in zip(d.moves, game.legal_moves(), strict=True)
                if isinstance(m, Sail))
    assert sail.preview.startswith("→"), sail  # (where it sails, as Tab says)
    theirs = GameSession(game, [Seat(n, c) for n, c in zip(names, game.colours, strict=True)])
    d = TableModel(theirs).state.decision
    assert not d.mine and d.moves == () and d.waiting_for.startswith(names[seat])


def test_the_status_line_is_a_function_of_the_state_alone():
    game = Game(["blue", "red"])
    session = GameSession(game, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    state = TableModel(session).state
    # the state's own: in words for any view (the board page has no command line); a
    # view with a command line says what to type as well
    assert status_line(state, line=False)[1] == state.status == ("Your decision: put a ship "
                                                                 "on Tonga")
    assert status_line(state)[1] == "Your decision: put a ship on Tonga — place Tonga BEACH"
    lost = dataclasses.replace(state, seat_lost=True, from_lobby=True, game_name="Reef")
    assert status_line(lost) == ("status.over", "Someone else plays your seat now  (lobby: "
                                                "the list, to watch · quit leaves)")
    # the way to follow the game as each view can: the page types nothing (beside a
    # console it sends the player there; a headless node's page names the command)
    assert status_line(lost, line=False)[1] == ("Someone else plays your seat now: in the "
                                                "console, lobby, then watch N, follows the "
                                                "game.")
    headless = dataclasses.replace(lost, from_lobby=False, this_laptop_expelled=True)
    assert status_line(headless, line=False)[1] == (
        "This laptop was expelled from the table. To follow the game, run: tongiaki-lan "
        "watch --game Reef")
    now = time.monotonic()
    waiting = dataclasses.replace(state, countdowns=(
        Countdown("draw", "", now + 4.2, who="Ben", endless=False),))
    assert status_line(waiting, now=now)[1] == ("Next tile waits for Ben: the others draw it "
                                                "without them in 5 s")
    assert status_line(waiting, now=now + 10)[1].endswith("without them any moment")
    watched = dataclasses.replace(state, kind="watch", game_name="Reef", open_seats=("red",),
                                  followed="Ana")
    assert status_line(watched)[1].startswith("Watching Reef, following Ana — open: red; "
                                              "take COLOUR plays one — ")
    # the page, which types nothing, shows the seat open and no command
    assert status_line(watched, line=False)[1].startswith("Watching Reef, following Ana — "
                                                          "open seats: red — ")
    assert "take" not in status_line(watched, line=False)[1]


def test_a_lan_tables_facts_are_fields_of_the_state():
    """What the screen asked a LAN session by duck typing: the table's name, who watches,
    who left, that its tiles are numbered, who is away."""
    from tongiaki_lan.console.feeds.lan import LanSession
    from tongiaki_lan.net.protocol import lobby as L

    ana, ben = bytes([1]) * 8, bytes([2]) * 8
    lb = L.new_lobby("Reef", 2, False, ana, "Ana", "", 1)
    lb = L.apply_request(lb, ben, ("10.0.0.9", 4000), L.Join("Ben", ""))
    node = SimpleNamespace(
        lobby=lb, peer_id=ana, game=Game(["blue", "red"]), game_id=b"g" * 8, name="Ana",
        core=SimpleNamespace(watching=False, caught_up_with_table=lambda: True),
        transport=SimpleNamespace(links={}),
        lobby_json=lambda: {"watchers": [{"peer": "cc" * 8, "name": "Dan"}],
                            "open_seats": [], "seats": []},
        present=lambda: {ana}, coordinator=lambda: ana, add_listener=lambda fn: None,
        record_path="reef.tgrec")
    state = TableModel(LanSession(node)).state
    assert state.kind == "lan" and state.game_name == "Reef" and state.numbers_tiles
    assert state.watchers == ("Dan",) and state.away == ("Ben",)
    assert [(s.name, s.driver, s.away) for s in state.seats] == [("Ana", "you", False),
                                                                 ("Ben", "player", True)]
    assert "lobby" in state.commands and "replace" in state.commands


async def test_the_page_names_who_it_waits_for_once(tmp_path):
    # The page adds who the table waits for after the status unless the status names
    # them: it said "Hina — bot (random) (R) is thinking: choosing an action… — Hina
    # (R)" in a solo or LAN game, and a replay's "… — Maui (G)" though nobody is waited
    # for there.
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == "action"
                    and g.pending.seat == 1)
    seats = [Seat("Ana", game.colours[0], local=True), Seat("Hina", game.colours[1], "random"),
             Seat("Maui", game.colours[2], "random")][:len(game.colours)]
    state = TableModel(GameSession(game, seats)).state
    assert state.status.startswith("Hina — bot (random) (R) is thinking")
    assert state.decision.waiting_for == "Hina — bot (random) (R)"
    assert state.decision.waiting_for in state.status
    humans = [Seat("Ana", c, local=i == 0) if i != 1 else Seat("Ben", c)
              for i, c in enumerate(game.colours)]
    state = TableModel(GameSession(game, humans)).state
    assert state.decision.waiting_for == "Ben (R)" and "Ben (R)" in state.status
    path = tmp_path / "r.tgr"
    _record(path, moves=12)
    replay = ReplaySession(read_record(path), str(path))
    model = TableModel(replay)
    await replay.start()
    try:
        await TableInput(model).submit("forward")
        assert model.state.replay.index > 0 and model.state.decision.waiting_for == ""
    finally:
        await replay.close()

"""The board page wired into the table: what the model hands the page (each legal move's
click targets, the last move's marks, the decision in words with nothing to type), a
watcher's look back at the moves so far, and the consoles' `board` command — served from
the console's own loop, said in its log and its log file, opened in a browser or, with
none, said how to open it by hand. No browser is needed here: the page's own tests are
test_page.py and test_headless.py."""

from __future__ import annotations

import logging

from tests.web.live import console, solo, wait_until
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.input import TableInput
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.status import status_line
from tongiaki_lan.console.targets import move_targets, touched
from tongiaki_lan.engine import COLOURS, Dealer, Game, Reveal, Sail
from tongiaki_lan.i18n.islands import shown_move
from tongiaki_lan.selfplay import game_seed


def _played(until, seed: str = "wiring") -> Game:
    from tongiaki_lan.bots.random_bot import RandomBot

    game = Game(COLOURS[:3])
    dealer = Dealer(game_seed(seed, 0))
    bots = [RandomBot(s) for s in range(3)]
    while not game.is_over and not until(game):
        dealer.apply(game, bots[game.pending_seat].choose(game))
    return game


def _table(game: Game, seat: int | None, kind: str = "solo") -> TableModel:
    """`game` as the keyboard of `seat` sees it (None: nobody's; kind "watch": a
    watcher's table)."""
    feed = GameSession(game, [Seat(n, c, local=i == seat) for i, (n, c)
                              in enumerate(zip(["Ana", "Ben", "Cy"], game.colours,
                                               strict=False))])
    if kind == "watch":
        feed.kind, feed.watching, feed.can_play = "watch", True, False
    return TableModel(feed)


def test_each_legal_move_comes_with_the_board_elements_a_click_plays_it_by():
    game = _played(lambda g: g.pending.kind == "departure" and len(g.moves) > 20)
    d = _table(game, game.pending.seat).state.decision
    assert d.mine and d.moves
    for option, move in zip(d.moves, game.legal_moves(), strict=True):
        assert option.text == shown_move(str(move))
        assert option.targets == move_targets(game, move) and option.targets
    sail = next(o for o, m in zip(d.moves, game.legal_moves(), strict=True)
                if isinstance(m, Sail))
    assert sail.targets[0].startswith("pier:")  # (its pier, then the full beach)


def test_the_last_move_marks_what_it_touched_and_its_reveals_go_with_it():
    """A departure that discovered a tile: the pier it left by and the beach it emptied
    stay marked with the tile it revealed (marked as a reveal alone, the pier was lost
    one move after it was played)."""
    def revealed_after_a_sail(g: Game) -> bool:
        moves = g.moves
        return (len(moves) >= 2 and isinstance(moves[-1], Reveal)
                and isinstance(moves[-2], Sail) and g.pending is not None
                and not g.pending.is_chance)

    game = _played(revealed_after_a_sail)
    state = _table(game, None).state
    last = state.last_move
    sail = game.moves[-2]
    before = game.copy()
    before.pop()
    before.pop()
    assert last.index == len(game.moves) - 2 and last.text.endswith(
        shown_move(str(sail), spaced=True))
    assert last.targets == touched(before, sail).targets
    assert game.moves[-1].tile in last.tiles


def test_the_decision_is_said_in_words_any_view_can_show():
    game = Game(["blue", "red"])
    state = _table(game, 0).state
    assert state.decision.text == "Your decision: put a ship on Tonga" == state.status
    assert state.decision.line_text == "Your decision: put a ship on Tonga — place Tonga BEACH"


async def test_a_watcher_looks_back_at_the_moves_so_far_and_last_is_live_again():
    game = _played(lambda g: len(g.moves) > 30)
    model = _table(game, None, kind="watch")
    inp = TableInput(model)
    live = model.state
    total = len(game.moves)
    assert live.replay.live and live.replay.index == live.replay.total == total
    assert not live.replay.away_from_now and "Looking back" not in live.status
    await inp.submit("back")
    back = model.state
    assert back.move_index < total and back.replay.away_from_now
    assert back.board.moves == game.moves[:back.move_index]
    assert back.status.startswith(f"Looking back, move {back.move_index}/{total}")
    # (the page's Live button is its way back: "(last: back to the game)" is typed, and
    # the console's line says it)
    assert "last:" not in back.status
    assert "(last: back to the game)" in status_line(back)[1]
    await inp.submit("first")
    assert model.state.move_index == 0 and len(model.state.board.placed_tiles()) == 1
    # the game goes on meanwhile: the look stays where it is, the end moves on
    from tongiaki_lan.bots.random_bot import RandomBot

    game.apply(RandomBot(game.pending_seat).choose(game))
    model.feed.changed()
    assert model.state.move_index == 0 and model.state.replay.total == total + 1
    await inp.submit("goto 12")
    assert model.state.move_index == 12
    await inp.submit("last")
    assert model.state.move_index == total + 1 and not model.state.replay.away_from_now
    await inp.submit("expand Tonga")  # (still a watcher: no move)
    assert "you are watching" in model.state.notice[1]


async def test_a_player_does_not_look_back(monkeypatch):
    """A player's table steps nothing (its decision must stay in sight): `back` is no
    command there."""
    async with console(monkeypatch, solo("no-look"), page=False) as con:
        await wait_until(con.session.my_decision, what="our decision")
        con.type("back")
        await wait_until(lambda: "unknown command" in con.screen.message[1], what="refused")
        assert con.model.state.replay is None


async def test_board_typed_in_the_console_serves_the_page_and_says_where(monkeypatch,
                                                                       caplog):
    caplog.set_level(logging.INFO, logger="tongiaki_lan.console.boardlink")
    async with console(monkeypatch, solo("board-typed"), page=False) as con:
        await wait_until(con.session.my_decision, what="our decision")
        assert con.link.url is None  # (nothing served before it is asked for)
        con.type("board")
        await wait_until(lambda: con.opened, what="the browser opened")
        url = con.link.url
        assert con.opened == [url] and url.startswith("http://127.0.0.1:")
        # the address whole on the message line, as wide as the terminal (the log pane
        # cut it mid-key); the log pane says where it is
        assert con.screen.message == ("info", f"The board page: {url}")
        assert any("opens in your browser" in text and "above the > prompt" in text
                   for _s, text in con.model.state.story)
        assert not any(url in text for _s, text in con.model.state.story)
        # the page itself does not show its address (its key) and "it opens in your
        # browser" to a player looking at it
        from tongiaki_lan.console.web.payload import state_payload

        shown = state_payload(con.model.state)["story"]
        assert shown and not any(url.split("#")[1] in text for _s, text in shown)
        assert f"board page: {url}" in caplog.text  # (the log file's line)
        con.type("board")  # again: the same page, opened again
        await wait_until(lambda: len(con.opened) == 2, what="the browser again")
        assert con.opened == [url, url]


async def test_with_no_browser_the_log_says_how_to_open_the_page_by_hand(monkeypatch):
    async def none(_url: str) -> bool:
        return False

    async with console(monkeypatch, solo("no-browser"), page=False) as con:
        con.link._opener = none
        con.type("board")
        await wait_until(lambda: any("No browser could be opened" in t
                                     for _s, t in con.model.state.story), what="said")
        line = next(t for _s, t in con.model.state.story if "No browser" in t)
        assert "paste the board page's address, on the line above the > prompt" in line
        assert con.screen.message == ("info", f"The board page: {con.link.url}")


async def test_the_system_browser_is_opened_without_a_terminal_and_never_waits(tmp_path,
                                                                             monkeypatch):
    """The real opener: Python's webbrowser in a child with no terminal, here told by
    $BROWSER to run a script that notes the address (a text browser would have taken
    the console's terminal; none at all is said, not a traceback)."""
    from tongiaki_lan.console.boardlink import open_in_browser

    noted = tmp_path / "opened"
    script = tmp_path / "browser.sh"
    script.write_text(f"#!/bin/sh\necho \"$1\" > {noted}\n")
    script.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(script))
    assert await open_in_browser("http://127.0.0.1:9/#key")
    assert noted.read_text().strip() == "http://127.0.0.1:9/#key"
    monkeypatch.setenv("BROWSER", "lynx")  # a text browser: refused, said as none
    assert not await open_in_browser("http://127.0.0.1:9/#key")


async def test_the_page_cannot_leave_the_console(monkeypatch):
    async with console(monkeypatch, solo("no-quit")) as con:
        await wait_until(con.session.my_decision, what="our decision")
        before = con.screen.message  # (the page's address, said as it was served)
        style, text = await con.link._command("quit")
        assert style == "error" and "only the console" in text
        assert not con.task.done() and con.screen.message == before
        style, text = await con.link._command("place Tonga 9")  # (a refusal, as typed)
        assert style == "error" and text.startswith("place Tonga 9: ")
        assert con.screen.message == ("error", text)


async def test_map_at_the_end_switches_to_the_map_and_board_opens_the_page(monkeypatch):
    async with console(monkeypatch, solo("map"), page=False) as con:
        await wait_until(con.session.my_decision, what="our decision")
        con.type("map")
        await wait_until(lambda: "map switches" in con.screen.message[1], what="said")
        assert not con.screen.show_board and con.link.url is None


def test_a_line_only_the_terminal_means_is_left_off_the_page():
    """The terminal says in its log why its map turned compact: the board page, which
    draws no such map, leaves the line out."""
    from tongiaki_lan.console.web.payload import state_payload

    model = _table(Game(["blue", "red"]), 0)
    model.note("info", "The map is drawn compact, without piers")
    assert model.state.story[-1] == ("info.terminal", "The map is drawn compact, without piers")
    assert all("compact" not in text for _s, text in state_payload(model.state)["story"])


def test_a_new_colony_tile_in_hand_is_drawn_each_way_it_may_lie():
    from tongiaki_lan.console.web.payload import state_payload

    game = _played(lambda g: g.pending is not None and g.pending.kind == "colony_tile")
    data = state_payload(_table(game, game.pending.seat).state)
    tile = data["tile"]
    assert tile["directions"] == ["S", "SW", "NW", "N", "NE", "SE"]
    assert len(tile["pictures"]) == 6 and len(set(tile["pictures"])) == 6
    assert all(p.startswith("<svg") and "redmark" in p for p in tile["pictures"])
    assert state_payload(_table(game, None).state)["tile"] is None  # (not ours: none)

"""Two colours each (docs/rules.md V1) on the game screen: the panel and the final table
show each player's two colours and combined score, the status line says which of your
colours decides, and a replay of a two-colour record does the same."""

from __future__ import annotations

import hashlib

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.feeds.solo import solo_seats
from tongiaki_lan.console.final import final_table
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.story import final_words
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.console.words import pending_text
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import read_record
from tongiaki_lan.selfplay import game_seed, play_game

NAMES = ["Ana", "Ben", "Ana", "Ben"]


def _two_colour_game(stop=lambda g: g.is_over) -> Game:
    game = V.with_variant(Game(COLOURS[:4]), V.TWO_COLOURS)
    dealer = Dealer(hashlib.blake2b(b"two-colours", digest_size=32).digest())
    bot = make_bot("random", seed=7)
    while not game.is_over and not stop(game):
        dealer.apply(game, bot.choose(game))
    return game


def _screen(game: Game) -> GameScreen:
    seats = [Seat(n, c, local=n == "Ana") for n, c in zip(NAMES, game.colours, strict=True)]
    return GameScreen(GameSession(game, seats), colour=False)


def test_V1_panel_and_final_table_show_each_players_colours_and_combined_score():
    game = _two_colour_game()
    (a_pts, a_isl, a_ships), (b_pts, b_isl, b_ships) = V.ranking_keys(game)
    panel = [" ".join(line.split()) for line in _screen(game).panel_text(40).splitlines()]
    assert f"Ana B+G {a_pts} pts, {a_isl} isl" in panel
    assert f"Ben R+Y {b_pts} pts, {b_isl} isl" in panel
    rows = [" ".join(r.split()) for r in final_table(game, NAMES)]
    block = rows[rows.index("Two colours each: a player's colours together"):]
    assert f"Ana B+G {a_pts} {a_isl} {-a_ships}" in block
    assert f"Ben R+Y {b_pts} {b_isl} {-b_ships}" in block
    winner = NAMES[V.seats_of(game, V.winners(game)[0])[0]]
    assert rows[0].startswith(winner)  # what decided, by player, comes first
    words = final_words(game, NAMES)
    assert f"Ana (B+G) {a_pts}" in words and f"Ben (R+Y) {b_pts}" in words


def test_V1_the_status_line_says_which_of_your_colours_decides():
    game = _two_colour_game(lambda g: g.pending is not None and g.pending.seat == 2
                            and g.pending.kind == "action")
    _, mine = pending_text(game, NAMES, {0, 2})
    assert mine.startswith("Your decision (G): ")
    _, theirs = pending_text(game, NAMES, {1, 3})
    assert theirs.startswith("Waiting for Ana (G)")


def test_V1_solo_seats_alternate_and_a_replay_shows_the_players(tmp_path):
    seats = solo_seats(1, "Tester", "random", two_colours=True)
    assert [(s.name, s.colour, s.local) for s in seats] == [
        ("Tester", "blue", True), ("Hina", "red", False),
        ("Tester", "green", True), ("Hina", "yellow", False)]
    result = play_game(game_seed("replay-two", 0), 2, ["random"], tmp_path,
                       variant=V.TWO_COLOURS)
    session = ReplaySession(read_record(result.record), result.record)
    session.goto(session.total)
    assert session.game.is_over and session.game.owners == (0, 1, 0, 1)
    assert "random-0 (B+G)" in final_words(session.game, session.names)

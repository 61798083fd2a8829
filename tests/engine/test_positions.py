"""Positions as text: `Game.position()` round-trips, `Game.from_position()` refuses what
cannot be, `Game.pop()` takes moves back, and the invariant checks live in the engine."""

import hashlib
import random

import pytest

from tongiaki_lan.engine import COLOURS, Dealer, Game, IllegalMove, parse_move

from .builder import build, position_text


def _games(n: int, players: int = 4):
    for i in range(n):
        seed = hashlib.blake2b(f"positions/{i}".encode(), digest_size=32).digest()
        rng = random.Random(i)
        game = Game(COLOURS[: 2 + i % 5] if players is None else COLOURS[:players])
        dealer = Dealer(seed)
        yield game, dealer, rng


def test_every_position_of_200_games_round_trips_with_the_same_digest_and_legal_moves():
    checked = 0
    for game, dealer, rng in _games(200, players=None):
        while True:
            text = game.position()
            again = Game.from_position(text)
            assert again.position() == text
            assert again.digest() == game.digest(), text
            assert again.legal_moves() == game.legal_moves(), text
            checked += 1
            if game.is_over:
                break
            if game.awaiting_reveal:
                dealer.deal(game)
            else:
                game.apply(game.legal_move(rng.randrange(game.legal_move_count())))
    assert checked > 20000


def test_repr_is_the_position_and_evaluates_back():
    g = build(tiles={(0, -1): ("Samoa", 2)}, ships={"Tonga": ["B", "R"] + [""] * 4})
    assert repr(g) == f"Game.from_position({g.position()!r})"
    assert eval(repr(g), {"Game": Game}).digest() == g.digest()


@pytest.mark.parametrize("change,why", [
    ({"ships": {"Tonga": ["BB", "BB", "BB", "BB", "BB", "BB"], "Samoa": ["BB", "BBB", ""]},
      "tiles": {(0, -1): ("Samoa", 0)}, "reserve": "0,15"}, "blue has 17 ships"),
    ({"ships": {"Tonga": ["BBBB", "", "", "", "", ""]}}, "holds 4 ships in 3 berths"),
    ({"ships": {"Tonga": ["BBB", "", "", "", "", ""]}}, "full between turns"),
    ({"kings": {"Samoa": "blue"}, "tiles": {(0, -1): ("Samoa", 0)},
      "ships": {"Samoa": ["B", "", ""]}}, "Royal Island with ships on its beaches"),
    ({"tiles": {(0, -2): ("Samoa", 0)}, "fix": lambda t: t.replace("Samoa@0,-2r0*",
                                                                  "Samoa@0,-2r0")},
     "red mark faces an empty hex"),
    ({"fix": lambda t: t.replace("stack=Muroroa,", "stack=Muroroa,Muroroa,")},
     "Muroroa is both in the stack and in the stack"),
    ({"fix": lambda t: t.replace("stack=Muroroa,", "stack=")}, "Muroroa is nowhere"),
])
def test_impossible_positions_are_refused_saying_why(change, why):
    change = dict(change)
    fix = change.pop("fix", lambda t: t)
    reserve = change.pop("reserve", None)
    text = fix(position_text(players=2, **change))
    if reserve:
        text = text.replace(text.split("reserve=")[1].split()[0], reserve)
    with pytest.raises(ValueError, match=why):
        Game.from_position(text)


@pytest.mark.parametrize("text,why", [
    ("", "starts with 'tongiaki2'"),
    ("tongiaki2 seats=BR", "fields after"),
    (position_text(players=2).replace("seats=BR", "seats=BX"), "seats"),
    (position_text(players=2).replace("turn=0", "turn=zero"), "whole number"),
    (position_text(players=2).replace("pending=action", "pending=dance"), "unknown decision"),
    (position_text(players=2).replace("Tonga@0,0r0", "Atlantis@0,0r0"), "no tile named"),
    (position_text(players=2).replace("board=", "board=S01@0,0r0;"), "two tiles on hex"),
])
def test_malformed_text_is_refused_with_a_clear_message(text, why):
    with pytest.raises(ValueError, match=why):
        Game.from_position(text)


def test_pop_takes_back_a_move_with_every_forced_step_after_it():
    g = Game(COLOURS[:3])
    dealer = Dealer(bytes(32))
    positions = [g.position()]
    digests = [g.digest()]
    rng = random.Random(5)
    while len(g.moves) < 150 and not g.is_over:
        dealer.apply(g, g.legal_move(rng.randrange(g.legal_move_count())),
                     lambda m: (positions.append(g.position()), digests.append(g.digest())))
    events = len(g.events)
    while g.moves:
        g.pop()
        assert g.position() == positions[len(g.moves)]
        assert g.digest() == digests[len(g.moves)]
    assert len(g.events) < events and g.position() == positions[0]
    with pytest.raises(IndexError):
        g.pop()


def test_a_refused_move_changes_nothing_and_pop_is_not_needed():
    g = build(ships={"Tonga": ["B", "R"] + [""] * 4})
    before = g.position()
    with pytest.raises(IllegalMove):
        g.apply(parse_move("expand Samoa"))
    assert g.position() == before and g.moves == ()

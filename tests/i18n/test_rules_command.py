"""`rules`: the clauses behind each kind of pending decision, and one clause on demand."""

from __future__ import annotations

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.rules import CLAUSES, rules_lines
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.engine import decisions as D


def _ids(lines: list[str]) -> list[str]:
    return [line.split()[0] for line in lines[1:]]


def _play_until(kind: str, seed: bytes = bytes(32)) -> Game:
    """Let random bots play until a decision of `kind` is pending."""
    game, dealer, bot = Game(COLOURS[:3]), Dealer(seed), make_bot("random", seed=7)
    dealer.deal(game)
    while not game.is_over and game.pending.kind != kind:
        dealer.apply(game, bot.choose(game))
    assert not game.is_over, f"no {kind} decision in this game"
    return game


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize("kind, expected", [
    (D.SETUP, ["S3"]),
    (D.DEPARTURE, ["M1", "M2", "M3", "K3", "X2a", "X2b", "X2d", "M4"]),
    (D.LANDING, ["L1", "M4"]),
])
def test_rules_name_the_clauses_of_the_pending_decision(kind, expected):
    lines = rules_lines(_play_until(kind))
    assert _ids(lines) == expected
    assert all(len(line) > 40 for line in lines[1:])  # each clause said in words


def test_one_clause_on_demand_and_a_clear_answer_for_an_unknown_one():
    game = _play_until(D.SETUP)
    assert rules_lines(game, "m3") == [f"M3  {CLAUSES['M3']}"]
    answer, more = rules_lines(game, "Z9")
    assert "Z9" in answer and "X2a" in answer
    assert "rules all" in more


def test_the_heading_says_how_to_look_up_any_clause_and_the_way_it_says_works():
    """A player has the program, not our docs/ folder: the heading points at `rules ID`."""
    game = _play_until(D.SETUP)
    heading = rules_lines(game)[0]
    assert "docs/" not in heading
    example = heading.split("as in rules ")[1].split(",")[0]
    assert rules_lines(game, example) == [f"{example}  {CLAUSES[example]}"]


def test_rules_in_the_players_language():
    game = _play_until(D.DEPARTURE)
    i18n.use("de")
    lines = rules_lines(game)
    assert lines[0].startswith("Regeln für die Wahl der nächsten Abfahrt")
    assert lines[1].startswith("M1  Jeder volle Strand muss ablegen.")


def test_a_newcomer_finds_how_the_game_is_scored():
    """`rules scoring`, `rules all` and `rules E` answered "no rule"; the way to learn what
    earns points was to guess `rules E3`. And K2 pointed at K4, a clause it did not have."""
    def _topic(game, topic):
        return [line.split()[0] for line in rules_lines(game, topic)]

    game = _play_until(D.SETUP)
    assert _topic(game, "scoring") == ["E1", "E3", "E4", "K4"]
    assert _topic(game, "E") == ["E1", "E2", "E3", "E4"]
    assert _topic(game, "all") == list(CLAUSES)
    assert "K4" in CLAUSES and "(K4)" in CLAUSES["K2"]
    lines = rules_lines(game, "Z9")
    assert "rules all" in lines[-1]

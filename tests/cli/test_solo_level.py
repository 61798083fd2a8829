"""`solo --level`: the levels are offered, normal is the default, and one way at a time."""

from __future__ import annotations

from tongiaki_lan.bots import DEFAULT_LEVEL, LEVELS
from tongiaki_lan.cli import build_parser, main


def test_solo_offers_the_levels_and_plays_normal_by_default():
    args = build_parser(only="solo").parse_args(["solo"])
    assert args.level is None and args.bot is None and DEFAULT_LEVEL == "normal"
    for name in LEVELS:
        assert build_parser(only="solo").parse_args(["solo", "--level", name]).level == name


def test_level_and_bot_together_are_refused(capsys):
    assert main(["solo", "--level", "hard", "--bot", "greedy"]) == 2
    assert "--level or --bot" in capsys.readouterr().out

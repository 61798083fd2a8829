"""The tournament command: its statistics and its --json shape."""

from __future__ import annotations

import json

from tongiaki_lan.cli import main
from tongiaki_lan.cli.tournament import play_one, wilson


def test_greedy_beats_random_in_a_seeded_tournament():
    # Fixed seeds and no time budget: the same games every run. Random would win ~25%.
    kinds = ["greedy", "random", "random", "random"]
    wins = sum(play_one(kinds, "test", g, {}).wins[0] for g in range(40))
    assert wins / 40 > 0.4


def test_seats_rotate_so_every_entry_plays_every_seat():
    kinds = ["greedy", "random", "random"]
    seatings = [play_one(kinds, "rot", g, {}).seats for g in range(3)]
    assert sorted(s[0] for s in seatings) == [0, 1, 2]


def test_wilson_interval_brackets_the_rate():
    lo, hi = wilson(30, 100)
    assert 0.21 < lo < 0.3 < hi < 0.4
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_json_report_shape(capsys):
    code = main(["tournament", "--seats", "greedy,random,random", "--games", "3",
                 "--seed", "7", "--jobs", "1", "--quiet", "--json"])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 3 and report["seats"] == ["greedy", "random", "random"]
    bots = report["bots"]
    assert [b["bot"] for b in bots] == ["greedy", "random#1", "random#2"]
    assert abs(sum(b["win_rate"] for b in bots) - 1.0) < 1e-3
    for b in bots:
        assert b["games"] == 3
        assert b["ci95"][0] <= b["win_rate"] <= b["ci95"][1]
        assert b["decisions"] > 0 and 0 <= b["p50_ms"] <= b["p95_ms"] <= b["max_ms"]
        assert 0 <= b["mean_ms"] <= b["max_ms"]
        assert b["mean_score"] >= 0
    assert [k["bot"] for k in report["by_kind"]] == ["greedy", "random"]
    assert report["by_kind"][1]["games"] == 6


def test_two_processes_give_the_same_results_as_one(capsys):
    args = ["tournament", "--seats", "greedy,random", "--games", "4", "--seed", "x",
            "--quiet", "--json"]
    main([*args, "--jobs", "1"])
    one = json.loads(capsys.readouterr().out)
    main([*args, "--jobs", "2"])
    two = json.loads(capsys.readouterr().out)
    strip = ("mean_ms", "p50_ms", "p95_ms", "max_ms")
    assert [{k: v for k, v in b.items() if k not in strip} for b in one["bots"]] == \
        [{k: v for k, v in b.items() if k not in strip} for b in two["bots"]]


def test_bad_seats_are_refused_with_a_message(capsys):
    assert main(["tournament", "--seats", "greedy,oracle", "--games", "1"]) == 2
    assert "oracle" in capsys.readouterr().err
    assert main(["tournament", "--seats", "greedy", "--games", "1"]) == 2

"""The ladder: its schedule, its reproducibility and what its ratings say."""

from __future__ import annotations

import json

from tongiaki_lan.cli import main
from tongiaki_lan.cli.ladder import schedule

TIMING = ("mean_ms", "p50_ms", "p95_ms")


def _run(capsys, *extra: str) -> dict:
    code = main(["ladder", "--entries", "random,easy,greedy,search@8i", "--games", "6",
                 "--seed", "lad", "--quiet", "--json", *extra])
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    report.pop("elapsed_s")
    report.pop("jobs")
    for row in report["ratings"]:
        for k in TIMING:
            row.pop(k)
    return report


def test_the_schedule_mixes_table_sizes_and_keeps_entries_even():
    entries = ["a", "b", "c", "d", "e", "f", "g"]
    tables = schedule(entries, 200, "s")
    assert tables == schedule(entries, 200, "s") and tables != schedule(entries, 200, "t")
    assert {len(t) for t in tables} == {2, 3, 4, 5, 6}
    assert all(len(set(t)) == len(t) for t in tables)
    played = [sum(e in t for t in tables) for e in entries]
    assert max(played) - min(played) <= 1
    assert all(len(t) == 3 for t in schedule(entries, 20, "s", 3, 3))


def test_the_same_seed_gives_the_same_ladder(capsys):
    one = _run(capsys, "--jobs", "1")
    assert _run(capsys, "--jobs", "2") == one
    rows = one["ratings"]
    assert sorted(r["bot"] for r in rows) == ["easy", "greedy", "random", "search@8i"]
    assert sum(r["games"] for r in rows) == sum(len(t) for t in schedule(
        ["random", "easy", "greedy", "search@8i"], 6, "lad"))
    assert [r["mu"] for r in rows] == sorted((r["mu"] for r in rows), reverse=True)
    for r in rows:
        assert r["interval"][0] < r["mu"] < r["interval"][1]


def test_greedy_rates_above_random(capsys):
    # seeded, iteration-free bots: the same games every run (greedy wins ~90 % of these)
    assert main(["ladder", "--entries", "random,greedy", "--games", "30", "--seed", "1",
                 "--quiet", "--json", "--jobs", "1"]) == 0
    rows = json.loads(capsys.readouterr().out)["ratings"]
    assert [r["bot"] for r in rows] == ["greedy", "random"]


def test_bad_entries_are_refused(capsys):
    assert main(["ladder", "--entries", "greedy,greedy", "--games", "1"]) == 2
    assert main(["ladder", "--entries", "greedy,oracle", "--games", "1"]) == 2
    assert "oracle" in capsys.readouterr().err
    assert main(["ladder", "--entries", "greedy@1s,random", "--games", "1"]) == 2

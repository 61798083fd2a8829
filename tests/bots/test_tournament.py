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


# --log: a long run keeps each game as it ends, and the same command continues it

RUN = ["tournament", "--seats", "greedy,random", "--seed", "lg", "--jobs", "1", "--quiet",
       "--json"]
TIMES = ("mean_ms", "p50_ms", "p95_ms", "max_ms")


def _results(report: dict) -> list[dict]:
    return [{k: v for k, v in b.items() if k not in TIMES} for b in report["bots"]]


def _run(capsys, games: int, *extra: str) -> tuple[int, dict | None, str]:
    code = main([*RUN, "--games", str(games), *extra])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if code == 0 else None), err


def test_a_logged_run_is_continued_by_the_same_command(tmp_path, capsys):
    log = tmp_path / "h2h.jsonl"
    code, first, _ = _run(capsys, 2, "--log", str(log))
    assert code == 0 and first["from_log"] == 0
    code, second, _ = _run(capsys, 4, "--log", str(log))
    assert code == 0 and second["from_log"] == 2  # games 0 and 1 were not played again
    _, fresh, _ = _run(capsys, 4)
    assert _results(second) == _results(fresh) and second["games"] == 4
    assert len(log.read_bytes().splitlines()) == 1 + 4


def test_a_game_cut_short_at_the_end_of_the_log_is_played_again(tmp_path, capsys):
    log = tmp_path / "h2h.jsonl"
    _run(capsys, 3, "--log", str(log))
    data = log.read_bytes()
    log.write_bytes(data[:-40])  # the laptop died while the third game was being written
    code, report, _ = _run(capsys, 3, "--log", str(log))
    assert code == 0 and report["from_log"] == 2
    _, fresh, _ = _run(capsys, 3)
    assert _results(report) == _results(fresh)
    assert log.read_bytes().count(b"\n") == 1 + 3


def test_a_log_of_another_run_is_refused_and_left_as_it_is(tmp_path, capsys):
    log = tmp_path / "h2h.jsonl"
    _run(capsys, 1, "--log", str(log))
    before = log.read_bytes()
    code = main(["tournament", "--seats", "greedy,greedy", "--seed", "lg", "--games", "2",
                 "--jobs", "1", "--quiet", "--log", str(log)])
    err = capsys.readouterr().err
    assert code == 2 and "another run" in err and "--seats greedy,random --seed lg" in err
    assert log.read_bytes() == before


def test_damage_inside_the_log_names_its_line_and_changes_nothing(tmp_path, capsys):
    log = tmp_path / "h2h.jsonl"
    _run(capsys, 2, "--log", str(log))
    lines = log.read_bytes().splitlines(keepends=True)
    lines[1] = b"\x00\xff garbage\n"
    log.write_bytes(b"".join(lines))
    before = log.read_bytes()
    code, _, err = _run(capsys, 2, "--log", str(log))
    assert code == 2 and "line 2" in err and "Traceback" not in err
    assert log.read_bytes() == before

"""`tongiaki-lan bench net` runs real nodes (one OS process each) to the end of their games
and reports what it measured. Speed is reported, never asserted: these tests check that the
report is there and means what it says."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_net_plays_whole_games_and_reports_both_kinds_of_move():
    out = subprocess.run([sys.executable, "-m", "tongiaki_lan", "bench", "net", "--peers", "3",
                          "--moves", "40", "--json"], capture_output=True, text=True,
                         timeout=300, check=True)
    r = json.loads(out.stdout)
    assert r["peers"] == 3 and r["mode"] == "processes" and r["games"] >= 1
    assert r["moves"] >= 40
    # every game move is one or the other; a game deals tiles, so both kinds occur
    assert r["reveals_nothing"]["moves"] > 0 and r["reveals_a_tile"]["moves"] > 0
    for part in (r["reveals_nothing"], r["reveals_a_tile"]):
        assert 0 < part["p50_ms"] <= part["p99_ms"]
        # a peer has the move before it has applied and recorded it
        assert 0 < part["reached_p50_ms"] <= part["p50_ms"]
    assert r["p50_ms"] <= r["p99_ms"] <= r["max_ms"]
    # a 3-node game sends at least the two MOVEs of every decision
    assert r["datagrams_per_move"] >= 2 and r["cpu_ms_per_move"] > 0
    assert r["cpu_calibration_ms"] > 0
    if sys.platform.startswith("linux"):
        assert 0 <= r["cpu_steal_percent"] <= 100


def test_bench_net_with_watchers_reports_the_players_latency_in_watched_games_too():
    out = subprocess.run([sys.executable, "-m", "tongiaki_lan", "bench", "net", "--peers", "2",
                          "--moves", "20", "--watchers", "3", "--json"], capture_output=True,
                         text=True, timeout=300, check=True)
    r = json.loads(out.stdout)
    # games alternate: unwatched ones fill the main figures, watched ones `with_watchers`
    assert r["watchers"] == 3 and r["games"] >= 2
    w = r["with_watchers"]
    assert w["moves"] >= 20 and 0 < w["p50_ms"] <= w["p99_ms"]
    assert "final digest equal" in w["what"]  # (the bench stops if a watcher disagrees)

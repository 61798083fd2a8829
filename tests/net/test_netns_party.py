"""Ten laptops, one table name, two seats (issue 45 item 3): ten network namespaces each
start `play --headless --bot random --game party --players 2` at once, found through real
multicast DNS. The tables of the name converge: five games, each finished with one digest
on both of its laptops, nobody left waiting alone or told the game runs; three runs out of
three. `python -m tests.net.party` runs the same party for figures."""

from __future__ import annotations

import json

import pytest

from .helpers import verify_record
from .party import run_party

pytestmark = [pytest.mark.netns, pytest.mark.slow]


@pytest.fixture(autouse=True)
def _need_netns():
    from .netns import netns_unavailable

    why = netns_unavailable()
    if why:
        pytest.skip(why)


async def test_ten_laptops_one_name_two_seats_play_five_games_three_runs_in_three(tmp_path):
    runs = []
    for run in range(3):
        result = await run_party(10, 2, game="party", timeout=90, keep=tmp_path / f"run{run}")
        runs.append(result)
        if result["codes"] != [0] * 10:  # (whole: an assertion's message is cut short, and
            # a CI run's four laptops that ended with 1 left no word of why)
            pytest.fail(f"run {run}: " + json.dumps(
                {k: result.get(k) for k in ("codes", "alone", "errors", "told_running",
                                            "trouble", "all_seated_s", "publish_failed")},
                default=str))
        assert result["games"] == 5 and result["one_digest"] == 5, result
        assert result["laptops_per_game"] == [2] * 5, result
        assert not result["alone"] and not result["told_running"], result
        # every table is of the name the players typed: party, party (2), ...
        assert all(n == "party" or n.startswith("party (") for n in result["names"]), result
        for record, digest in result["records"]:
            assert verify_record(record).hex() == digest
    print("\n" + "\n".join(f"run {i}: {r['seconds']} s, all seated {r.get('all_seated_s')} s "
                           f"after the first laptop, tables {r['names']}"
                           for i, r in enumerate(runs)))


async def test_a_table_opened_with_a_mistyped_passphrase_never_keeps_the_others_from_theirs(
        tmp_path):
    """Its creator typed "kava!" for "kava": nobody can join it (its datagrams fail their
    MAC, so a join is never answered). The right ones each knock at it once, then open
    theirs, sit there together while a fourth player comes, and play. Before, while they
    waited, they left their table for it again and again whenever its id was the smaller
    (for 150 s in a playtest)."""
    from .netns import Lan, play_cmd
    from .procs import Proc, kill_all, one_verified_game

    with Lan(5) as lan:
        wrong = Proc(play_cmd(lan, 0, tmp_path, "kava", 4, "--passphrase", "kava!",
                              timeout=60), tmp_path)
        right = [Proc(play_cmd(lan, i, tmp_path, "kava", 4, "--passphrase", "kava",
                               "--bot-delay", "0.01", timeout=120), tmp_path)
                 for i in (1, 2, 3, 4)]
        procs = [wrong, *right]
        try:
            await wrong.start()
            await wrong.wait(lambda: wrong.count("advertised") >= 1, 60)
            for p in right[:3]:
                await p.start()
            for p in right[:3]:  # seated together (shown only once settled)
                await p.wait(lambda p=p: p.count("joined") >= 1, 60)
            assert len({next(e["game_id"] for e in p.events if e["event"] == "joined")
                        for p in right[:3]}) == 1
            await right[3].start()
            codes = [await p.finish(150) for p in right]
            assert codes == [0] * 4, [(p.events[-3:], p.stderr[-1500:]) for p in right]
        finally:
            await kill_all(procs)
    one_verified_game(right)
    gid = next(e["game_id"] for e in wrong.events if e["event"] == "joined")
    for p in right:  # one knock each at the wrong table, at most
        knocks = [e for e in p.events if e["event"] == "request_refused" and gid in e["reason"]]
        assert len(knocks) <= 1, knocks

"""Ten laptops, one table name, two seats (issue 45 item 3): ten network namespaces each
start `play --headless --bot random --game party --players 2` at once, found through real
multicast DNS. The tables of the name converge: five games, each finished with one digest
on both of its laptops, nobody left waiting alone or told the game runs; three runs out of
three. `python -m tests.net.party` runs the same party for figures."""

from __future__ import annotations

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
        assert result["codes"] == [0] * 10, result
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

"""One broken laptop cannot stop three honest ones (issue 44, item 5): four `play
--headless` processes in network namespaces, real zeroconf and UDP; one runs a broken
build (the test hook TONGIAKI_TEST_BROKEN: its game messages corrupted before its key
signs them, net/lab/corrupt.py). The three others prove it, expel it, name it in their
events, and finish the game with one digest; the broken one is told and stops."""

from __future__ import annotations

import pytest

from .helpers import verify_record
from .netns import Lan, needs_netns, play_cmd
from .procs import Proc, kill_all, one_verified_game

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns()]


def _events(p: Proc, kind: str) -> list[dict]:
    return [e for e in p.events if e.get("event") == kind]


async def test_three_honest_laptops_expel_a_broken_one_and_finish_with_one_digest(tmp_path):
    hosts, broken_at = 4, 2
    with Lan(hosts) as lan:
        cmds = [play_cmd(lan, i, tmp_path, "broken", hosts, "--bot-delay", "0.05",
                         "--table-bot", "random", timeout=300) for i in range(hosts)]
        # (`ip netns exec NS` then the command: the hook goes in the broken one's env)
        cmds[broken_at][4:4] = ["env", "TONGIAKI_TEST_BROKEN=0.3:5"]
        procs = [Proc(c, tmp_path) for c in cmds]
        broken, honest = procs[broken_at], [p for i, p in enumerate(procs) if i != broken_at]
        try:
            for p in procs:
                await p.start()
            codes = [await p.finish(300) for p in honest]
            assert codes == [0] * len(honest), [p.stderr[-1500:] for p in honest]
            assert await broken.finish(60) != 0
        finally:
            await kill_all(procs)
    finals = one_verified_game(honest)
    peer = _events(broken, "node")[0]["peer"]
    for p in honest:
        # named on every honest screen, with its proof (and again if a proof found later
        # moved the bot's first move earlier)
        (ex,) = [e for e in _events(p, "expelled") if not e["earlier"]]
        assert all(e["peer"] == peer for e in _events(p, "expelled"))
        assert ex["peer"] == peer and ex["name"].startswith(f"host{broken_at}")
        assert ex["proof_kind"] in ("two-moves", "refused-move", "two-lobbies")
        assert ex["detail"] and not ex["you"]
        assert not _events(p, "mismatch")
    told = _events(broken, "expelled")[0]
    assert told["you"]
    assert "expelled" in _events(broken, "error")[-1]["reason"]
    # its record is the table's game up to its expulsion, and verifies
    assert verify_record(tmp_path / f"host{broken_at}.tgrec")
    print(f"\n[broken laptop, netns] expelled from move {told['from_move']} "
          f"({told['proof_kind']}); the three finished with digest {finals[0]['digest'][:16]}")

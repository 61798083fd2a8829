"""A LAN game between two laptops (network namespaces on one bridge, real zeroconf),
each running `play --headless --board` with its page open in a Chromium of its own,
inside that laptop's namespace (the node serves its page on its own 127.0.0.1): every
move reaches both pages, and both end on the same board as the one digest of the game."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.net.netns import Lan, netns_unavailable, play_cmd
from tests.net.procs import Proc, kill_all
from tests.web.conftest import chromium_path
from tongiaki_lan.engine import Reveal
from tongiaki_lan.records import read_record

pytestmark = [pytest.mark.netns, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _need_netns_and_a_browser():
    why = netns_unavailable()
    if why:
        pytest.skip(why)
    if chromium_path() is None:
        pytest.skip("no chromium on this machine (apt-get install chromium; .ci/run does)")
    pytest.importorskip("playwright", reason="Playwright for Python is not installed")


async def test_two_laptops_pages_show_every_move_and_end_on_one_board(tmp_path):
    with Lan(2) as lan:
        # (a bot move every 0.3 s: a page is sent each move as it comes, as to a player)
        nodes = [Proc(play_cmd(lan, i, tmp_path, "lantern", 2, "--bot", "random",
                               "--board", "--bot-delay", "0.3"), tmp_path) for i in range(2)]
        pages: list[Proc] = []
        try:
            for node in nodes:
                await node.start()
            for node in nodes:
                await node.wait(lambda n=node: n.count("board") == 1, 60)
            for i, node in enumerate(nodes):
                url = next(e["url"] for e in node.events if e["event"] == "board")
                page = Proc(lan.cmd(i, sys.executable, "-m", "tests.web.pageclient", url,
                                    str(tmp_path / f"page{i}.json")), REPO)
                pages.append(page)
                await page.start()
            codes = [await p.finish(300) for p in nodes]
            assert codes == [0, 0], [p.stderr[-1500:] for p in nodes]
            assert [await p.finish(120) for p in pages] == [0, 0], \
                [p.stderr[-2000:] for p in pages]
        finally:
            await kill_all([*nodes, *pages])
    over = [next(e for e in p.events if e["event"] == "game_over") for p in nodes]
    assert over[0]["digest"] == over[1]["digest"]  # one game
    record = read_record(Path(over[0]["record"]))
    moves = record.moves
    played = {i for i, m in enumerate(moves) if not isinstance(m, Reveal)}
    results = [json.loads((tmp_path / f"page{i}.json").read_text()) for i in range(2)]
    for i, result in enumerate(results):
        seen = result["seen"]
        versions = [s["version"] for s in seen]
        assert versions == sorted(versions), f"page {i}: states out of order"
        # every player's move reached the page (a move's tile reveals come with it)
        shown = {s["last"] for s in seen if s["last"] is not None}
        first = min(s["move_index"] for s in seen)  # (opened after the first moves)
        missing = sorted(m for m in played if m >= first and m not in shown)
        assert not missing, f"page {i} never showed moves {missing} of {len(moves)}"
        assert result["shown"]["move_index"] == len(moves) and seen[-1]["over"]
        assert "ships and kings" in result["shown"]["final"]  # (the final tables)
    # the same board on both laptops' pages at the end
    assert results[0]["shown"]["svg"] == results[1]["shown"]["svg"]
    assert results[0]["shown"]["final"] == results[1]["shown"]["final"]

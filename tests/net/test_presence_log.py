"""The log file tells each "away" and "back" with the silence behind it.

A playtest on a Wi-Fi losing a fifth of the datagrams wanted to know, after a long idle
stretch, whether anyone had been shown away and back: the consoles' logs said nothing of
it (only a headless bot's JSON output did), so a flaky evening could not be told from a
quiet one afterwards, nor a few lost heartbeats from a laptop that really went.
"""

from __future__ import annotations

import logging
import re

from tongiaki_lan.net.lab.simnet import SimNet

CORE_LOG = "tongiaki_lan.net.protocol.core"


def test_the_log_says_who_went_away_for_how_long_and_when_they_came_back(caplog):
    net = SimNet(seed=3, loss=0.2)
    nodes = net.table(3, autoplay=None)  # an idle table: heard by heartbeats alone
    gone = nodes[2]
    name = gone.core.peer_name(gone.core.peer_id)
    with caplog.at_level(logging.INFO, logger=CORE_LOG):
        net.run_for(60)
        assert [r.getMessage() for r in caplog.records if " is away" in r.getMessage()] == []
        net.blocked.add(gone.addr)  # its lid closes
        net.run_for(20)
        net.blocked.discard(gone.addr)
        net.run_for(10)
    lines = [r.getMessage() for r in caplog.records if r.name == CORE_LOG]
    away = [ln for ln in lines if ln.startswith(f"{name} is away")]
    back = [ln for ln in lines if ln.startswith(f"{name} is back")]
    assert len(away) == 2 and len(back) == 2  # (told by each of the two others)
    assert all(re.fullmatch(rf"{re.escape(name)} is away: nothing heard from it for "
                            r"\d+\.\d s", ln) for ln in away)
    assert all(re.fullmatch(rf"{re.escape(name)} is back, after \d+\.\d s away", ln)
               for ln in back)

"""The clock the protocol core is given counts the time a laptop sleeps (issue 18 item 2):
otherwise a closed lid would not show as a jump and the node would not know it was away."""

from __future__ import annotations

import sys
import time

import pytest

from tongiaki_lan.net.aio import pump


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="CLOCK_BOOTTIME is Linux's")
def test_on_linux_the_core_clock_is_the_one_that_counts_suspend():
    before = time.clock_gettime(time.CLOCK_BOOTTIME)
    now = pump.clock()
    after = time.clock_gettime(time.CLOCK_BOOTTIME)
    assert before <= now <= after


def test_the_node_and_its_pump_read_one_clock():
    from tongiaki_lan.net.aio.node import Node

    a = Node._now()
    b = pump.clock()
    c = Node._now()
    assert a <= b <= c

"""Laptops whose wall clocks are hours or days off play like any others (issue 18: a
wrong time zone, a dual-boot machine keeping local time in its hardware clock). Nothing
compares an incarnation with a clock; runs of a node still number upwards, so a datagram
replayed from an earlier run stays refused (protocol/transport.md, 'Restarts')."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.aio.incarnation import RESERVE, next_incarnation, read_floor, runs_path
from tongiaki_lan.net.lab.simnet import SimNet

from .test_core_sim import clean_digest, one_digest

H = 3600.0
DAY = 24 * H
SKEWS = {
    "3 h ahead, 2 h behind": [0.0, 3 * H, -2 * H],
    "creator 3 h ahead": [3 * H, -2 * H, 0.0],
    "creator 2 h behind": [-2 * H, 0.0, 3 * H],
    "2 days either way": [2 * DAY, -2 * DAY, 0.0],
    "creator 2 days behind": [-2 * DAY, 0.0, 2 * DAY],
}


@pytest.mark.parametrize("clocks", SKEWS.values(), ids=SKEWS.keys())
def test_a_table_of_skewed_clocks_starts_plays_restarts_and_finishes(clocks):
    net = SimNet(seed=61)
    nodes = net.table(3, clocks=clocks)
    a, b, c = nodes
    assert all(nd.game is not None for nd in nodes)
    net.run_until(lambda: len(a.game.moves) > 15)
    skewed = max(range(3), key=lambda i: abs(clocks[i]))
    nodes[skewed] = net.restart(nodes[skewed])  # the most skewed laptop crashes and comes back
    net.play_to_end(nodes)
    assert one_digest(nodes) == clean_digest(nodes)
    assert not [e for nd in nodes for e in nd.kinds("refused") if "incarnation" in e.reason]


def test_a_clock_put_right_between_two_runs_still_numbers_the_new_run_above_the_old():
    """The laptop ran 3 h ahead, crashed, and came back with its clock set right: its
    new run's wall-clock microseconds are lower than the old run's, yet the table takes it
    back as a restart (the profile's floor), not as a replay of an earlier run."""
    net = SimNet(seed=62)
    a, b = net.table(2, clocks=[0.0, 3 * H])
    net.run_until(lambda: len(a.game.moves) > 10)
    old_inc = b.core.incarnation
    b2 = net.restart(b, clock=0.0)
    assert b2.core.incarnation > old_inc
    net.play_to_end([a, b2])
    assert one_digest([a, b2]) == clean_digest([a, b2])
    assert [e.peer for e in a.kinds("restarted")] == [b.core.peer_id.hex()]


def test_a_datagram_replayed_from_an_earlier_run_of_a_skewed_laptop_is_refused():
    net = SimNet(seed=63)
    from_b: list[bytes] = []  # everything the second laptop sends, from its first datagram
    net.taps.append(lambda data, s, d: from_b.append(data) if s == ("10.0.0.2", 7000)
                    else None)
    a, b = net.table(2, clocks=[-2 * DAY, 2 * DAY])
    net.run_until(lambda: len(a.game.moves) > 10)
    old_run = list(from_b)
    b2 = net.restart(b, clock=-DAY)  # and its clock jumped back three days meanwhile
    net.run_until(lambda: len(a.game.moves) > 20)
    n = len(a.game.moves)
    before, counted = len(a.kinds("refused")), a.core.links.stats.refused
    for data in old_run:  # the first ones signed, the later ones keyed to that run's link
        net.inject(data, a.addr)
    net.run_for(0.01)
    assert a.core.links.stats.refused - counted == len(old_run)  # every one
    reasons = [e.reason for e in a.kinds("refused")[before:]]
    # signed ones name the earlier run; link-MACed ones fail for want of that run's key
    assert any("earlier run" in r for r in reasons)
    assert all("earlier run" in r or "without a link key" in r for r in reasons)
    assert len(a.game.moves) >= n
    net.play_to_end([a, b2])
    assert one_digest([a, b2]) == clean_digest([a, b2])


def test_each_run_of_a_profile_numbers_above_the_last_even_with_the_clock_set_back(tmp_path):
    runs = runs_path(tmp_path / "Ana.identity")
    first = next_incarnation(runs, 5_000_000_000)
    second = next_incarnation(runs, 1_000)  # the clock went back by more than an hour
    third = next_incarnation(runs, 9_000_000_000)  # and forward again
    assert first == 5_000_000_000
    assert second >= first + RESERVE  # room for the first run's rebirths in between
    assert third == 9_000_000_000
    assert read_floor(runs) == third + RESERVE
    assert runs.read_bytes() == (third + RESERVE).to_bytes(8, "big")  # binary, 8 bytes


def test_a_damaged_runs_file_falls_back_to_the_clock(tmp_path):
    runs = runs_path(tmp_path / "Ana.identity")
    runs.write_bytes(b"\r\n garbage")
    assert next_incarnation(runs, 7_000_000) == 7_000_000
    assert read_floor(runs) == 7_000_000 + RESERVE

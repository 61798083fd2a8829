"""Reliability of the transport: exactly once, in order, through a lossy socket."""

from __future__ import annotations

import asyncio
import os

import pytest

from tongiaki_lan.net.aio.transport import Transport
from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket
from tongiaki_lan.net.protocol.codec import Chat, Heartbeat

GAME = bytes.fromhex("0102030405060708")


async def _pair(rule_a: FaultRule | None, rule_b: FaultRule | None, key: bytes | None = None):
    got: dict[bytes, list] = {b"A" * 8: [], b"B" * 8: []}
    changed = asyncio.Event()

    def handler(me):
        def on_message(peer, addr, msg):
            got[me].append((peer, msg))
            changed.set()
        return on_message

    def wrap(rule):
        return (lambda s: FaultySocket(s, rule)) if rule else None

    a = Transport(b"A" * 8, 1, handler(b"A" * 8), wrap_socket=wrap(rule_a))
    b = Transport(b"B" * 8, 1, handler(b"B" * 8), wrap_socket=wrap(rule_b))
    for t in (a, b):
        await t.open("127.0.0.1", 0)
        t.set_game(GAME, key)
    return a, b, got, changed


async def _wait(cond, changed: asyncio.Event, timeout: float = 30.0):
    """Wait for a condition: woken by deliveries, re-checked at least every 20 ms."""
    async def loop():
        while not cond():
            changed.clear()
            try:
                await asyncio.wait_for(changed.wait(), 0.02)
            except asyncio.TimeoutError:
                pass
    await asyncio.wait_for(loop(), timeout)


@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_lossy_duplicating_reordering_link_delivers_each_message_once_in_order(seed):
    rule = FaultRule(drop=0.3, duplicate=0.2, reorder=0.3, delay_s=0.01, seed=seed)
    a, b, got, changed = await _pair(rule, FaultRule(drop=0.3, duplicate=0.2, reorder=0.3,
                                                     delay_s=0.01, seed=seed + 100))
    try:
        n = 200
        for i in range(n):
            a.send(b.peer_id, b.address, Chat(f"a{i}"))
            b.send(a.peer_id, a.address, Chat(f"b{i}"))
        await _wait(lambda: len(got[a.peer_id]) >= n and len(got[b.peer_id]) >= n, changed)
        await _wait(lambda: a.idle() and b.idle(), changed)
        assert [m.text for _, m in got[b.peer_id]] == [f"a{i}" for i in range(n)]
        assert [m.text for _, m in got[a.peer_id]] == [f"b{i}" for i in range(n)]
        assert a._sock.dropped > 0 and a._sock.duplicated > 0 and a._sock.reordered > 0
        assert a.stats.retransmissions > 0
    finally:
        await a.close()
        await b.close()


async def test_replayed_datagram_is_refused_and_not_delivered_twice():
    a, b, got, changed = await _pair(None, None, key=os.urandom(32))
    refusals = []
    b.on_refused = lambda peer, addr, why: (refusals.append(why), changed.set())
    sent = []
    orig = a._sock.send_nowait

    def capture(data, addr):
        sent.append(data)
        return orig(data, addr)

    a._sock.send_nowait = capture
    try:
        a.send(b.peer_id, b.address, Chat("once"))
        await _wait(lambda: got[b.peer_id] and a.idle(), changed)
        n_sent = len(sent)
        for data in list(sent):
            a.send_raw(data, b.address)
        await _wait(lambda: len(refusals) >= n_sent, changed)
        assert [m.text for _, m in got[b.peer_id]] == ["once"]
        assert all("replayed" in r for r in refusals)
    finally:
        await a.close()
        await b.close()


async def test_restarted_peer_gets_fresh_stream():
    a, b, got, changed = await _pair(None, None)
    try:
        for i in range(5):
            a.send(b.peer_id, b.address, Chat(f"x{i}"))
        await _wait(lambda: len(got[b.peer_id]) == 5 and a.idle(), changed)
        restarts = []
        b.on_restart = restarts.append
        a2 = Transport(a.peer_id, 2, lambda p, ad, m: None)
        await a2.open("127.0.0.1", 0)
        a2.set_game(GAME, None)
        try:
            a2.send(b.peer_id, b.address, Chat("after restart"))
            await _wait(lambda: len(got[b.peer_id]) == 6, changed)
            assert restarts == [a.peer_id]
            assert got[b.peer_id][-1][1].text == "after restart"
            # the old run's datagrams are now stale
            refusals = []
            b.on_refused = lambda peer, addr, why: (refusals.append(why), changed.set())
            a.send(b.peer_id, b.address, Heartbeat("lobby", 0, 0, b""))
            await _wait(lambda: refusals, changed)
            assert "earlier run" in refusals[0]
        finally:
            await a2.close()
    finally:
        await a.close()
        await b.close()

"""A socket wrapper that loses, duplicates and reorders datagrams by a seeded rule.

Used by the tests and by `bench` to show that the reliability layer, not luck, delivers
every message exactly once and in order. The rule is a private `random.Random(seed)`, so a
failing run can be replayed with the same seed (the timing of a reordered datagram's late
delivery still depends on the event loop).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field


@dataclass
class FaultRule:
    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0  # probability that a datagram is held back and sent late
    delay_s: float = 0.02  # how late a held-back datagram goes out
    seed: int = 0
    # (host, port) addresses nothing reaches from here: with the node's own `drop` at 1,
    # a laptop cut off both ways (its Wi-Fi gone), not one only unheard
    cut: set = field(default_factory=set)


class FaultySocket:
    """Same `send`/`recv`/`close`/`sockname` surface as an asyncio-dgram server stream."""

    def __init__(self, stream, rule: FaultRule) -> None:
        self._stream = stream
        self.rule = rule
        self._rng = random.Random(rule.seed)
        self.dropped = 0
        self.duplicated = 0
        self.reordered = 0
        self._late: set[asyncio.Task] = set()
        self._handles: set[asyncio.TimerHandle] = set()

    @property
    def sockname(self):
        return self._stream.sockname

    async def recv(self):
        return await self._stream.recv()

    def on_datagram(self, handler) -> bool:
        """Receiving is not faulted (a node's losses are on its sending side): as the
        stream it wraps."""
        inner = getattr(self._stream, "on_datagram", None)
        return inner(handler) if inner is not None else False

    def close(self) -> None:
        for t in self._late:
            t.cancel()
        for h in self._handles:
            h.cancel()
        self._stream.close()

    async def send(self, data: bytes, addr) -> None:
        r = self._rng.random()
        if r < self.rule.drop or tuple(addr) in self.rule.cut:
            self.dropped += 1
            return
        copies = 2 if self._rng.random() < self.rule.duplicate else 1
        self.duplicated += copies - 1
        if self._rng.random() < self.rule.reorder:
            self.reordered += 1
            delay = self.rule.delay_s * (0.5 + self._rng.random())
            loop = asyncio.get_running_loop()
            task = loop.create_task(self._late_send(delay, data, addr, copies))
            self._late.add(task)
            task.add_done_callback(self._late.discard)
            return
        for _ in range(copies):
            await self._stream.send(data, addr)

    def send_nowait(self, data: bytes, addr) -> bool:
        """`send` without a coroutine, for a socket that has `send_nowait` (the pump's)."""
        inner = getattr(self._stream, "send_nowait", None)
        if inner is None:
            return False
        r = self._rng.random()
        if r < self.rule.drop or tuple(addr) in self.rule.cut:
            self.dropped += 1
            return True
        copies = 2 if self._rng.random() < self.rule.duplicate else 1
        self.duplicated += copies - 1
        if self._rng.random() < self.rule.reorder:
            self.reordered += 1
            delay = self.rule.delay_s * (0.5 + self._rng.random())
            held: list = []
            handle = asyncio.get_running_loop().call_later(
                delay, self._late_nowait, held, inner, data, addr, copies)
            held.append(handle)
            self._handles.add(handle)
            return True
        for _ in range(copies):
            inner(data, addr)
        return True

    def _late_nowait(self, held: list, inner, data: bytes, addr, copies: int) -> None:
        self._handles.discard(held[0])
        for _ in range(copies):
            try:
                inner(data, addr)
            except Exception:  # socket closed meanwhile: the datagram is simply lost
                return

    async def _late_send(self, delay: float, data: bytes, addr, copies: int) -> None:
        await asyncio.sleep(delay)
        for _ in range(copies):
            try:
                await self._stream.send(data, addr)
            except Exception:  # socket closed meanwhile: the datagram is simply lost
                return

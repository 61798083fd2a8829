"""The one piece of asyncio under the protocol: runs a sans-I/O state machine over a UDP
socket (asyncio-dgram).

The machine (`Links` or `NodeCore`) is anything with `receive(data, addr, now)`,
`handle_timer(now)`, `datagrams_to_send()` and `get_timer()`. The pump feeds it what the
socket receives and the monotonic clock, and sends what it returns; `after` runs after
every step so the owner can drain the machine's events before its datagrams leave (a move
is in the record before any peer hears of it).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import asyncio_dgram

log = logging.getLogger("tongiaki_lan.net.pump")


class DatagramPump:
    def __init__(self, machine, *, wrap_socket: Callable | None = None,
                 after: Callable[[], None] | None = None) -> None:
        self.machine = machine
        self._wrap = wrap_socket
        self._after = after or (lambda: None)
        self._sock = None
        self._tasks: list[asyncio.Task] = []
        self._out: asyncio.Queue | None = None
        self._wake = asyncio.Event()
        self.closed = False

    async def open(self, host: str = "0.0.0.0", port: int = 0) -> tuple[str, int]:
        """Bind (the given port when it is free, else any: a restarted node keeps its
        address when it can, and peers learn a new one from its datagrams otherwise)."""
        try:
            stream = await asyncio_dgram.bind((host, port))
        except OSError:
            if not port:
                raise
            log.info("port %d is taken: binding another one", port)
            stream = await asyncio_dgram.bind((host, 0))
        self._sock = self._wrap(stream) if self._wrap else stream
        self._out = asyncio.Queue()
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._recv_loop(), name="tk-recv"),
            loop.create_task(self._send_loop(), name="tk-send"),
            loop.create_task(self._timer_loop(), name="tk-timer"),
        ]
        return self.address

    @property
    def address(self) -> tuple[str, int]:
        return self._sock.sockname[:2]

    @property
    def socket(self):
        return self._sock

    async def close(self) -> None:
        self.closed = True
        for t in self._tasks:
            t.cancel()
        self._wake.set()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        if self._sock is not None:
            self._sock.close()

    def step(self) -> None:
        """Call after poking the machine from outside (a UI request): drains its events,
        sends its datagrams and re-arms the timer."""
        if self.closed:
            return
        try:
            self._after()
        finally:
            for data, addr in self.machine.datagrams_to_send():
                self._out.put_nowait((data, addr))
            self._wake.set()

    def send_raw(self, data: bytes, addr) -> None:
        self._out.put_nowait((data, tuple(addr)))

    async def _send_loop(self) -> None:
        while not self.closed:
            data, addr = await self._out.get()
            try:
                await self._sock.send(data, addr)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # unreachable peer, closed socket: retransmission copes
                log.debug("send to %s failed: %s", addr, exc)

    async def _recv_loop(self) -> None:
        while not self.closed:
            try:
                data, addr = await self._sock.recv()
            except asyncio.CancelledError:
                raise
            except asyncio_dgram.TransportClosed:
                return
            except Exception as exc:  # ICMP errors surface here; they are not fatal
                log.debug("recv error: %s", exc)
                continue
            try:
                self.machine.receive(data, addr, time.monotonic())
            except Exception:  # a bug must not kill the receive loop
                log.exception("internal error handling datagram from %s", addr)
            self.step()

    async def _timer_loop(self) -> None:
        while not self.closed:
            now = time.monotonic()
            due = self.machine.get_timer()
            if due is not None and due <= now:
                try:
                    self.machine.handle_timer(now)
                except Exception:
                    log.exception("timer failed")
                self.step()
                await asyncio.sleep(0)  # never starve the socket, even on a stuck timer
                continue
            self._wake.clear()
            wait = 0.25 if due is None else min(0.25, max(0.0005, due - now))
            try:
                await asyncio.wait_for(self._wake.wait(), wait)
            except asyncio.TimeoutError:
                pass

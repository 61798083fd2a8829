"""`Links` over a real UDP socket: reliable per-peer delivery for tools and tests that need
no game logic (the node runs its own `NodeCore`, which holds a `Links`, over the same pump).
"""

from __future__ import annotations

from collections.abc import Callable

from tongiaki_lan.net.aio.pump import DatagramPump
from tongiaki_lan.net.aio.pump import clock as pump_clock
from tongiaki_lan.net.protocol.codec import Message
from tongiaki_lan.net.protocol.links import Link, Links, RefusalHook, TransportStats

__all__ = ["Link", "Transport", "TransportStats"]


class _LinksMachine:
    def __init__(self, links: Links) -> None:
        self.links = links

    def receive(self, data: bytes, addr, now: float) -> None:
        self.links.receive(data, addr, now)

    def handle_timer(self, now: float) -> None:
        self.links.handle_timer(now)

    def get_timer(self):
        return self.links.get_timer()

    def datagrams_to_send(self):
        return self.links.datagrams_to_send()


class Transport:
    """One socket, many peers; callbacks as `Links`, run on the event loop."""

    def __init__(self, peer_id: bytes, incarnation: int,
                 on_message: Callable[[bytes, tuple, Message], None], *,
                 admit=None, on_restart=None, on_refused: RefusalHook | None = None,
                 wrap_socket: Callable | None = None, keep=None) -> None:
        self.core = Links(peer_id, incarnation, on_message, admit=admit, on_restart=on_restart,
                          on_refused=on_refused, keep=keep)
        self._pump = DatagramPump(_LinksMachine(self.core), wrap_socket=wrap_socket)

    async def open(self, host: str = "0.0.0.0", port: int = 0) -> tuple[str, int]:
        return await self._pump.open(host, port)

    async def close(self) -> None:
        self.core.closed = True
        await self._pump.close()

    @property
    def address(self) -> tuple[str, int]:
        return self._pump.address

    @property
    def _sock(self):
        return self._pump.socket

    @property
    def peer_id(self) -> bytes:
        return self.core.peer_id

    @property
    def stats(self) -> TransportStats:
        return self.core.stats

    @property
    def links(self) -> dict[bytes, Link]:
        return self.core.links

    @property
    def on_refused(self):
        return self.core.on_refused

    @on_refused.setter
    def on_refused(self, fn) -> None:
        self.core.on_refused = fn

    @property
    def on_restart(self):
        return self.core.on_restart

    @on_restart.setter
    def on_restart(self, fn) -> None:
        self.core.on_restart = fn

    def set_game(self, game_id: bytes, key: bytes | None) -> None:
        self.core.set_game(game_id, key)

    def send(self, peer: bytes, addr, message: Message) -> None:
        self.core.now = pump_clock()  # (the pump's clock: a laptop that ever slept has
        # its CLOCK_BOOTTIME hours ahead of time.monotonic, and a link's timers ran on both)
        self.core.send(peer, addr, message)
        self._pump.step()

    def send_raw(self, data: bytes, addr) -> None:
        self._pump.send_raw(data, addr)

    def idle(self) -> bool:
        return self.core.idle()

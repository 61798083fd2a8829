"""A console's LAN session on a simulated laptop (`net.lab.simnet`): the sleeps, wakes
and losses of the simulator on the virtual clock, told by the real `LanSession` as each
event comes (what a player's game pane says, in the order it says it).

`SimConsoleNode` offers what `LanSession` reads of the asyncio `Node` (which wraps a
`NodeCore` and a socket) on a `SimNode` (which wraps the same core and the simulator), so a
test drives the table with `SimNet` and reads the screen's lines."""

from __future__ import annotations

from collections.abc import Callable

from tongiaki_lan.net.lab.simnet import SimNet, SimNode
from tongiaki_lan.net.protocol import events as E


class _Told(list):
    """A SimNode's events that are handed to listeners as they are appended."""

    def __init__(self, items, listeners: list[Callable[[E.NodeEvent], None]]):
        super().__init__(items)
        self.listeners = listeners

    def append(self, ev) -> None:
        super().append(ev)
        for fn in self.listeners:
            fn(ev)


class SimConsoleNode:
    """The part of `net.aio.node.Node` a `LanSession` uses, on a simulated laptop."""

    def __init__(self, net: SimNet, sim: SimNode) -> None:
        self.net, self.sim = net, sim
        self._listeners: list[Callable[[E.NodeEvent], None]] = []
        sim.events = _Told(sim.events, self._listeners)
        self.record_path = f"{sim.core.name}.tgrec"
        self.watchers: list = []

    core = property(lambda self: self.sim.core)
    lobby = property(lambda self: self.sim.core.lobby)
    game = property(lambda self: self.sim.core.game)
    peer_id = property(lambda self: self.sim.core.peer_id)
    game_id = property(lambda self: self.sim.core.game_id)
    name = property(lambda self: self.sim.core.name)

    def add_listener(self, fn: Callable[[E.NodeEvent], None]) -> None:
        self._listeners.append(fn)

    def present(self) -> set[bytes]:
        return self.core.present()

    def hears_nobody(self) -> bool:
        return self.core.hears_nobody()

    def coordinator(self) -> bytes:
        return self.core.coordinator()

    def my_seats(self) -> list[int]:
        return self.core.my_seats()

    def lobby_json(self) -> dict:
        return self.core.lobby_json()

    def replace(self, who: str, bot: str | None = None) -> None:
        self.net.act(self.sim, lambda now: self.core.replace(who, now, bot))

    def send_move(self, move) -> None:
        self.net.act(self.sim, self.core.send_move, move)

    def chat(self, text: str) -> None:
        self.net.act(self.sim, self.core.chat, text)

"""LAN play: what a user interface or a tool needs, and nothing else (docs/net-api.md).

- `Node` — this player in one game, on a real UDP socket (asyncio); `GameRef`,
  `JoinRefused` for joining; `Discovery`, `join_advertised` for the list of games.
- `NodeCore` — the same protocol as a sans-I/O state machine (datagrams + now in,
  datagrams + events + next timer out); `SimNet` runs several over a simulated LAN.
- The events a node reports, one frozen dataclass each (`MoveApplied`, `Away`, ...).

Discovery pulls in zeroconf, so it is imported only when asked for.
"""

from tongiaki_lan.net.aio.node import Node
from tongiaki_lan.net.lab.simnet import SimNet
from tongiaki_lan.net.protocol.core import NodeCore, bot_seed
from tongiaki_lan.net.protocol.events import (
    Aborted,
    Away,
    Back,
    ChatLine,
    Error,
    GameOver,
    GameStarted,
    Joined,
    LobbyChanged,
    Mismatch,
    MoveApplied,
    NodeEvent,
    Notice,
    Refused,
    RequestRefused,
    Restarted,
    SeatHandedOver,
    SeatReclaimed,
    Starting,
    TileRevealed,
    Waiting,
    YourTurn,
)
from tongiaki_lan.net.protocol.invite import GameRef, JoinRefused

__all__ = [
    "Aborted", "Away", "Back", "ChatLine", "Discovery", "Error", "GameInfo", "GameOver",
    "GameRef", "GameStarted", "JoinRefused", "Joined", "LobbyChanged", "Mismatch",
    "MoveApplied", "Node", "NodeCore", "NodeEvent", "Notice", "Refused", "RequestRefused",
    "Restarted", "SeatHandedOver", "SeatReclaimed", "SimNet", "Starting", "TileRevealed", "Waiting",
    "YourTurn", "bot_seed", "join_advertised",
]


def __getattr__(name: str):
    if name in ("Discovery", "GameInfo"):
        from tongiaki_lan.net.aio import discovery
        return getattr(discovery, name)
    if name == "join_advertised":
        from tongiaki_lan.net.aio.matchmaking import join_advertised
        return join_advertised
    raise AttributeError(name)

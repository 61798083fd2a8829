"""What a node tells its user interface. One flat event type keeps the stream easy to print
as JSON lines (`play --headless`) and easy to match on in a UI."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# kinds, for reference (docs/net-api.md describes each one's data)
KINDS = (
    "lobby",         # the lobby changed: data = lobby snapshot
    "joined",        # this node is seated in a game
    "refused",       # a datagram or message was refused: peer, addr, reason
    "request_refused",  # the coordinator refused one of our lobby requests
    "away", "back",  # a peer went silent / was heard again
    "restarted",     # a peer came back with a new incarnation
    "starting",      # commit-reveal began
    "abort",         # the start was aborted (reason names the peer)
    "game_start",    # seed agreed, game begins: seed, seats, record
    "move",          # a move was applied: index, seat, colour, move, by
    "reveal",        # the seed's dealer revealed a tile after a move: index, move
    "waiting",       # the pending seat's node is away; the game waits
    "your_turn",     # a human seat of this node must decide
    "chat",
    "game_over",     # digest, scores, winners, record
    "mismatch",      # our state differs from a peer's: the game stops here
    "error",
)


@dataclass(frozen=True)
class NodeEvent:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, **self.data}

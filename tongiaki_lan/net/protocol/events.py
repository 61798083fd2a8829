"""What a node tells its user interface: one frozen dataclass per kind of event.

A UI may match on the class (`isinstance(ev, MoveApplied)`) or on `ev.kind`, and read the
fields or `ev.data`; `ev.to_json()` gives one JSON line (`play --headless` prints them).
Every field is JSON-serialisable. Events marked `internal` are requests from the protocol
core to its asyncio glue (run a bot, write the record) and never reach a UI.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class NodeEvent:
    kind: ClassVar[str] = "event"
    internal: ClassVar[bool] = False

    @property
    def data(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_json(self) -> dict[str, Any]:
        return {"event": self.kind, **self.data}


@dataclass(frozen=True)
class Joined(NodeEvent):
    """This node got a seat (or created the game)."""

    kind: ClassVar[str] = "joined"
    game: str
    game_id: str
    created: bool
    invite: str = ""


@dataclass(frozen=True)
class LobbyChanged(NodeEvent):
    """The lobby changed; `lobby` is `Node.lobby_json()` (also spread into `data`)."""

    kind: ClassVar[str] = "lobby"
    lobby: dict

    @property
    def data(self) -> dict[str, Any]:
        return dict(self.lobby)


@dataclass(frozen=True)
class RequestRefused(NodeEvent):
    kind: ClassVar[str] = "request_refused"
    peer: str
    reason: str


@dataclass(frozen=True)
class TurnedAway(NodeEvent):
    """This node, coordinating the lobby, refused someone a seat because every seat is
    taken, while bots hold some (`bots`: their colours): the host may free one."""

    kind: ClassVar[str] = "turned_away"
    name: str
    bots: list


@dataclass(frozen=True)
class Starting(NodeEvent):
    """Seed agreement began."""

    kind: ClassVar[str] = "starting"
    nonce: str
    order: list


@dataclass(frozen=True)
class Aborted(NodeEvent):
    """Seed agreement failed (the reason names the peer); back in the lobby."""

    kind: ClassVar[str] = "abort"
    reason: str


@dataclass(frozen=True)
class GameStarted(NodeEvent):
    kind: ClassVar[str] = "game_start"
    seed: str
    seats: list
    resumed: bool
    moves: int
    record: str = ""


@dataclass(frozen=True)
class YourTurn(NodeEvent):
    """A human seat of this node must decide (no autoplay)."""

    kind: ClassVar[str] = "your_turn"
    index: int
    seat: int
    decision: str


@dataclass(frozen=True)
class MoveApplied(NodeEvent):
    """A move was applied and checked (its digest compared) on this node."""

    kind: ClassVar[str] = "move"
    index: int
    seat: int
    colour: str
    name: str
    move: str
    by: str | None
    # whether a bot made it for the seat's away player (the laptop that sent it is not the
    # player's, or our own seat's move came from elsewhere); None when not known here (a
    # move taken from a fetched log): then the lobby of the moment is the best guess
    by_bot: bool | None = None
    # how many game events there were before it: its own start there (a departure it
    # made is the one chosen, later ones the engine settled: the story says why), -1 if
    # not known
    events_from: int = -1


@dataclass(frozen=True)
class TileRevealed(NodeEvent):
    """The seed's dealer revealed a tile after a move (every node deals it itself)."""

    kind: ClassVar[str] = "reveal"
    index: int
    move: str
    events_from: int = -1  # (as MoveApplied's)


@dataclass(frozen=True)
class ContributorDropped(NodeEvent):
    """A node stopped revealing its draw values for longer than the handover time: the
    others left it out of the fair draws from draw `draw` on (protocol/draws.md)."""

    kind: ClassVar[str] = "draw_dropped"
    contributor: int
    peer: str
    name: str
    draw: int


@dataclass(frozen=True)
class ContributorTaken(NodeEvent):
    """A laptop that played without taking part in the draws (the table drew without it,
    or it joined mid-game) committed to a fresh chain, and the table took it: it takes part
    in the draws from draw `draw` on (protocol/draws.md, "Taking part again"). `again`: it
    took part before."""

    kind: ClassVar[str] = "draw_taken"
    contributor: int
    peer: str
    name: str
    draw: int
    again: bool


@dataclass(frozen=True)
class DrawWaiting(NodeEvent):
    """The next tile has waited a while for the draw values of `names`' nodes; they are left
    out of the draws in about `drop_in` seconds if nothing comes. `drop_in` -1: never —
    they are the last who draw, so the tile waits until one of them is back."""

    kind: ClassVar[str] = "draw_waiting"
    draw: int
    names: list
    peers: list  # hex peer ids, as `names`
    drop_in: int


@dataclass(frozen=True)
class Rewound(NodeEvent):
    """This node was cut off while the table left its draw value out: the moves from
    `index` on (`undone` of them, from draw `draw`) never counted for the others and are
    taken back; the record is cut to `index` entries and the game follows the table."""

    kind: ClassVar[str] = "rewound"
    index: int
    undone: int
    draw: int
    # "" when this node was cut off; else the name of the member expelled from the table,
    # whose moves (and every move after them) were taken back (`Expelled`)
    expelled: str = ""


@dataclass(frozen=True)
class Waiting(NodeEvent):
    """The pending seat's player is away: the game waits."""

    kind: ClassVar[str] = "waiting"
    seat: int
    name: str
    idle: bool = False  # their laptop is here, but they do not play (`NodeCore._idle`)


@dataclass(frozen=True)
class Away(NodeEvent):
    kind: ClassVar[str] = "away"
    peer: str
    name: str
    left: bool
    idle: bool = False  # here, but did not play the decision that waits for them
    # (with `idle`) not for the first time: they were given IDLE_AGAIN_S, not IDLE_AFTER_S
    again: bool = False
    # (with `left`) its laptop never acknowledged the lobby that seated it: it gave up on
    # its join before the table's answer came, and the seat is free again
    unconfirmed: bool = False


@dataclass(frozen=True)
class Back(NodeEvent):
    kind: ClassVar[str] = "back"
    peer: str
    name: str


@dataclass(frozen=True)
class NotPlaying(NodeEvent):
    """This node's own player has let their decision wait IDLE_AFTER_S (IDLE_AGAIN_S
    after a first time): the others count them as away now, and may give their seat to
    a bot. Said once a decision, on this node only: its player may still be there."""

    kind: ClassVar[str] = "not_playing"


@dataclass(frozen=True)
class Unheard(NodeEvent):
    """This node hears the others, but none of them has acknowledged what it sent for
    seconds (`unheard`: True), or they hear it again (False). A firewall letting only
    one way through, or a one-way Wi-Fi fault: its moves do not reach the table."""

    kind: ClassVar[str] = "unheard"
    unheard: bool


@dataclass(frozen=True)
class Restarted(NodeEvent):
    """A member's node came back with a new incarnation."""

    kind: ClassVar[str] = "restarted"
    peer: str
    name: str


@dataclass(frozen=True)
class SeatHandedOver(NodeEvent):
    """A human seat whose player is away is played by a bot from now on; `driver` is the
    node that plays it (every node computes the same one)."""

    kind: ClassVar[str] = "handover"
    seat: int
    name: str
    bot: str
    driver: str
    driver_name: str
    # its player was here but did not play (`NodeCore._idle`): the seat is theirs again
    # when they ask for it (`resume`), not when their laptop is heard
    idle: bool = False
    # (with `idle`) not for the first time: they were given IDLE_AGAIN_S, not IDLE_AFTER_S
    again: bool = False


@dataclass(frozen=True)
class SeatReclaimed(NodeEvent):
    """The player of a handed-over seat is back and plays it again."""

    kind: ClassVar[str] = "reclaimed"
    seat: int
    name: str


@dataclass(frozen=True)
class ChatLine(NodeEvent):
    kind: ClassVar[str] = "chat"
    peer: str
    name: str
    text: str
    watcher: bool = False  # said by someone watching the table (protocol/watching.md)


@dataclass(frozen=True)
class Refused(NodeEvent):
    """A datagram or a message was refused; `what` names the message (None for datagrams)."""

    kind: ClassVar[str] = "refused"
    peer: str | None
    sender: str
    addr: str
    reason: str
    what: str | None = None


@dataclass(frozen=True)
class Mismatch(NodeEvent):
    """This node's state differs from a peer's: the game stops here."""

    kind: ClassVar[str] = "mismatch"
    reason: str
    record: str = ""
    dump: str = ""


@dataclass(frozen=True)
class GameOver(NodeEvent):
    """The end; sent once the record is complete on disk."""

    kind: ClassVar[str] = "game_over"
    digest: str
    scores: list
    winners: list
    moves: int
    record: str = ""


@dataclass(frozen=True)
class Error(NodeEvent):
    kind: ClassVar[str] = "error"
    reason: str


@dataclass(frozen=True)
class Notice(NodeEvent):
    """Something the player should read in the log pane (never printed on the terminal)."""

    kind: ClassVar[str] = "warning"
    text: str


# ------------------------------------------------------------ core -> glue requests


@dataclass(frozen=True)
class BotTurn(NodeEvent):
    """Run bot `bot` for `seat` at move `index` with `seed`, then call `bot_move`."""

    kind: ClassVar[str] = "bot_turn"
    internal: ClassVar[bool] = True
    seat: int
    index: int
    bot: str
    seed: int


@dataclass(frozen=True)
class ChainMade(NodeEvent):
    """This node committed to a fresh chain mid-game: keep its secret with the resume data
    (`NodeCore.late_chain_secrets`), so a restarted node goes on revealing with it."""

    kind: ClassVar[str] = "chain_made"
    internal: ClassVar[bool] = True


@dataclass(frozen=True)
class RecordMove(NodeEvent):
    """Append this move (engine object) and its digest to the record."""

    kind: ClassVar[str] = "record_move"
    internal: ClassVar[bool] = True
    index: int
    move: Any
    digest: bytes
    proof: list | None = None  # a fair draw's values, [[contributor, value], ...]
    seat: int | None = None  # whose decision it was (None: a tile reveal)
    # a bot's move for a player's seat (the player away): True, False, or None when this
    # node cannot tell (a move from a fetched log: the record goes by the lobby then)
    by_bot: bool | None = None





@dataclass(frozen=True)
class PlayerLeft(NodeEvent):
    """A member said goodbye (FAREWELL). `for_good`: the table draws without it from tile
    `draw + 1` on and `bot` (a bot kind) plays its `seats` at once; else its seats wait
    for it as an absent player's do."""

    kind: ClassVar[str] = "left"
    peer: str
    name: str
    for_good: bool
    seats: list  # seat indices it owned
    bot: str  # the kind that plays them from now on ("" when they wait)
    draw: int


@dataclass(frozen=True)
class Woke(NodeEvent):
    """This computer was asleep (or the process stopped) for `slept` seconds: the node
    asks the table what happened before it acts again."""

    kind: ClassVar[str] = "woke"
    slept: float


@dataclass(frozen=True)
class Answered(NodeEvent):
    """After a sleep (`slept` > 0) or a restart (`slept` 0) the table answered, and this
    node acts again: its screen must look again at whose decision it is, since nothing
    else may happen (the decision waiting was this node's own, before and after)."""

    kind: ClassVar[str] = "answered"
    slept: float


@dataclass(frozen=True)
class TableGone(NodeEvent):
    """After waking, no member of the table answered: it finished or broke up while this
    computer slept. `moves`: how far this node's own record goes."""

    kind: ClassVar[str] = "table_gone"
    moves: int
    slept: float


@dataclass(frozen=True)
class BotFallback(NodeEvent):
    """The bot of `seat` failed (`reason`); `fallback` played the decision instead."""

    kind: ClassVar[str] = "bot_fallback"
    seat: int
    index: int
    bot: str
    fallback: str
    reason: str


@dataclass(frozen=True)
class Watching(NodeEvent):
    """This node watches the table `game` through the member `feeder` (protocol/
    watching.md): the lobby and, once it runs, the game follow."""

    kind: ClassVar[str] = "watching"
    game: str
    game_id: str
    feeder: str
    feeder_name: str
    moves: int  # moves the feeder had when it answered (heartbeats say more later)


@dataclass(frozen=True)
class WatchCut(NodeEvent):
    """Watching: its feeder went quiet and every member asked after it stayed silent too
    (`cut`: True): this laptop is cut off from the table (its Wi-Fi, a sleep), or the
    table ended meanwhile. It keeps asking, and says False once a member feeds it again.
    `moves`: how far its game goes."""

    kind: ClassVar[str] = "watch_cut"
    cut: bool
    moves: int


@dataclass(frozen=True)
class WatchersChanged(NodeEvent):
    """Who watches the table now, as this node knows it: `[{"peer", "name"}, ...]`."""

    kind: ClassVar[str] = "watchers"
    watchers: list


@dataclass(frozen=True)
class SeatTaken(NodeEvent):
    """A newcomer took the seats `seats` (a player's: one, or two in the two-colour
    variant) that a bot played; `was`: the name the seat had. `mine`: this node took it."""

    kind: ClassVar[str] = "seat_taken"
    seats: list
    name: str
    was: str
    peer: str
    mine: bool


@dataclass(frozen=True)
class GuestRefused(NodeEvent):
    """The table refused this node as a guest (watching, or taking a seat): `reason` is
    the REFUSE text (net.protocol.lobby.GUEST_REFUSALS)."""

    kind: ClassVar[str] = "guest_refused"
    reason: str


@dataclass(frozen=True)
class ProofHeld(NodeEvent):
    """This node holds a proof that the member `peer` (`name`) sent what no honest laptop
    sends (protocol/security.md, "Proof of misbehaviour"): `proof` is its kind
    (`two-moves`, `refused-move`, `two-lobbies`), `detail` says what was sent. The table
    expels it once enough members hold one (`Expelled`)."""

    kind: ClassVar[str] = "proof"
    peer: str
    name: str
    proof: str
    detail: str
    moves: int = 0  # this node's move count when it first held one


@dataclass(frozen=True)
class Expelled(NodeEvent):
    """The table expelled the member `peer` (`name`) on a proof (`proof_kind`, `detail`):
    its `seats` are played by the table's bot (`bot`) from move `from_move` on, and it
    takes no part in the draws any more. `moves`: this node's move count when it took it.
    `you`: this laptop is the one expelled; it stops (it may watch the game)."""

    kind: ClassVar[str] = "expelled"
    peer: str
    name: str
    seats: list
    from_move: int
    proof_kind: str
    detail: str
    bot: str
    moves: int
    you: bool = False
    # it was expelled already: a proof of two moves found since moves the bot's first
    # move back to `from_move` (the moves from there are taken back)
    earlier: bool = False


# every kind a UI may see, in the order defined here (internal requests to the glue left out)
KINDS = tuple(c.kind for c in NodeEvent.__subclasses__() if not c.internal)

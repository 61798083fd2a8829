"""Join-or-create by game name, settling simultaneous creations (`play --game NAME`).

Several players started within the same second may each see no game and create one. The
rule that settles it needs no agreement protocol: while a node's game is still in the
lobby, if the LAN shows another joinable lobby of the same name with a smaller game id,
the node leaves its game and joins that one. Every node applies the same rule to the same
adverts, so all of them drain into the game with the smallest id.

A table is *settled* once the node has sat at it for SETTLE_S while asking the LAN again
and again (`Discovery.hurry`) without hearing of a same-named table with a smaller id;
`on_settled` is called then (or as soon as the game leaves the lobby), and a user
interface shows no seat before it — so a player never sees a table that then dissolves.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from tongiaki_lan.net.aio.discovery import Discovery, GameInfo
from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
from tongiaki_lan.net.protocol.events import RequestRefused
from tongiaki_lan.net.protocol.lobby import is_name_refusal

log = logging.getLogger("tongiaki_lan.net.aio.matchmaking")

# long enough for a same-named table opened at the same moment to be heard of, even at
# 40 % loss: 15 questions (Discovery.HURRY_EVERY_S) plus the other node's announcements
SETTLE_S = 3.0


class GameRunning(Exception):
    """The game asked for by name has already started: a latecomer may watch it or take
    an open seat (protocol/watching.md), never open a second table of its name."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(f"game {info.name!r} is already running")
        self.info = info


def running_game(disc: Discovery, name: str) -> GameInfo | None:
    """The started (not finished) game of that name on the LAN, if any (the oldest)."""
    running = [g for g in disc.games() if g.name == name and g.running]
    return min(running, key=lambda g: (g.first_seen, g.game_id)) if running else None


async def watch_advertised(node: Node, info: GameInfo, passphrase: str | None = None,
                           timeout: float = 3.0) -> None:
    """Watch a game picked from `Discovery.games()` through the first member that
    answers. Raises JoinRefused with the last reason if none does."""
    last: JoinRefused | None = None
    for ref in refs_of(info):
        try:
            await node.watch_game(ref, passphrase, timeout=timeout)
            return
        except JoinRefused as exc:
            last = exc
    raise last or JoinRefused(f"game {info.name!r} has no reachable member")


def refs_of(info: GameInfo) -> list[GameRef]:
    return [GameRef(info.game_id, a.peer, h, a.port, info.passphrase, info.name)
            for a in info.members for h in a.hosts]


async def join_advertised(node: Node, info: GameInfo, passphrase: str | None = None,
                          colour: str = "", timeout: float = 3.0) -> None:
    """Join a game picked from `Discovery.games()`, trying each advertised member in turn.
    Raises JoinRefused with the last reason if none of them seats us."""
    last: JoinRefused | None = None
    for ref in refs_of(info):
        try:
            await node.join_game(ref, passphrase, colour, timeout=timeout)
            return
        except JoinRefused as exc:
            last = exc
    raise last or JoinRefused(f"game {info.name!r} has no reachable member")


async def join_or_create(node: Node, disc: Discovery, game: str, players: int,
                         passphrase: str | None, wait: float, colour: str = "",
                         timeout: float = 120.0,
                         on_settled: Callable[[], None] | None = None,
                         variant: str = "standard") -> None:
    """Return once this node's game has started (its lobby left the lobby phase).
    `on_settled()` is called once, when the table this node sits at is settled."""
    deadline = time.monotonic() + wait
    give_up = time.monotonic() + timeout
    refused: dict[bytes, float] = {}
    sat_at: tuple[bytes, float] | None = None  # (game id, since when)
    settled = False

    def settle() -> None:
        nonlocal settled
        if not settled:
            settled = True
            if on_settled is not None:
                on_settled()

    while True:
        now = time.monotonic()
        if now > give_up:
            raise TimeoutError(f"game {game!r} did not start within {timeout:.0f} s")
        lb = node.lobby
        if lb is not None and lb.phase != "lobby":
            settle()
            return
        if lb is not None and (sat_at is None or sat_at[0] != node.game_id):
            sat_at = (node.game_id, now)
            disc.hurry(SETTLE_S)  # a twin table opened at the same moment: hear of it now
        candidates = sorted(
            (g for g in disc.games() if g.name == game and g.joinable
             and g.game_id != node.game_id and refused.get(g.game_id, 0) < now),
            key=lambda g: g.game_id)
        target: GameInfo | None = None
        if lb is None:
            if candidates:
                target = candidates[0]
            elif (late := running_game(disc, game)) is not None:
                raise GameRunning(late)  # never a second table of a running game's name
            elif now >= deadline:
                await node.create_game(game, players, passphrase, colour, variant=variant)
                node.set_ready(True)
                continue
        elif candidates and candidates[0].game_id < node.game_id:
            target = candidates[0]
            log.info("moving from game %s to %s (same name, smaller id)",
                     node.game_id.hex(), target.game_id.hex())
            await node.leave_game()
        if target is not None:
            joined = False
            for ref in refs_of(target):
                try:
                    await node.join_game(ref, passphrase, colour, timeout=3.0)
                    joined = True
                    break
                except JoinRefused as exc:
                    if is_name_refusal(str(exc)):  # no other member would seat that name
                        raise
                    node.notify(RequestRefused(
                        ref.peer.hex(), f"join {target.name} ({target.game_id.hex()}): {exc}"))
            if joined:
                node.set_ready(True)
            else:
                refused[target.game_id] = time.monotonic() + 2.0
            continue
        if lb is not None and not settled and now - sat_at[1] >= SETTLE_S:
            log.info("table %s settled", node.game_id.hex())
            settle()
        await disc.wait_changed(0.2)


async def wait_game(node: Node, timeout: float) -> None:
    await asyncio.wait_for(node.wait_for(
        lambda: node.game is not None and (node.game.is_over or node.stopped is not None),
        timeout), timeout + 1)

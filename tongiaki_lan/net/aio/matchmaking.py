"""Join-or-create by game name, so that the tables of a name converge (`play --game NAME`).

Several players started within the same second may each see no game and create one; a
table fills while others still wait; a creator mistyped the passphrase. What to do about
it is decided by `net.protocol.tables.Seeker` (sans-I/O) from the tables discovery shows:
twins merge into the one with the smallest key, the players of a table whose name filled
elsewhere go on to "NAME (2)", a latecomer is told the game runs. This is its glue: it
asks the LAN again while a table is new (`Discovery.hurry`), joins and creates, and calls
`on_settled` once the table is settled — a user interface shows no seat before, so a
player never sees a table that then dissolves.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from tongiaki_lan.net.aio.discovery import Discovery, GameInfo
from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
from tongiaki_lan.net.protocol import tables as T
from tongiaki_lan.net.protocol.events import RequestRefused
from tongiaki_lan.net.protocol.invite import PassphraseNeeded
from tongiaki_lan.net.protocol.lobby import is_name_refusal

log = logging.getLogger("tongiaki_lan.net.aio.matchmaking")

SETTLE_S = T.SETTLE_S  # (the glue hurries discovery this long at a new table)
JOIN_TIMEOUT_S = 3.0  # per member asked: an answer takes a round trip, silence this long


class GameRunning(Exception):
    """The game asked for by name has already started: a latecomer may watch it or take
    an open seat (protocol/watching.md), never open a second table of its name."""

    def __init__(self, info: GameInfo) -> None:
        super().__init__(f"game {info.name!r} is already running")
        self.info = info


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


def table_of(info: GameInfo) -> T.Table:
    """A game as `net.protocol.tables` reads it."""
    return T.Table(info.game_id, info.name, info.phase, info.taken, info.total,
                   info.passphrase, info.open_seats, info.fresh)


def own_table(node: Node) -> T.Table | None:
    """The table this node sits at, as its own lobby says (no advert needed)."""
    lb = node.lobby
    if lb is None or node.core.watching:
        return None
    return T.Table(node.game_id, lb.name, lb.phase, len(lb.seats), lb.total, lb.passphrase)


async def join_or_create(node: Node, disc: Discovery, game: str, players: int,
                         passphrase: str | None, wait: float, colour: str = "",
                         timeout: float = 120.0,
                         on_settled: Callable[[], None] | None = None,
                         variant: str = "standard") -> None:
    """Return once this node's game has started (its lobby left the lobby phase); raise
    GameRunning for a latecomer. `on_settled()` is called once, when the table this node
    sits at is settled."""
    seeker = T.Seeker(game, bool(passphrase), time.monotonic(), wait)
    give_up = time.monotonic() + timeout
    hurried_for: bytes | None = None
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
        mine = own_table(node)
        if mine is not None and mine.phase != "lobby":
            settle()
            return
        if mine is not None and hurried_for != mine.game_id:
            hurried_for = mine.game_id
            disc.hurry(SETTLE_S)  # a twin table opened at the same moment: hear of it now
        infos = {g.game_id: g for g in disc.games(include_own=False)}
        action = seeker.decide(now, [table_of(g) for g in infos.values()], mine)
        if isinstance(action, T.Running):
            raise GameRunning(infos[action.table.game_id])
        if isinstance(action, T.Join | T.Create) and mine is not None:
            where = (action.table.name if isinstance(action, T.Join) else action.name)
            log.info("leaving table %s (%s) for %s", node.game_id.hex(), mine.name, where)
            await node.leave_game(keep_advert=True)
        if isinstance(action, T.Create):
            log.info("opening table %r (tables of the name heard of: %s)", action.name,
                     ", ".join(f"{g.name} {g.phase} {g.taken}/{g.total}"
                               for g in infos.values() if seeker.index(table_of(g)))
                     or "none")
            await node.create_game(action.name, players, passphrase, colour, variant=variant)
            node.set_ready(True)
            continue
        if isinstance(action, T.Join):
            await _join(node, infos[action.table.game_id], action.table, seeker, passphrase,
                        colour)
            if node.lobby is None:
                # not let in, and at no table: the advert kept for the table we left
                # (`leave_game(keep_advert=True)`) must go, or it shows a table nobody sits
                # at. At a party of ten, four laptops that had each left theirs to merge
                # into another that was being left too chased one another's empty tables
                # for 90 s, each knock unanswered, and none opened a table
                await disc.withdraw()
            continue
        if seeker.settled(now, mine):
            if not settled:
                log.info("table %s (%s) settled", node.game_id.hex(), mine.name)
            settle()
        await disc.wait_changed(0.2)


async def settle_created(node: Node, games: list[GameInfo], seeker: T.Seeker,
                         passphrase: str | None, colour: str = "") -> T.Action | None:
    """One look for a table a person opened by name (a console's `create NAME`, while
    they sit alone at it): as `join_or_create` would, move to the twin with the smaller
    key, or on to the next table of the name once this one's name filled elsewhere.
    Returns what was done (Join: seated at that table; Create: opened that name), or None.
    `games`: the LAN's games as the caller lists them."""
    mine = own_table(node)
    if mine is None or mine.phase != "lobby":
        return None
    infos = {g.game_id: g for g in games if g.game_id != node.game_id}
    action = seeker.decide(time.monotonic(), [table_of(g) for g in infos.values()], mine)
    if not isinstance(action, T.Join | T.Create):
        return None
    lb = node.lobby
    log.info("leaving table %s (%s) for %s", node.game_id.hex(), mine.name,
             action.table.name if isinstance(action, T.Join) else action.name)
    await node.leave_game(keep_advert=True)
    if isinstance(action, T.Join):
        await _join(node, infos[action.table.game_id], action.table, seeker, passphrase,
                    colour, ready=False)
        if node.lobby is not None:
            return action
        # (it filled, or went, meanwhile: a table of our own again, under a free name)
        action = T.Create(seeker.free_name([table_of(g) for g in infos.values()]))
    await node.create_game(action.name, lb.total, passphrase, colour, variant=lb.variant)
    return action


async def _join(node: Node, info: GameInfo, table: T.Table, seeker: T.Seeker,
                passphrase: str | None, colour: str, ready: bool = True) -> None:
    """Try each advertised member of `info` in turn; a refusal goes to the seeker (a table
    that never answered a passphrase is never tried again). `ready`: say so once seated
    (a headless player is; a person says it)."""
    refs = refs_of(info)
    silent = bool(refs)
    for ref in refs:
        try:
            await node.join_game(ref, passphrase, colour, timeout=JOIN_TIMEOUT_S)
            if ready:
                node.set_ready(True)
            return
        except JoinRefused as exc:
            if is_name_refusal(str(exc)):  # no other member would seat that name
                raise
            silent = silent and exc.silent_lock
            node.notify(RequestRefused(
                ref.peer.hex(), f"join {info.name} ({info.game_id.hex()}): {exc}"))
    seeker.refused(table, time.monotonic(), silent_lock=silent and info.passphrase)


async def watch_by_name(node: Node, disc, name: str, passphrase: str | None,
                        timeout: float, on_waiting: Callable[[], None] | None = None,
                        wait: float = 0.0, following: bytes | None = None) -> None:
    """Watch the table called `name` (`watch --game NAME`): wait for it up to `timeout`
    seconds (calling `on_waiting()` once, if none shows within `wait`), and while it is
    still in the lobby, follow the table the name settles on (`tables.table_to_watch`: a
    twin merged into another, a table whose name filled elsewhere). Returns once the game
    watched has started. Raises JoinRefused when a table refuses (it takes no watchers; no
    answer from a table that is still there, with a passphrase: a wrong one), and
    TimeoutError. `disc`: a Discovery, or anything with its `games()`.

    `following`: the game this node watches already (a console's `watch N` of a table in
    the lobby); then it returns as soon as the node watches anything else, or nothing (the
    player went on to something else), and gives up quietly at `timeout`."""
    give_up = time.monotonic() + timeout
    started = time.monotonic()
    shut: dict[bytes, float] = {}
    told = seen = False
    mine = following
    while True:
        now = time.monotonic()
        if node.core.watching and node.game is not None:
            return  # started: the watcher follows it to its end
        if following is not None and (node.lobby is not None or mine is not None) and not (
                node.core.watching and node.game_id == mine):
            return  # (the player joined, created, left: not ours to follow any more)
        if now > give_up:
            if following is not None:
                return
            raise TimeoutError(f"no game {name!r} started within {timeout:.0f} s" if seen
                               else f"no game {name!r} on the LAN within {timeout:.0f} s")
        infos = {g.game_id: g for g in disc.games()}
        target = T.table_to_watch(name, [table_of(g) for g in infos.values()], now, shut)
        seen = seen or target is not None
        watching = node.game_id if node.core.watching and node.lobby is not None else None
        if target is None and not told and on_waiting is not None and now - started >= wait:
            told = True
            on_waiting()
        if target is not None and target.game_id != watching:
            info = infos[target.game_id]
            if info.passphrase and not passphrase:  # (the listing says it is locked)
                raise PassphraseNeeded(info.name)
            if watching is not None:
                log.info("watching table %s of %r instead of %s", info.game_id.hex(), name,
                         watching.hex())
                await node.leave_game()  # (its feeder stops feeding us at once)
            try:
                await watch_advertised(node, info, passphrase, timeout=JOIN_TIMEOUT_S)
                mine = info.game_id
            except JoinRefused as exc:
                again = {g.game_id for g in disc.games()}
                if not exc.silent_lock and exc.answered:
                    raise  # the table said no (it takes no watchers...): say why
                if exc.silent_lock and info.game_id in again:
                    raise  # still there, silent to our passphrase: a wrong one
                shut[info.game_id] = time.monotonic() + T.RETRY_S  # (gone, or moved on)
                mine = None
            continue
        changed = getattr(disc, "wait_changed", None)
        await (changed(0.2) if changed is not None else asyncio.sleep(0.25))


async def wait_game(node: Node, timeout: float) -> None:
    await asyncio.wait_for(node.wait_for(
        lambda: node.game is not None and (node.game.is_over or node.stopped is not None),
        timeout), timeout + 1)

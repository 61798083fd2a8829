"""Several real nodes in one process on 127.0.0.1: for `bench net` and the tests.

Each node has its own UDP socket and its own engine; they only share the event loop.
Joining goes by address (no zeroconf), which is also how a player joins when multicast
is blocked on their network.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path

from tongiaki_lan.net.aio.node import GameRef, Node


async def make_table(n: int, record_dir: Path, *, passphrase: str | None = None,
                     autoplay: str | None = "random", bots: int = 0,
                     wrap_socket: Callable[[int], Callable | None] | None = None,
                     game_name: str = "loopback", variant: str = "standard") -> list[Node]:
    """Start `n` nodes, seat them in one game (plus `bots` bot seats added by the first
    node) and leave the game to start by itself once everyone is ready."""
    nodes = [Node(f"p{i}", host="127.0.0.1", record_dir=record_dir, autoplay=autoplay,
                  wrap_socket=wrap_socket(i) if wrap_socket else None) for i in range(n)]
    for node in nodes:
        await node.start()
    first = nodes[0]
    await first.create_game(game_name, n + bots, passphrase=passphrase, variant=variant)
    ref = GameRef(first.game_id, first.peer_id, "127.0.0.1", first.address[1], bool(passphrase))
    for node in nodes[1:]:
        await node.join_game(ref, passphrase=passphrase, timeout=20)
    for _ in range(bots):
        first.add_bot("random")
    for node in nodes:
        node.set_ready(True)
    return nodes


async def play_to_end(nodes: list[Node], timeout: float = 120.0) -> None:
    def all_over() -> bool:
        return all(nd.game is not None and (nd.game.is_over or nd.stopped) for nd in nodes)

    await nodes[0].wait_for(all_over, timeout)
    for nd in nodes:
        await nd.flush_record()
    # let the last acknowledgements arrive so no node exits with a peer still behind
    await nodes[0].wait_for(lambda: all(nd.caught_up() for nd in nodes), 10,
                            raise_on_timeout=False)


async def close_all(nodes: list[Node]) -> None:
    for node in nodes:
        with contextlib.suppress(Exception):
            await node.close()


def run(coro):
    return asyncio.run(coro)

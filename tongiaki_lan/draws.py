"""Fair draws without a dealer: every contributing node's hash chain decides each tile.

At the seed agreement each node commits to the head `c = H^L(x)` of a chain built from a
fresh secret `x`. Draw k needs every contributor's k-th preimage `v_k` (`H(v_k)` is the
value it revealed before, `c` for the first), and the tile is chosen from the unrevealed
tiles by a stream seeded with `H(seed, k, v_k of each contributor in a fixed order)`. Until
the last `v_k` is out nobody can know the tile, and nobody can change a `v_k` once
committed. protocol/draws.md is the language-neutral specification; this module is pure
(no I/O, no clock): the network decides when preimages are sent, records keep them, and
`verify` re-checks every draw with `check_draw`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass

from tongiaki_lan.engine import Dealer, Game
from tongiaki_lan.engine.shuffle import Stream
from tongiaki_lan.engine.tiles import STACK_IDS

CHAIN_LENGTH = 32  # at least the 31 tiles of the stack
# chains a table may take mid-game (protocol/draws.md, "Taking part again"), and so how many
# contributors a draw may name: six of the seed round and those
MAX_LATE_CHAINS = 6
MAX_CONTRIBUTORS = 6 + MAX_LATE_CHAINS
_CHAIN = b"tongiaki-chain"
_DRAW = b"tongiaki-draw"


def chain_step(value: bytes) -> bytes:
    return hashlib.blake2b(value, digest_size=32, person=_CHAIN).digest()


class Chain:
    """One node's hash chain for one game; `secret` must stay on that node (its profile).
    `first`: the first draw it takes part in — 0 for a chain of the seed round, later for
    one a node committed to mid-game (a laptop back after the table drew without it, or a
    newcomer: protocol/draws.md, "Taking part again"). Its values are then those of a chain
    started at draw `first`: `v_first` hashes once to the commitment."""

    def __init__(self, secret: bytes | None = None, length: int = CHAIN_LENGTH,
                 first: int = 0):
        if secret is None:
            secret = os.urandom(32)
        if len(secret) != 32:
            raise ValueError("a chain secret is 32 bytes")
        if length < len(STACK_IDS):
            raise ValueError(f"a chain needs at least {len(STACK_IDS)} links")
        values = [bytes(secret)]
        for _ in range(length):
            values.append(chain_step(values[-1]))
        self._values = values
        self.length = length
        self.first = first

    def starting_at(self, first: int) -> Chain:
        """The same secret and commitment, its values from draw `first` on."""
        return Chain(self.secret, self.length, first)

    @property
    def secret(self) -> bytes:
        return self._values[0]

    @property
    def commitment(self) -> bytes:
        return self._values[-1]

    def preimage(self, k: int) -> bytes:
        """The value revealed for draw k (0-based)."""
        if not 0 <= k - self.first < self.length:
            raise ValueError(f"draw {k} is beyond this chain")
        return self._values[self.length - 1 - (k - self.first)]


def preimage_ok(anchor: bytes, anchor_draw: int, value: bytes, draw: int) -> bool:
    """Does `value`, revealed for `draw`, hash back to `anchor` — the commitment
    (`anchor_draw = -1`) or the value revealed for `anchor_draw`? Gaps are allowed: a node
    that missed draws and came back still proves its value by hashing several times."""
    steps = draw - anchor_draw
    if steps < 1 or len(value) != 32:
        return False
    for _ in range(steps):
        value = chain_step(value)
    return value == anchor


def draw_tile(seed: bytes, draw: int, preimages: Sequence[bytes],
              unrevealed: Sequence[int]) -> int:
    """The tile of draw `draw`: uniform over `unrevealed` (sorted), without modulo bias."""
    if not unrevealed:
        raise ValueError("no tile left to draw")
    if not preimages:
        raise ValueError("a draw needs at least one contributor's value")
    mix = hashlib.blake2b(seed + draw.to_bytes(4, "big") + b"".join(preimages),
                          digest_size=32, person=_DRAW).digest()
    tiles = sorted(unrevealed)
    return tiles[Stream(mix).below(len(tiles))]


@dataclass
class DrawBook:
    """What the peers of one game have proven so far: each contributor's commitment and
    latest revealed value. `check` accepts a draw's values or says what is wrong."""

    seed: bytes
    commitments: tuple[bytes, ...]  # by contributor, in the agreed order
    # the first draw of each contributor (0 for the seed round's; later for a chain
    # committed mid-game, `add`); all 0 when not given
    firsts: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        self.commitments = tuple(self.commitments)
        self.firsts = tuple(self.firsts) or (0,) * len(self.commitments)
        self.last = list(self.commitments)
        self.last_draw = [f - 1 for f in self.firsts]
        self.left: dict[int, int] = {}  # contributor -> first draw it took no part in
        self.tile: int | None = None  # the tile the last draw checked chose

    def add(self, commitment: bytes, first: int) -> int:
        """A chain committed mid-game, taking part from draw `first`; its index."""
        self.commitments = (*self.commitments, commitment)
        self.firsts = (*self.firsts, first)
        self.last.append(commitment)
        self.last_draw.append(first - 1)
        return len(self.commitments) - 1

    def remember(self, draw: int, values: Sequence[tuple[int, bytes]]) -> None:
        """Take a draw already checked (a record replayed on resume) as the latest."""
        taking = {i for i, _ in values}
        for i, v in values:
            self.last[i], self.last_draw[i] = v, draw
        for i in range(len(self.commitments)):
            if i not in taking and self.firsts[i] <= draw:
                self.left.setdefault(i, draw)

    def check(self, draw: int, values: Sequence[tuple[int, bytes]],
              unrevealed: Sequence[int], tile: int | None = None, *,
              hashed: bool = False) -> str | None:
        """`values`: (contributor index, v_draw) in contributor order. Returns why the draw
        is refused, or None (and then remembers the values, and the tile they chose in
        `self.tile`). `hashed`: each value was already checked against its chain as it
        came in (a node dealing live), so only the draw's shape is checked here."""
        indices = [i for i, _ in values]
        if not indices:
            return f"draw {draw} has no contributor's value"
        if indices != sorted(set(indices)):
            return "contributors must be listed once each, in the agreed order"
        for i, v in values:
            if not 0 <= i < len(self.commitments):
                return f"contributor {i} is not one of the {len(self.commitments)}"
            if i in self.left:
                return (f"contributor {i} was left out of the draws from draw {self.left[i]} "
                        "on and cannot come back")
            if draw < self.firsts[i]:
                return f"contributor {i} takes part only from draw {self.firsts[i]} on"
            if not hashed and not preimage_ok(self.last[i], self.last_draw[i], v, draw):
                return (f"contributor {i}'s value for draw {draw} does not hash to the value "
                        "it committed to")
        got = draw_tile(self.seed, draw, [v for _, v in values], unrevealed)
        if tile is not None and got != tile:
            return f"the values of draw {draw} choose tile {got}, not {tile}"
        self.remember(draw, values)
        self.tile = got
        return None


class ChainDealer(Dealer):
    """Deals with every contributor's chain at hand: for tests, vectors and a table whose
    nodes all run in one process. `dropped` lists (contributor, first draw without it),
    as the lobby of a LAN game does."""

    def __init__(self, seed: bytes, chains: Sequence[Chain],
                 dropped: Sequence[tuple[int, int]] = ()):
        self.seed = bytes(seed)
        self.chains = tuple(chains)
        self.dropped = tuple(dropped)
        self.order = ()

    def values(self, draw: int) -> list[tuple[int, bytes]]:
        gone = {i for i, first in self.dropped if first <= draw}
        return [(i, c.preimage(draw)) for i, c in enumerate(self.chains)
                if i not in gone and c.first <= draw]

    def tile_for(self, game: Game) -> int:
        k = game.draws()
        return draw_tile(self.seed, k, [v for _, v in self.values(k)], game.unrevealed_tiles())

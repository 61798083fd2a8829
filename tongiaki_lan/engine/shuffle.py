"""The stack order as a pure function of the 32-byte game seed (protocol/shuffle.md).

Python's `random` is avoided on purpose: its algorithms are not a published,
language-neutral contract, and a peer written in another language must be able to
rebuild the same stack.
"""

from __future__ import annotations

import hashlib

from .tiles import STACK_IDS

PERSON = b"tongiaki-shuffle"  # exactly 16 bytes, BLAKE2b's personalisation limit
# below(n)'s rejection limit for the small n a shuffle asks for, worked out once
_LIMITS = (0,) + tuple((1 << 64) - ((1 << 64) % n) for n in range(1, 64))


class Stream:
    """Unsigned 64-bit draws from BLAKE2b in counter mode (also the fair draws' stream,
    protocol/draws.md)."""

    def __init__(self, seed: bytes):
        self._seed = seed
        self._counter = 0
        self._words: list[int] = []  # the current block's words, last one first

    def next_u64(self) -> int:
        if not self._words:
            block = hashlib.blake2b(
                self._seed + self._counter.to_bytes(8, "big"), digest_size=64, person=PERSON
            ).digest()
            self._counter += 1
            # the 8 big-endian words of the block, popped from the end in block order
            self._words = [int.from_bytes(block[i : i + 8], "big") for i in range(56, -1, -8)]
        return self._words.pop()

    def below(self, n: int) -> int:
        """Uniform in [0, n) by rejection, so no value is favoured."""
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next_u64()
            if x < limit:
                return x % n


def shuffled_stack(seed: bytes) -> tuple[int, ...]:
    """Tile ids 1..31 in draw order (first element is drawn first)."""
    if not isinstance(seed, (bytes, bytearray)) or len(seed) != 32:
        raise ValueError("the seed must be exactly 32 bytes")
    order = list(STACK_IDS)
    stream = Stream(bytes(seed))
    for i in range(len(order) - 1, 0, -1):
        j = stream.below(i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)

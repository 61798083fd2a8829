"""Commit-reveal seed agreement (protocol/seed-agreement.md).

Every node commits to H(secret) before anyone reveals, so nobody can pick their secret
after seeing the others'; the seed hashes all secrets in seat order, so a single honest
node with a fresh random secret is enough to make the seed unpredictable to everyone else.
"""

from __future__ import annotations

import hashlib
import os

COMMIT_DOMAIN = b"tongiaki-lan/v1/commit"
SEED_DOMAIN = b"tongiaki-lan/v1/seed"
CHECK_DOMAIN = b"tongiaki-lan/v1/seed-check"


def new_secret() -> bytes:
    return os.urandom(32)


def commitment(game_id: bytes, nonce: bytes, peer: bytes, secret: bytes) -> bytes:
    """Binds the secret to this game, this start attempt and this node: a commitment seen
    in one start cannot be replayed in another."""
    h = hashlib.blake2b(digest_size=32)
    for part in (COMMIT_DOMAIN, game_id, nonce, peer, secret):
        h.update(len(part).to_bytes(2, "big"))
        h.update(part)
    return h.digest()


def combine(game_id: bytes, nonce: bytes, secrets_in_order: list[bytes]) -> bytes:
    h = hashlib.blake2b(digest_size=32)
    for part in (SEED_DOMAIN, game_id, nonce, *secrets_in_order):
        h.update(len(part).to_bytes(2, "big"))
        h.update(part)
    return h.digest()


def seed_check(seed: bytes, chains: list[bytes] | tuple[bytes, ...] = ()) -> bytes:
    """What SEED_OK carries: proves which seed and which chain commitments (in contributor
    order) a node holds, so a node that told different peers different chain heads is
    caught before the first draw."""
    return hashlib.blake2b(CHECK_DOMAIN + seed + b"".join(chains), digest_size=32).digest()


class SeedRound:
    """One start attempt as seen by one node: collects commits, then reveals."""

    def __init__(self, game_id: bytes, nonce: bytes, me: bytes, order: list[bytes],
                 secret: bytes | None = None, chain: bytes = bytes(32)) -> None:
        self.game_id = game_id
        self.nonce = nonce
        self.me = me
        self.order = list(order)  # participating nodes in seat order
        self.secret = secret if secret is not None else new_secret()
        self.commits: dict[bytes, bytes] = {me: commitment(game_id, nonce, me, self.secret)}
        self.reveals: dict[bytes, bytes] = {me: self.secret}
        # each node's hash-chain head for the fair draws (protocol/draws.md)
        self.chains: dict[bytes, bytes] = {me: chain}
        self.revealed = False
        self.oks: dict[bytes, bytes] = {}
        self.ok_sent = False

    @property
    def my_commitment(self) -> bytes:
        return self.commits[self.me]

    def add_commit(self, peer: bytes, value: bytes, chain: bytes = bytes(32)) -> str | None:
        """Record a commitment and chain head; returns a refusal reason or None."""
        if peer not in self.order:
            return "commitment from a node that is not seated"
        old = self.commits.get(peer)
        if old is not None and (old, self.chains.get(peer)) != (value, chain):
            return "second, different commitment"
        self.commits[peer] = value
        self.chains[peer] = chain
        return None

    def all_committed(self) -> bool:
        return all(p in self.commits for p in self.order)

    def add_reveal(self, peer: bytes, secret: bytes) -> str | None:
        """Check a reveal against its commitment. A mismatch is fatal for this attempt."""
        if peer not in self.order:
            return "reveal from a node that is not seated"
        if peer not in self.commits:
            return "reveal before commitment"
        if commitment(self.game_id, self.nonce, peer, secret) != self.commits[peer]:
            return "reveal does not match its commitment"
        self.reveals[peer] = secret
        return None

    def complete(self) -> bool:
        return all(p in self.reveals for p in self.order)

    def add_ok(self, peer: bytes, check: bytes) -> str | None:
        if peer not in self.order:
            return "seed confirmation from a node that is not seated"
        self.oks[peer] = check
        if self.complete() and check != self.check():
            return "confirmed a different seed (different reveals were sent to different nodes)"
        return None

    def confirmed(self) -> bool:
        """Every participant, this node included, holds the same seed."""
        if not self.complete():
            return False
        mine = self.check()
        return all(self.oks.get(p) == mine for p in self.order if p != self.me)

    def seed(self) -> bytes:
        return combine(self.game_id, self.nonce, [self.reveals[p] for p in self.order])

    def chain_heads(self) -> tuple[bytes, ...]:
        """The contributors' chain commitments, in contributor (seed) order."""
        return tuple(self.chains[p] for p in self.order)

    def check(self) -> bytes:
        return seed_check(self.seed(), self.chain_heads())

"""A node's identity: an Ed25519 key pair kept in its profile, and the peer id derived
from the public key.

Why: without it, anyone on the LAN could put a member's peer id on a datagram and speak
for that member (play its pending decision, make it look present, "restart" it and take
its traffic). Now every datagram carries the sender's public key and an Ed25519 signature
(protocol/security.md), and the peer id *is* a hash of that key, so only the holder of the
private key can send as that peer — a restarted node is recognised because it holds the
same key, and nobody else can claim to be it. Ed25519 (RFC 8032) because signatures are
small (64 bytes), deterministic and fast (tens of microseconds), and `cryptography`
(OpenSSL underneath, the project's listed library for this) provides it; we write no
cryptography ourselves.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

PUBLIC_LEN = 32
SIGNATURE_LEN = 64
PEER_ID_PERSON = b"tongiaki-peer"
ID_LEN = 8


def peer_id_of(public: bytes) -> bytes:
    """The 8-byte peer id of a public key: BLAKE2b-64 personalised 'tongiaki-peer'."""
    return hashlib.blake2b(public, digest_size=ID_LEN, person=PEER_ID_PERSON).digest()


@lru_cache(maxsize=256)
def _public_key(public: bytes) -> Ed25519PublicKey:
    return Ed25519PublicKey.from_public_bytes(public)


def verify(public: bytes, signature: bytes, data: bytes) -> bool:
    try:
        _public_key(public).verify(signature, data)
        return True
    except (InvalidSignature, ValueError):
        return False


LINK_KEY_PERSON = b"tongiaki-link"


class KeyExchange:
    """One run's X25519 key: a node signs its public half into its first datagrams to a
    peer, and the two derive a key only they hold, so afterwards each datagram needs an
    HMAC (microseconds) instead of a signature (a tenth of a millisecond to check)."""

    def __init__(self, private: X25519PrivateKey | None = None) -> None:
        self._private = private or X25519PrivateKey.generate()
        self.public = self._private.public_key().public_bytes_raw()

    @classmethod
    def from_private(cls, raw: bytes) -> KeyExchange:
        """A fixed key (golden vectors); a node always makes a fresh one per run."""
        return cls(X25519PrivateKey.from_private_bytes(raw))

    def link_key(self, my_id: bytes, their_id: bytes, their_kx: bytes) -> bytes | None:
        """The pair's key, the same on both sides: BLAKE2b-256 keyed by the X25519 shared
        secret over both (peer id, X25519 key) pairs in a fixed order."""
        try:
            shared = self._private.exchange(X25519PublicKey.from_public_bytes(their_kx))
        except ValueError:  # a low-order point or a malformed key
            return None
        a, b = sorted([my_id + self.public, their_id + their_kx])
        return hashlib.blake2b(a + b, key=shared, digest_size=32,
                               person=LINK_KEY_PERSON).digest()


class Identity:
    """A private key and what follows from it. The node keeps it in the player's profile
    (net/aio/identity_file.py: mode 0600, binary, atomic): a node that restarts with the
    same profile is the same peer; anyone else is not."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = private.public_key().public_bytes_raw()
        self.peer_id = peer_id_of(self.public)

    @classmethod
    def generate(cls) -> Identity:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def from_seed(cls, seed: bytes) -> Identity:
        """For test vectors and simulations: a fixed 32-byte private key."""
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    def seed(self) -> bytes:
        return self._private.private_bytes_raw()

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)

    def __repr__(self) -> str:  # never the private key
        return f"Identity(peer={self.peer_id.hex()})"

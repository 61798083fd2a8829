"""Passphrase -> per-game MAC key (protocol/security.md).

The key depends on the game id as well as the passphrase so that the same passphrase used
for two games gives two keys, and a datagram of one game is never valid in the other.
PBKDF2 makes an offline guess of a weak passphrase from a captured datagram cost
KDF_ITERATIONS HMAC computations per guess instead of one.
"""

from __future__ import annotations

import hashlib

KDF_SALT_PREFIX = b"tongiaki-lan/v1/key/"
KDF_ITERATIONS = 100_000
KEY_LEN = 32


def derive_key(passphrase: str, game_id: bytes) -> bytes:
    if not passphrase:
        raise ValueError("empty passphrase")
    return hashlib.pbkdf2_hmac(
        "sha256", passphrase.encode("utf-8"), KDF_SALT_PREFIX + game_id, KDF_ITERATIONS, KEY_LEN
    )

"""A player's identity on disk: the 32-byte Ed25519 private key, alone in a private file.

Kept out of net/protocol/ (which holds no files of the node) and written through
tongiaki_lan.files: binary (a key holds a `\\n` byte one time in eight, which a Windows
text-mode file would turn into `\\r\\n`), atomic, and readable by its owner only.
"""

from __future__ import annotations

import os
from pathlib import Path

from tongiaki_lan.files import write_atomic
from tongiaki_lan.net.protocol.identity import Identity

KEY_LEN = 32


class IdentityFileError(ValueError):
    """An identity file that cannot be used; the message says which file and why."""


def load_identity(path: str | os.PathLike) -> Identity:
    path = Path(path)
    raw = path.read_bytes()
    if len(raw) != KEY_LEN:
        raise IdentityFileError(
            f"{path}: not an identity file ({len(raw)} bytes, a key is {KEY_LEN}); move it "
            "away to start with a new identity (the records it played stay readable)")
    return Identity.from_seed(raw)


def save_identity(identity: Identity, path: str | os.PathLike) -> Path:
    """Write the private key readable by its owner only (created 0600, never wider)."""
    return write_atomic(path, identity.seed(), private=True)


def load_or_create_identity(path: str | os.PathLike) -> Identity:
    path = Path(path)
    if path.exists():
        return load_identity(path)
    identity = Identity.generate()
    save_identity(identity, path)
    return identity

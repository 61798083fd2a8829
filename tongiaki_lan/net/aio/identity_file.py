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


PLAYER_IDENTITY = "player.identity"


def player_identity_path(record_dir: str | os.PathLike, name: str) -> Path:
    """The identity file of the one player a console serves, whatever their name is now.

    Earlier versions keyed it by the player's name at start-up (`<name>.identity`), so a
    player who fixed a typo with `name`, or was renamed in the lobby, and then crashed,
    came back as a stranger to their own game. Now one file, `player.identity`, is kept;
    when it does not exist yet the key that played this laptop's newest unfinished game is
    taken over (else the name's), so nothing a player was playing is lost."""
    root = Path(record_dir)
    fixed = root / PLAYER_IDENTITY
    if fixed.exists():
        return fixed
    from tongiaki_lan.net.aio.resumable import unfinished_games

    wanted = [r.peer for r in unfinished_games(root).values()]
    candidates = sorted(root.glob("*.identity")) if root.is_dir() else []
    by_peer = {}
    for path in candidates:
        try:
            by_peer.setdefault(load_identity(path).peer_id, path)
        except (OSError, IdentityFileError):
            continue
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in name) or "player"
    source = next((by_peer[p] for p in wanted if p in by_peer), None) or (
        root / f"{safe}.identity" if (root / f"{safe}.identity").exists() else None)
    if source is not None:
        try:
            save_identity(load_identity(source), fixed)
        except (OSError, IdentityFileError):
            return source
    return fixed

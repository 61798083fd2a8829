"""A player's identity on disk: the 32-byte Ed25519 private key, alone in a private file.

Kept out of net/protocol/ (which holds no files of the node) and written through
tongiaki_lan.files: binary (a key holds a `\\n` byte one time in eight, which a Windows
text-mode file would turn into `\\r\\n`), atomic, and readable by its owner only.
"""

from __future__ import annotations

import os
from pathlib import Path

from tongiaki_lan.files import DamagedFile, write_atomic
from tongiaki_lan.net.protocol.identity import Identity

KEY_LEN = 32


class IdentityFileError(DamagedFile):
    """An identity file that cannot be used; the message says which file, what that costs
    and how to get the seat back. (It was reported as "cannot open a UDP socket".)"""


def load_identity(path: str | os.PathLike) -> Identity:
    path = Path(path)
    raw = path.read_bytes()
    if len(raw) != KEY_LEN:
        raise IdentityFileError(damaged_identity(path, len(raw)))
    return Identity.from_seed(raw)


def damaged_identity(path: Path, size: int) -> str:
    """What a player is told of a damaged identity file: it is this laptop's key to its
    seats, so the way back is the old file; without it, a new identity and a seat taken
    again from a bot."""
    return (f"your identity file {path} is damaged ({size} bytes; a key has {KEY_LEN}): "
            f"it is what lets this laptop take back its seat in a LAN game left unfinished. "
            f"If you have a copy of the file, put it back there. Otherwise move the file away "
            f"and start again: a new identity is made, your records stay readable, and a seat "
            f"you left is played by a bot once another player types `replace` with your name "
            f"(a minute after you went); then `watch` the game and `take` your colour")


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

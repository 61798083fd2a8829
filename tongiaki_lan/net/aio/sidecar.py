"""`<record>.net`: what a restarted node needs besides its record — who it is (peer id),
which game, the lobby at the start, the UDP port it had (reused when free, so the others
reach it again at once), the order of the fair draws' contributors and this node's chain
secrets, the seed round's and any it committed to mid-game (protocol/draws.md). The
secrets decide tiles yet to come, so the file is private to the player (mode 0600), like
the identity; written binary and atomically (files.py)."""

from __future__ import annotations

import os
from pathlib import Path

import msgpack

from tongiaki_lan.files import write_atomic
from tongiaki_lan.net.protocol.codec import Lobby, parse_message

SIDECAR_SUFFIX = ".net"


def sidecar_path(record_path: str | os.PathLike) -> Path:
    return Path(str(record_path) + SIDECAR_SUFFIX)


def write_sidecar(record_path: Path, *, peer: bytes, game_id: bytes, lobby: Lobby,
                  passphrase: bool, port: int, contributors: list[bytes] = (),
                  chain_secret: bytes | None = None, key: bytes | None = None,
                  late_secrets: list[bytes] = (), left: bool = False) -> None:
    """`key`: a passphrase game's key, derived from the passphrase and the game id (never
    the passphrase itself): a player back after a crash is not asked for the passphrase
    while the table's draw waits for them. Private like the chain secret beside it.
    `left`: the player said goodbye for good (`records` says so rather than
    "unfinished"); a resume writes the file again without it."""
    data = {"peer": peer, "game_id": game_id, "lobby": lobby.to_wire(),
            "passphrase": passphrase, "port": port, "contributors": list(contributors),
            "chain": chain_secret, "key": key, "late": list(late_secrets), "left": left}
    write_atomic(sidecar_path(record_path), msgpack.packb(data, use_bin_type=True),
                 private=True)


def read_sidecar(record_path: str | os.PathLike) -> dict:
    raw = msgpack.unpackb(sidecar_path(record_path).read_bytes(), raw=False)
    lobby = parse_message(raw["lobby"])
    if not isinstance(lobby, Lobby):
        raise ValueError("sidecar: not a lobby")
    chain = raw.get("chain")
    if chain is not None and (not isinstance(chain, bytes) or len(chain) != 32):
        raise ValueError("sidecar: the chain secret must be 32 bytes")
    late = raw.get("late", [])
    if not isinstance(late, list) or not all(isinstance(s, bytes) and len(s) == 32
                                             for s in late):
        raise ValueError("sidecar: the chains taken mid-game must be 32-byte secrets")
    key = raw.get("key")
    if key is not None and (not isinstance(key, bytes) or len(key) != 32):
        raise ValueError("sidecar: the game key must be 32 bytes")
    return {"peer": raw["peer"], "game_id": raw["game_id"], "lobby": lobby,
            "passphrase": raw.get("passphrase", False), "port": raw.get("port", 0),
            "contributors": list(raw.get("contributors", [])), "chain_secret": chain,
            "key": key, "late_secrets": late, "left": raw.get("left") is True}


def has_sidecar(record_path: str | os.PathLike) -> bool:
    return sidecar_path(record_path).exists()

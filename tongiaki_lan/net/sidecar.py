"""`<record>.net`: what a restarted node needs besides its record — who it is (peer id),
which game, the lobby at the start, and the UDP port it had (reused when free, so the
others reach it again at once)."""

from __future__ import annotations

import os
from pathlib import Path

import msgpack

from tongiaki_lan.net.codec import Lobby, parse_message

SIDECAR_SUFFIX = ".net"


def sidecar_path(record_path: str | os.PathLike) -> Path:
    return Path(str(record_path) + SIDECAR_SUFFIX)


def write_sidecar(record_path: Path, *, peer: bytes, game_id: bytes, lobby: Lobby,
                  passphrase: bool, port: int) -> None:
    data = {"peer": peer, "game_id": game_id, "lobby": lobby.to_wire(),
            "passphrase": passphrase, "port": port}
    tmp = record_path.with_name(record_path.name + SIDECAR_SUFFIX + ".tmp")
    tmp.write_bytes(msgpack.packb(data, use_bin_type=True))
    os.replace(tmp, sidecar_path(record_path))


def read_sidecar(record_path: str | os.PathLike) -> dict:
    raw = msgpack.unpackb(sidecar_path(record_path).read_bytes(), raw=False)
    lobby = parse_message(raw["lobby"])
    if not isinstance(lobby, Lobby):
        raise ValueError("sidecar: not a lobby")
    return {"peer": raw["peer"], "game_id": raw["game_id"], "lobby": lobby,
            "passphrase": raw.get("passphrase", False), "port": raw.get("port", 0)}


def has_sidecar(record_path: str | os.PathLike) -> bool:
    return sidecar_path(record_path).exists()

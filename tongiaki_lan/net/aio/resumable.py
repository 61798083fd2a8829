"""Which games this laptop was playing and has not finished: records with a `.net`
sidecar whose game is not over. The lobby marks those games "yours" and `join` resumes
the seat from the record instead of asking for a new one (which a started game refuses).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from tongiaki_lan.net.aio.sidecar import has_sidecar, read_sidecar
from tongiaki_lan.records import read_record, replay_record

log = logging.getLogger("tongiaki_lan.net.aio.resumable")

MAX_SCANNED = 40  # newest records only: an old laptop may hold hundreds


@dataclass(frozen=True)
class Resumable:
    game_id: bytes
    name: str
    record: Path
    moves: int
    passphrase: bool
    peer: bytes = b""  # the peer id that played it (its identity resumes it)
    key_kept: bool = False  # its passphrase game's key is in the resume data: not asked
    # its player said goodbye for good: the table may have given the seat to a newcomer
    # since, so the lobby asks it before opening the game screen (console/lobbynet.py)
    left: bool = False


def unfinished_games(record_dir: str | os.PathLike) -> dict[bytes, Resumable]:
    """game id -> the newest unfinished record of it in `record_dir` (unreadable records
    are skipped: a half-written one after a power cut must not break the lobby)."""
    root = Path(record_dir)
    try:
        paths = sorted(root.glob("*.tgrec"), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return {}
    out: dict[bytes, Resumable] = {}
    for path in paths[:MAX_SCANNED]:
        if not has_sidecar(path):
            continue
        try:
            side = read_sidecar(path)
            game = replay_record(read_record(path))
        except Exception as exc:  # noqa: BLE001 - any damage: not resumable
            log.info("not resumable: %s (%s)", path, exc)
            continue
        if game.is_over or side["game_id"] in out:
            continue
        out[side["game_id"]] = Resumable(side["game_id"], side["lobby"].name, path,
                                         len(game.moves), bool(side["passphrase"]),
                                         side["peer"], side["key"] is not None,
                                         side["left"])
    return out

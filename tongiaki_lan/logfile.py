"""Where log records go while a full-screen console owns the terminal.

Python prints warnings nobody handles straight to stderr, which under prompt_toolkit
lands in the middle of the screen. `log_to_file` sends every record to a file in the
platform's log directory instead (places.py; and nowhere else); the node turns warnings
into `Notice` events, which the console shows in its log pane.

The file is bounded: past `MAX_LOG_BYTES` it is renamed `.1` (the older ones `.2`, `.3`)
and a new one begins, so a laptop that plays every week does not grow a log forever.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

LOG_NAME = "tongiaki-lan.log"
MAX_LOG_BYTES = 1024 * 1024
LOG_BACKUPS = 3


class _RotatingLog(logging.handlers.RotatingFileHandler):
    """Rotation that never gets in the player's way: on Windows a second running copy keeps
    the file open and the rename fails; then this one goes on appending to the same file."""

    def doRollover(self) -> None:  # noqa: N802 - logging's name
        try:
            super().doRollover()
        except OSError:
            if self.stream is None or self.stream.closed:
                self.stream = self._open()


def log_to_file(log_dir: str | os.PathLike, level: int = logging.INFO,
                max_bytes: int = MAX_LOG_BYTES) -> Path | None:
    """Route all logging to `log_dir/tongiaki-lan.log` (appended, rotated); returns its
    path. Text is UTF-8 whatever the system's code page; what cannot be encoded is
    escaped rather than lost. None when the file cannot be written (a read-only or full
    disk, a home directory that is not there): the records then go nowhere, and still
    never to the terminal; the lobby opened on a read-only home with a traceback."""
    path = Path(log_dir) / LOG_NAME
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
        if isinstance(h, _RotatingLog):  # ours from before: let go of the file (Windows)
            h.close()
    handler: logging.Handler
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handler = _RotatingLog(path, maxBytes=max_bytes, backupCount=LOG_BACKUPS,
                               encoding="utf-8", errors="backslashreplace")
    except OSError:
        handler, path = logging.NullHandler(), None  # (not logging's last resort: stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    return path

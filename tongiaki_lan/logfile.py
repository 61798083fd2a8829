"""Where log records go while a full-screen console owns the terminal.

Python prints warnings nobody handles straight to stderr, which under prompt_toolkit
lands in the middle of the screen. `log_to_file` sends every record to a file next to the
game records instead (and nowhere else); the node turns warnings into `Notice` events,
which the console shows in its log pane.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

LOG_NAME = "tongiaki-lan.log"


def log_to_file(record_dir: str | os.PathLike, level: int = logging.INFO) -> Path:
    """Route all logging to `record_dir/tongiaki-lan.log` (appended); returns its path."""
    path = Path(record_dir) / LOG_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    root = logging.getLogger()
    for h in list(root.handlers):
        root.removeHandler(h)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    root.addHandler(handler)
    root.setLevel(level)
    logging.captureWarnings(True)
    return path

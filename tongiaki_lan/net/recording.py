"""The game record as the network layer writes it: every entry reaches the operating system
as the move is applied (so killing the process loses nothing), and the fsync that makes it
survive a power cut runs on a worker thread, so a 3 ms disk flush never holds up the
event loop that answers the peers. A move lost to a power cut in that window comes back
from the peers when the node rejoins.
"""

from __future__ import annotations

import os
import threading

from tongiaki_lan.records import RecordWriter


class NetRecordWriter(RecordWriter):
    """Same file format and API as RecordWriter; `sync()` is the deferred fsync."""

    def __init__(self, *args, **kwargs) -> None:
        self._lock = threading.Lock()
        super().__init__(*args, **kwargs)

    def _write(self, data: bytes) -> None:
        with self._lock:
            self._fh.write(data)
            self._fh.flush()

    def sync(self) -> None:
        with self._lock:
            if self._fh.closed:
                return
            fd = self._fh.fileno()
        os.fsync(fd)

    def close(self) -> None:
        if not self._fh.closed:
            self.sync()
            with self._lock:
                self._fh.close()

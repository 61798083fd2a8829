"""Windows' text-mode files, emulated on any OS.

On Windows a file descriptor opened by `os.open` without `O_BINARY` is in text mode: the C
runtime writes every `\\n` byte as `\\r\\n`, whether it came through `os.write` or a binary
file object on that descriptor. And `open(path, "w")` (text) writes `\\r\\n` line ends.
`windows_text_mode` does the same here: `os.O_BINARY` exists (a flag bit of its own, taken
off before the real call), descriptors opened without it translate, and text files
opened for writing use `\\r\\n`. A writer that is binary-safe on Windows round-trips under
it; one that is not, breaks, as on a Windows laptop (tests/files/test_text_mode.py shows
both).
"""

from __future__ import annotations

import builtins
import contextlib
import io
import os

import pytest

FAKE_O_BINARY = 0x40000000  # a bit no POSIX open flag uses on Linux or macOS


class _TextModeFile:
    """A file object on a text-mode descriptor: its writes go through the translation."""

    def __init__(self, raw, translate):
        self._raw, self._translate = raw, translate

    def write(self, data):
        if isinstance(data, bytes | bytearray | memoryview):
            self._raw.write(self._translate(bytes(data)))
            return len(data)
        return self._raw.write(data)

    def __getattr__(self, name):
        return getattr(self._raw, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._raw.close()


@contextlib.contextmanager
def windows_text_mode():
    """Inside: files behave as a Windows program's do (see the module's docstring)."""
    text_fds: set[int] = set()
    real_open, real_write, real_fdopen, real_close = os.open, os.write, os.fdopen, os.close
    real_builtin_open = builtins.open

    def translate(data: bytes) -> bytes:
        return data.replace(b"\n", b"\r\n")

    def fake_os_open(path, flags, mode=0o777, *, dir_fd=None):
        fd = real_open(path, flags & ~FAKE_O_BINARY, mode, dir_fd=dir_fd)
        if flags & FAKE_O_BINARY:
            text_fds.discard(fd)
        else:
            text_fds.add(fd)
        return fd

    def fake_write(fd, data):
        if fd in text_fds:
            real_write(fd, translate(bytes(data)))
            return len(data)
        return real_write(fd, data)

    def fake_fdopen(fd, *args, **kwargs):
        f = real_fdopen(fd, *args, **kwargs)
        return _TextModeFile(f, translate) if fd in text_fds else f

    def fake_close(fd):
        text_fds.discard(fd)
        real_close(fd)

    def fake_builtin_open(file, mode="r", buffering=-1, encoding=None, errors=None,
                          newline=None, *args, **kwargs):
        if "b" not in mode and any(c in mode for c in "wax+") and newline is None:
            newline = "\r\n"
        return real_builtin_open(file, mode, buffering, encoding, errors, newline, *args,
                                 **kwargs)

    import tongiaki_lan.files

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(os, "O_BINARY", FAKE_O_BINARY, raising=False)
        mp.setattr(os, "open", fake_os_open)
        mp.setattr(os, "write", fake_write)
        mp.setattr(os, "fdopen", fake_fdopen)
        mp.setattr(os, "close", fake_close)
        mp.setattr(builtins, "open", fake_builtin_open)
        mp.setattr(io, "open", fake_builtin_open)
        # a module that read os.O_BINARY when it was imported
        mp.setattr(tongiaki_lan.files, "O_BINARY", FAKE_O_BINARY)
        yield

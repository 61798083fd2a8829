"""Every file this program writes goes through here: binary, and atomic where it matters.

Why one module: on Windows a file opened with `os.open` without `O_BINARY`, or with `open`
in text mode, turns every `\\n` byte into `\\r\\n`. A 32-byte private key holds a `\\n` about
one time in eight, and a msgpack record or resume file holds them everywhere, so such a
writer silently corrupts them for Windows players only. Here every writer is binary
(`O_BINARY` where the OS has it, 'wb'/'ab' otherwise), and text goes in as UTF-8 bytes
with the caller's own line ends.

Atomic: a file that is rewritten whole (identity, profile, resume data, exports) is written to
a temporary file in the same directory, forced to disk, and then put in place with
`os.replace`, so a crash leaves the old file or the new one, never half of one. Records
are the exception: they grow by appending one flushed entry per move (records.py).

Private files (the identity key, the resume data with its chain secret, the profile) are
created with mode 0600 on POSIX. Windows has no such modes: there the files inherit the
ACL of the user's profile directory (%LOCALAPPDATA%), which only that user and the
administrators can read (docs/files.md).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


class DamagedFile(ValueError):
    """A file of ours that is there but cannot be used (an identity key cut short, say).
    Its message names the file, says what that costs the player and how to get it back;
    a command that meets one says exactly that, in one line, never a traceback."""


# 0 where the OS does not translate line ends (POSIX); O_BINARY on Windows
O_BINARY = getattr(os, "O_BINARY", 0)
PRIVATE_MODE = 0o600
PUBLIC_MODE = 0o666  # less the umask, as for any file a user creates


def _open_new(path: Path, private: bool) -> int:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | O_BINARY
    return os.open(path, flags, PRIVATE_MODE if private else PUBLIC_MODE)


def write_atomic(path: str | os.PathLike, data: bytes, *, private: bool = False) -> Path:
    """Replace `path` with `data` in one step: the old file or the new one survives a crash,
    never a mixture. `private` makes it readable by its owner only (POSIX mode 0600)."""
    path = Path(path)
    if not isinstance(data, bytes | bytearray | memoryview):
        raise TypeError("write_atomic takes bytes; encode text first (write_text_atomic)")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = _open_new(tmp, private)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if private and os.name == "posix":
        # a file that existed before (made by an older version) gets the same mode
        os.chmod(path, PRIVATE_MODE)
    return path


def write_text_atomic(path: str | os.PathLike, text: str, *, private: bool = False) -> Path:
    """`write_atomic` of UTF-8 text; line ends are written as given (no translation)."""
    return write_atomic(path, text.encode("utf-8"), private=private)


def create_binary(path: str | os.PathLike):
    """A new file for appending binary entries (a record), opened read-write; fails if it
    exists, so a record is never clobbered."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | O_BINARY, PUBLIC_MODE)
    return os.fdopen(fd, "r+b")


def open_binary_rw(path: str | os.PathLike):
    """An existing file, read-write and binary (a record continued after a crash)."""
    fd = os.open(path, os.O_RDWR | O_BINARY)
    return os.fdopen(fd, "r+b")


def open_append_binary(path: str | os.PathLike):
    """A file to append binary data to (created if missing): logs and similar."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | O_BINARY, PUBLIC_MODE)
    return os.fdopen(fd, "ab")

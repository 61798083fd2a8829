"""A node's incarnation for this run, kept increasing across runs without trusting the clock.

Why not the wall clock alone: laptops at a party disagree by hours (a wrong time zone, a
dual-boot machine keeping local time in its hardware clock) and a clock may be set back
between two runs. Peers never compare an incarnation with their own clock
(protocol/transport.md); they only need each run of a node to number above the runs before
it, so that a datagram replayed from an earlier run stays refused. The wall clock gives a
good starting point on a first run; the number kept beside the profile makes the order
hold even when the clock goes back.
"""

from __future__ import annotations

import logging
from pathlib import Path

from tongiaki_lan.files import write_atomic
from tongiaki_lan.net.protocol.links import MAX_INCARNATION

log = logging.getLogger("tongiaki_lan.net.aio.incarnation")

# room for the rebirths of one run (a node that took moves back goes on as incarnation + 1)
RESERVE = 1 << 20
_LEN = 8


def runs_path(profile: Path) -> Path:
    """Where the next free incarnation of the player with identity file `profile` is kept."""
    return profile.with_name(profile.name + ".runs")


def read_floor(path: Path) -> int:
    """The lowest incarnation this profile's next run may use (0 when none is kept, or the
    file is damaged: the wall clock then decides, as on a first run)."""
    try:
        raw = path.read_bytes()
    except OSError:
        return 0
    if len(raw) != _LEN:
        log.warning("%s is damaged (%d bytes); starting from the clock", path, len(raw))
        return 0
    return int.from_bytes(raw, "big")


def next_incarnation(path: Path | None, wall_us: int) -> int:
    """This run's incarnation: the wall clock in microseconds, or above every earlier run's
    when the clock went back; the next floor is written (atomically, flushed to disk)
    before the first datagram leaves."""
    inc = max(wall_us, read_floor(path) if path is not None else 0, 1)
    inc = min(inc, MAX_INCARNATION - RESERVE)
    if path is not None:
        try:
            write_atomic(path, (inc + RESERVE).to_bytes(_LEN, "big"), private=True)
        except OSError as exc:  # a read-only profile: the clock alone orders the runs
            log.warning("could not keep the incarnation in %s: %s", path, exc)
    return inc

"""Who of a game's members is here, as seen by one node (protocol/transport.md, Liveness).

A member is *away* once nothing from it has shown it alive for AWAY_AFTER_S, *gone* once
it said LEAVE, and back as soon as a datagram proves it alive again. What shows a member
alive is the caller's judgement (`NodeCore._alive_at`: a replay proves nothing), and so is
the time it was alive at, which may be a little before now (the time we sent the packet
its answer echoes). Pure bookkeeping over times passed in by the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

AWAY_AFTER_S = 4.0


class Presence:
    def __init__(self, away_after: float = AWAY_AFTER_S) -> None:
        self.away_after = away_after
        self._last: dict[bytes, float] = {}
        self._absent_since: dict[bytes, float] = {}
        self._left: set[bytes] = set()
        self._heard: set[bytes] = set()  # peers heard at all since we started

    def heard(self, peer: bytes, now: float) -> bool:
        """`peer` was alive at `now` (a sign of life from it); True if it was away or gone
        until now."""
        self._last[peer] = max(now, self._last.get(peer, now))
        self._heard.add(peer)
        self._left.discard(peer)
        return self._absent_since.pop(peer, None) is not None

    def left(self, peer: bytes, now: float) -> None:
        self._left.add(peer)
        self._absent_since.setdefault(peer, now)

    def last_heard(self, peer: bytes) -> float | None:
        """When `peer` was last heard (or first looked for), None if never."""
        return self._last.get(peer)

    def is_absent(self, peer: bytes) -> bool:
        return peer in self._absent_since

    is_away = is_absent

    def has_left(self, peer: bytes) -> bool:
        return peer in self._left

    def is_running(self, peer: bytes) -> bool:
        """Heard from since we started, and not away or gone since: a node that runs (a
        member merely not yet silent long enough to count as away is not)."""
        return peer in self._heard and peer not in self._absent_since

    def away_for(self, peer: bytes, now: float) -> float | None:
        """Seconds since `peer` went away or left, None when it is here."""
        since = self._absent_since.get(peer)
        return None if since is None else now - since

    def update(self, members: Iterable[bytes], now: float,
               stuck: Collection[bytes] = ()) -> list[tuple[bytes, bool]]:
        """Re-check silence; returns the (peer, away) transitions, in member order. A peer
        in `stuck` (heard, but it does not follow the game: the caller's judgement) is
        away as if silent."""
        out = []
        for peer in members:
            if peer in self._left:
                continue
            last = self._last.setdefault(peer, now)
            silent = now - last > self.away_after
            if (silent or peer in stuck) and peer not in self._absent_since:
                self._absent_since[peer] = last + self.away_after if silent else now
                out.append((peer, True))
        return out

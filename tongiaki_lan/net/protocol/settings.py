"""Timings and limits of the protocol (protocol/transport.md), in one place."""

from tongiaki_lan.bots import best_bot_kind

HEARTBEAT_S = 0.5
TICK_S = 0.1
FETCH_RETRY_S = 1.0
START_TIMEOUT_S = 15.0
HANDOVER_AFTER_S = 60.0
# the bot that takes a seat whose player left: the kind and strength solo play uses
HANDOVER_BOT = best_bot_kind()
# how a bot of the table thinks: a fixed amount of work, never a wall-clock budget, so that
# any node driving the seat computes the same move (a handover between drivers, or two
# drivers for a moment, can never fork the game). 1000 iterations of `search` take about
# the second solo play gives it, on the two shared cores this was measured on.
NET_BOT_OPTIONS: dict[str, dict] = {"search": {"iterations": 1000}}


def net_bot_options(kind: str) -> dict:
    """Options for `make_bot(kind, seed=..., **options)` when a table's bot decides."""
    return dict(NET_BOT_OPTIONS.get(kind, {}))
LOG_CHUNK_BYTES = 900
MAX_EARLY = 64
PREV_MOVES = 3  # earlier moves repeated in every MOVE (protocol/transport.md, Loss)
MAX_EVENTS = 10_000
# a draw not dealt this long after we sent our value to its gatherer: send it to everyone
DRAW_FANOUT_S = 0.1
DRAW_RESEND_S = 1.0  # a draw still waiting: send the values we hold again this often
FORK_GRACE_S = 5.0  # after being cut off: a differing state may still be rewound

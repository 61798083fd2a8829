"""Timings and limits of the protocol (protocol/transport.md), in one place."""

HEARTBEAT_S = 0.5
TICK_S = 0.1
FETCH_RETRY_S = 1.0
START_TIMEOUT_S = 15.0
HANDOVER_AFTER_S = 60.0
HANDOVER_BOT = "greedy"
LOG_CHUNK_BYTES = 900
MAX_EARLY = 64
PREV_MOVES = 3  # earlier moves repeated in every MOVE (protocol/transport.md, Loss)
MAX_EVENTS = 10_000
# a draw not dealt this long after we sent our value to its gatherer: send it to everyone
DRAW_FANOUT_S = 0.1
DRAW_RESEND_S = 1.0  # a draw still waiting: send the values we hold again this often
FORK_GRACE_S = 5.0  # after being cut off: a differing state may still be rewound

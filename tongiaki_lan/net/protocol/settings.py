"""Timings and limits of the protocol (protocol/transport.md), in one place."""

from tongiaki_lan.bots.levels import DEFAULT_LEVEL, fixed_options

HEARTBEAT_S = 0.4
TICK_S = 0.1
FETCH_RETRY_S = 1.0
START_TIMEOUT_S = 15.0
# a seat given in the lobby to a laptop that never acknowledged the lobby naming it is
# given back after this long: that laptop gave up waiting for our answer (a join waits a
# few seconds, 10 at most, then looks elsewhere) and forgot the table. Kept, its seat
# filled the table for good: at a party of ten, a table whose answer came late to a
# starved laptop waited full and never started (transport.md, Lobby coordination)
SEAT_CONFIRM_S = 12.0
HANDOVER_AFTER_S = 60.0
# a player whose laptop is here but who has not made the decision that waits for them in
# this long counts as away (`NodeCore._idle`): the table may give the seat to a bot, as it
# may a silent laptop's. A laptop that stays at the table and never plays (its screen hung,
# its player gone for pizza, a build changed to stall) otherwise held three friends at one
# move for the whole evening. Once a bot played the seat for that, a decision waits
# IDLE_AGAIN_S only, until the player asks for the seat back (`resume`) — each time
# (transport.md, "A player who does not play")
IDLE_AFTER_S = 120.0
IDLE_AGAIN_S = 30.0
# the bot that takes a seat whose player left: the level solo play uses by default
# (`normal`, bots/levels.py), unless the table chose otherwise (`play --table-bot`)
HANDOVER_BOT = DEFAULT_LEVEL


def net_bot_options(kind: str) -> dict:
    """Options for `make_bot(kind, seed=..., **options)` when a table's bot decides: a
    fixed amount of work, never a wall-clock budget, so that any node driving the seat
    computes the same move (a handover between drivers, or two drivers for a moment, can
    never fork the game). A level's fixed form matches what its timed form does in solo
    play on the measured machine (docs/bots.md, Levels)."""
    return fixed_options(kind)
LOG_CHUNK_BYTES = 900
MAX_EARLY = 64
PREV_MOVES = 3  # earlier moves repeated in every MOVE (protocol/transport.md, Loss)
MAX_EVENTS = 10_000
# a draw not dealt this long after we sent our value to its gatherer: send it to everyone
DRAW_FANOUT_S = 0.1
DRAW_RESEND_S = 1.0  # a draw still waiting: send the values we hold again this often
# a draw waits at least this long itself before a silent contributor is left out of it,
# however long that node has been away: time for a resend of what we hold to bring back
# the whole draw from a node that dealt it (a value we cannot hear may reach the others)
DRAW_ASK_S = 2 * DRAW_RESEND_S
# a member whose heartbeats say it has not reached, this long after, the move count we had
# then (it sends, but hears nobody: a firewall that blocks what comes in) counts as away
STUCK_AFTER_S = 10.0
FORK_GRACE_S = 5.0  # after being cut off: a differing state may still be rewound
# after a goodbye for good the leaver's run ends within about 2 s (`AioNode.leave`): a
# datagram of it this long after we took the goodbye comes from a new run of it
LATE_AFTER_GOODBYE_S = 10.0

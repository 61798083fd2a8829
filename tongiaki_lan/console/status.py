"""The status line: what the table waits for, in one line, as a function of the state.

Every view says it the same way (the terminal's status bar, the board page's heading, the
line mode's prompt): the pending decision and whose it is, or what the table waits for
instead (a draw's missing value, an away player, the answer to a woken laptop), with what
someone watching may do, and in a replay where it stands. Only two things come from the
view, since they change without the game changing: what is typed on its line (a departure
typed says where it goes) and the clock (a countdown's seconds).
"""

from __future__ import annotations

import math
import time

from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n.islands import joined_islands

from .state import Countdown, TableState

# status styles, drawn by the terminal as `class:status…`
PLAIN, MINE, OVER = "status", "status.mine", "status.over"


def draw_wait_words(names: str, endless: bool, left: float) -> str:
    """A draw waiting for someone's value: whose, and the seconds left (`left`, at least 0)
    before the others draw without them; `endless`: they are the last who draw, so the
    tile waits for them."""
    if endless:
        return _("Next tile waits for {names}: the game goes on when they are back").format(
            names=names)
    if left <= 0:
        return _("Next tile waits for {names}: the others draw it without them any "
                 "moment").format(names=names)
    return _("Next tile waits for {names}: the others draw it without them in {s} "
             "s").format(names=names, s=math.ceil(left))


def countdown(state: TableState, kind: str) -> Countdown | None:
    return next((c for c in state.countdowns if c.kind == kind), None)


def seconds_left(c: Countdown, now: float | None = None) -> float:
    return max(0.0, c.ends_at - (time.monotonic() if now is None else now))


def draw_wait_text(state: TableState, now: float | None = None) -> str | None:
    """The status line while a draw waits (None when none does)."""
    c = countdown(state, "draw")
    if c is None:
        return None
    return draw_wait_words(c.who, c.endless, seconds_left(c, now))


def decision_style(state: TableState) -> str:
    if state.decision.seat is None and state.over:
        return OVER
    return MINE if state.decision.mine else PLAIN


def _lost_words(state: TableState, line: bool) -> str:
    """The game goes on without this laptop (expelled, or its seat given to a newcomer):
    how to follow it, as this view can. A view with a command line from the lobby types
    `lobby`, then `watch N`; the board page types nothing: beside a console it sends the
    player there, on a headless node (`play --headless --board`) it names the command
    to run. The page of an expelled bot laptop said "Type lobby, then watch N", which
    nobody could type there."""
    if line and state.from_lobby:
        if state.this_laptop_expelled:
            return _("Expelled from the table  (lobby, then watch N: follow the game · quit "
                     "leaves)")
        return _("Someone else plays your seat now  (lobby: the list, to watch · quit leaves)")
    if state.from_lobby:  # (the page of a console: the console can)
        if state.this_laptop_expelled:
            return _("This laptop was expelled from the table: in the console, lobby, then "
                     "watch N, follows the game.")
        return _("Someone else plays your seat now: in the console, lobby, then watch N, "
                 "follows the game.")
    if state.this_laptop_expelled:
        return _("This laptop was expelled from the table. To follow the game, run: "
                 "tongiaki-lan watch --game {game}").format(game=state.game_name)
    return _("Someone else plays your seat now. To follow the game, run: tongiaki-lan watch "
             "--game {game}").format(game=state.game_name)


def _cut_words(state: TableState, line: bool) -> str:
    """A watcher nobody at the table answers: what this view can do about it. The
    console from the lobby types `lobby`; the line mode of `watch --plain` has no lobby
    to go back to (`quit` leaves); the board page types nothing: it says the laptop
    keeps asking. The page of `watch --board` and the line mode both said "lobby: the
    list of games", which does nothing there."""
    if line and state.from_lobby:
        return state.waking  # "Nobody at the table answers  (lobby: the list … · quit …)"
    if line:
        return _("Nobody at the table answers  (quit leaves)")
    return _("Nobody at the table answers this laptop: it keeps asking.")


def status_line(state: TableState, typed: str = "", now: float | None = None,
                line: bool = True, tab: bool = True) -> tuple[str, str]:
    """(style, text) of the status line; `typed`: what is on the view's line (a move of
    the pending decision typed there says what it sets off), `now`: the monotonic clock
    (countdowns); `line`: for a view with a command line, which says what to type and
    what Enter does (the terminal, the line mode), else in words any view can show (the
    board page: `TableState.status`); `tab`: that line is the terminal's, where Tab
    completes (the line mode's has no Tab)."""
    if state.this_laptop_expelled or state.seat_lost:  # the game goes on, not with this
        return OVER, _lost_words(state, line)  # screen: the way to follow it, as it can
    if state.watch_cut and state.waking:  # watching, and nobody at the table answers
        return PLAIN, _cut_words(state, line)
    waiting = state.waking or draw_wait_text(state, now)
    if waiting:  # a LAN draw waits for someone's value: say whose, and for how long
        return PLAIN, waiting
    d = state.decision
    style = decision_style(state)
    text = d.line_text if line and d.line_text else d.text
    if line and tab and d.tab_text:
        text = d.tab_text
    seat = state.seats[d.seat] if d.seat is not None and not state.over else None
    # (a seat a bot plays for its away player does not wait; a bot laptop's does: its
    # line read "Cat — bot (random) is thinking…" while the game waited for the laptop)
    away = seat is not None and seat.away and seat.driver in ("you", "player", "laptop-bot")
    watching = state.kind == "watch"
    if away and watching:
        # (a watcher, told by its feeder: no `replace` to offer, it has no seat)
        text = _("Waiting for {name} to come back").format(name=seat.name)
    elif away:
        # (the panel said "Away: Ben" while this line waited for him as if he were
        # thinking: say that the game waits for his return, and the way out)
        c = countdown(state, "replace")
        left = seconds_left(c, now) if c is not None else 0.0
        if left > 0 and not line:  # (the page counts the seconds down itself, below:
            # it showed these, as of the state it was sent, above its own)
            # (named as the page names whom the decision waits for, `Ben (R)`: it added
            # that after a line that named them already)
            text = (_("Waiting for {name} to play") if seat.idle
                    else _("Waiting for {name} to come back")).format(
                name=f"{seat.label} ({seat.letter})")
        elif seat.idle and left > 0:  # (their laptop is here, they do not play: a player
            # sat beside Ben read that the game waited for him "to come back")
            text = _("Waiting for {name} to play — in {s} s replace {name} gives the seat "
                     "to a bot").format(name=seat.name, s=math.ceil(left))
        elif seat.idle:
            text = _("Waiting for {name} to play — replace {name} gives the seat to a "
                     "bot").format(name=seat.name)
        elif left > 0:  # (`replace` typed early was refused: say when it will do)
            text = _("Waiting for {name} to come back — in {s} s replace {name} gives "
                     "the seat to a bot").format(name=seat.name, s=math.ceil(left))
        else:
            text = _("Waiting for {name} to come back — replace {name} gives the seat "
                     "to a bot").format(name=seat.name)
    if (seat is not None and seat.this_laptop and seat.idle and seat.driver == "bot"
            and not watching):
        # (a bot plays our seat since we did not play: the line said "Ben — bot (normal)
        # (R) is thinking…" on Ben's own screen, and nothing of how to play it again)
        text = (_("{text} — resume plays your seat again") if line else
                _("{text} — in the console, resume plays your seat again")).format(text=text)
    if watching and not state.over:  # no seat: whose decision it is, no prompt
        followed = state.followed or None
        seats = ", ".join(state.open_seats)
        if seats and not line:  # (the page: the seats open, and nothing to type; a
            # headless `watch --board` page said "take COLOUR plays one")
            if followed is not None:
                text = _("Watching {game}, following {name} — open seats: {colours} — "
                         "{text}").format(game=state.game_name, name=followed,
                                          colours=seats, text=text)
            else:
                text = _("Watching {game} — open seats: {colours} — {text}").format(
                    game=state.game_name, colours=seats, text=text)
        elif seats and followed is not None:  # (the seat they follow said too: a
            # playtest's watcher typed `follow Ben` and the line never said so)
            text = _("Watching {game}, following {name} — open: {colours}; take COLOUR "
                     "plays one — {text}").format(game=state.game_name, name=followed,
                                                  colours=seats, text=text)
        elif seats:  # (someone watching may sit down: what matters most to them)
            text = _("Watching {game} — open: {colours}; take COLOUR plays one — "
                     "{text}").format(game=state.game_name, colours=seats, text=text)
        elif followed is not None:
            text = _("Watching {game}, following {name} — {text}").format(
                game=state.game_name, name=followed, text=text)
        else:
            text = _("Watching {game} — {text}").format(game=state.game_name, text=text)
    if state.replay is not None and state.replay.live:
        if state.replay.index < state.replay.total:  # (a watcher looking back)
            if not line:  # (the page: its Live button is the way back; `last` is typed)
                return PLAIN, _("Looking back, {position} · {text}").format(
                    position=state.replay.text, text=text)
            return PLAIN, _("Looking back, {position} (last: back to the game) · "
                            "{text}").format(position=state.replay.text, text=text)
    elif state.replay is not None:
        return PLAIN, _("Replay {position} · {text}").format(position=state.replay.text,
                                                             text=text)
    if d.typed_over and typed.strip() and typed.strip() != state.offer:
        text = d.typed_over  # (not "Enter takes the hint": Enter plays what is typed)
    if d.mine and d.kind in (D.DEPARTURE, D.EXPAND_BEACHES) and typed.strip():
        key = joined_islands(typed.strip())
        option = next((o for o in d.moves if o.text == key), None)
        if option is not None and option.preview:  # (what the move typed sets off:
            text = f"{option.text} {option.preview}"  # where it sails, a beach it fills)
    return style, text

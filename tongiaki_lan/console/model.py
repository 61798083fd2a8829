"""The table model: one game as a player sees it, made from a feed, observed by views.

A feed (console/feeds/: solo, replay, a LAN seat or a LAN watcher) holds the game and
tells its story; the model reads it and makes a `TableState` (state.py), a frozen value
replaced as a whole on every change, and hands it to every view subscribed: the terminal
screen, the board page in the browser, the line mode. No view asks the feed anything of
its own (the terminal screen asked a LAN session for 38 facts by duck typing); a fact a
view needs is a field of the state, or a query here, so the other views have it too.

The input path (input.py) writes the little a player's typing adds to what all views
show: the notice line (a refusal with its rule), the hint of the pending decision, and
the move offered for it (a landing's hint, a confirmation).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace

from tongiaki_lan.engine import LETTERS, Game, Move, PlaceTile, Reveal, Sail
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import shown_move

from .feeds.base import GameSession
from .final import final_grid, final_rows
from .seats import HUMAN_KINDS, colour_name
from .state import (
    VIEW_ONLY,
    Countdown,
    DecisionView,
    LastMove,
    Line,
    MoveOption,
    ReplayPosition,
    SeatView,
    TableState,
)
from .status import status_line
from .targets import move_targets, touched
from .words import (
    LANDING_HINTED,
    LANDING_PLAIN,
    LANDING_THINKING,
    LANDING_TYPED,
    move_preview,
    pending_text,
)

Subscriber = Callable[[TableState], None]

# what every table takes besides moves and the feed's own commands (`help` lists them)
META = ("help", "hint", "moves", "rules", "position", "centre", "map", "board", "quit")
# the width the final table is made for in the state (the board page's panel holds about
# 48 columns of it): a bot's label whole ("Hina — bot (random)"), where the 16 columns
# kept for an 80-column terminal cut it to "Hina — bot" (the terminal makes its own)
FINAL_COLUMNS = 48
# a live table looked back at (a watcher's): the steps, as a replay's are named
LOOK_WORDS = ("first", "back", "forward", "next", "previous", "prev", "last", "goto")


def decision_island(game: Game) -> int | None:
    """The island the pending decision is about: the map outlines it and keeps it in view.
    A departure has none of its own (M1: the full beaches), so it is the first full beach's
    island, the one the status line names first: "Rarotonga 1 is full" stood there while
    Rarotonga was off the map, and `centre` went back to Tonga."""
    p = game.pending
    if p is not None and p.kind == D.DEPARTURE:
        return next((m.island for m in game.legal_moves() if isinstance(m, Sail)), None)
    return p.island if p is not None else None


def decision_key(game: Game) -> tuple:
    """What tells one decision from the next: the moves played and the decision pending."""
    return (len(game.moves), game.pending)


def step_target(moves, index: int, delta: int) -> int:
    """Where a step of `delta` moves from `index` lands: tile reveals go with the move
    that caused them, so a step never stops at one (a replay's and a look back's)."""
    total = len(moves)
    target = max(0, min(index + delta, total))
    if delta > 0:
        while target < total and isinstance(moves[target], Reveal):
            target += 1
    else:
        while 0 < target < total and isinstance(moves[target], Reveal):
            target -= 1
    return target


def position_text(moves, index: int) -> str:
    """Where a position stands among `moves`, and the move that comes next."""
    if index < len(moves):
        move = shown_move(str(moves[index]), spaced=True)  # (HivaOa)
        return _("move {i}/{n} — next: {move}").format(i=index, n=len(moves), move=move)
    return _("move {i}/{n}").format(i=index, n=len(moves))


class TableModel:
    """One game as this keyboard sees it: `state` (a new `TableState` after every change,
    `version` counting them), `subscribe(fn)` to be handed each one, and the queries the
    input path needs (the legal moves by their text, whose decision it is)."""

    def __init__(self, feed: GameSession):
        self.feed = feed
        self.version = 0
        self._subscribers: list[Subscriber] = []
        self._state: TableState | None = None
        self._built_on: tuple = ()
        self._notifying = False
        self._again = False
        self._legal_cache: tuple[int, list[Move], dict[str, Move]] = (-1, [], {})
        self._focus: tuple[int, int | None] = (-1, None)
        # written by the input path (input.py)
        self.notice: Line = ("", "")
        self._landing: tuple = (None, None)  # (decision key, move text) offered at a landing
        self._landing_plain = False  # ... the engine's plain one (the hint failed)
        # (decision key, words, the move's text, the words as a view with a line says them)
        self._hint: tuple = (None, "", "", "")
        # the notice as views without a command line say it (None: as `notice` says it):
        # "Enter plays it" means nothing on the board page
        self._notice_shown: Line | None = None
        # a live table looked back at: the moves shown (None: the game as it goes on)
        self._look: int | None = None
        feed.subscribe(self._feed_changed)

    # ---------------------------------------------------------------- observing

    def subscribe(self, fn: Subscriber) -> Subscriber:
        """Call `fn(state)` after every change, until `unsubscribe(fn)`; returns `fn`."""
        self._subscribers.append(fn)
        return fn

    def unsubscribe(self, fn: Subscriber) -> None:
        if fn in self._subscribers:
            self._subscribers.remove(fn)

    @property
    def state(self) -> TableState:
        """The state as of now, made once per version."""
        facts = self._facts()
        if self._state is not None and facts != self._built_on:
            self.version += 1  # (the feed changed and has not said so yet)
        if self._state is None or self._state.version != self.version:
            self._state, self._built_on = self._build(), facts
        return self._state

    # ---------------------------------------------------------------- looking back

    def can_look_back(self) -> bool:
        """Whether this table may be looked back at while it goes on: a watcher's, who
        came late or missed a move (a replay steps on its own; a player's decision must
        stay in sight)."""
        return self.feed.kind == "watch" and self.feed.game is not None

    @property
    def looking(self) -> int | None:
        """The moves shown while looking back (None: the game as it goes on)."""
        if self._look is None or self.feed.game is None:
            return None
        return self._look if self._look < len(self.feed.game.moves) else None

    def look(self, index: int | None) -> None:
        """Show the position after `index` moves of the live game (None, or the moves
        played so far: the game as it goes on again)."""
        total = len(self.feed.game.moves)
        index = None if index is None or index >= total else max(0, index)
        if index != self.looking:
            self._look = index
            self.changed()

    def look_step(self, delta: int) -> None:
        moves = self.feed.game.moves
        at = self.looking
        self.look(step_target(moves, len(moves) if at is None else at, delta))

    def _facts(self) -> tuple:
        """What a state is made of that a feed may change before it says so (a seat's
        player gone away, a line told): read again on every look, cheaply."""
        f = self.feed
        g = f.game
        return (f.version, id(g), len(g.moves), g.pending, len(f.lines), self._look,
                tuple((s.name, s.kind, s.local, s.away, s.laptop_bot, s.this_laptop)
                      for s in f.seats))

    def changed(self) -> None:
        """Something views show changed: a new version, handed to every subscriber. A
        change made while they are being told (the input clears a notice when the
        decision moves on) tells them all once more, with the newest state."""
        self.version += 1
        if self._notifying:
            self._again = True
            return
        self._notifying = True
        try:
            while True:
                self._again = False
                state = self.state
                for fn in list(self._subscribers):
                    fn(state)
                if not self._again:
                    break
        finally:
            self._notifying = False

    def _feed_changed(self) -> None:
        self.changed()

    def refresh(self) -> None:
        """A countdown began or ended with no change of the game (a wait's end is read
        from the clock): a new state if the one shown no longer says it rightly."""
        shown = {c.kind for c in self.state.countdowns}
        if shown != {c.kind for c in self._countdowns(time.monotonic())} \
                or (self.feed.waking_text() or "") != self.state.waking:
            self.changed()

    # ---------------------------------------------------------------- queries

    @property
    def game(self) -> Game:
        """The live game, for the input path (a move is checked against it); views draw
        `state.board`, a copy made for their state."""
        return self.feed.game

    def decision_key(self) -> tuple:
        return decision_key(self.feed.game)

    def my_decision(self) -> bool:
        return self.feed.my_decision()

    def legal_moves(self) -> list[Move]:
        return self._legal()[0]

    def legal_by_text(self) -> dict[str, Move]:
        """This keyboard's legal moves by the text a player types (`sail HivaOa 2 NE`);
        empty when the decision is not ours."""
        return self._legal()[1]

    def _legal(self) -> tuple[list[Move], dict[str, Move]]:
        f = self.feed
        if not f.my_decision():
            return [], {}
        if self._legal_cache[0] != f.version:
            moves = f.game.legal_moves()
            self._legal_cache = (f.version, moves, {shown_move(str(m)): m for m in moves})
        return self._legal_cache[1], self._legal_cache[2]

    def live_countdown(self) -> float | None:
        """The seconds of the nearest countdown, read from the feed now: a draw waiting
        for a value, or the wait before `replace` may give an absent player's seat to a
        bot (None: nothing is counted down)."""
        counts = [x for x in (self.feed.countdown_left(), self.feed.replace_left())
                  if x is not None]
        return min(counts) if counts else None

    def landing_state(self) -> str:
        """What is offered at our landing: the hint's landing, nothing yet, or the
        engine's plain one (`words.LANDING_*`)."""
        key, text = self._landing
        if key != self.decision_key() or text is None:
            return LANDING_THINKING
        return LANDING_PLAIN if self._landing_plain else LANDING_HINTED

    def landing_offer(self) -> str | None:
        """The landing offered for the pending decision (a move's text), if any yet."""
        key, text = self._landing
        return text if key == self.decision_key() else None

    # ---------------------------------------------------------------- from the input path

    def note(self, style: str, text: str, view: str = VIEW_ONLY) -> None:
        """A line a view adds to the story for itself: the terminal says why its map
        turned compact (other views leave out a line whose style ends in `view`). (Not a
        change of the game: a view's log is not scrolled back to it.)"""
        self.feed.lines.append((style + view, text))
        self.changed()

    def set_notice(self, style: str, text: str, shown: str | None = None) -> None:
        """The notice line. `shown`: the same in words for a view with no command line
        (no "Enter plays it"); "" shows nothing there (a hint, which has its own place)."""
        if (style, text) != self.notice or self._notice_shown != (
                None if shown is None else (style, shown)):
            self.notice = (style, text)
            self._notice_shown = None if shown is None else (style, shown)
            self.changed()

    @property
    def notice_shown(self) -> Line | None:
        """The notice as a view without a command line shows it (None: nothing)."""
        line = self._notice_shown if self._notice_shown is not None else self.notice
        return line if line[1] else None

    def set_landing(self, key: tuple, text: str | None, plain: bool) -> None:
        self._landing, self._landing_plain = (key, text), plain
        self.changed()

    def set_hint(self, key: tuple, words: str, move_text: str, said: str = "") -> None:
        """A move offered for the decision `key` (`move_text`) and the words of its hint
        ("" for an offer that is no hint: a confirmation); `said`: the same as a view with
        a command line says it (what Enter does), if it differs."""
        self._hint = (key, words, move_text, said or words)
        self.changed()

    # ---------------------------------------------------------------- the state

    def _countdowns(self, now: float) -> list[Countdown]:
        f = self.feed
        out = []
        left = f.countdown_left()
        waits = f.draw_waiting() if left is not None else None
        if waits is not None:
            who, endless = waits
            out.append(Countdown("draw", f.countdown_text() or "", now + left, who=who,
                                 endless=endless))
        left = f.replace_left()
        if left is not None:
            p = f.game.pending
            who = f.names[p.seat] if p is not None and p.seat is not None else ""
            if p is not None and p.seat is not None and f.seats[p.seat].idle:
                # (their laptop is here: nothing of theirs is to come back)
                text = _("Waiting for {name} to play — in {s} s replace {name} gives the "
                         "seat to a bot").format(name=who, s=math.ceil(left))
            else:
                text = _("Waiting for {name} to come back — in {s} s replace {name} gives "
                         "the seat to a bot").format(name=who, s=math.ceil(left))
            template = _("in {s} s replace {name} gives the seat to a bot").format(
                name=who, s="{s}")
            out.append(Countdown("replace", text, now + left, who=who, template=template))
        waking = f.waking_text()
        if waking:
            out.append(Countdown("wake", waking, now))
        return out

    def _build(self) -> TableState:
        f = self.feed
        live = f.game
        now = time.monotonic()
        looking = self.looking
        g = live if looking is None else _cut(live, looking)
        p = g.pending
        names, labels = f.names, f.labels
        local = f.local_seats() if f.can_play and looking is None else set()
        viewer = f.viewer_seats()
        mine = f.my_decision() and looking is None
        cids = g.colour_ids()
        scores = g.scores()
        left_seats = f.left_seats()
        expelled_seats = f.expelled_seats()
        seats = tuple(
            SeatView(index=i, name=names[i], label=labels[i], colour=g.colours[i],
                     letter=LETTERS[cids[i]], colour_name=colour_name(g.colours[i]),
                     driver=_driver(s), local=s.local, viewer=i in viewer,
                     this_laptop=s.local or s.this_laptop, away=s.away, idle=s.idle,
                     left=i in left_seats, expelled=i in expelled_seats,
                     score=scores[g.colours[i]],
                     ships_in_reserve=g.reserve(i),
                     bot_kind=s.kind if s.kind not in HUMAN_KINDS else "")
            for i, s in enumerate(f.seats))
        landing_state = self.landing_state()
        told = dict(lobby=f.from_lobby, labels=labels,
                    replay=f.kind == "replay" or looking is not None,
                    landing=landing_state)
        _style, text = pending_text(g, names, local, line=False, **told)
        _style, line_text = pending_text(g, names, local, tab=False, **told)
        _style, tab_text = pending_text(g, names, local, **told)
        typed_over = ""
        if mine and p is not None and p.kind == D.LANDING and landing_state != LANDING_THINKING:
            typed_over = pending_text(g, names, local, labels=labels,
                                      landing=LANDING_TYPED)[1]
        moves: tuple[MoveOption, ...] = ()
        if mine:
            moves = tuple(MoveOption(text=t, shown=shown_move(str(m), spaced=True),
                                     preview=move_preview(g, m), targets=move_targets(g, m))
                          for t, m in self.legal_by_text().items())
        # who the table waits for, as the status names them (`Hina — bot (normal) (R)`):
        # by the name alone, the page added it after the status that named the bot
        # ("Hina — bot (normal) (R) is thinking: … — Hina (R)"); a replay and a look
        # back wait for no one
        waiting = ""
        # (nor a laptop the game goes on without: an expelled one's page read "… To follow
        # the game, run: tongiaki-lan watch --game porch — ana — bot (random) (B)")
        if (p is not None and p.seat is not None and not mine and looking is None
                and f.kind != "replay" and not f.this_laptop_expelled and not f.seat_lost):
            waiting = f"{labels[p.seat]} ({LETTERS[cids[p.seat]]})"
        decision = DecisionView(seat=p.seat if p is not None else None,
                                kind=p.kind if p is not None else "", mine=mine, text=text,
                                moves=moves, waiting_for=waiting, typed_over=typed_over,
                                line_text=line_text if line_text != text else "",
                                tab_text=tab_text if tab_text != line_text else "")
        if self._focus[0] != (f.version, looking):  # (a departure's: from its legal moves)
            self._focus = ((f.version, looking), decision_island(g))
        key = decision_key(g)
        hint_key, hint_words, hint_move, hint_said = self._hint
        landing = self.landing_offer()
        replay = None
        if f.kind == "replay":
            replay = ReplayPosition(index=len(g.moves), total=f.total,
                                    text=f.position_text())
        elif self.can_look_back():  # (the controls, to look back at the moves so far)
            at = len(g.moves)
            replay = ReplayPosition(index=at, total=len(live.moves), live=True,
                                    text=position_text(live.moves, at))
        extra = tuple(f.commands())
        lobby = ("lobby",) if f.from_lobby else ()
        state = TableState(
            version=self.version,
            feed_version=f.version,
            kind=f.kind,
            lang=current_language(),
            title=_(f.title),
            move_index=len(g.moves),
            seats=seats,
            decision=decision,
            board=g.copy(undo=False),
            frontier=p is not None and p.kind == D.COLONY_TILE,
            focus=self._focus[1],
            last_move=last_move(g, names),
            story=tuple(f.lines),
            hint=hint_words if hint_key == key and looking is None else "",
            line_hint=hint_said if hint_key == key and looking is None else "",
            offer="" if looking is not None else landing or (
                hint_move if hint_key == key else ""),
            notice=self.notice_shown,
            line_notice=self.notice if self.notice[1] else None,
            away=tuple(s.name for s in seats if s.away and not live.is_over),
            left=tuple(s.name for s in seats if s.left),
            watchers=tuple(f.watcher_names()),
            open_seats=tuple(f.open_seat_colours()),
            open_seat_indices=tuple(f.open_seat_list()),
            countdowns=tuple(self._countdowns(now)),
            replay=replay,
            final=tuple(final_rows(g, labels, FINAL_COLUMNS)) if g.is_over else (),
            final_grid=final_grid(g, labels) if g.is_over else None,
            over=g.is_over,
            can_undo=f.can_undo,
            commands=(*META, *lobby, *extra),
            game_name=f.game_name,
            followed=f.followed_name() or "",
            seat_lost=f.seat_lost,
            this_laptop_expelled=f.this_laptop_expelled,
            waking=f.waking_text() or "",
            watch_cut=f.watching and f.watch_cut,
            from_lobby=f.from_lobby,
            bot_thinking=f.bot_deciding(),
            numbers_tiles=f.numbers_tiles,
            status_style="",
        )
        style, text = status_line(state, now=now, line=False)
        return replace(state, status=text, status_style=style)


def _driver(seat) -> str:
    if seat.laptop_bot:
        return "laptop-bot"
    if seat.kind not in HUMAN_KINDS:
        return "bot"
    return "you" if seat.local else "player"


def _cut(game: Game, index: int) -> Game:
    """A copy of `game` after its first `index` moves (a look back), its history kept."""
    cut = game.copy()
    while len(cut.moves) > index:
        cut.pop()
    return cut


def last_move(game: Game, names: list[str]) -> LastMove | None:
    """The last move in words, with who made it, and what it touched on the board for
    every view to mark (`targets.touched`): the beach it filled or emptied, the pier it
    left by, a tile placed. The tiles its departures revealed go with it, as they go with
    it in a replay's step: marked as a reveal alone, the pier the ships left by was lost
    one move after it was played."""
    moves = game.moves
    if not moves:
        return None
    index = len(moves) - 1
    while index > 0 and isinstance(moves[index], Reveal):
        index -= 1
    move = moves[index]
    revealed = tuple(m.tile for m in moves[index:] if isinstance(m, Reveal))
    if isinstance(move, Reveal):  # (only reveals so far: nobody's move to name)
        return LastMove(index=index, seat=None, text=shown_move(str(move), spaced=True),
                        tiles=revealed)
    seat = None
    marks = touched(game, move)  # (in the wrong position: only if the history is gone)
    before = game.copy()
    try:
        while len(before.moves) > index:
            before.pop()
        seat = before.pending.seat if before.pending is not None else None
        marks = touched(before, move)
    except IndexError:  # (a game rebuilt without its history: nobody named)
        seat = None
    if isinstance(move, PlaceTile) and not marks.tiles:
        cell = game.tile_at((move.q, move.r))
        marks = type(marks)(marks.targets, (cell[0],) if cell else ())
    text = shown_move(str(move), spaced=True)
    if seat is not None:
        text = f"{names[seat]}: {text}"
    tiles = tuple(dict.fromkeys((*marks.tiles, *revealed)))
    if not marks.targets and not tiles and getattr(move, "island", None) is not None:
        tiles = (move.island,)  # (an island's own move with nothing else to mark)
    return LastMove(index=index, seat=seat, text=text, targets=marks.targets, tiles=tiles)

"""The common part of every feed of a game screen: a game, its seats, the story so far,
and change notification.

A feed is where a game's facts come from: a solo game applies typed moves to a local
engine and lets bots answer (solo.py); a replay steps through a record (replay.py); a
LAN game hands them to the network node (lan.py). The table model (console/model.py)
reads a feed and makes the state every view draws. Bots think in a worker thread on a
copy of the game, so a search bot's second of thought never freezes the screen.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
from collections.abc import Callable

from tongiaki_lan.bots import HINT_LEVEL, make_bot
from tongiaki_lan.engine import Game, IllegalMove, Move, Reveal
from tongiaki_lan.i18n import N_, _
from tongiaki_lan.i18n.islands import shown_move

from ..seats import HUMAN_KINDS, Seat, plain_name, seat_label
from ..state import SUMMARY
from ..story import Line, Narrator


def _shared(a: list, b: list) -> int:
    """How long a beginning the two lists share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


# the mark of a story line about moves the table never counted (`follow_game`)
STRUCK = "✗ "


def bot_seed(seed: bytes, seat: int, salt: bytes = b"") -> int:
    return int.from_bytes(hashlib.blake2b(seed + salt + bytes([seat]), digest_size=8).digest(),
                          "big")


class NotYet(Exception):
    """A move not sent yet, through no fault of its own: this laptop, back from a sleep,
    is asking the table what happened. The screen keeps it on the line."""


class GameSession:
    """The common part: a game, its seats, the story so far, and change notification."""

    title = N_("Tongiaki")
    can_play = True  # False for replays: typed moves are refused
    kind = "solo"  # what the table is: "solo", "lan", "watch" or "replay" (TableState.kind)
    # The facts below are a LAN table's (feeds/lan.py); here, what they are elsewhere: the
    # table model reads them of every feed, and no view asks a feed what it is.
    from_lobby = False  # started from the lobby: `lobby` goes back there
    watching = False  # a LAN table followed without a seat
    watch_cut = False  # watching, and no member of the table answers
    seat_lost = False  # back after a goodbye for good, a newcomer plays our seat
    this_laptop_expelled = False  # the table expelled this laptop (a proof against it)
    numbers_tiles = False  # the story names tiles by number: the panel counts those drawn
    game_name = ""  # a LAN table's name
    record_path = None  # where the game is recorded (a Path), if it is
    leave_for_good: bool | None = None  # a LAN seat: `quit` leaves for good, `quit soon` not

    def __init__(self, game: Game, seats: list[Seat], hint_kind: str | None = None):
        self.game = game
        self.seats = seats
        self.lines: list[Line] = []
        self.version = 0
        self.hint_kind = hint_kind
        self._listeners: list[Callable[[], None]] = []
        self._narrator = Narrator(game, self.names, self.labels)
        self._seen_events = 0
        self.hint_options: tuple = ()  # (move, chance) of the last hint, best first
        # (move count, names) each time a seat changed hands (a newcomer at a LAN table):
        # the summary of the moves since ours names who made each one
        self.names_from: list[tuple[int, list[str]]] = []
        self._tasks: set[asyncio.Task] = set()
        self._snap: Game | None = None  # the game at this keyboard's last decision
        self._snap_moves = 0
        self._closing: set[int] = set()  # where the game-over line is in `lines`
        self._told: list[tuple[int, Line]] = []  # (event, line) of each line the story told
        self._header: tuple[int, int, int] | None = None  # the last turn's (seat, line, n)

    # ---------------------------------------------------------------- seats

    @property
    def names(self) -> list[str]:
        """The players' names as the story tells them (a LAN bot seat's `Maui (search)`
        without its note: the labels say who plays)."""
        return [plain_name(s) for s in self.seats]

    @property
    def labels(self) -> list[str]:
        """Each seat's name with who plays it where that matters: `Maui — bot (search)`
        for a bot seat, or a seat a bot plays while its player is away. The panel, the
        turn headers, the final table and the winner line use these."""
        return [seat_label(s) for s in self.seats]

    def local_seats(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.local}

    def viewer_seats(self) -> set[int]:
        """The seats the screen looks from: this keyboard's (a LAN watcher: the player it
        follows). Their rows are marked in the panel, and the summary of the others' moves
        comes when the decision is back with them."""
        return self.local_seats()

    def followed_name(self) -> str | None:
        """The player a watcher follows (None: this keyboard plays, or nobody followed)."""
        return None

    def played_for_us(self, seat: int, index: int) -> bool:
        """Whether move `index` of our own `seat` was played for us by someone else (a
        bot while we were away): then the summary lists it like anybody's."""
        return False

    def played_by_bot(self, seat: int, index: int) -> bool:
        """Whether move `index` of another player's `seat` was a bot's, playing for them
        while they were away: the summary says so ("Ben: expand…" was read as Ben's)."""
        return False

    def bot_deciding(self) -> bool:
        """Whether a bot is choosing the pending decision (solo, a LAN bot seat, or a
        seat handed to a bot): the status line then says it is thinking."""
        p = self.game.pending
        return (self.can_play and p is not None and p.seat is not None
                and self.seats[p.seat].kind not in HUMAN_KINDS)

    def my_decision(self) -> bool:
        p = self.game.pending
        return self.can_play and p is not None and p.seat in self.local_seats()

    # ---------------------------------------------------------------- change

    def subscribe(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    def changed(self) -> None:
        self.version += 1
        self._summarise()
        for fn in list(self._listeners):
            fn()

    def _summarise(self) -> None:
        """When the decision comes back to this keyboard (or the game ends), one line per
        player who moved since, listing their moves: a whole bot round fits a small log."""
        g = self.game
        n = len(g.moves)
        p = g.pending
        viewer = self.viewer_seats()
        here = self.can_play and p is not None and p.seat in viewer  # (ours, or followed)
        if not (here or (g.is_over and self.can_play and viewer)):
            return
        if self._snap is None or self._snap_moves > n:
            self._snap, self._snap_moves = g.copy(), n
            return
        if self._snap_moves == n:
            return
        snap, local = self._snap, viewer
        turns: list[tuple[int, list[str]]] = []
        for i, move in enumerate(g.moves[self._snap_moves:], self._snap_moves):
            p = snap.pending
            try:
                snap.apply(move)
            except IllegalMove:  # pragma: no cover - the moves were applied once already
                break
            if p is None or p.seat is None or isinstance(move, Reveal):
                continue
            if p.seat in local and not self.played_for_us(p.seat, i):
                continue
            text = shown_move(str(move), spaced=True)  # `sail Rapa Nui 1 SW`
            who = self._name_at(p.seat, i)
            if p.seat in local or self.played_by_bot(p.seat, i):  # (ours while away, or
                who = _("{name} (a bot's moves)").format(name=who)  # a bot for its player)
            if turns and turns[-1][0] == p.seat and turns[-1][2] == who:
                turns[-1][1].append(text)
            else:
                turns.append((p.seat, [text], who))
        self._snap, self._snap_moves = g.copy(), n
        if turns:
            # after the story of those moves, before the header of the turn now begun
            at = len(self.lines)
            while at > 0 and (self.lines[at - 1][0] == "turn" or at - 1 in self._closing):
                at -= 1
            followed = self.followed_name()
            block = [(SUMMARY, _("Since your last move:") if followed is None
                      else _("Since {name}'s last move:").format(name=followed))]
            for _seat, texts, name in turns:  # (a LAN bot seat's `Maui (search)` as `Maui`)
                block.append((SUMMARY, f"  {name}: {', '.join(texts)}"))
            self.lines[at:at] = block

    def _name_at(self, seat: int, index: int) -> str:
        """Who played `seat` when move `index` was made: "Dee: expand Tahiti" was said of
        moves the bot in Ben's seat made before Dee sat down (a LAN-party playtest)."""
        name = self.names[seat]
        for at, names in self.names_from:
            if at > index:
                break
            name = names[seat]
        return name

    def mark_bot_turn(self, seat: int, kind: str) -> None:
        """The turn now told is `seat`'s, played by a bot (`kind`) for its away player:
        its header says so. A laptop that catches up heard the seat given back before the
        bot's moves came, and headed the turn with the player's name alone (a playtest)."""
        if self._header is None or self._header[0] != seat:
            return
        _seat, at, n = self._header
        if at >= len(self.lines) or self.lines[at][0] != "turn":
            return
        label = seat_label(dataclasses.replace(self.seats[seat], kind=kind))
        old, new = self.lines[at], self._narrator.header(seat, n, label)
        self.lines[at] = new
        # (the story's own record of its lines, which a take-back strikes by identity)
        self._told = [(k, new if line is old else line) for k, line in self._told]

    def say(self, text: str, style: str = "info") -> None:
        self.lines.append((style, text))
        self.changed()

    def _drain_events(self) -> None:
        events = self.game.events
        for k, ev in enumerate(events[self._seen_events:], self._seen_events):
            self._narrator.settled = self.settled_departure(k)
            line = self._narrator.tell(ev, self.game)
            if line:
                if ev.kind == "game_over":  # (the summary of the last moves goes before)
                    self._closing.add(len(self.lines))
                if ev.kind == "turn":  # (where the turn's header is: `mark_bot_turn`)
                    self._header = (ev.data[0], len(self.lines), self._narrator.turns)
                self._told.append((k, line))
                self.lines.append(line)
        self._seen_events = len(events)

    def settled_departure(self, k: int) -> bool:
        """Whether event `k` is a departure the engine settled by itself (one option
        left): a solo game knows which departures a Sail move chose; others do not say."""
        return False

    def follow_game(self, new: Game) -> int:
        """Go on with `new`, a game that shares only a beginning with the one shown (a
        LAN laptop cut off while the table went on: its own moves and tiles since are
        taken back). The story's lines of what `new` does not hold are struck out with a
        mark, not left standing: a player read a discovery the table never made, and the
        real one was never told. Returns how many lines were struck."""
        old = self.game
        keep = _shared(old.events, new.events)
        gone = {id(line) for k, line in self._told if k >= keep}  # (by identity: other
        # lines come in between and before them, as the summary of the last moves does)
        struck = 0
        for at, line in enumerate(self.lines):
            if id(line) in gone:
                self.lines[at] = ("void", STRUCK + line[1])
                struck += 1
        self._told = [(k, line) for k, line in self._told if k < keep]
        self.game = new
        narrator = Narrator(new, self.names, self.labels)  # (its turn count and the like
        # as after the shared beginning: told again in silence)
        for ev in new.events[:keep]:
            narrator.tell(ev, new)
        self._narrator, self._seen_events = narrator, keep
        # ("since your last move" counts from the moves both share)
        if self._snap is not None and self._snap_moves > _shared(old.moves, new.moves):
            self._snap, self._snap_moves = None, 0
        return struck  # (the caller tells the rest: after it says why)

    # ---------------------------------------------------------------- tasks

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def start(self) -> None:
        self._drain_events()
        self.changed()

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass

    # ---------------------------------------------------------------- moves

    async def submit(self, move: Move) -> None:
        """Play a move typed at this keyboard; raises IllegalMove with the reason."""
        raise IllegalMove("T0", _("this game does not take moves"))

    async def hint(self) -> Move:
        """A bot's suggestion for the pending decision, computed off the event loop; by
        default the `normal` level's, which answers within half a second."""
        kind = self.hint_kind or HINT_LEVEL
        # seeded by the position alone: asking again at the same decision gets the same
        # suggestion (a hint that changed when asked twice read as noise), and the hint the
        # screen asks for itself at a landing agrees with one typed meanwhile
        bot = make_bot(kind, seed=bot_seed(self.game.digest(), 255, b"hint"))
        snapshot = self.game.copy()
        loop = asyncio.get_running_loop()
        move = await loop.run_in_executor(None, bot.choose, snapshot)
        # why, as far as the bot can say: its best options with their chances (a
        # searching bot judged by the win model; empty for the others)
        self.hint_options = tuple(getattr(bot.inner, "last_options", ()))
        return move

    # ---------------------------------------------------------------- a table's facts

    def away_seats(self) -> set[int]:
        """Seats whose player is away from the table now (`replace` may give them to a
        bot)."""
        return set()

    def left_seats(self) -> set[int]:
        """Seats whose player left for good (a bot plays them from then on)."""
        return set()

    def expelled_seats(self) -> set[int]:
        """Seats of a laptop the table expelled (a bot plays them from then on)."""
        return set()

    def watcher_names(self) -> list[str]:
        """Who watches the table (the panel's `Watching:` line)."""
        return []

    def open_seat_list(self) -> list[int]:
        """Seats a newcomer may take now."""
        return []

    def open_seat_colours(self) -> list[str]:
        """For someone watching: the colours of the seats they may take, one per player."""
        return []

    def countdown_left(self) -> float | None:
        """Seconds before a draw goes on without whoever it waits for; None: none waits."""
        return None

    def countdown_text(self) -> str | None:
        return None

    def draw_waiting(self) -> tuple[str, bool] | None:
        """(whom, by name; whether the tile waits until they are back) while a draw waits."""
        return None

    def replace_left(self) -> float | None:
        """Seconds before `replace` may give the seat whose decision waits to a bot."""
        return None

    def waking_text(self) -> str | None:
        """The status line while this laptop asks the table what it missed, else None."""
        return None

    def leave_note(self) -> str | None:
        """What the leaving question says of this seat, instead of the record's path."""
        return None

    @property
    def can_undo(self) -> bool:
        """Whether `undo` would take something back now (a solo game's)."""
        return False

    # ---------------------------------------------------------------- extra commands

    def commands(self) -> dict[str, tuple[str, Callable[[str], object]]]:
        """Session-specific commands: name -> (help, handler(arguments))."""
        return {}

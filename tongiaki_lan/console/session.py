"""What drives a game screen: who sits where, who may move, and where moves go.

The screen only draws a `GameSession` and forwards typed moves to it. A solo game
applies them to a local engine and lets bots answer; a replay steps through a
record; a LAN game (lan.py) hands them to the network node. Bots think in a worker
thread on a copy of the game, so a search bot's second of thought never freezes
the screen.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from tongiaki_lan.bots import HINT_LEVEL, make_bot
from tongiaki_lan.engine import COLOURS, TILES, Dealer, Game, IllegalMove, Move, Reveal, Sail
from tongiaki_lan.engine.variant import STANDARD, variant_of, with_variant
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import shown_move
from tongiaki_lan.takeback import NOTHING, OVER, CannotTakeBack, TakeBack, pop_back, take_back

from .story import Line, Narrator


@dataclass
class Seat:
    name: str
    colour: str
    kind: str = "human"  # "human", a bot kind, or "remote"
    local: bool = False  # played from this keyboard
    away: bool = False
    # a laptop that plays its seat with a bot (`play --headless --bot`): labelled a bot's,
    # yet a laptop the table waits for when it goes away, as for a person's
    laptop_bot: bool = False


HUMAN_KINDS = ("human", "remote")


def plain_name(seat: Seat) -> str:
    """The seat's name without the bot's kind a LAN bot seat carries (`Maui (search)`)."""
    note = f" ({seat.kind})"
    if seat.kind not in HUMAN_KINDS and seat.name.endswith(note) and len(seat.name) > len(note):
        return seat.name[:-len(note)]
    return seat.name


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
# the levels' names as shown (`Maui — bot (facile)`); other kinds are names of their own
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}


def kind_label(kind: str) -> str:
    """A bot's kind as the player reads it: a level in their language, any other kind
    (`search`, `greedy`) by its own name, as the commands take it."""
    return _(LEVEL_NAMES[kind]) if kind in LEVEL_NAMES else kind


def seat_label(seat: Seat) -> str:
    """One label for who plays a seat, fed by what the session knows of its driver
    (`Seat.kind`: a bot kind for a bot seat, a solo bot, or a seat handed to a bot while
    its player is away): `Maui — bot (search)`, `Cat — bot (greedy)`; a player's name
    alone otherwise."""
    if seat.kind in HUMAN_KINDS:
        return seat.name
    return _("{name} — bot ({kind})").format(name=plain_name(seat), kind=kind_label(seat.kind))


def moves_by_seat(moves, names: list[str]) -> str:
    """`Hina: expand Tonga, beaches 2; Maui: sail Tonga 1 NE`: moves with who made
    each, a player's run of moves under one name (reveals left out: the story told
    them)."""
    runs: list[tuple[int, list[str]]] = []
    for seat, move in moves:
        if seat is None:
            continue
        text = shown_move(str(move), spaced=True)
        if runs and runs[-1][0] == seat:
            runs[-1][1].append(text)
        else:
            runs.append((seat, [text]))
    return "; ".join(f"{names[seat]}: {', '.join(texts)}" for seat, texts in runs)


def undo_refusal(no: CannotTakeBack) -> str:
    """Why `undo` takes nothing back, worded as the console words a refused move: the
    rule (U1) and the reason."""
    from tongiaki_lan.i18n.islands import island_name

    from .rules import clause_text

    if no.why == OVER:
        reason = _("the game is over, and its result stands")
    elif no.why == NOTHING:
        reason = _("you have made no decision yet")
    elif TILES[no.tile].is_island:
        reason = _("{island} was revealed after your last decision, and a revealed tile "
                   "stays revealed").format(island=island_name(no.tile))
    else:
        reason = _("a sea tile was revealed after your last decision, and a revealed tile "
                   "stays revealed")
    if current_language() == "en" or not clause_text("U1"):
        return f"undo: U1: {reason}"
    return _("{command}: not allowed by rule {clause} ({reason}) — rules {clause}").format(
        command="undo", clause="U1", reason=reason)


def undo_notes(record) -> list:
    """What each undo of a solo game's record took back, with who made each move (the
    replay tells it where it happened); none for a record that does not replay."""
    from tongiaki_lan.records import RecordError, replay_with_undos

    if not record.undos:
        return []
    try:
        return replay_with_undos(record)[1]
    except RecordError:  # (the replay says what is wrong where it comes to it)
        return []


def seed_from_text(text: str | None) -> bytes:
    """A 32-byte seed: 64 hex digits are taken as they are, anything else is hashed.

    No seed means a fresh random one, shown in the log so a game can be replayed.
    """
    if text is None:
        return os.urandom(32)
    t = text.strip()
    if len(t) == 64:
        try:
            return bytes.fromhex(t)
        except ValueError:
            pass
    return hashlib.blake2b(f"tongiaki-solo/{t}".encode(), digest_size=32).digest()


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
            block = [("summary", _("Since your last move:") if followed is None
                      else _("Since {name}'s last move:").format(name=followed))]
            for _seat, texts, name in turns:  # (a LAN bot seat's `Maui (search)` as `Maui`)
                block.append(("summary", f"  {name}: {', '.join(texts)}"))
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

    # ---------------------------------------------------------------- extra commands

    def commands(self) -> dict[str, tuple[str, Callable[[str], object]]]:
        """Session-specific commands: name -> (help, handler(arguments))."""
        return {}


class SoloSession(GameSession):
    """One human against bots, all on this machine; every move goes to a record."""

    title = N_("Solo")
    from_lobby = False  # started from the lobby: `lobby` after the game goes back there

    def __init__(
        self,
        seed: bytes,
        seats: list[Seat],
        record_path: Path | None = None,
        pace: float = 0.4,
        hint_kind: str | None = None,
        bot_options: dict | None = None,
        variant: str = STANDARD,
        game: Game | None = None,
    ):
        """`game`: a game resumed from `record_path` (`resume`), which is appended to."""
        resumed = game is not None
        if game is None:
            game = with_variant(Game([s.colour for s in seats]), variant)
        super().__init__(game, seats, hint_kind)
        self.resumed = resumed
        # which departures a move chose (event indices): any other told from here on was
        # settled by the engine; the story of a resumed game before it does not say
        self._chosen: set[int] = set()
        self._told_from = len(game.events)
        self._mark = 0
        self.started_lang = ""  # a resumed game's language when it started, if it said
        self.notes: list[str] = []  # said after the opening line (`solo`: a game to resume)
        if resumed:  # its story so far, told again (PgUp reads it) and numbering the
            # turns on: the log began at "turn 2" after a resume at turn 19
            self._drain_events()
        self.seed = seed
        self.dealer = Dealer(seed)
        self.pace = pace
        self.record_path = record_path
        self._writer = None
        self._bots = {
            i: make_bot(s.kind, seed=bot_seed(seed, i), **(bot_options or {}))
            for i, s in enumerate(seats)
            if not s.local
        }
        self._driver: asyncio.Task | None = None

    @classmethod
    def resume(cls, path: Path, pace: float = 0.4, hint_kind: str | None = None,
               bot_options: dict | None = None,
               speak: Callable[[str], None] | None = None) -> SoloSession:
        """The unfinished solo game of record `path`, to play on and append to. Raises
        RecordError (or OSError) saying what is wrong with the file. `speak` is handed the
        language the record says the game started in ("" if none) before the story so far
        is told: told first, it stayed in the language of before ("They land on Tonga" in
        an Italian game resumed)."""
        from tongiaki_lan.records import RecordError, read_record, replay_record

        record = read_record(path)
        header = record.header
        if header.game_name != "solo" or not any(s.kind == "human" for s in header.seats):
            raise RecordError(_("it is not a solo game (replay shows it)"))
        game = replay_record(record)  # every move checked again: a damaged file says where
        if game.is_over:
            raise RecordError(_("that game is over (replay shows it)"))
        if speak is not None:
            speak(header.lang)
        seats = [Seat(s.name, s.colour, s.kind, local=s.kind == "human") for s in header.seats]
        session = cls(header.seed, seats, record_path=Path(path), pace=pace,
                      hint_kind=hint_kind, bot_options=bot_options, game=game)
        session.started_lang = header.lang  # ("" in an older record: `solo` falls back)
        return session

    async def start(self) -> None:
        if self.resumed:
            self._reopen_record()
            text = _("Game resumed after move {n}, seed {seed}… (the record keeps it). help "
                     "lists the commands, rules the rule behind your decision.")
        else:
            if self.record_path is not None:
                self._open_record()
            if self.record_path is not None:
                text = _("New game, seed {seed}… (the record keeps it). help lists the "
                         "commands, rules the rule behind your decision.")
            else:  # --no-record, or the record could not be written
                text = _("New game, seed {seed}… (not recorded). help lists the commands, "
                         "rules the rule behind your decision.")
        self.lines.append(("info", text.format(n=len(self.game.moves),
                                               seed=self.seed.hex()[:12])))
        self.lines.extend(("info", note) for note in self.notes)
        await super().start()
        self._kick()

    def _open_record(self) -> None:
        try:
            from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo
        except ImportError:  # pragma: no cover - records ship with the engine
            self.lines.append(("bad", _("records are not available in this build")))
            return
        header = RecordHeader(
            seed=self.seed,
            seats=tuple(SeatInfo(s.name, s.colour, s.kind) for s in self.seats),
            created=datetime.now(timezone.utc).isoformat(timespec="seconds"),
            game_name="solo",
            variant=variant_of(self.game),
            lang=current_language(),  # (`solo --resume` speaks it again: docs/languages.md)
        )
        try:
            self._writer = RecordWriter.create(self.record_path, header)
        except OSError as exc:
            self.lines.append(("bad", _("cannot write the record {path}: {error}").format(
                path=self.record_path, error=exc)))
            self.record_path = None
            return
        self.lines.append(("info", _("Recording to {path}").format(path=self.record_path)))

    def _reopen_record(self) -> None:
        from tongiaki_lan.records import RecordError, RecordWriter

        try:
            self._writer = RecordWriter.open_append(self.record_path)
        except (OSError, RecordError) as exc:
            self.lines.append(("bad", _("cannot write the record {path}: {error}").format(
                path=self.record_path, error=exc)))
            self.record_path = None

    def settled_departure(self, k: int) -> bool:
        ev = self.game.events[k]
        return ev.kind == "depart" and k >= self._told_from and k not in self._chosen

    def _apply(self, move: Move) -> None:
        # raises IllegalMove, state untouched; then the seeded dealer reveals tiles
        self._mark = len(self.game.events)
        self.dealer.apply(self.game, move, self._moved)
        self._drain_events()
        self.changed()

    def _deal(self) -> None:
        """Reveal the tiles the game waits for, as the seed's stack has them, each one
        recorded. A move deals its own reveals (`_apply`), so this is for a game that
        begins at a chance node: a record cut between a move and its reveal (a crash
        between two saves) resumed there, and the screen said "A tile is being
        revealed…" for ever, since nobody else deals in a solo game."""
        self._mark = len(self.game.events)
        self.dealer.deal(self.game, self._moved)
        self._drain_events()
        self.changed()

    def _moved(self, move: Move) -> None:
        """After each move applied (and each reveal): a Sail's first departure event is
        the one it chose; the others are the engine's (`settled_departure`)."""
        events = self.game.events
        if isinstance(move, Sail):
            self._chosen.update(next(([k] for k in range(self._mark, len(events))
                                      if events[k].kind == "depart"), []))
        self._mark = len(events)
        self._record(move)

    def _record(self, move: Move) -> None:
        if self._writer is not None:
            try:
                self._writer.append(move, self.game.digest())
            except OSError as exc:
                self.lines.append(("bad", _("record write failed: {error}").format(error=exc)))
                self._writer = None

    async def submit(self, move: Move) -> None:
        p = self.game.pending
        if p is None:
            raise IllegalMove("E1", _("the game is over"))
        if p.seat not in self.local_seats():
            raise IllegalMove("T0", _("it is {name}'s decision, not yours").format(
                name=self.seats[p.seat].name))
        self._apply(move)
        self._kick()

    def _kick(self) -> None:
        if self._driver is None or self._driver.done():
            self._driver = self.spawn(self._drive())

    async def _drive(self) -> None:
        """Take every decision that is not this keyboard's — the bots', and chance's (the
        seed's dealer reveals the tile) — until it is a human's turn or the end."""
        loop = asyncio.get_running_loop()
        while True:
            p = self.game.pending
            if p is not None and p.is_chance:
                self._deal()
                continue
            if p is None or p.seat not in self._bots:
                return
            version = self.version
            bot = self._bots[p.seat]
            snapshot = self.game.copy()
            try:
                move = await loop.run_in_executor(None, bot.choose, snapshot)
            except Exception as exc:  # a broken bot must not stop the game
                self.lines.append(("bad", _("{name} (bot) failed: {error}; playing a legal move "
                                            "instead").format(name=self.seats[p.seat].name,
                                                              error=exc)))
                move = self.game.legal_move(0)
            if self.pace > 0:
                await asyncio.sleep(self.pace)
            if self.version != version:  # pragma: no cover - only bots move here
                continue
            try:
                self._apply(move)
            except IllegalMove as exc:
                self.lines.append(("bad", _("{name} (bot) tried {move}: {error}; playing a legal "
                                            "move instead").format(name=self.seats[p.seat].name,
                                                                   move=move, error=exc)))
                self._apply(self.game.legal_move(0))

    def commands(self):
        return {"undo": (N_("undo — take back your last decision and the bots' moves after "
                            "it; again: the decision before, never a revealed tile (rules "
                            "U1)"), lambda _arg: self.undo())}

    @property
    def can_undo(self) -> bool:
        """Whether `undo` would take something back now (the board page's Undo button)."""
        return isinstance(take_back(self.game, self.local_seats()), TakeBack)

    def undo(self) -> str | None:
        """Take back this keyboard's last decision and the bots' moves after it (U1, as
        Board Game Arena allows against bots); typed again, the decision before that.
        Never across a tile reveal: what was revealed stays. None, or why not. The record
        keeps the moves taken back and says so (`RecordWriter.undo`), so it still
        verifies; the story strikes what they told."""
        plan = take_back(self.game, self.local_seats())
        if not isinstance(plan, TakeBack):
            return undo_refusal(plan)
        game = self.game
        told = game.copy(undo=False)  # (the game as told so far, for `follow_game`)
        told.events = list(game.events)
        pop_back(game, plan.back_to)
        self.game = told
        gone = {id(line) for k, line in self._told if k >= len(game.events)}
        first = next((at for at, line in enumerate(self.lines) if id(line) in gone), None)
        self.follow_game(game)  # strikes the story of what was taken back
        for at in range(len(self.lines) if first is None else first, len(self.lines)):
            style, text = self.lines[at]  # (and the summaries of the moves taken back)
            if style == "summary":
                self.lines[at] = ("void", STRUCK + text)
        self._chosen = {k for k in self._chosen if k < len(game.events)}
        self._told_from = min(self._told_from, len(game.events))
        self._mark = len(game.events)
        if self._writer is not None:
            try:
                self._writer.undo(plan.back_to, game.digest())
            except OSError as exc:
                self.lines.append(("bad", _("record write failed: {error}").format(error=exc)))
                self._writer = None
        self.lines.append(("info", self._taken_back_text(plan)))
        self.changed()
        return None

    def _taken_back_text(self, plan: TakeBack) -> str:
        """`Taken back: expand Samoa`, and the bots' moves after it by name."""
        mine = shown_move(str(plan.mine), spaced=True)
        if not plan.after:
            return _("Taken back: {move}").format(move=mine)
        return _("Taken back: {move}, and the bots' moves after it: {moves}").format(
            move=mine, moves=moves_by_seat(plan.after, self.names))

    async def close(self) -> None:
        await super().close()
        if self._writer is not None:
            empty = self._writer.next_index == 0
            self._writer.close()
            self._writer = None
            if empty and not self.resumed:  # left before the first move: nothing to keep
                try:
                    self.record_path.unlink()
                except OSError:
                    pass
                self.record_path = None


class ReplaySession(GameSession):
    """A recorded game on the same board, stepped forwards and backwards."""

    title = N_("Replay")
    can_play = False

    def __init__(self, record, path: str = ""):
        self.record = record
        self.path = path
        header = record.header
        seats = [Seat(s.name, s.colour, s.kind) for s in header.seats]
        super().__init__(header.new_game(), seats)
        self.index = 0
        self.error: str | None = None
        # how many events the game had after each move applied so far: where a seat that
        # changed hands is told in the story
        self._events_at: dict[int, int] = {0: len(self.game.events)}
        self._undos = undo_notes(record)
        self._rebuild(0)

    @property
    def total(self) -> int:
        return len(self.record.moves)

    def _rebuild(self, index: int) -> None:
        """Forwards applies the record's moves, backwards takes them back (`Game.pop`),
        so a step costs one move whichever way it goes."""
        index = max(0, min(index, self.total))
        game = self.game
        while len(game.moves) > index:
            game.pop()
        self.error = None
        moves, digests = self.record.moves, self.record.digests
        while len(game.moves) < index:
            i = len(game.moves)
            move = moves[i]
            try:
                game.apply(move)
            except IllegalMove as exc:
                self.error = _("move {i} ({move}) is refused by the rules: {error}").format(
                    i=i, move=move, error=exc)
                break
            self._events_at.setdefault(i + 1, len(game.events))
            if i < len(digests) and game.digest() != digests[i]:
                self.error = _("move {i} ({move}): the state differs from the record's "
                               "digest").format(i=i, move=move)
        self.index = len(game.moves)
        self.seats[:] = self._seats_at(self.index)  # (in place: the screen holds it)
        self.lines = self._story(game)
        # told already, with these names: the session's own narrator (made with the
        # names of the start) would tell them again at `start`, and did, after `--at`
        self._narrator.names, self._narrator.labels = self.names, self.labels
        self._seen_events = len(game.events)
        self.lines.insert(0, ("info", _("Replay of {path}: {n} moves. PgDn/Enter = next, PgUp = "
                                        "back.").format(path=self.path or _("a record"),
                                                        n=self.total)))
        if self.error:
            self.lines.append(("bad", self.error))

    def _seats_at(self, index: int) -> list[Seat]:
        """The seats after `index` moves: a seat that changed hands (a newcomer at a LAN
        table) is the newcomer's from then on."""
        bots = self.record.seat_bots(index)  # (a bot for an away player: its kind, as live)
        return [Seat(name, was.colour, bot or (was.kind if name == was.name else "human"))
                for was, name, bot in zip(self.record.header.seats,
                                          self.record.seat_names(index), bots, strict=True)]

    def _bot_ends(self, seat: int, i: int) -> bool:
        """Whether the bot that plays `seat` from move `i` gives it back before the record
        ends (else its player went for good, or never came back while it was written)."""
        return any(index > i and not bots[seat] for index, bots in self.record.bots)

    def _bot_began_with(self, seat: int, i: int) -> str | None:
        """Who held `seat` when the bot stretch that ends at move `i` began."""
        start = None
        for index, bots in self.record.bots:
            if index >= i:
                break
            if bots[seat] and start is None:
                start = index
            elif not bots[seat]:
                start = None
        return None if start is None else self.record.seat_names(start + 1)[seat]

    def _story(self, game: Game) -> list[Line]:
        """The story of the moves shown, each stretch told with the players of its time,
        and a line where a seat changed hands: the panel's name switched and the log said
        nothing of it (and named the newcomer for the moves of the bot before)."""
        from .lan import colour_name

        cuts = {i: changed for i, changed in self.record.names if i < self.index
                and self._events_at.get(i) is not None}
        start = self._seats_at(0)
        narrator = Narrator(game, [plain_name(s) for s in start], [seat_label(s) for s in start])
        out: list[Line] = []
        at: dict[int, list[int]] = {}
        events = game.events
        for i in sorted(cuts):  # (two changes between the same two events: both told)
            k = self._events_at[i]
            prev = self._events_at.get(i - 1)
            if prev is not None:  # a change from the first move of a turn goes before the
                # turn's header, which the move before it told, so the header names the
                # seat's new hands (it named the bot a turn late, and the player a turn early)
                k = next((j for j in range(prev, k) if events[j].kind == "turn"), k)
            at.setdefault(k, []).append(i)
        undone: dict[int, list[str]] = {}  # where the player took moves back (undo)
        for note in self._undos:
            k = self._events_at.get(note.at)
            if note.at <= self.index and k is not None:
                undone.setdefault(k, []).append(self._undo_line(note))
        for k in range(len(events) + 1):  # (+1: a change after the last event told)
            out.extend(("info", line) for line in undone.get(k, ()))
            for i in at.get(k, ()):
                before, after = self._seats_at(i), cuts[i]
                bots = self.record.seat_bots(i), self.record.seat_bots(i + 1)
                for seat, (was, name, bot, then) in enumerate(
                        zip(before, after, *bots, strict=False)):
                    if was.name != name:  # ("Maui's seat", not "Maui (easy)'s seat")
                        out.append(("info", _("{name} takes {was}'s seat ({colours}).").format(
                            name=name, was=plain_name(was), colours=colour_name(was.colour))))
                    elif then and not bot and self._bot_ends(seat, i):  # (its player away:
                        # as the table said it live)
                        out.append(("info", _("{name}'s seat is played by a bot ({bot}) while "
                                              "they are away.").format(
                            name=plain_name(was), bot=kind_label(then))))
                    elif then and not bot:  # (to the end: a player gone for good)
                        out.append(("info", _("{name}'s seat is played by a bot ({bot}) from "
                                              "here on.").format(
                            name=plain_name(was), bot=kind_label(then))))
                    elif bot and not then and self._bot_began_with(seat, i) == name:
                        # (not when a newcomer took the seat meanwhile: that was told)
                        out.append(("info", _("{name} is back and plays their seat "
                                              "again.").format(name=plain_name(was))))
                seats = self._seats_at(i + 1)
                narrator.names = [plain_name(x) for x in seats]
                narrator.labels = [seat_label(x) for x in seats]
            line = narrator.tell(events[k], game) if k < len(events) else None
            if line:
                out.append(line)
        return out

    def _undo_line(self, note) -> str:
        """`Ana took back 3 moves here (undo): Ana: land 1:B 2:B; Hina: expand Tonga, beaches 2`
        (`Ana took back 1 move here (undo): expand Samoa` when only hers)."""
        names = [plain_name(s) for s in self._seats_at(note.at)]
        seat = note.moves[0][0]
        moves = (moves_by_seat(note.moves, names)
                 if any(s != seat for s, _m in note.moves) else  # (only the player's:
                 ", ".join(shown_move(str(m), spaced=True) for _s, m in note.moves))  # unnamed)
        return ngettext("{name} took back {n} move here (undo): {moves}",
                        "{name} took back {n} moves here (undo): {moves}",
                        len(note.moves)).format(name=names[seat], n=len(note.moves),
                                                moves=moves)

    def step(self, delta: int) -> None:
        """Tile reveals go with the move that caused them: a step never stops at one."""
        target = self.index + delta
        moves = self.record.moves
        if delta > 0:
            while target < self.total and isinstance(moves[target], Reveal):
                target += 1
        else:
            while 0 < target < self.total and isinstance(moves[target], Reveal):
                target -= 1
        self.goto(target)

    def goto(self, index: int) -> None:
        self._rebuild(index)
        self.changed()

    def position_text(self) -> str:
        if self.index < self.total:
            move = shown_move(str(self.record.moves[self.index]), spaced=True)  # (HivaOa)
            return _("move {i}/{n} — next: {move}").format(i=self.index, n=self.total,
                                                          move=move)
        return _("move {i}/{n}").format(i=self.index, n=self.total)

    def commands(self):
        def goto(arg: str):
            if not arg.strip().lstrip("-").isdigit():
                return _("goto: give a move number, e.g. 'goto 40'")
            self.goto(int(arg))
            return None

        return {
            "next": (N_("next [N] — step forwards one (or N) moves"),
                     lambda a: self.step(int(a) if a.strip().isdigit() else 1)),
            "back": (N_("back [N] — step backwards one (or N) moves"),
                     lambda a: self.step(-(int(a) if a.strip().isdigit() else 1))),
            "first": (N_("first — back to the start"), lambda a: self.goto(0)),
            "last": (N_("last — jump to the end"), lambda a: self.goto(self.total)),
            "goto": (N_("goto N — the position after N moves"), goto),
        }


def solo_seats(n_bots: int, name: str, bot_kind: str, seat: int = 0,
               two_colours: bool = False) -> list[Seat]:
    """The human plus n bots, colours in the engine's order, bots named after navigators.
    `two_colours` (one bot, V1): each player sits twice, A1 B1 A2 B2, with four colours."""
    navigators = ["Hina", "Maui", "Kupe", "Rata", "Tangaroa"]
    seats = []
    bots = iter(navigators)
    for i in range(n_bots + 1):
        if i == seat:
            seats.append(Seat(name, COLOURS[i], "human", local=True))
        else:
            seats.append(Seat(next(bots), COLOURS[i], bot_kind))
    if two_colours:
        seats += [dataclasses.replace(s, colour=COLOURS[len(seats) + i])
                  for i, s in enumerate(seats)]
    return seats

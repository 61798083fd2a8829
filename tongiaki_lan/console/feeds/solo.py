"""A solo game: one human against bots, all on this machine; every move goes to a record."""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import COLOURS, TILES, Dealer, Game, IllegalMove, Move, Sail
from tongiaki_lan.engine.variant import STANDARD, variant_of, with_variant
from tongiaki_lan.i18n import N_, _
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import shown_move
from tongiaki_lan.takeback import NOTHING, OVER, CannotTakeBack, TakeBack, pop_back, take_back

from ..seats import Seat
from ..state import STRUCK_SUMMARY, SUMMARY
from .base import STRUCK, GameSession, bot_seed


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

    from ..rules import clause_text

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
            if style == SUMMARY:
                self.lines[at] = (STRUCK_SUMMARY, STRUCK + text)
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

"""A recorded game on the game screen, stepped forwards and backwards."""

from __future__ import annotations

from tongiaki_lan.engine import Game, IllegalMove, Reveal
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n.islands import shown_move

from ..seats import Seat, colour_name, kind_label, plain_name, seat_label
from ..state import VIEW_ONLY
from ..story import Line, Narrator
from .base import GameSession
from .solo import moves_by_seat


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


class ReplaySession(GameSession):
    """A recorded game on the same board, stepped forwards and backwards."""

    title = N_("Replay")
    can_play = False
    kind = "replay"

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
        # the terminal's keys on a line of their own, which the other views leave out: the
        # line mode, which has no PgDn, said "PgDn/Enter = next, PgUp = back" to a listener
        self.lines[:0] = [
            ("info", _("Replay of {path}: {n} moves.").format(path=self.path or _("a record"),
                                                              n=self.total)),
            ("info" + VIEW_ONLY, _("PgDn/Enter = next, PgUp = back."))]
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

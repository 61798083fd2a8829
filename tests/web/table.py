"""Tables for the board page's tests: real games, shown as `TableState`s.

Until the table model lands, these stand in for it, as small as they can be: a solo game
(you against random bots, tiles from a seeded Dealer) and a replay of a finished game.
Each builds its states from the real engine the way the model will (the decision in the
console's words, the legal moves with their targets and previews, the story, the last
move with what it touched) and takes the page's commands through `on_command`, the
callback the real input path will be: typed text in, `(style, text)` out. What the page
is tested against is therefore a real game moving under it, not a recording.
"""

from __future__ import annotations

import contextlib

from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.console.final import final_rows
from tongiaki_lan.console.state import (
    DecisionView,
    LastMove,
    MoveOption,
    ReplayPosition,
    SeatView,
    TableState,
)
from tongiaki_lan.console.story import tell_all
from tongiaki_lan.console.targets import move_targets, touched
from tongiaki_lan.console.words import engine_reason, move_preview, pending_text
from tongiaki_lan.engine import COLOURS, LETTERS, Dealer, Game, IllegalMove, Reveal, parse_move
from tongiaki_lan.i18n import _, current
from tongiaki_lan.i18n.islands import engine_text
from tongiaki_lan.selfplay import game_seed
from tongiaki_lan.svgboard import COLOUR_NAMES

NAMES = ("Ana", "Hina", "Maui", "Kupe", "Tane", "Rangi")


def _seats(game: Game, you: int | None, labels: list[str]) -> tuple[SeatView, ...]:
    scores = game.scores()
    out = []
    for seat, colour in enumerate(game.colours):
        cid = game.colour_ids()[seat]
        out.append(SeatView(
            index=seat, name=NAMES[seat], label=labels[seat], colour=colour,
            letter=LETTERS[cid], colour_name=_(COLOUR_NAMES[colour]),
            driver="you" if seat == you else "bot", local=seat == you, viewer=seat == you,
            score=scores[colour], ships_in_reserve=game.reserve(seat)))
    return tuple(out)


class SoloTable:
    """You (seat 0) against random bots. `server` (set by the test) is told of every
    change; `hold()` keeps changes from it for a while, as a busy console would."""

    def __init__(self, players: int = 3, seed: str = "web", you: int = 0) -> None:
        self.game = Game(COLOURS[:players])
        self.dealer = Dealer(game_seed(seed, 0))
        self.you = you
        self.bots = {s: RandomBot(s) for s in range(players) if s != you}
        self.labels = [NAMES[s] if s == you else f"{NAMES[s]} — bot (random)"
                       for s in range(players)]
        self.version = 0
        self.last: LastMove | None = None
        self.notice: tuple[str, str] | None = None
        self.hint = ""
        self.server = None
        self.commands: list[str] = []  # every command the page sent, in order
        self._held = False
        self._players = players

    # ------------------------------------------------------------------ playing

    def _apply(self, move) -> None:
        seat = self.game.pending_seat
        before = len(self.game.moves)
        marks = touched(self.game, move)
        revealed: list[int] = []
        self.dealer.apply(self.game, move,
                          lambda m: revealed.append(m.tile) if isinstance(m, Reveal) else None)
        name = f"{NAMES[seat]} ({LETTERS[self.game.colour_ids()[seat]]})"
        self.last = LastMove(index=before, seat=seat, text=f"{name}: {move}",
                             targets=marks.targets, tiles=(*marks.tiles, *revealed))

    def bots_play(self, limit: int = 10_000) -> None:
        """The bots' decisions, up to yours (or the end)."""
        while not self.game.is_over and self.game.pending_seat != self.you and limit:
            self._apply(self.bots[self.game.pending_seat].choose(self.game))
            limit -= 1

    def play(self, text: str) -> tuple[str, str]:
        """A move typed for you (the console's way): applied, then the bots answer."""
        if self.game.pending_seat != self.you:
            return "error", "not your turn"
        try:
            move = parse_move(engine_text(text))
        except ValueError as exc:
            return "error", engine_reason(exc.args[0] if exc.args else exc)
        try:
            self._apply(move)
        except IllegalMove as exc:
            return "error", f"{text}: {exc}"
        self.hint = ""
        self.notice = None
        self.bots_play()
        self.changed()
        return "ok", ""

    def undo(self) -> tuple[str, str]:
        target = self._undo_point()
        if target is None:
            return "error", "nothing to take back"
        while len(self.game.moves) > target:
            self.game.pop()
        self.last = None
        self.changed()
        return "ok", ""

    def _undo_point(self) -> int | None:
        """Where `undo` goes back to: before your last decision, never across a reveal."""
        moves = self.game.moves
        replay = Game(self.game.colours)  # played again, to see whose each move was
        mine = []
        for i, m in enumerate(moves):
            if replay.pending_seat == self.you:
                mine.append(i)
            replay.apply(m)
        reveals = [i for i, m in enumerate(moves) if isinstance(m, Reveal)]
        after = reveals[-1] if reveals else -1
        mine = [i for i in mine if i > after]
        return mine[-1] if mine else None

    async def on_command(self, text: str) -> tuple[str, str]:
        self.commands.append(text)
        if text == "undo":
            return self.undo()
        if text == "hint":
            self.hint = f"hint: {self.game.legal_moves()[0]}"
            self.changed()
            return "ok", ""
        style, said = self.play(text)
        if style == "error":
            self.notice = (style, said)
            self.changed()
        return style, said

    @contextlib.contextmanager
    def hold(self):
        """Changes made inside are not shown until the block ends."""
        self._held = True
        try:
            yield
        finally:
            self._held = False
            self.changed()

    def changed(self) -> None:
        self.version += 1
        if self.server is not None and not self._held:
            self.server.publish(self.state())

    # ------------------------------------------------------------------ the view

    def state(self) -> TableState:
        g = self.game.copy()
        p = g.pending
        mine = p is not None and p.seat == self.you
        style, text = pending_text(g, list(NAMES[:self._players]), {self.you},
                                   labels=self.labels)
        moves = ()
        if mine:
            moves = tuple(MoveOption(text=str(m), shown=str(m), preview=move_preview(g, m),
                                     targets=move_targets(g, m)) for m in g.legal_moves())
        return TableState(
            version=self.version, kind="solo", lang=current(), title="Tongiaki — solo",
            move_index=len(g.moves), seats=_seats(g, self.you, self.labels),
            decision=DecisionView(seat=None if p is None else p.seat,
                                  kind="" if p is None else p.kind, mine=mine, text=text,
                                  moves=moves),
            board=g, frontier=mine and p.kind == "colony_tile", last_move=self.last,
            story=tuple(tell_all(g, list(NAMES[:self._players]), self.game.events,
                                 self.labels)),
            status=text, hint=self.hint, notice=self.notice, over=g.is_over,
            offer=str(g.default_landing()) if mine and p.kind == "landing" else "",
            final=tuple(final_rows(g, list(NAMES[:self._players]))) if g.is_over else (),
            can_undo=self._undo_point() is not None and not g.is_over,
            commands=("hint", "undo"),
        )


class ReplayTable:
    """A finished game between random bots, stepped through: first, back, forward,
    last, goto N."""

    def __init__(self, players: int = 3, seed: str = "replay") -> None:
        game = Game(COLOURS[:players])
        dealer = Dealer(game_seed(seed, 0))
        bots = [RandomBot(s) for s in range(players)]
        while not game.is_over:
            dealer.apply(game, bots[game.pending_seat].choose(game))
        self.colours = game.colours
        self.moves = game.moves
        self.index = len(self.moves)
        self.version = 0
        self.server = None
        self.commands: list[str] = []
        self.labels = [f"{NAMES[s]} — bot (random)" for s in range(players)]

    async def on_command(self, text: str) -> tuple[str, str]:
        self.commands.append(text)
        total = len(self.moves)
        words = text.split()
        if text == "first":
            self.index = 0
        elif text == "last":
            self.index = total
        elif text == "back":
            self.index = max(0, self.index - 1)
        elif text == "forward":
            self.index = min(total, self.index + 1)
        elif len(words) == 2 and words[0] == "goto" and words[1].isdigit() \
                and int(words[1]) <= total:
            self.index = int(words[1])
        else:
            return "error", f"a replay takes first, back, forward, last or goto 0..{total}"
        self.version += 1
        if self.server is not None:
            self.server.publish(self.state())
        return "ok", ""

    def state(self) -> TableState:
        g = Game.replay(self.colours, self.moves[:self.index])  # (its events: the story)
        last = None
        if self.index:
            before = Game.replay(self.colours, self.moves[:self.index - 1])
            marks = touched(before, self.moves[self.index - 1])
            last = LastMove(index=self.index - 1, seat=before.pending_seat,
                            text=str(self.moves[self.index - 1]), targets=marks.targets,
                            tiles=marks.tiles)
        p = g.pending
        names = list(NAMES[:len(self.colours)])
        _style, text = pending_text(g, names, set(), labels=self.labels, replay=True)
        return TableState(
            version=self.version, kind="replay", lang=current(), title="Tongiaki — replay",
            move_index=self.index, seats=_seats(g, None, self.labels),
            decision=DecisionView(seat=None if p is None else p.seat,
                                  kind="" if p is None else p.kind, mine=False, text=text),
            board=g, last_move=last,
            story=tuple(tell_all(g, names, g.events, self.labels)), status=text,
            over=g.is_over, replay=ReplayPosition(self.index, len(self.moves)),
        )

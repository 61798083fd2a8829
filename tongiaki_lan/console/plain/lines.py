"""What the line mode says of a table: from one `TableState` to the next, the lines worth
hearing, each once.

A screen reader reads every line that is written, and a pipe keeps every line, so this
view never repeats what it said and never redraws: it says what is new in the story (a
line struck out by `undo` is not said again: "Taken back: …" says it), a countdown when
it starts (not each second), a notice (a refusal with its rule, a hint) when it changes,
this keyboard's decision when it comes — in words, with its legal moves — and at the end
the final table. Whose turn it is when a bot or a tile decides is the story's turn line;
a person at another laptop is named once when the table starts waiting for them.

Everything said comes from the state (state.py); the words are the model's and the
story's, as the terminal shows them, except the few below that only a line mode needs.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from tongiaki_lan.engine import LETTERS, TILES
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import _, ngettext
from tongiaki_lan.i18n.islands import island_name

from ..final import decided_by, presence
from ..state import STRUCK_SUMMARY, SUMMARY, VIEW_ONLY, Line, MoveOption, TableState
from ..status import status_line
from ..words import _GAME_KEYS, GENERAL_HELP, REPLAY_KEYS

FEW = 6  # a decision's moves are said whole up to this many; beyond, the count and
FIRST = 4  # the first of them (`moves` lists them all)
STRUCK = "void"  # the story's style of a line taken back (`undo`, a LAN table's rewind)
# (the story's "Since your last move:" lines, `SUMMARY`: read out here, every move of a
# round was said twice)
RULE = "─"  # the turn lines' decoration (`── turn 3: Ana (B) ──`): not read aloud


def said_status(state: TableState) -> str:
    """The status line as a view with a command line says it (`TableState.status` is the
    board page's, which has no Enter), a line with no Tab."""
    return status_line(state, tab=False)[1]


def plain_help(replay: bool = False) -> str:
    """How this mode is played, said at the start and after `help`."""
    if replay:
        return _("Plain mode: Enter alone steps to the next move; next N, back N, first, last "
                 "and goto N move through the game; quit leaves.")
    return _("Plain mode: type a move or a command, then Enter. Enter alone plays what is "
             "offered (a hint, a landing) or says where the game stands; moves lists your "
             "legal moves and where they go, islands the ships on every island; quit leaves "
             "(mid-game it asks first, as Ctrl-C does).")


# the watcher's help says the full-screen console's keys in a line of its own (input.py)
WATCHER_KEYS = "Keys: arrows pan the map, PgUp/PgDn scroll the log, Tab completes."


def terminal_only() -> frozenset[str]:
    """The help's lines about the full-screen console's keys, mouse, map and panel, in the
    language in use: this mode has none of them, and a listener must not go looking."""
    english = [*_GAME_KEYS, *REPLAY_KEYS, WATCHER_KEYS]
    drawing = next((i for i, line in enumerate(GENERAL_HELP) if line.startswith("Map:")),
                   len(GENERAL_HELP))
    english += GENERAL_HELP[drawing:]
    return frozenset(_(line) for line in english)


def story_news(old: tuple[Line, ...], new: tuple[Line, ...]) -> list[Line]:
    """The lines of `new` not in `old`, in order. The story mostly grows at its end, but
    not only: the summary of the others' moves goes in before the turn line told a moment
    ago, and `undo` strikes lines where they stand. A line kept where it was is not new."""
    n = 0
    for a, b in zip(old, new, strict=False):
        if a != b:
            break
        n += 1
    if n == len(old):
        return list(new[n:])
    out: list[Line] = []
    matcher = SequenceMatcher(None, old[n:], new[n:], autojunk=False)
    for tag, _i1, _i2, j1, j2 in matcher.get_opcodes():
        if tag in ("insert", "replace"):
            out.extend(new[n + j1:n + j2])
    return out


def listed(options: tuple[MoveOption, ...] | list[MoveOption]) -> str:
    """Moves as read (`sail Rapa Nui 2 NE → lands on Tonga`): with where they go, when
    that is known before they are played, they are told apart by semicolons."""
    if any(o.preview for o in options):
        return "; ".join(f"{o.shown} {o.preview}".rstrip() for o in options)
    return ", ".join(o.shown for o in options)


def moves_line(options: tuple[MoveOption, ...]) -> str:
    """The legal moves of a decision of ours: all of them when few, else how many and the
    first few (`moves` lists them all)."""
    if len(options) <= FEW:
        return _("Legal moves: {moves}").format(moves=listed(options))
    return _("{n} legal moves, the first: {moves} … (moves lists them all)").format(
        n=len(options), moves=listed(options[:FIRST]))


def all_moves_line(state: TableState, start: str = "") -> str | None:
    """`moves` (`moves sail`, `moves tile 2,`: those that begin so): every legal move of
    our decision, with where it goes; None when the decision is not ours."""
    options = state.decision.moves
    if not state.decision.mine or not options:
        return None
    if start:
        want = start.casefold().split()
        options = tuple(o for o in options
                        if _begins(o.shown.casefold().split(), want)
                        or _begins(o.text.casefold().split(), want))
        if not options:
            return _("moves: no legal move begins with {start}").format(start=start)
    return _("Legal moves: {moves}").format(moves=listed(options))


def _begins(words: list[str], want: list[str]) -> bool:
    """`tile 2,-1 N` begins with `tile 2,`: whole words, the last one typed begun."""
    if len(want) > len(words):
        return False
    return words[:len(want) - 1] == want[:-1] and words[len(want) - 1].startswith(want[-1])


def islands_lines(state: TableState) -> list[str]:
    """`islands`: the board in words, an island a line — where it lies, its beaches with
    their ships by colour letter and free berths, its king. What the full screen's map
    shows at a glance, for a listener (the story tells how it came to be so)."""
    game = state.board
    out = []
    for tile in game.islands():
        q, r = game.hex_of(tile)
        beaches = []
        for n, (ships, beach) in enumerate(zip(game.ships_on(tile), TILES[tile].beaches,
                                               strict=True), 1):
            free = beach.berths - len(ships)
            letters = " ".join(LETTERS[c] for c in ships)
            if not ships:
                beaches.append(_("beach {n}: empty").format(n=n))
            elif free <= 0:
                beaches.append(_("beach {n}: {ships}, full").format(n=n, ships=letters))
            else:
                beaches.append(ngettext("beach {n}: {ships}, {free} free",
                                        "beach {n}: {ships}, {free} free", free).format(
                    n=n, ships=letters, free=free))
        king = game.king_of(tile)
        if king is not None:
            beaches.insert(0, _("Royal Island, king {letter}").format(letter=LETTERS[king]))
        out.append(_("{island} ({value}) at {hex}: {beaches}").format(
            island=island_name(tile), value=TILES[tile].value, hex=f"{q},{r}",
            beaches="; ".join(beaches)))
    return out


def offered_shown(state: TableState) -> str:
    """The move offered for our decision (a landing's hint) as read."""
    option = next((o for o in state.decision.moves if o.text == state.offer), None)
    return option.shown if option is not None else state.offer


def final_said(state: TableState) -> list[str]:
    """The final table as sentences: what decided, each player's totals, and which
    colours score each island. The terminal's table is read by its columns, which a
    listener does not have ("Oahu · 4 ·" is heard as "Oahu 4": whose?)."""
    game = state.board
    labels = [s.label for s in state.seats]
    out = [decided_by(game, labels)]
    keys = game.ranking_keys()
    for s in state.seats:
        k = keys[s.colour]
        out.append(_("{name} ({letter}): {points} points, on {islands} islands, {ships} "
                     "ships and kings on the board").format(
            name=s.label, letter=s.letter, points=k[0], islands=k[1], ships=-k[2]))
    present = presence(game)
    cids = game.colour_ids()
    islands = sorted({t for isl in present.values() for t in isl},
                     key=lambda t: (-TILES[t].value, island_name(t)))
    scored = "; ".join(
        f"{island_name(t)} ({TILES[t].value}): "
        + " ".join(LETTERS[c] for c in cids if t in present[c]) for t in islands)
    if scored:
        out.append(_("Who scores each island: {islands}").format(islands=scored))
    return out


class LineView:
    """Remembers what was said, and says what a new state adds to it (`lines(state)`)."""

    def __init__(self) -> None:
        self._story: tuple[Line, ...] = ()
        self._notice = ""
        self._decision: tuple | None = None  # the decision of ours last said
        self._waited: int | None = None  # the seat last said to be waited for
        self._countdowns: frozenset[str] = frozenset()
        self._over = False
        self._position = ""
        self._seat_lost = False
        self._hidden = terminal_only()
        self.announced = False  # the pending decision of ours has been said, moves and all

    def forget_notice(self) -> None:
        """A new command: its answer is said even if it is the answer said last time
        (the same refusal, typed twice, is answered twice)."""
        self._notice = ""

    def lines(self, state: TableState) -> list[str]:
        out: list[str] = []
        for style, text in story_news(self._story, state.story):
            line = self._story_line(style, text)
            if line:
                out.append(line)
        self._story = state.story
        kinds = frozenset(c.kind for c in state.countdowns)
        out += [c.text for c in state.countdowns if c.kind not in self._countdowns and c.text]
        self._countdowns = kinds
        out += self._standing(state)
        if self._landing_due(state):
            return out  # (its hint's "Thinking…" is not news: the decision comes with it)
        notice = state.line_notice[1] if state.line_notice is not None else ""
        if notice != self._notice:  # (after the decision: a hint, a reason, is about it)
            self._notice = notice
            if notice:
                out.append(notice)
        return out

    @staticmethod
    def _landing_due(state: TableState) -> bool:
        """Our landing, whose hint is on its way: it is said with the hint's landing."""
        d = state.decision
        return d.mine and d.kind == D.LANDING and not state.offer and not state.over

    def _story_line(self, style: str, text: str) -> str:
        if (style in (STRUCK, SUMMARY, STRUCK_SUMMARY) or style.endswith(VIEW_ONLY)
                or not text.strip() or text in self._hidden):  # (the terminal's own lines)
            return ""
        if style == "turn":
            return text.strip(RULE + " ")
        return text

    def _standing(self, state: TableState) -> list[str]:
        """Where the table stands, said when it changes in a way that matters here."""
        out: list[str] = []
        if state.seat_lost != self._seat_lost:
            self._seat_lost = state.seat_lost
            if state.seat_lost:
                out.append(said_status(state))
        if state.over and not self._over:
            out += final_said(state)
        self._over = state.over
        if state.replay is not None:
            status = said_status(state)
            if status != self._position:
                self._position = status
                out.append(status)
            return out
        d = state.decision
        self.announced = False
        if state.over or state.seat_lost:
            self._decision = self._waited = None
            return out
        if d.mine:
            key = (state.move_index, d.seat, d.kind)
            if key == self._decision:
                self.announced = True
                return out
            if self._landing_due(state):
                return out
            self._decision, self._waited = key, None
            self.announced = True
            return out + self.decision_lines(state)
        self._decision = None
        if state.bot_thinking:
            self._waited = None  # (a bot's turn: the story's turn line says it)
            return out
        if d.seat is None or state.waking:
            return out  # (a tile: the story says what it is)
        if d.seat != self._waited:  # a person at another laptop: named once a turn
            self._waited = d.seat
            out.append(d.line_text or d.text)
        return out

    def decision_lines(self, state: TableState) -> list[str]:
        """Our decision in words, the move offered for it, and its legal moves."""
        d = state.decision
        text = d.line_text or d.text  # (as a view with a command line says it)
        notice = state.line_notice[1] if state.line_notice is not None else ""
        if state.offer and not (state.line_hint and notice == state.line_hint):  # (else the hint's
            text += f" ({offered_shown(state)})"  # words say it next, with its reason)
        return [text, moves_line(d.moves)] if d.moves else [text]

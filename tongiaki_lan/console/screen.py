"""The game screen: map, side panel, story log, status line and the command line.

Layout (80x24 and up):

    +------------------------------+-----------------+
    | map (pans, re-centres)       | players, stack  |
    |                              |-----------------|
    |                              | story log       |
    +------------------------------+-----------------+
    | status: the pending decision and whose it is   |
    | message (one-line reasons, hints)               |
    | > command line with completion of legal moves   |

Everything shown is computed from the session at draw time, so a resize simply
draws again and never needs its own bookkeeping.
"""

from __future__ import annotations

import asyncio
import difflib
import math
import os
import re
import textwrap

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.key_binding.bindings.completion import generate_completions
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl, UIContent, UIControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from tongiaki_lan.engine import (
    LETTERS,
    Colony,
    Expand,
    IllegalMove,
    Move,
    Place,
    PlaceTile,
    Royal,
    Sail,
    Take,
    parse_move,
)
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine import variant as V
from tongiaki_lan.engine.tiles import tile_by_name, token_name
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import engine_text, island_name, joined_islands, shown_move

from .board import COMPACT, FULL, BoardView, Canvas, board_extent, tile_face
from .board import OUTLINES as HEX_OUTLINES
from .board import TOP as TOP_EDGE
from .final import final_rows, short_name
from .rules import clause_text, rules_lines
from .seatmarks import STEPS, mark_lines, seat_marks
from .session import HUMAN_KINDS, GameSession, NotYet, SoloSession
from .story import tile_label
from .theme import build_style, player_style
from .words import (
    LANDING_HINTED,
    LANDING_PLAIN,
    LANDING_THINKING,
    MOVE_HELP,
    engine_reason,
    help_lines,
    move_preview,
    pending_text,
)

COMPLETION_LIMIT = 24  # above this many matches, complete one word at a time
META = ("help", "hint", "moves", "rules", "position", "centre", "board", "quit")
MIN_COLUMNS, MIN_ROWS = 80, 24  # below this the screen says so instead of drawing nonsense
MIN_LOG_ROWS = 10  # a bot round must not scroll past unseen
_COUNT_HERE = ("class:panel.drawn", "")  # the line that says how many watch when the list goes

SPINNER = "|/-\\"
BACK_TO_LOBBY = 3  # what the screen ends with when the player typed `lobby` after a game
# what a LAN watcher's command line takes (it has no seat: no moves, no hints); `chat` and
# `join` are other words for `say` and `take`, `board` and `centre` only change the view
WATCHER_WORDS = ("say", "follow", "take", "help", "quit")
WATCHER_ALSO = ("chat", "join", "?", "exit", "q", "board", "centre", "center", "lobby")


def watching(session) -> bool:
    """A LAN session that follows the table without a seat."""
    return bool(getattr(session, "watching", False))


def decision_island(game) -> int | None:
    """The island the pending decision is about: the map outlines it and keeps it in view.
    A departure has none of its own (M1: the full beaches), so it is the first full beach's
    island, the one the status line names first: "Rarotonga 1 is full" stood there while
    Rarotonga was off the map, and `centre` went back to Tonga."""
    p = game.pending
    if p is not None and p.kind == D.DEPARTURE:
        return next((m.island for m in game.legal_moves() if isinstance(m, Sail)), None)
    return p.island if p is not None else None


# ------------------------------------------------------------------ controls


class CanvasControl(UIControl):
    """Shows whatever `draw(width, height)` returns; redrawn on every render."""

    def __init__(self, draw, on_click=None, on_scroll=None):
        self.draw = draw
        self.on_click = on_click  # (x, y) of a left click, in the control's own cells
        self.on_scroll = on_scroll  # +1 (wheel down) / -1 (wheel up)

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.draw(width, height)
        return UIContent(get_line=lambda i: lines[i] if i < len(lines) else [],
                         line_count=max(1, len(lines)))

    def is_focusable(self) -> bool:
        return False

    def mouse_handler(self, mouse_event: MouseEvent):
        kind = mouse_event.event_type
        if (kind == MouseEventType.MOUSE_UP and self.on_click is not None
                and mouse_event.button in (MouseButton.LEFT, MouseButton.UNKNOWN)):
            self.on_click(mouse_event.position.x, mouse_event.position.y)
            return None
        if self.on_scroll is not None and kind in (MouseEventType.SCROLL_UP,
                                                   MouseEventType.SCROLL_DOWN):
            self.on_scroll(1 if kind == MouseEventType.SCROLL_DOWN else -1)
            return None
        return NotImplemented


class _PathWrapper(textwrap.TextWrapper):
    """Lines may also end after a path's separator, or a hyphen before a digit: a
    record's path is longer than the log panel, and was cut wherever the line ran out
    (`…/tongiaki-lan/rec` / `ords/so` / `lo-2026…`); `tongiaki-lan` stays whole.
    (`wordsep_simple_re` is the pattern textwrap splits on without hyphens; a test
    checks that textwrap still reads it. Its spaces are textwrap's own, ASCII: a
    no-break space holds words together, as in the game-over line's hint.)"""

    wordsep_simple_re = re.compile(r"([\t\n\x0b\x0c\r ]+|(?<=[/\\])(?=[^\s/\\])|(?<=\w-)(?=\d))")


def wrap_words(text: str, width: int, **kw) -> list[str]:
    """textwrap.wrap, but a word is never broken at its hyphens: `tongiaki-lan` and the
    record's `Reef-78ed60c9-….tgrec` were split across lines ("run tongiaki-" / "lan
    again"); a path is broken after a `/` or `\\`; another word longer than the line
    is still broken, as before. French puts a space before `;`, `:`, `!` and `?`: no line
    may start with one ("  ; un bot (normal) joue sa place", a playtest), so that space is
    a non-breaking one here."""
    text = _BEFORE_PUNCT.sub("\u00a0\\1", text)
    return _PathWrapper(width, break_on_hyphens=False, **kw).wrap(text)


_BEFORE_PUNCT = re.compile(r" ([;:!?»])")


def wrap_fragments(lines, width: int) -> list[list[tuple[str, str]]]:
    out = []
    for style, text in lines:
        cls = f"class:log.{style}" if style else "class:log"
        if style == "turn" and len(text) > width:  # (a narrow panel broke "── turn 22: Ben
            text = text.strip("─ ")  # — bot (normal)" from its "(R) ──": the rules go first)
        if style == "summary":
            text = _moves_whole(text)
        for part in wrap_words(text, max(10, width), subsequent_indent="  ") or [""]:
            out.append([(cls, part)])
    return out


def _moves_whole(text: str) -> str:
    """A summary line (`  Hina: expand Tonga, beaches 4 5`) with each move's words held
    together: a move was cut between lines ("beaches 4" / "5", a playtest)."""
    head, sep, moves = text.partition(": ")
    if not sep:
        return text
    return head + sep + ", ".join(m.replace(" ", "\u00a0") for m in moves.split(", "))


class MoveCompleter(Completer):
    """Offers exactly the legal moves of the pending decision, in their text form.

    Large sets (a New Colony tile has six placements per free hex, a landing can have
    dozens) are offered a word at a time, so the menu always stays short enough to
    read: `tile ` offers the hexes, `tile 1,-2 ` then the six directions.
    """

    def __init__(self, screen: GameScreen):
        self.screen = screen

    def get_completions(self, document, complete_event):
        before = document.text_before_cursor
        typed = joined_islands(before.lstrip())  # (`sail Rapa Nui `, as the map writes it)
        low = typed.lower()
        if not typed and not complete_event.completion_requested:
            return  # an empty line shows no menu until Tab asks for one
        if watching(self.screen.session):
            yield from self._watcher_completions(before, low)
            return
        word, space, rest = low.partition(" ")
        if space and word == "replace" and "replace" in self.screen.session.commands():
            yield from self._player_completions(rest)
            return
        offer = self.screen._prefill
        if (offer and document.text == offer and complete_event.completion_requested
                and offer in self.screen.legal_by_text()):  # (a whole move, not `tile 1,2 `)
            # Tab on the untouched offer (`land 1:B 2:G 3:G`) lists the other ways, as on
            # `land `: it showed nothing, and the offer had to be cleared by hand first
            typed = offer.split(" ", 1)[0] + " "
            low = typed.lower()
        moves = self.screen.legal_texts()
        matches = [m for m in moves if m.lower().startswith(low)]
        if len(matches) > COMPLETION_LIMIT:
            stems: dict[str, int] = {}
            for m in matches:
                cut = m.find(" ", len(typed) + (0 if typed.endswith(" ") or not typed else 1))
                stem = m if cut < 0 else m[: cut + 1]
                stems[stem] = stems.get(stem, 0) + 1
            for stem, n in stems.items():
                meta = ngettext("{n} move", "{n} moves", n).format(n=n) if n > 1 else ""
                yield Completion(stem, start_position=-len(before), display=stem.strip(),
                                 display_meta=meta)
        else:
            game = self.screen.session.game
            by_text = self.screen.legal_by_text()
            for m in matches:
                move = by_text.get(m)
                meta = move_preview(game, move)
                yield Completion(m, start_position=-len(before), display_meta=meta)
        if low:
            lobby = ("lobby",) if getattr(self.screen.session, "from_lobby", False) else ()
            for word in (*META, *lobby, *self.screen.session.commands()):
                if word.startswith(low) and word != low:
                    yield Completion(word, start_position=-len(before),
                                     display_meta=_("command"))


    def _player_completions(self, rest: str):
        """`replace `: the other players' names (or a colour, the English word the table
        takes, when that is what is being typed); it offered nothing, and a name had to
        be read off the panel and typed whole. Not ours, nor a seat a bot plays already;
        only away players' when someone is away (a playtest's Tab offered everyone, and the
        first name it put on the line was a player sitting right there)."""
        s = self.screen.session
        typed = rest.strip()
        options = []
        away = getattr(s, "away_seats", set)()
        for i, (seat, name) in enumerate(zip(s.seats, s.names, strict=True)):
            if seat.local or seat.kind not in HUMAN_KINDS or (away and i not in away):
                continue
            english = typed and not name.lower().startswith(typed) and seat.colour.startswith(typed)
            options.append(seat.colour if english else name)
        for o in dict.fromkeys(options):  # (two colours each: a name once)
            if o.lower().startswith(typed) and o.lower() != typed:
                yield Completion(o, start_position=-len(rest.lstrip()))

    def _watcher_completions(self, before: str, low: str):
        """A watcher's line: its few commands, then a player's name after `follow ` and
        an open seat's colour after `take `."""
        s = self.screen.session
        word, space, rest = low.partition(" ")
        if not space:
            words = [*WATCHER_WORDS]
            if s.game.is_over:
                words += ["board"] + (["lobby"] if getattr(s, "from_lobby", False) else [])
            if not s.open_seat_list():
                words.remove("take")
            for w in words:
                if w.startswith(low) and w != low:
                    yield Completion(w, start_position=-len(before), display_meta=_("command"))
            return
        if word == "follow":
            options = list(dict.fromkeys(s.names))
        elif word in ("take", "join"):
            # an open seat's colour as the panel names it (`take verde`), or its English
            # name when that is what is being typed (`take gr` in Italian: green)
            from .lan import colour_name

            lb = s.node.lobby
            typed = rest.strip()
            options = []
            for i in s.open_seat_list():
                colour = lb.seats[i].colour
                shown = colour_name(colour).lower()
                english = typed and not shown.startswith(typed) and colour.startswith(typed)
                options.append(colour if english else shown)
        else:
            return
        for o in options:
            if o.lower().startswith(rest.strip()) and o.lower() != rest.strip():
                yield Completion(o, start_position=-len(rest.lstrip()))


# ------------------------------------------------------------------ the screen


class GameScreen:
    def __init__(self, session: GameSession, colour: bool = True):
        self.session = session
        # (the map's usual height: the status, message and command lines one row each)
        self.view = BoardView(usual_height=lambda: self._size()[1] - 3)
        self.message: tuple[str, str] = ("", "")
        self.log_scroll = 0  # lines scrolled back from the newest
        # `help` and `rules` add more lines than a small log shows: the first of them (an
        # index in session.lines) is put at the top of the log at the next drawing, so
        # that the list is read from its start rather than from its last lines
        self._log_anchor: int | None = None
        self._log_rows = 10  # the log's height as last drawn (a page for PgUp/PgDn)
        self._for_this_decision: tuple[str, str] | None = None  # a message cleared with it
        self._waiting_offer: str | None = None  # a move kept on the line while waking
        self._small_note: tuple[str, str] | None = None  # "Enlarge the window first", as said
        self.show_board = False  # at the end: the map instead of the final table
        self.final_scroll = 0  # the first row of the final table shown (Up/Down)
        self._legal_cache: tuple[int, list[Move], dict[str, Move]] = (-1, [], {})
        self._prefill: str | None = None  # an offer on the line that typing replaces
        self._confirm: tuple[int, str] | None = None  # (version, text) awaiting a 2nd Enter
        self._decision_key: tuple | None = None
        self._was_mine = False  # whether the decision on show was ours (`_on_change`)
        self._hinting = False
        self._compact_told = False  # the log said why the fitted map is compact
        # the last hint, (decision key, move, its options): `hint` again on the same
        # decision says the same, and agrees with the landing offered (a second draw of
        # the bot's dice could recommend the other of two landings "much the same")
        self._hinted: tuple | None = None
        # the landing offered for a decision, (decision key, move text or None), and
        # whether it is the engine's plain one (the hint failed); the decision whose
        # landing hint has been asked for
        self._landing_offer: tuple = (None, None)
        self._landing_plain = False
        self._landing_asked: tuple | None = None
        # `quit` (or `lobby`) mid-game was typed once: Enter again leaves; the word, or False
        self._quit_asked: str | bool = False
        self._ticker: asyncio.Task | None = None  # redraws a countdown on the status line
        # a `replace` refused as too soon: its "has been away 2 s" stood on the message line
        # under the status line's countdown, and after it; it goes when the wait is over
        self._until_replace: tuple[str, str] | None = None
        self._focus: tuple[int, int | None] = (-1, None)  # (session version, its island)
        self._spinner: asyncio.Task | None = None  # turns while a bot thinks
        self._spin = 0
        self._setting = False
        self._panel_cache: tuple[tuple, dict[int, list]] = ((), {})
        self.buffer = Buffer(
            multiline=False,
            completer=MoveCompleter(self),
            complete_while_typing=True,
            accept_handler=self._accept,
            on_text_changed=self._text_changed,
        )
        self.app = self._build_app(colour)
        session.subscribe(self._on_change)

    # ---------------------------------------------------------------- state for drawing

    def _legal(self) -> tuple[list[Move], dict[str, Move]]:
        s = self.session
        if not s.my_decision():
            return [], {}
        if self._legal_cache[0] != s.version:
            moves = s.game.legal_moves()
            self._legal_cache = (s.version, moves, {shown_move(str(m)): m for m in moves})
        return self._legal_cache[1], self._legal_cache[2]

    def legal_texts(self) -> list[str]:
        return list(self._legal()[1])

    def legal_by_text(self) -> dict[str, Move]:
        return self._legal()[1]

    def draw_board(self, width: int, height: int):
        g = self.session.game
        p = g.pending
        if g.is_over and not self.show_board:
            return self._clipped_final(self.final_lines(width), height)
        frontier = p is not None and p.kind == D.COLONY_TILE
        if self._focus[0] != self.session.version:  # (a departure's: from its legal moves,
            # once per change of the game, not on every key's redraw)
            self._focus = (self.session.version, decision_island(g))
        focus = self._focus[1]
        lines = self.view.render(g, width, height, frontier=frontier, focus=focus).fragment_lines()
        if self.view.offset is None:  # (the drawing fitted to the window, not a pan)
            compact = self.view.geometry is COMPACT
            if compact and not self._compact_told:  # (once a game: the board only grows)
                self._compact_told = True
                self._tell_compact(frontier)
        return lines

    def _tell_compact(self, frontier: bool) -> None:
        """Say, the first time it happens, that the map turned compact because the window
        is too small for the board at full size, and what size shows it whole: a
        newcomer saw the hexes shrink and lose their piers between two moves, with no
        word of why (a playtest)."""
        g = self.session.game
        hexes = [*g.placed_tiles(), *(g.frontier() if frontier else ())]
        x0, y0, x1, y1 = board_extent(hexes, FULL)
        cols = next(c for c in range(MIN_COLUMNS, 4000)
                    if c - self._side_for(c) - 1 >= x1 - x0)
        rows = max(MIN_ROWS, y1 - y0 + 3)  # (the status, message and command rows)
        self.session.lines.append(("info", _(
            "The map is drawn compact, without piers (Tab on sail says where each goes): "
            "the board no longer fits this window at full size. A window of at least {size} "
            "shows it full size.").format(
            size=f"{cols}×{rows}")))
        self.app.invalidate()

    def _clipped_final(self, lines: list, height: int) -> list:
        """The final table from `final_scroll` on, as many rows as `height` holds: at 80x24
        the island rows of a 4-player table did not fit and could not be reached, so the
        points that decided the game were out of sight. Up/Down scroll it (`pan`); the
        last row says how many are below."""
        if height <= 0 or len(lines) <= height:
            self.final_scroll = 0
            return lines
        self.final_scroll = max(0, min(self.final_scroll, len(lines) - height + 1))
        shown = lines[self.final_scroll:self.final_scroll + height - 1]
        below = len(lines) - self.final_scroll - len(shown)
        if below:
            shown.append([("class:panel.head", " " + _("── {n} more rows: ↓ ──").format(
                n=below))])
        return shown

    def final_lines(self, width: int) -> list[list[tuple[str, str]]]:
        # Who won and why come first, then how to get the map back: on an 80x24 screen
        # the island rows at the end are what may not fit, never the result.
        rows = final_rows(self.session.game, self.session.labels, width)
        rows[1:1] = [("note", _("(board — show the map · the log has the story)"))]
        out = []
        styles = {"head": "class:final.head", "note": "class:panel.head"}
        for kind, row in rows:
            style = styles.get(kind, "class:final")
            if len(row) <= width - 2:  # (a table row: its spaces are its columns)
                out.append([(style, " " + row)])
                continue
            for part in wrap_words(row, max(10, width - 2), subsequent_indent="  "):
                out.append([(style, " " + part)])
        return out

    def panel_lines(self, width: int, shortened: int = 0) -> list[list[tuple[str, str]]]:
        """The side panel, with the first `shortened` of `STEPS` applied; built once per
        redraw (the layout asks for it several times: its height, then its content),
        keyed on anything that could change it."""
        s = self.session
        key = (self.app.render_counter, s.version, len(s.game.moves), width, current_language())
        if self._panel_cache[0] != key:
            self._panel_cache = (key, {})
        built = self._panel_cache[1]
        if shortened not in built:
            built[shortened] = self._panel_lines(width, frozenset(STEPS[:shortened]))
        return built[shortened]

    def _panel_lines(self, width: int, steps: frozenset[str]) -> list[list[tuple[str, str]]]:
        s = self.session
        g = s.game
        p = g.pending
        lines: list[list[tuple[str, str]]] = []
        name_w = max(4, min(12, width - 24))
        title = _("{title} · turn {n}").format(title=_(s.title), n=g.turn + 1)
        if hasattr(s, "position_text"):
            title = f"{_(s.title)} · {s.position_text()}"
            if len(title) > width and " — " in title:
                # a replay's next move is on the status line in full: at 80x24 the panel
                # showed "Replay · move 0/132 — next: plac"
                title = title.split(" — ")[0]
        lines.append([("class:panel.head", title[:width])])
        # Column heads: reserve, ships on the board, islands present on, points, Royal
        # Islands (kings) founded of the 2 allowed.
        # The player head may run over the colour letter's two columns (" B" in the rows),
        # one space kept before "res": `giocatore` is whole at 32 columns.
        heads = "".join(f"{h:>4.4}" for h in (_("res"), _("brd"), _("isl"), _("pts"), _("K/2")))
        player = _("player")
        lines.append([("class:panel.head", f"  {player:<{name_w + 2}.{name_w + 1}}{heads}")])
        scores = g.scores()
        keys = g.ranking_keys()
        names = s.names
        viewer = s.viewer_seats()  # (a watcher: the player it follows)
        for seat, info in enumerate(s.seats):
            colour = g.colours[seat]
            cid = g.colour_ids()[seat]
            on_turn = p is not None and p.seat == seat
            marker = "▶ " if on_turn else ("* " if seat == g.active_seat and p else "  ")
            name = short_name(names[seat], name_w)  # away players: greyed, listed below
            name_style = "class:panel.away" if info.away else (
                "class:panel.me" if info.local or seat in viewer else "")
            row = [
                ("class:panel.turn" if on_turn else "", marker),
                (name_style, f"{name[:name_w]:<{name_w}}"),
                ("", " "),
                (player_style(colour), LETTERS[cid]),
                ("", f"{g.reserve(seat):>4}{g.on_board(seat):>4}{keys[colour][1]:>4}"
                     f"{scores[colour]:>4}{g.royals_founded(seat):>2}/2"),
            ]
            lines.append(row)
        if g.owners is not None:  # two colours each (V1): a player's colours together
            pkeys = V.ranking_keys(g)
            for pl, pname in enumerate(V.player_names(g, s.names)):
                lines.append([("class:panel.head", f"  {short_name(pname, name_w):<{name_w}} "
                                                   f"{V.player_letters(g, pl)}"),
                              ("", " " + _("{points} pts, {islands} isl").format(
                                  points=pkeys[pl][0], islands=pkeys[pl][1]))])
        # Who a bot plays, by kind (`Hina, Maui — bots (search)`, `Cat — bot (greedy)` for
        # a seat handed over while its player is away), and who is away (greyed above): a
        # row has no room for it. (Once the game is over nobody is waited for: "Away: Cy"
        # stood beside "Cy left the table." as the players closed their laptops.)
        marks = seat_marks(s.seats, s.names, [LETTERS[c] for c in g.colour_ids()], g.is_over)
        lines.extend(mark_lines(marks, width, steps, wrap_words))
        watchers = getattr(s, "watcher_names", lambda: [])()
        if watchers and "watchers" not in steps:  # a LAN table's guests: who looks on
            label = _("Watching: ")
            names = ", ".join(watchers)
            if len(label) + len(names) > width:
                names = names[:max(1, width - len(label) - 1)] + "…"
            lines.append([("class:panel.head", label), ("", names)])
        if getattr(s, "numbers_tiles", False) and "drawn" not in steps:
            # a LAN table's lines say who draws which tile by number ("takes part in the
            # draws again from tile 13"): the count drawn says where the table stands
            lines.append([("class:panel.head", _("Drawn: ")),
                          ("", ngettext("{n} tile", "{n} tiles", g.draws()).format(
                              n=g.draws())), _COUNT_HERE])
        left = g.unrevealed_tiles()
        left_isl = sum(1 for t in left if t < 16)
        seas = len(left) - left_isl
        if "left" not in steps:
            lines.append([("class:panel.head", _("Left: ")),
                          ("", _("{islands}, {seas}").format(
                              islands=ngettext("{n} island", "{n} islands", left_isl).format(
                                  n=left_isl),
                              seas=ngettext("{n} sea tile", "{n} sea tiles", seas).format(
                                  n=seas)))])
        if g.is_over:
            lines.append([("class:panel.head", _("The game is over."))])
        elif "ends" not in steps:
            lines.append([("class:panel.head", _("Ends when either kind runs out"))])
        removed = g.removed_tiles()
        if removed and "removed" not in steps:
            lines.append([("class:panel.head", _("Removed: ")),
                          ("", ", ".join(tile_label(t) for t in removed))])
        group = g.group_at_sea()
        if group and p is not None and p.kind == D.LANDING:
            row = [("class:panel.head", _("At sea: "))]
            for c in group:
                row.append((f"class:ship.{g.colours[g.seat_of_colour(c)]}", LETTERS[c] + " "))
            lines.append(row)
        if p is not None and p.kind == D.COLONY_TILE and p.tile is not None:
            row = [("class:panel.head", _("In hand: ")), ("", tile_label(p.tile))]
            note = ("class:panel.head", _(" (red mark S)"))
            if sum(len(t) for _s, t in row) + len(note[1]) <= width:
                lines.append([*row, note])
            else:  # a long island name: the note on a line of its own
                lines.extend([row, [note]])
            if "picture" not in steps:
                lines.extend(self._tile_picture(p.tile))
        return lines

    def _tile_picture(self, tid: int) -> list[list[tuple[str, str]]]:
        canvas = Canvas(16, 5)
        for dx, dy, style, text in HEX_OUTLINES["hex.island" if tid < 16 else "hex"]:
            canvas.put(dx, dy, text, style)
        ships = tuple(() for _ in range(6)) if tid < 16 else ()
        for dx, dy, style, text in tile_face(tid, 0, ships, None):
            canvas.put(dx, dy, text, style)
        mark = _("red mark")[:TOP_EDGE]
        canvas.put(2 + (TOP_EDGE - len(mark)) // 2, 4, mark, "class:danger")
        return [[("", " ")] + line for line in canvas.fragment_lines()]

    def draw_panel(self, width: int, height: int):
        # Too tall (six seats at 80x24, four at a landing): the panel shortens step by
        # step (`STEPS`) until it fits; the rows and who plays them stay (the cut took
        # "Hina, Maui, Kupe, Rata, Tangaroa — bots (normal)", and with two colours each or
        # at a landing could take seats' rows).
        shortened = self._fitting_steps(width, height)
        lines = self.panel_lines(width, shortened)
        if shortened:  # (the watchers' names went first: how many stays, if it fits)
            lines = self._watchers_counted(lines, width)
        return lines[:height]

    def _fitting_steps(self, width: int, height: int) -> int:
        """How many of `STEPS` the panel needs to fit `height` lines (all of them when
        even the shortest form is taller: the panel is made that tall, `_panel_height`)."""
        return next((n for n in range(len(STEPS))
                     if len(self.panel_lines(width, n)) <= height), len(STEPS))

    def _watchers_counted(self, lines: list, width: int) -> list:
        """How many watch, when their names had no room: on the "Drawn:" line, else on
        the title, wherever it fits ("Drawn: 12 tiles · 2 watching"), so that a player
        still sees the table is watched; nowhere when neither has room."""
        n = len(getattr(self.session, "watcher_names", lambda: [])())
        if not n:
            return lines
        more = ("class:panel.head", " · " + ngettext("{n} watching", "{n} watching", n).format(
            n=n))
        places = [i for i, line in enumerate(lines) if line[-1] == _COUNT_HERE] + [0]
        for i in places:
            line = [f for f in lines[i] if f != _COUNT_HERE]
            if i < len(lines) and sum(len(t) for _s, t in line) + len(more[1]) <= width:
                return [*lines[:i], [*line, more], *lines[i + 1:]]
        return lines

    def _panel_height(self) -> Dimension:
        """As tall as its content, but never so tall that the log gets under 10 lines
        (except while you place a New Colony tile, whose picture must show whole), and
        never shorter than its shortest form: the seats' rows and who plays them (six
        seats at a landing, one away, at 80x24: the log has 9 lines then)."""
        rows = self._size()[1]
        width = self._side_columns()
        want = len(self.panel_lines(width))
        least = len(self.panel_lines(width, len(STEPS)))
        room = max(4, rows - 3 - 1 - MIN_LOG_ROWS)
        p = self.session.game.pending
        if p is not None and p.kind == D.COLONY_TILE and self.session.my_decision():
            room = max(room, rows - 3 - 1 - 4)  # the tile in hand matters more just now
        return Dimension.exact(max(1, least, min(want, room)))

    def draw_log(self, width: int, height: int):
        # Wrap from the newest line backwards, only as far as the window can show:
        # a whole game's story is hundreds of lines and this runs on every redraw.
        self._log_rows = height
        if self._log_anchor is not None:
            anchor, self._log_anchor = self._log_anchor, None
            below = sum(len(wrap_fragments([e], width)) for e in self.session.lines[anchor:])
            self.log_scroll = max(0, below - height)
        need = height + self.log_scroll
        lines: list[list[tuple[str, str]]] = []
        for entry in reversed(self.session.lines):
            lines[:0] = wrap_fragments([entry], width)
            if len(lines) >= need:
                break
        self.log_scroll = min(self.log_scroll, max(0, len(lines) - height))
        end = max(0, len(lines) - self.log_scroll)
        shown = lines[max(0, end - height):end]
        if self.log_scroll and shown:
            marker = ngettext("── {n} newer line: PgDn ──", "── {n} newer lines: PgDn ──",
                              self.log_scroll).format(n=self.log_scroll)
            if len(marker) > width:  # (a narrow panel cut "── 26 lignes plus récentes :
                marker = f"── +{self.log_scroll} PgDn ──"  # PgDn ──" before the key to press)
            shown[-1] = [("class:rule", marker[:width])]
        return shown

    def scroll_log(self, pages: int) -> None:
        # a page is the log's height less two lines kept for context (5 lines, the old
        # step, took four PgUps to read `help` in the 10-line log of an 80x24 terminal)
        # (and never more than the log shows, less the marker's row and one of context: a
        # 4-row log under a New Colony tile moved 5, and the rules a newcomer paged
        # through lost a line at every PgDn — a playtest)
        self.log_scroll = max(0, self.log_scroll - pages * max(1, self._log_rows - 2))

    def _status(self) -> tuple[str, str]:
        s = self.session
        if getattr(s, "seat_lost", False):  # the game goes on, but not with this screen
            return "class:status.over", _("Someone else plays your seat now  (lobby: the "
                                          "list, to watch · quit leaves)")
        waiting = (getattr(s, "waking_text", lambda: None)()
                   or getattr(s, "countdown_text", lambda: None)())
        if waiting:  # a LAN draw waits for someone's value: say whose, and for how long
            return "class:status", waiting
        style, text = pending_text(s.game, s.names, s.local_seats() if s.can_play else set(),
                                   lobby=getattr(s, "from_lobby", False), labels=s.labels,
                                   replay=hasattr(s, "position_text"),
                                   landing=self._landing_state())
        p = s.game.pending
        # (a seat a bot plays for its away player does not wait; a bot laptop's does: its
        # line read "Cat — bot (random) is thinking…" while the game waited for the laptop)
        away = (p is not None and p.seat is not None and s.seats[p.seat].away
                and (s.labels[p.seat] == s.names[p.seat] or s.seats[p.seat].laptop_bot))
        if away and watching(s):
            # (a watcher, told by its feeder: no `replace` to offer, it has no seat)
            text = _("Waiting for {name} to come back").format(name=s.names[p.seat])
        elif away:
            # (the panel said "Away: Ben" while this line waited for him as if he were
            # thinking: say that the game waits for his return, and the way out)
            left = getattr(s, "replace_left", lambda: None)()
            if left:  # (`replace` typed early was refused: say when it will do)
                text = _("Waiting for {name} to come back — in {s} s replace {name} gives "
                         "the seat to a bot").format(name=s.names[p.seat], s=math.ceil(left))
            else:
                text = _("Waiting for {name} to come back — replace {name} gives the seat "
                         "to a bot").format(name=s.names[p.seat])
        if watching(s) and not s.game.is_over:  # no seat: whose decision it is, no prompt
            followed = s.followed_name()
            seats = getattr(s, "open_seats_text", lambda: None)()
            if seats and followed is not None:  # (the seat they follow said too: a
                # playtest's watcher typed `follow Ben` and the line never said so)
                text = _("Watching {game}, following {name} — open: {colours}; take COLOUR "
                         "plays one — {text}").format(game=s.game_name, name=followed,
                                                      colours=seats, text=text)
            elif seats:  # (someone watching may sit down: what matters most to them)
                text = _("Watching {game} — open: {colours}; take COLOUR plays one — "
                         "{text}").format(game=s.game_name, colours=seats, text=text)
            elif followed is not None:
                text = _("Watching {game}, following {name} — {text}").format(
                    game=s.game_name, name=followed, text=text)
            else:
                text = _("Watching {game} — {text}").format(game=s.game_name, text=text)
        if hasattr(s, "position_text"):
            style, text = "class:status", _("Replay {position} · {text}").format(
                position=s.position_text(), text=text)
        elif s.bot_deciding():  # turning while the bot thinks: the screen is not stuck
            text = SPINNER[self._spin % len(SPINNER)] + " " + text
        p = s.game.pending
        if p is not None and p.kind in (D.DEPARTURE, D.EXPAND_BEACHES) and s.my_decision():
            move = self.legal_by_text().get(joined_islands(self.buffer.text.strip()))
            where = move_preview(s.game, move)
            if where:  # (what the move typed sets off: where it sails, a beach it fills)
                text = f"{shown_move(str(move))} {where}"
        return style, text

    def _wrapped(self, text: str, most: int) -> list[str]:
        """`text` in lines of the terminal's width, word-wrapped, at least one line and
        at most `most` (the last one then ends in `…`; no reason or status is that long
        at 80 columns, so this only guards the layout against a runaway text)."""
        width = max(10, self._size()[0] - 1)
        rows = wrap_words(text, width, subsequent_indent="  ") or [""]
        if len(rows) > most:
            rows = rows[:most]
            rows[-1] = rows[-1][:width - 1] + "…"
        return rows

    def _status_rows(self) -> list[str]:
        return self._wrapped(" " + self._status()[1], 3)

    def _message_rows(self) -> list[str]:
        if self.message == self._small_note and not self._too_small():
            self.message = ("", "")  # the window grew back: "Enlarge the window" is over
        return self._wrapped(self.message[1], 4)

    def status_fragments(self) -> StyleAndTextTuples:
        return [(self._status()[0], "\n".join(self._status_rows()))]

    def message_fragments(self) -> StyleAndTextTuples:
        style = self.message[0]
        return [(f"class:message.{style}" if style else "class:message",
                 "\n".join(self._message_rows()))]

    # ---------------------------------------------------------------- text views for tests

    def panel_text(self, width: int = 30) -> str:
        return "\n".join("".join(t for _, t in line) for line in self.panel_lines(width))

    def status_text(self) -> str:
        return self._status()[1].replace("\u00a0", " ").strip()  # (as it reads)

    # ---------------------------------------------------------------- layout

    def _size(self) -> tuple[int, int]:
        try:
            size = self.app.output.get_size()
            return size.columns, size.rows
        except Exception:  # pragma: no cover - no terminal attached
            return 80, 24

    def _side_columns(self) -> int:
        return self._side_for(self._size()[0])

    @staticmethod
    def _side_for(cols: int) -> int:
        """The side column's width in a terminal `cols` wide."""
        return 32 if cols < 100 else min(48, cols // 3)

    def _side_width(self) -> Dimension:
        return Dimension.exact(self._side_columns())

    def _too_small_text(self):
        cols, rows = self._size()
        text = _("The terminal is {size}: Tongiaki needs at least {least}. Enlarge the window "
                 "(quit leaves).").format(size=f"{cols}×{rows}", least=f"{MIN_COLUMNS}×{MIN_ROWS}")
        return [("class:message.error", "\n".join(wrap_words(text, max(10, cols - 1))))]

    def _build_app(self, colour: bool) -> Application:
        buffer_empty = Condition(lambda: not self.buffer.text)
        no_menu = Condition(lambda: self.buffer.complete_state is None)
        pan_ok = buffer_empty & no_menu
        kb = KeyBindings()

        def pan(dx, dy):
            def handler(event):
                if dy and self.session.game.is_over and not self.show_board:
                    self.final_scroll = max(0, self.final_scroll + 3 * dy)  # (the table)
                    return
                self.view.pan(dx, dy)
            return handler

        for key, d in (("left", (-1, 0)), ("right", (1, 0)), ("up", (0, -1)), ("down", (0, 1))):
            kb.add(key, filter=pan_ok)(pan(*d))
            kb.add(f"s-{key}")(pan(*d))
        kb.add("home", filter=buffer_empty)(lambda e: self.view.recentre())
        kb.add("tab")(self._tab)

        @kb.add("end", filter=buffer_empty)
        def _(event):  # (back to the newest lines: "── 33 newer lines: PgDn ──" stayed)
            self.log_scroll = 0

        @kb.add("pageup")
        def _(event):
            if hasattr(self.session, "step"):
                self.session.step(-1)
            else:
                self.scroll_log(-1)

        @kb.add("pagedown")
        def _(event):
            if hasattr(self.session, "step") and not self.log_scroll:
                self.session.step(1)
            else:  # (in a replay too while the log is scrolled back, e.g. to `help`'s
                # first line: its "── 53 newer lines: PgDn ──" stepped a move instead,
                # and the help was gone)
                self.scroll_log(1)

        untouched_offer = Condition(lambda: self._prefill is not None
                                    and self.buffer.text == self._prefill)
        kb.add(Keys.Any, filter=untouched_offer)(self._type_over_offer)

        @kb.add("c-c")
        def _(event):
            self.leave_key(N_("Ctrl-C"))

        quit_offered = Condition(lambda: self._quit_asked and self._prefill == "quit"
                                 and self.buffer.text == "quit")

        @kb.add("c-d", filter=buffer_empty | quit_offered)
        def _(event):
            self.leave_key(N_("Ctrl-D"))

        board = Window(CanvasControl(self.draw_board, on_click=self.click), wrap_lines=False)
        panel = Window(CanvasControl(self.draw_panel), wrap_lines=False,
                       height=self._panel_height)
        log = Window(CanvasControl(self.draw_log, on_scroll=self.scroll_log), wrap_lines=False)
        side = HSplit([panel, Window(height=1, char="─", style="class:rule"), log],
                      width=self._side_width)
        too_small = Condition(self._too_small)
        body = HSplit([
            ConditionalContainer(VSplit([board, Window(width=1, char="│", style="class:rule"),
                                         side]), filter=~too_small),
            ConditionalContainer(Window(FormattedTextControl(self._too_small_text),
                                        wrap_lines=True), filter=too_small),
        ])
        prompt = Window(
            BufferControl(self.buffer, input_processors=[BeforeInput(self.prompt_text,
                                                                     style="class:prompt")]),
            height=1,
            # scrolled only as far as the cursor needs: after a pasted page the `> ` comes
            # back with the next short line (it stayed scrolled out of sight)
            get_horizontal_scroll=lambda window: 0,
        )
        root = FloatContainer(
            HSplit([
                body,
                Window(FormattedTextControl(self.status_fragments), style="class:status",
                       height=lambda: Dimension.exact(len(self._status_rows()))),
                # The message row is always there (an empty row while there is nothing to
                # say), so the map does not jump when a reason or "Thinking…" appears; a
                # long reason gets the rows it needs instead of being cut at the edge.
                Window(FormattedTextControl(self.message_fragments),
                       height=lambda: Dimension.exact(len(self._message_rows()))),
                prompt,
            ]),
            floats=[Float(xcursor=True, ycursor=True,
                          content=CompletionsMenu(max_height=12, scroll_offset=1))],
        )
        app: Application = Application(
            layout=Layout(root, focused_element=prompt),
            key_bindings=kb,
            style=build_style(),
            full_screen=True,
            mouse_support=True,
            color_depth=None if colour else _monochrome(),
        )
        return app

    # ---------------------------------------------------------------- the command line

    def prompt_text(self) -> str:
        """`> ` where moves are typed; a watcher's line takes no moves, and says so."""
        return _("watching> ") if watching(self.session) else "> "

    def offer(self, text: str) -> None:
        """Put a move on the line as an offer: Enter plays it, typing replaces it."""
        self._setting = True
        try:
            self.buffer.set_document(self.buffer.document.__class__(text, len(text)), True)
        finally:
            self._setting = False
        self._prefill = text

    def _text_changed(self, buffer: Buffer) -> None:
        if not self._setting and buffer.text != self._prefill:
            self._prefill = None  # edited (or completed): no longer an untouched offer

    def _type_over_offer(self, event) -> None:
        """The first character typed over an untouched offer starts a new line, the way
        typing over selected text does; Backspace, arrows and Enter keep the offer."""
        if len(event.data) != 1 or not event.data.isprintable():
            return  # a key with no binding of its own (F5…): nothing to type
        if event.data == " ":
            # no command starts with a space: it continues the offer. The leaving question
            # says "type 'quit soon'" with `quit` on the line, and ` soon` typed after it
            # became "soon: unknown command" (the question stays until Enter).
            self.buffer.cursor_position = len(self.buffer.text)
            self.buffer.insert_text(" ")
            return
        self._setting = True
        try:
            self.buffer.set_document(self.buffer.document.__class__(""), True)
        finally:
            self._setting = False
        self._prefill = None
        if self._quit_asked:  # typing over the offered `quit`: staying, the question goes
            self._quit_asked = False
            self.message = ("", "")
        self.buffer.insert_text(event.data)

    def _tab(self, event) -> None:
        """Tab puts a single match on the line at once; more open the menu, or go to its
        next item, as prompt_toolkit's Tab does. Its Tab was lost when it came with the
        last letter (`expand Tub` and Tab in one read): the menu that typing opens began
        first, the Tab's completion found it there and did nothing, and Enter sent
        `expand Tub` ("no island named 'Tub'"); a menu open from typing took a second Tab."""
        b = self.buffer
        state = b.complete_state
        if state is None or state.complete_index is None:
            found = list(b.completer.get_completions(b.document,
                                                     CompleteEvent(completion_requested=True)))
            if len(found) == 1:
                b.apply_completion(found[0])
                return
            if (state is None and len(found) > 1
                    and self._common_part_is_a_move(b.document, found)):
                # (the part common to `sail Tuvalu 1 N` and `sail Tuvalu 1 NW` is the first
                # of them, a whole move: put there, Enter played it, and a playtest's player
                # who had only asked what the options were was wrecked)
                b.start_completion(insert_common_part=False)
                return
        generate_completions(event)

    def _common_part_is_a_move(self, document, found) -> bool:
        """Whether the text that Tab's common part would leave on the line is a legal
        move which another option goes beyond."""
        before = document.text_before_cursor
        texts = [before[:len(before) + c.start_position] + c.text for c in found]
        common = os.path.commonprefix(texts)
        return (common != before and len(set(texts)) > 1
                and joined_islands(common.strip()) in self.legal_by_text())

    # ---------------------------------------------------------------- mouse

    def click(self, x: int, y: int) -> None:
        """A click on the map puts the move it means on the command line (not played)."""
        s = self.session
        if not s.my_decision():
            return
        hit = self.view.hit(s.game, x, y)
        if hit is None:
            return
        text = self.move_for_click(hit)
        if text is None:
            return
        self.offer(text)
        if text.endswith(" "):
            self.buffer.start_completion(select_first=False)
        self.app.invalidate()

    def move_for_click(self, hit: dict) -> str | None:
        """The legal move (or the start of one) a click on this spot stands for."""
        moves = self._legal()[0]
        tid, beach, pier = hit["tile"], hit["beach"], hit["pier"]
        if tid is None:
            q, r = hit["hex"]
            if any(isinstance(m, PlaceTile) and (m.q, m.r) == (q, r) for m in moves):
                return f"tile {q},{r} "
            return None
        p = self.session.game.pending
        if p.kind == D.EXPAND_BEACHES:
            if beach is None:
                return None
            chosen = self.buffer.text.split()[1:] if self.buffer.text.startswith("beaches") else []
            if str(beach + 1) not in chosen:
                chosen.append(str(beach + 1))
            return "beaches " + " ".join(chosen)

        def fits(m: Move) -> bool:
            if isinstance(m, Place):
                return m.island == tid and (beach is None or beach in m.beaches)
            if isinstance(m, (Expand, Royal)):
                return m.island == tid
            if isinstance(m, Take):
                return m.island == tid and (beach is None or m.beach == beach)
            if isinstance(m, Sail):
                return (m.island == tid and (beach is None or m.beach == beach)
                        and (pier is None or str(m).endswith(" " + pier)))
            return False

        texts = [shown_move(str(m)) for m in moves if fits(m)]
        if not texts:
            return None
        if len(texts) == 1 or all(t.split()[0] in ("expand", "royal") for t in texts):
            return texts[0]  # an island on your turn: expand it (royal is one word away)
        # The words all these moves share: whole words, since `sail Tokelau 3 S` and
        # `sail Tokelau 3 SE` share the letter S but not a pier.
        split = [t.split(" ") for t in texts]
        n = 0
        while all(len(w) > n and w[n] == split[0][n] for w in split):
            n += 1
        common = " ".join(split[0][:n])
        if common in texts:  # `place Samoa 2` among `place Samoa 2 …`
            return common
        return common + " " if common else None

    # ---------------------------------------------------------------- behaviour

    def _on_change(self) -> None:
        s = self.session
        g = s.game
        p = g.pending
        key = (len(g.moves), p)
        new_decision = key != self._decision_key
        if new_decision:
            # a new decision: an old reason or a pending confirmation no longer applies.
            # A refusal typed while others decide stays until a decision of ours comes: a
            # watcher's "you are watching, with no seat" went with the next player's move,
            # 0.3 s after it showed, before it could be read (a playtest)
            self._decision_key = key
            mine = s.my_decision()
            refusal_stale = self.message[0] == "error" and (mine or self._was_mine)
            self._was_mine = mine
            if (refusal_stale or self._confirm is not None
                    or self.message == self._for_this_decision
                    or self._waiting_offer is not None):
                self.message = ("", "")
            if self._waiting_offer is not None and self._prefill == self._waiting_offer \
                    and self.buffer.text == self._prefill:
                # (the table played on while we slept: a move kept for the old decision
                # must not be played on the new one by an Enter)
                self.offer("")
                self._prefill = None
            self._confirm = None
            self._for_this_decision = None
            self._waiting_offer = None
        # Offer the hint's landing on the line, so Enter accepts it (and it can be edited).
        # It used to be the engine's first landing, offered as if it were advice, while
        # `hint` recommended another: a newcomer who took the offer was misled. A landing
        # costs the hint bot about a tenth of a second; until it answers the line is empty
        # and the status line says the hint is choosing.
        want = None
        if s.my_decision() and p is not None and p.kind == D.LANDING:
            want = self._landing_offer[1] if self._landing_offer[0] == key else None
            if want is None and self._landing_asked != key:
                self._landing_asked = key
                s.spawn(self._hint(auto=True))
        if want is not None and not self._quit_asked and (not self.buffer.text
                                                          or self.buffer.text == self._prefill):
            # (not over a `quit` awaiting its Enter: that Enter must not land a group)
            self.offer(want)
        elif (want is None and new_decision and self._prefill is not None
              and self.buffer.text == self._prefill and not self._quit_asked):
            # An offer (a hint's move) belongs to its decision: it goes with it, and only
            # then (a seat taken, a chat line or a player back is no new decision: the
            # hint's move vanished from a player's line as someone sat down at the table).
            # A `quit` awaiting its Enter stays while bots move.
            self._setting = True
            self.buffer.reset()
            self._setting = False
            self._prefill = None
        self.log_scroll = 0
        self._keep_counting()
        self._keep_spinning()
        self.app.invalidate()

    def _keep_spinning(self) -> None:
        """While a bot decides, its line on the status bar turns (`| / - \\`)."""
        if (self.session.bot_deciding() and self._spinner is None and self.app.is_running):
            self._spinner = self.app.create_background_task(self._spin_while_thinking())

    async def _spin_while_thinking(self) -> None:
        try:
            while self.session.bot_deciding():
                self._spin += 1
                self.app.invalidate()
                await asyncio.sleep(0.25)  # (the pace of the animation)
        finally:
            self._spinner = None

    def _keep_counting(self) -> None:
        """While the session counts down (a LAN draw waiting for a value), redraw as each
        second goes by: the node says how long once, the screen counts on its own."""
        left = self._counting()
        if left is not None and self._ticker is None and self.app.is_running:
            self._ticker = self.app.create_background_task(self._count_down())

    def _counting(self) -> float | None:
        """The seconds of the nearest countdown on the status line: a draw waiting for a
        value, or the wait before `replace` may give an absent player's seat to a bot."""
        s = self.session
        counts = [x for x in (getattr(s, "countdown_left", lambda: None)(),
                              getattr(s, "replace_left", lambda: None)()) if x is not None]
        return min(counts) if counts else None

    async def _count_down(self) -> None:
        try:
            while (left := self._counting()) is not None:
                self._replace_refusal_done()
                self.app.invalidate()
                # until the whole number shown changes (just past it), or a second at 0
                await asyncio.sleep((left - math.floor(left) if left > 0 else 1.0) + 0.01)
        finally:
            self._ticker = None
            self._replace_refusal_done()
            self.app.invalidate()

    def _replace_refusal_done(self) -> None:
        if (self._until_replace is not None and self.message == self._until_replace
                and getattr(self.session, "replace_left", lambda: None)() is None):
            self.message = ("", "")
            self._until_replace = None

    def _too_small(self) -> bool:
        cols, rows = self._size()
        return cols < MIN_COLUMNS or rows < MIN_ROWS

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text.strip()
        self._prefill = None
        self.message = ("", "")
        if self._too_small() and text.lower() not in ("quit", "exit", "q"):
            # The map is not shown: a move (or a hint's Enter) would be played unseen.
            self.message = ("error", _("Enlarge the window first: the game takes no commands "
                                       "while it cannot be shown (quit leaves)."))
            self._small_note = self.message
            return False
        leaving = ("quit" if text.lower() in ("quit", "exit", "q")
                   else "lobby" if text.lower() == "lobby" and self._lobby_leaves_game()
                   else None)
        if self._quit_asked and self._quit_asked != leaving:
            self._quit_asked = False  # anything else typed: staying after all
        if leaving and not self._quit_asked and self._quit_needs_asking():
            # Asked here, not in the command task, so that an Enter typed right after
            # finds the question already asked (and `quit` still on the line).
            self._ask_quit(word=leaving)
            self._prefill = buffer.text
            return True
        if text:
            self.session.spawn(self.command(text))
        elif hasattr(self.session, "step"):
            self.session.step(1)
        return False  # clear the line

    async def command(self, text: str) -> None:
        """Run one line typed by the player. Never raises: problems become a message."""
        try:
            await self._command(text)
        except NotYet as exc:  # (back from a sleep: kept on the line for when it may go)
            self.message = ("", _("{reason}: your move stays on the line, Enter plays it "
                                  "once the table has answered").format(reason=exc))
            self.offer(text)
            self._waiting_offer = text
        except IllegalMove as exc:
            self.message = ("error", refusal_text(typed_shortly(text), exc))
            self._offer_again()
        except ValueError as exc:
            self.message = ("error", _("{command}: {reason} (Tab lists the legal moves)").format(
                command=typed_shortly(text), reason=without_verb(text, engine_reason(exc))))
            self._offer_again()
        except Exception as exc:  # noqa: BLE001 - the console must survive anything
            self.message = ("error", _("{command}: internal error: {error}").format(
                command=typed_shortly(text), error=repr(exc)[:200]))
        self.app.invalidate()

    def _centre(self, name: str) -> None:
        """`centre` alone: the whole board again; `centre Tahiti`: that island (a hint
        named an island off a newcomer's 80x24 screen, and `centre Tahiti` said nothing
        and went back to the middle)."""
        if not name:
            self.view.recentre()
            # (it went back in silence: a playtest's player wondered whether it was heard)
            self.message = ("", _("The map is back to its usual view."))
            return
        word = engine_text(name)
        try:
            tile = tile_by_name(word)
        except KeyError:
            tile = None
        if tile is None or not tile.is_island:
            self.message = ("error", _("centre: no island named '{name}' (centre alone goes "
                                       "back to the usual view)").format(
                name=typed_shortly(name)))
            return
        g = self.session.game
        if g.hex_of(tile.id) is None:
            self.message = ("error", _("centre: {island} is not on the board").format(
                island=island_name(tile.id)))
            return
        self.view.centre_on(tile.id, len(g.moves))
        self.message = ("", _("The map shows {island} until the next move; centre alone "
                              "goes back to the usual view.").format(
            island=island_name(tile.id)))

    def _offer_again(self) -> None:
        """After a refused landing the landing offered comes back on the empty line."""
        s = self.session
        p = s.game.pending
        if s.my_decision() and p is not None and p.kind == D.LANDING and not self.buffer.text:
            key, text = self._landing_offer
            if key == (len(s.game.moves), p) and text is not None:
                self.offer(text)

    def _landing_state(self) -> str:
        """What the line holds at our landing: the hint's landing, nothing yet, or the
        engine's plain one (`words.LANDING_*`)."""
        s = self.session
        key, text = self._landing_offer
        if key != (len(s.game.moves), s.game.pending) or text is None:
            return LANDING_THINKING
        return LANDING_PLAIN if self._landing_plain else LANDING_HINTED

    async def _command(self, text: str) -> None:
        word, _sep, rest = text.partition(" ")
        word = word.lower()
        s = self.session
        asked, self._quit_asked = self._quit_asked, False
        if word in ("quit", "exit", "q") and rest.strip().lower() == "soon" and hasattr(
                s, "leave_for_good"):
            s.leave_for_good = False  # at a LAN table: back soon, the seat waits for us
            self.app.exit(result=0)
            return
        if word in ("quit", "exit", "q"):
            if not asked and self._quit_needs_asking():
                self._ask_quit()
                self.offer("quit")
                return
            self.app.exit(result=0)
            return
        if watching(s):
            word = {"chat": "say", "join": "take", "center": "centre"}.get(word, word)
            if word not in (*WATCHER_WORDS, *WATCHER_ALSO):
                if getattr(s, "open_seat_list", list)():
                    text = _("{command}: you are watching, with no seat — say TEXT, follow "
                             "NAME, take COLOUR, help, quit").format(command=typed_shortly(text))
                else:  # ("take COLOUR" with no seat open sent a player looking for one)
                    text = _("{command}: you are watching, with no seat — say TEXT, follow "
                             "NAME, help, quit").format(command=typed_shortly(text))
                self.message = ("error", text)
                return
            if word in ("help", "?"):
                self._watcher_help()
                return
        if word == "lobby" and self._lobby_leaves_game():
            if not asked:  # (a solo game under way: there is always something to keep)
                self._ask_quit(word="lobby")
                self.offer("lobby")
                return
            self.app.exit(result=BACK_TO_LOBBY)
            return
        if word == "lobby" and getattr(s, "from_lobby", False):
            # (a watcher has no seat to leave: back to the lobby at any time; `quit` left
            # the program, and a playtest's watcher wanted the next table)
            if not s.game.is_over and not getattr(s, "seat_lost", False) and not watching(s):
                self.message = ("error", _("lobby: after the game; to leave it now, quit"))
                return
            self.app.exit(result=BACK_TO_LOBBY)
            return
        if word in ("help", "?"):
            anchor = len(s.lines)
            own = [("info", "  " + _(help_text)) for help_text, _handler
                   in s.commands().values()] if not rest else []
            if own and not s.can_play:
                # a replay's own commands first: after the game's help they were the
                # last lines of fifty, out of sight (and PgDn steps the replay there)
                s.lines.extend(own)
                own = []
            for line in help_lines(rest, replay=not s.can_play):
                s.lines.append(("info", line))
            s.lines.extend(own)
            if not rest and self._lobby_leaves_game():
                s.lines.append(("info", "  " + _("lobby — back to the lobby (this game is "
                                                 "kept: solo resume there plays on it)")))
            elif not rest and getattr(s, "from_lobby", False):
                s.lines.append(("info", "  " + _("lobby — after the game, back to the "
                                                 "lobby for the next one")))
            s.changed()
            self._log_anchor = anchor  # (after changed(), which scrolls to the newest)
            return
        if word == "rules":
            anchor = len(s.lines)
            for line in rules_lines(s.game, rest):
                s.lines.append(("info", line))
            s.changed()
            self._log_anchor = anchor
            return
        if word in ("centre", "center"):
            self._centre(rest.strip())
            return
        if word == "board":
            if not s.game.is_over:  # (it did nothing, silently)
                self.message = ("", _("board: the map is on screen; at the end of the game "
                                      "board switches between it and the final table"))
                return
            self.show_board = not self.show_board
            return
        if word == "moves":
            if s.game.pending is not None and s.game.pending.is_chance:  # (no move to type:
                s.say(_("A tile is being revealed…"))  # it listed every tile as `reveal S16`)
                return
            moves = ([shown_move(str(m)) for m in s.game.legal_moves()] if s.game.pending
                     else [])
            shown = ", ".join(moves[:30])
            if len(moves) > 30:
                shown += " " + _("… ({n} in all)").format(n=len(moves))
            s.say(_("Legal moves: {moves}").format(moves=shown) if moves
                  else _("No moves: the game is over."))
            return
        if word == "hint":
            await self._hint()
            return
        if word == "position":  # the whole position as one line, for a bug report
            s.say(s.game.position())
            return
        if word in ("start", "ready"):
            self.message = ("", _("The game has started: it is on the screen now."))
            return
        extra = s.commands()
        if word in extra:
            result = extra[word][1](rest)
            if asyncio.iscoroutine(result):
                result = await result
            if isinstance(result, str):
                self.message = ("error", result)
                if word == "replace" and getattr(s, "replace_left", lambda: None)():
                    self._until_replace = self.message  # (too soon: cleared at the end)
                    # and kept in the log: typed again in the last second, the reason
                    # went with the wait a moment later, before it could be read (a
                    # playtest)
                    s.say(result, "bad")
            return
        if not s.can_play:
            self.message = ("error", _("{command}: a replay takes no moves (help lists "
                                       "commands)").format(command=typed_shortly(text)))
            return
        if word == "undo":  # (a solo game's command: elsewhere it read as a typo, in
            # the words of a playtest's French player, "undo : commande inconnue")
            self.message = ("error", _("undo: only in a solo game; at a LAN table every "
                                       "laptop has played your move already"))
            return
        if word not in MOVE_HELP:  # (its keys: the words a player's move begins with)
            # (the engine's own message lists `reveal` too, which is the dealer's, never
            # a player's: the player hears what they can type instead)
            near = difflib.get_close_matches(word, [*MOVE_HELP, *META, *extra],
                                             n=1, cutoff=0.75)
            if near:  # `beach 5 6`, `expnad Fiji`: the word meant
                self.message = ("error", _("{command}: unknown command — did you mean "
                                           "{word}?").format(command=typed_shortly(text),
                                                             word=near[0]))
                return
            self.message = ("error", _("{command}: unknown command — help lists the "
                                       "commands, Tab the legal moves").format(
                command=typed_shortly(text)))
            return
        typed = engine_text(text)  # (an island by the name the map shows)
        if word in ("beaches", "place"):  # beach numbers as people list them: `beaches 4,6`
            typed = typed.replace(",", " ")
        if word == "place" and typed.split()[1:2] and typed.split()[1].isdigit():
            typed = self._only_island(typed)
        move = parse_move(typed)
        colony = isinstance(move, Colony) and s.my_decision() and s.game.is_legal(move)
        if colony and not s.game.on_board(s.game.pending.seat):
            # Nothing goes home, so there is nothing to confirm: a question here read as
            # an error ("you have no ships…") followed by "confirm", and said nothing of
            # what does happen. Play it, and say plainly why no ship comes home.
            self._confirm = None
            await s.submit(move)
            self.message = ("", _("colony: you have no ships on the beaches, so none go home; "
                                  "the New Colony begins (kings stay)"))
            return
        if colony and self._confirm != (len(s.game.moves), "colony"):
            self._ask_colony()
            return
        self._confirm = None
        await s.submit(move)

    def _only_island(self, typed: str) -> str:
        """`place 1` where only one island takes ships (Tonga, at the start): that island.
        A newcomer read "place Tonga BEACH", typed `place 1`, and was told "no island
        named '1'"."""
        g = self.session.game
        islands = {m.island for m in g.legal_moves() if isinstance(m, Place)}
        if len(islands) != 1:
            return typed
        word, _sep, rest = typed.partition(" ")
        return f"{word} {token_name(islands.pop())} {rest}"

    def _watcher_help(self) -> None:
        s = self.session
        s.lines.append(("info", _("You are watching {game}: no seat, no moves. "
                                  "Commands:").format(game=s.game_name)))
        for help_text, _handler in s.commands().values():
            s.lines.append(("info", "  " + _(help_text)))
        if getattr(s, "from_lobby", False):
            s.lines.append(("info", "  " + _("lobby — stop watching and go back to the lobby")))
        s.lines.append(("info", "  " + _("quit — stop watching (nobody waits for you)")))
        s.lines.append(("info", _("Keys: arrows pan the map, PgUp/PgDn scroll the log, Tab "
                                  "completes.")))
        s.changed()

    def _lobby_leaves_game(self) -> bool:
        """`lobby` in a solo game the lobby started, before its end: back there, the game
        kept for `solo resume` (a player who came from the lobby expects to return to it;
        `quit` left the program). A LAN seat is not left this way: others wait on it."""
        s = self.session
        return (isinstance(s, SoloSession) and getattr(s, "from_lobby", False)
                and not s.game.is_over)

    def _ask_quit(self, key: str | None = None, word: str = "quit") -> None:
        """Leaving mid-game: ask once, and say what is kept (a solo game can be resumed).
        `key`: asked because of that key (Ctrl-C), which then confirms too; `word`: quit,
        or lobby (back to the lobby, which can resume a solo game)."""
        s = self.session
        path = getattr(s, "record_path", None)
        node = getattr(s, "node", None)
        if path is None and node is not None:
            path = getattr(node, "record_path", None)
        if path is not None and isinstance(s, SoloSession):
            what = _("the record keeps the game ({path}; tongiaki-lan solo --resume plays on "
                     "it)").format(path=path)
        elif path is not None:
            what = _("the record keeps the game ({path}; tongiaki-lan replay shows it)").format(
                path=path)
        else:
            what = _("this game is not recorded")
        note = getattr(s, "leave_note", None)
        if note is not None:  # a LAN seat: for good or back soon, and how to come back
            what = note()  # (the record's path would push the way back off an 80x24 screen)
        if word == "lobby":
            text = _("lobby: the game is not over — Enter again to go back to the lobby; "
                     "solo resume there plays on it")
        elif key is None:
            text = _("quit: the game is not over — Enter again to leave; {what}")
        else:
            text = _("{key}: the game is not over — {key} again (or Enter) leaves; {what}")
        self.message = ("", text.format(what=what, key=_(key) if key else ""))
        self._quit_asked = word

    def leave_key(self, key: str) -> None:
        """Ctrl-C (or Ctrl-D on an empty line) is `quit` by another name: mid-game it asks
        the same question first, and the same key again (or Enter) leaves. A key pressed
        by habit, or by a neighbour, must not end a LAN game for everyone waiting on us."""
        confirmed = (self._quit_asked and self._prefill == "quit"
                     and self.buffer.text == "quit")
        if confirmed or not self._quit_needs_asking():
            self.app.exit(result=0)
            return
        self._ask_quit(key)
        self.offer("quit")  # Enter confirms, as after a typed `quit`; typing cancels
        self.app.invalidate()

    def _quit_needs_asking(self) -> bool:
        s = self.session
        return (s.can_play and not s.game.is_over and not watching(s)
                and not getattr(s, "seat_lost", False))  # (a watcher, or a player whose
        # seat a newcomer took, loses nothing by leaving: no seat waits, no bot takes over)

    def _ask_colony(self) -> None:
        """C1 takes every ship home: a slip of the keyboard must not cost a whole board."""
        s = self.session
        seat = s.game.pending.seat
        ships = s.game.on_board(seat)  # at least one: with none, nothing is asked
        what = ngettext("your {n} ship on the board goes home",
                        "your {n} ships on the board go home", ships).format(n=ships)
        self.message = ("", _("colony: {what} — Enter again to confirm").format(what=what))
        self._confirm = (len(s.game.moves), "colony")
        self.offer("colony")

    async def _hint(self, auto: bool = False) -> None:
        """`hint`: a bot's move on the line, and why. `auto`: asked by the screen itself
        for our landing, whose offer is the hint's move; it then leaves alone a line
        the player has typed on meanwhile, and a pending `quit`."""
        s = self.session
        p = s.game.pending
        if p is None:
            self.message = ("", _("The game is over: no hint."))
            return
        if not s.can_play:
            self.message = ("", _("A replay takes no moves: no hint."))
            return
        if not s.my_decision():
            if auto:
                return
            if p.seat is None:  # a tile being drawn: nobody's decision ("the dealer's" read
                # as if someone at the table had to act)
                waits = getattr(s, "countdown_text", lambda: None)()
                self.message = ("", waits or _("A tile is being revealed…"))
            else:
                who = s.names[p.seat]
                self.message = ("", _("It is {who}'s decision, not yours: no hint.").format(
                    who=who))
            # true of this decision only: "It is Tim's decision" stayed on screen after Tim
            # moved and the decision was ours
            self._for_this_decision = self.message
            return
        key = (len(s.game.moves), p)
        if self._hinted is not None and self._hinted[0] == key:
            move, options = self._hinted[1], self._hinted[2]  # (asked already: the same)
        else:
            if self._hinting:
                return
            self._hinting = True
            version = s.version
            if not auto or self._line_is_free():
                self.message = ("", _("Thinking…"))
            self.app.invalidate()
            try:
                move = await s.hint()
            except Exception as exc:  # noqa: BLE001 - a hint must never take the game down
                if not auto:
                    raise
                move = None
                error = exc
            finally:
                self._hinting = False
            # (a typed hint is for the screen it was asked on; the screen's own, for the
            # decision: a chat line in between must not leave the landing without offer)
            moved_on = (len(s.game.moves), s.game.pending) != key if auto else (
                s.version != version)
            if moved_on:
                if not auto or self.message == ("", _("Thinking…")):
                    self.message = ("", "")
                return
            if move is None:  # (the hint bot failed: the plain landing, not called advice)
                self._offer_landing(key, str(s.game.default_landing()), plain=True)
                self.message = ("error", _("hint: {error}").format(error=repr(error)[:200]))
                self.app.invalidate()
                return
            options = s.hint_options
            self._hinted = (key, move, options)
        text = shown_move(str(move))  # (on the line, as typed: `sail RapaNui 2 SE`)
        if p.kind == D.LANDING:
            self._landing_offer, self._landing_plain = (key, text), False
        if auto and not self._line_is_free():
            self.app.invalidate()  # (the status line says the hint's landing is known)
            return
        self._quit_asked = False  # `quit` mid-game was typed once: Enter again leaves
        self.message = ("", _("Hint: {move} (Enter plays it)").format(
            move=shown_move(str(move), spaced=True)))  # (read, as its next best option is)
        if isinstance(move, Colony) and not s.game.on_board(p.seat):
            self.message = ("", _("Hint: colony (Enter plays it: you have no ships on the "
                                  "beaches, so none go home)"))
        elif isinstance(move, Colony):  # the hint's words are the confirmation
            ships = s.game.on_board(p.seat)
            self.message = ("", ngettext(
                "Hint: colony (Enter plays it: your {n} ship on the board goes home)",
                "Hint: colony (Enter plays it: your {n} ships on the board go home)",
                ships).format(n=ships))
            self._confirm = (len(s.game.moves), "colony")
        self.message = (self.message[0], self.message[1] + hint_reason(s.game, move, options))
        self.offer(text)
        self.app.invalidate()

    def _line_is_free(self) -> bool:
        """Whether an offer may go on the line: nothing typed on it (an untouched offer
        is not typing) and no `quit` awaiting its Enter (that Enter must not land)."""
        return not self._quit_asked and (not self.buffer.text
                                         or self.buffer.text == self._prefill)

    def _offer_landing(self, key: tuple, text: str, plain: bool) -> None:
        self._landing_offer, self._landing_plain = (key, text), plain
        if self._line_is_free():
            self.offer(text)


CLOSE_CHANCES = 0.03  # a hint's next best option this near is "much the same"


def hint_reason(game, move, options) -> str:
    """Why a hint, as far as it can be said: a newcomer told only "place Tonga 2" learns
    nothing, and cannot tell a choice that matters from one that hardly does. Where a
    departure goes; the hint bot's chances with it and with the next best option
    (`options`: (move, chance) best first, from its look-ahead; empty if none). (The
    engine plays a decision with one option itself: none is ever forced here.)"""
    where = move_preview(game, move)  # (→ …: where it sails, a beach it fills)
    where = " " + where if where else ""
    if not options or options[0][0] != move:
        return where
    (_best_move, chance), *rest = options
    best = round(chance * 100)
    if not rest:
        why = _("the bot's look-ahead: about {best} % to win with it").format(best=best)
    else:
        other, second = shown_move(str(rest[0][0]), spaced=True), rest[0][1]  # (read,
        # not typed: `Rapa Nui`)
        if chance - second < CLOSE_CHANCES:
            why = _("the bot's look-ahead: about {best} % to win with it, much the same "
                    "with {other}").format(best=best, other=other)
        else:
            why = _("the bot's look-ahead: about {best} % to win with it, {second} % with "
                    "{other}").format(best=best, second=round(second * 100), other=other)
    return f"{where} — {why}"


TYPED_SHOWN = 32  # of a refused line, the characters repeated in its message


def typed_shortly(text: str) -> str:
    """A refused line as its message repeats it: whole when short, else its start and
    `…` (a pasted page must leave room for the reason, and for the prompt)."""
    text = " ".join(text.split())
    return text if len(text) <= TYPED_SHOWN else text[:TYPED_SHOWN - 1] + "…"


def without_verb(text: str, reason: str) -> str:
    """The reason without its leading `beaches:` when the line typed began with that
    word: the message names its command once (`beaches 9: beach numbers run …`)."""
    verb = text.split()[0].lower() if text.split() else ""
    if verb and reason.lower().startswith(verb + ":"):
        return reason[len(verb) + 1:].lstrip()
    return reason


def refusal_text(command: str, exc: IllegalMove) -> str:
    """A refused move in the player's language: which rule refused it and why.

    The engine's reason (`exc.reason`) is English; in another language the line leads
    with the rule itself, which `rules CLAUSE` shows in full.
    """
    summary = clause_text(exc.clause)
    if current_language() == "en" or not summary:
        return f"{command}: {exc.clause}: {engine_reason(exc.reason)}"
    return _("{command}: not allowed by rule {clause} ({reason}) — rules {clause}").format(
        command=command, clause=exc.clause, reason=engine_reason(exc.reason))


def _monochrome():
    from prompt_toolkit.output import ColorDepth

    return ColorDepth.DEPTH_1_BIT


async def run_game_screen(session: GameSession, colour: bool = True, typed: str = "") -> int:
    """Run the game screen until the player leaves; the session is always closed.
    `typed`: what was on the lobby's command line when the game began, kept on this one."""
    screen = GameScreen(session, colour=colour)
    if typed:
        screen.buffer.text = typed
    try:
        await session.start()
        result = await screen.app.run_async()
    finally:
        await session.close()
    return int(result or 0)  # BACK_TO_LOBBY when the player asked for the lobby

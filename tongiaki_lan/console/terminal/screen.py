"""The game screen, the terminal's view of a table: map, side panel, story log, status
line and the command line.

Layout (80x24 and up):

    +------------------------------+-----------------+
    | map (pans, re-centres)       | players, stack  |
    |                              |-----------------|
    |                              | story log       |
    +------------------------------+-----------------+
    | status: the pending decision and whose it is   |
    | message (one-line reasons, hints)               |
    | > command line with completion of legal moves   |

Everything shown is drawn from the table model's state (console/model.py) at draw time,
so a resize simply draws again and never needs its own bookkeeping. What is typed goes to
the input path (console/input.py), which the board page and the line mode share; the
screen keeps only what is its own: the layout, the keys, where the map is panned and the
log scrolled, and the line being typed.
"""

from __future__ import annotations

import asyncio
import math
import os

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import CompleteEvent
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
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.menus import CompletionsMenu
from prompt_toolkit.layout.processors import BeforeInput

from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import joined_islands

from ..feeds.base import GameSession
from ..input import InputLine, Reply, TableInput
from ..model import TableModel
from ..seatmarks import STEPS
from ..state import TableState
from ..status import status_line
from .board import COMPACT, FULL, BoardView, board_extent
from .completion import MoveCompleter
from .panel import final_lines, panel_lines, watchers_counted
from .theme import build_style
from .widgets import CanvasControl, wrap_fragments, wrap_words

MIN_COLUMNS, MIN_ROWS = 80, 24  # below this the screen says so instead of drawing nonsense
MIN_LOG_ROWS = 10  # a bot round must not scroll past unseen
SPINNER = "|/-\\"


class _Line(InputLine):
    """The screen's command line, as the input path sees it."""

    def __init__(self, screen: GameScreen):
        self.screen = screen

    def text(self) -> str:
        return self.screen.buffer.text

    def offered(self) -> str | None:
        s = self.screen
        return s._prefill if s._prefill is not None and s.buffer.text == s._prefill else None

    def offer(self, text: str) -> None:
        self.screen.offer(text)

    def withdraw(self) -> None:
        s = self.screen
        if s._prefill is not None and s.buffer.text == s._prefill:
            s._setting = True
            try:
                s.buffer.reset()
            finally:
                s._setting = False
            s._prefill = None


class GameScreen:
    """The terminal view of a table. `session`: the feed (a model and an input path are
    made for it, unless given: a second view of the same table shares them)."""

    def __init__(self, session: GameSession, colour: bool = True,
                 model: TableModel | None = None, input: TableInput | None = None,
                 board=None):
        self.session = session
        # the board page (`boardlink.BoardLink`): the run's, or made at the first `board`
        self.board = board
        self._page: asyncio.Task | None = None
        self.model = model or TableModel(session)
        # (the map's usual height: the status, message and command lines one row each)
        self.view = BoardView(usual_height=lambda: self._size()[1] - 3)
        self.log_scroll = 0  # lines scrolled back from the newest
        # `help` and `rules` add more lines than a small log shows: the first of them (an
        # index in the story) is put at the top of the log at the next drawing, so
        # that the list is read from its start rather than from its last lines
        self._log_anchor: int | None = None
        self._log_rows = 10  # the log's height as last drawn (a page for PgUp/PgDn)
        self._small_note: tuple[str, str] | None = None  # "Enlarge the window first", as said
        self.show_board = False  # at the end: the map instead of the final table
        self.final_scroll = 0  # the first row of the final table shown (Up/Down)
        self._prefill: str | None = None  # an offer on the line that typing replaces
        self._compact_told = False  # the log said why the fitted map is compact
        self._ticker: asyncio.Task | None = None  # redraws a countdown on the status line
        self._spinner: asyncio.Task | None = None  # turns while a bot thinks
        self._spin = 0
        self._setting = False
        self._feed_seen = session.version
        self._panel_cache: tuple[tuple, dict[int, list]] = ((), {})
        self.buffer = Buffer(
            multiline=False,
            completer=MoveCompleter(self),
            complete_while_typing=True,
            accept_handler=self._accept,
            on_text_changed=self._text_changed,
        )
        self.app = self._build_app(colour)
        if input is None:
            input = TableInput(self.model, _Line(self))
        else:
            input.line = _Line(self)
        self.input = input
        self.model.subscribe(self._on_change)

    # ---------------------------------------------------------------- state for drawing

    @property
    def state(self) -> TableState:
        return self.model.state

    @property
    def message(self) -> tuple[str, str]:
        """The message line: the input's last notice (a refusal, a hint, a question)."""
        return self.model.notice

    @message.setter
    def message(self, value: tuple[str, str]) -> None:
        self.model.set_notice(*value)

    def legal_texts(self) -> list[str]:
        return [o.text for o in self.state.decision.moves]

    def offered(self) -> str | None:
        """The offer on the line, while nothing was typed over it."""
        return self._prefill

    def draw_board(self, width: int, height: int):
        state = self.state
        g = state.board
        if g.is_over and not self.show_board:
            return self._clipped_final(final_lines(state, width), height)
        lines = self.view.render(g, width, height, frontier=state.frontier,
                                 focus=state.focus).fragment_lines()
        if self.view.offset is None:  # (the drawing fitted to the window, not a pan)
            compact = self.view.geometry is COMPACT
            if compact and not self._compact_told:  # (once a game: the board only grows)
                self._compact_told = True
                self._tell_compact(state)
        return lines

    def _tell_compact(self, state: TableState) -> None:
        """Say, the first time it happens, that the map turned compact because the window
        is too small for the board at full size, and what size shows it whole: a
        newcomer saw the hexes shrink and lose their piers between two moves, with no
        word of why (a playtest)."""
        g = state.board
        hexes = [*g.placed_tiles(), *(g.frontier() if state.frontier else ())]
        x0, y0, x1, y1 = board_extent(hexes, FULL)
        cols = next(c for c in range(MIN_COLUMNS, 4000)
                    if c - self._side_for(c) - 1 >= x1 - x0)
        rows = max(MIN_ROWS, y1 - y0 + 3)  # (the status, message and command rows)
        self.model.note("info", _(
            "The map is drawn compact, without piers (Tab on sail says where each goes): "
            "the board no longer fits this window at full size. A window of at least {size} "
            "shows it full size.").format(
            size=f"{cols}×{rows}"))
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
        return final_lines(self.state, width)

    def panel_lines(self, width: int, shortened: int = 0) -> list[list[tuple[str, str]]]:
        """The side panel, with the first `shortened` of `STEPS` applied; built once per
        redraw (the layout asks for it several times: its height, then its content),
        keyed on anything that could change it."""
        state = self.state
        key = (self.app.render_counter, state.version, width, current_language())
        if self._panel_cache[0] != key:
            self._panel_cache = (key, {})
        built = self._panel_cache[1]
        if shortened not in built:
            built[shortened] = panel_lines(state, width, frozenset(STEPS[:shortened]))
        return built[shortened]

    def draw_panel(self, width: int, height: int):
        # Too tall (six seats at 80x24, four at a landing): the panel shortens step by
        # step (`STEPS`) until it fits; the rows and who plays them stay (the cut took
        # "Hina, Maui, Kupe, Rata, Tangaroa — bots (normal)", and with two colours each or
        # at a landing could take seats' rows).
        shortened = self._fitting_steps(width, height)
        lines = self.panel_lines(width, shortened)
        if shortened:  # (the watchers' names went first: how many stays, if it fits)
            lines = watchers_counted(lines, len(self.state.watchers), width)
        return lines[:height]

    def _fitting_steps(self, width: int, height: int) -> int:
        """How many of `STEPS` the panel needs to fit `height` lines (all of them when
        even the shortest form is taller: the panel is made that tall, `_panel_height`)."""
        return next((n for n in range(len(STEPS))
                     if len(self.panel_lines(width, n)) <= height), len(STEPS))

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
        d = self.state.decision
        if d.kind == D.COLONY_TILE and d.mine:
            room = max(room, rows - 3 - 1 - 4)  # the tile in hand matters more just now
        return Dimension.exact(max(1, least, min(want, room)))

    def draw_log(self, width: int, height: int):
        # Wrap from the newest line backwards, only as far as the window can show:
        # a whole game's story is hundreds of lines and this runs on every redraw.
        story = self.state.story
        self._log_rows = height
        if self._log_anchor is not None:
            anchor, self._log_anchor = self._log_anchor, None
            below = sum(len(wrap_fragments([e], width)) for e in story[anchor:])
            self.log_scroll = max(0, below - height)
        need = height + self.log_scroll
        lines: list[list[tuple[str, str]]] = []
        for entry in reversed(story):
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
        state = self.state
        style, text = status_line(state, typed=self.buffer.text)
        if (state.bot_thinking and not self._stepping() and not state.seat_lost
                and not state.waking and not any(c.kind == "draw" for c in state.countdowns)):
            # turning while the bot thinks: the screen is not stuck
            text = SPINNER[self._spin % len(SPINNER)] + " " + text
        return f"class:{style}", text

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
                if dy and self.state.over and not self.show_board:
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
            if self._stepping():
                self.input.step(-1)
            else:
                self.scroll_log(-1)

        @kb.add("pagedown")
        def _(event):
            if self._stepping() and not self.log_scroll:
                self.input.step(1)
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

        # Ctrl-D leaves from a line with nothing the player typed on it: empty, or an offer
        # (the `quit` it asked with, a landing's hint). The help says "Ctrl-C or Ctrl-D
        # leaves", and at our landing, whose line always holds the hint's landing, Ctrl-D
        # did nothing.
        @kb.add("c-d", filter=buffer_empty | untouched_offer)
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
        return _("watching> ") if self.state.kind == "watch" else "> "

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
            self.input.line_edited(buffer.text)  # (a question to leave goes, an offer
            # comes back on a line emptied at our landing)

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
        self.input.typed_over()  # (typing over the offered `quit`: staying)
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
                and joined_islands(common.strip()) in self.legal_texts())

    # ---------------------------------------------------------------- mouse

    def click(self, x: int, y: int) -> None:
        """A click on the map puts the move it means on the command line (not played)."""
        state = self.state
        if not state.decision.mine:
            return
        hit = self.view.hit(state.board, x, y)
        if hit is None:
            return
        text = self.input.click_text(hit)
        if text is None:
            return
        self.offer(text)
        if text.endswith(" "):
            self.buffer.start_completion(select_first=False)
        self.app.invalidate()

    # ---------------------------------------------------------------- the board page

    def show_page(self, open_browser: bool = True) -> None:
        """`board`: serve this table's page (if not yet), say its address in the log and
        open it in the browser, all without holding up the screen."""
        if self._page is None or self._page.done():
            self._page = self.session.spawn(self.start_page(open_browser))

    async def start_page(self, open_browser: bool = True) -> None:
        from tongiaki_lan.console.web import BoardServerError

        from ..boardlink import BoardLink

        if self.board is None:
            self.board = BoardLink()
        link = self.board
        try:
            url = await link.start()
        except BoardServerError as exc:
            self.session.say(_("board: {reason}").format(reason=exc), "bad")
            return
        link.attach(self.model, self.input)
        # The address goes whole on the message line, as wide as the terminal: the log
        # pane (32 columns at 80) cut it mid-key, where it could be neither copied nor
        # clicked. (The terminal's own lines: the page showed its own address, key and
        # all, in its story, with "it opens in your browser" to a player looking at it.)
        self.model.set_notice("info", _("The board page: {url}").format(url=url), shown="")
        if not open_browser:
            self.model.note("info", _("The board page's address, to paste into a browser, "
                                      "is on the line above the > prompt (board shows it "
                                      "again)."))
            return
        self.model.note("info", _("The board page opens in your browser. If none opens, "
                                  "paste its address into one: it is on the line above the "
                                  "> prompt (board shows it again)."))
        if not await link.open_browser():
            self.model.note("bad", _("No browser could be opened from here: paste the board "
                                     "page's address, on the line above the > prompt, into "
                                     "a browser to see the board."))

    # ---------------------------------------------------------------- behaviour

    def _on_change(self, state: TableState) -> None:
        if state.feed_version != self._feed_seen:  # (the game, not a notice of ours)
            self._feed_seen = state.feed_version
            self.log_scroll = 0
        self._keep_counting()
        self._keep_spinning()
        self.app.invalidate()

    def _keep_spinning(self) -> None:
        """While a bot decides, its line on the status bar turns (`| / - \\`)."""
        if self.state.bot_thinking and self._spinner is None and self.app.is_running:
            self._spinner = self.app.create_background_task(self._spin_while_thinking())

    async def _spin_while_thinking(self) -> None:
        try:
            while self.state.bot_thinking:
                self._spin += 1
                self.app.invalidate()
                await asyncio.sleep(0.25)  # (the pace of the animation)
        finally:
            self._spinner = None

    def _keep_counting(self) -> None:
        """While the table counts down (a LAN draw waiting for a value), redraw as each
        second goes by: the node says how long once, the screen counts on its own."""
        left = self.model.live_countdown()
        if left is not None and self._ticker is None and self.app.is_running:
            self._ticker = self.app.create_background_task(self._count_down())

    async def _count_down(self) -> None:
        try:
            while (left := self.model.live_countdown()) is not None:
                self.input.replace_wait_over()
                self.model.refresh()
                self.app.invalidate()
                # until the whole number shown changes (just past it), or a second at 0
                await asyncio.sleep((left - math.floor(left) if left > 0 else 1.0) + 0.01)
        finally:
            self._ticker = None
            self.input.replace_wait_over()
            self.model.refresh()
            self.app.invalidate()

    def _stepping(self) -> bool:
        """Whether the keys step through moves (a replay's PgUp/PgDn, Enter alone): a
        watcher's screen, which may look back too, keeps them for its log."""
        replay = self.state.replay
        return replay is not None and not replay.live

    def _too_small(self) -> bool:
        cols, rows = self._size()
        return cols < MIN_COLUMNS or rows < MIN_ROWS

    def leave_key(self, key: str) -> None:
        """Ctrl-C (or Ctrl-D on an empty line): the input path asks first mid-game."""
        self._show(self.input.leave(key))

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text.strip()
        self._prefill = None
        if self._too_small() and text.lower() not in ("quit", "exit", "q"):
            # The map is not shown: a move (or a hint's Enter) would be played unseen.
            self.message = ("error", _("Enlarge the window first: the game takes no commands "
                                       "while it cannot be shown (quit leaves)."))
            self._small_note = self.message
            return False
        if self.input.enter(text) is not None:  # (a question first: the line stays)
            self._prefill = buffer.text
            return True
        if text:
            self.session.spawn(self.command(text))
        elif self._stepping():
            self.input.step(1)
        return False  # clear the line

    async def command(self, text: str) -> None:
        """Run one line typed by the player. Never raises: problems become a message."""
        self._show(await self.input.submit(text))

    _command = command  # (the old name, for tests)

    @property
    def _hinting(self) -> bool:
        return self.input.hinting

    def _only_island(self, typed: str) -> str:
        return self.input.only_island(typed)

    def _show(self, reply: Reply) -> None:
        """What only this view does about a reply: leave, move the map, show the top of a
        long answer."""
        if reply.exit is not None:
            self.app.exit(result=reply.exit)
            return
        if reply.view[:1] == ("centre",):
            self.view.centre_on(reply.view[1], self.state.move_index)
        elif reply.view[:1] == ("recentre",):
            self.view.recentre()
        elif reply.view[:1] == ("map",):
            self.show_board = not self.show_board
        elif reply.view[:1] == ("board",):
            self.show_page()
        if reply.anchor is not None:
            self._log_anchor = reply.anchor
        self.app.invalidate()


def _monochrome():
    from prompt_toolkit.output import ColorDepth

    return ColorDepth.DEPTH_1_BIT


async def run_game_screen(session: GameSession, colour: bool = True, typed: str = "",
                          model: TableModel | None = None,
                          input: TableInput | None = None, board=None,
                          page: bool = False, browser: bool = True) -> int:
    """Run the game screen until the player leaves; the session is always closed.
    `typed`: what was on the lobby's command line when the game began, kept on this one.
    `model`, `input`: the table's, when another view shares them. `board`: the run's
    board page (`boardlink.BoardLink`, a lobby's for all its games; None: one is made at
    the first `board` and closed with the screen); `page`: serve it from the start
    (`--board`), and with `browser` open it in the system's browser."""
    screen = GameScreen(session, colour=colour, model=model, input=input, board=board)
    if typed:
        screen.buffer.text = typed
    try:
        await session.start()
        if page:
            screen.show_page(open_browser=browser)
        result = await screen.app.run_async()
    finally:
        await session.close()
        if screen.board is not None and board is None:  # (this screen's own page)
            await screen.board.close()
        elif screen.board is not None:  # (the run's: it keeps the last board shown)
            screen.board.detach()
    return int(result or 0)  # BACK_TO_LOBBY when the player asked for the lobby

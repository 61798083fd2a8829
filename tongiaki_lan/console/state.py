"""What a player sees of a game, as one frozen value: the contract between the table
model and its views.

The terminal screen, the board page in the browser and the plain line mode draw the same
`TableState`; none of them asks the engine, the network node or a session anything of
its own (python-chess keeps `Board` apart from `chess.svg`; lichess's board is handed a
position and its legal destinations and knows no rules). A view that needs a fact adds a
field here, filled by the model, so that the other views can show it too.

Everything here is plain data: strings already in the player's language, ints, tuples.
Nothing refers back to a live object, so a state can be handed to another thread, turned
into JSON for the page, or compared with the previous one to see what changed.

Click targets name board elements in one small vocabulary shared by the model (which
moves each element stands for) and the SVG drawing (`data-target` on the element):

- `island:T`     the island tile T (tile id): expand, royal
- `beach:T:B`    beach B (0-based) of island tile T: place, beaches, take, land
- `pier:T:B:D`   the pier of beach B of island T towards board direction D (0 S … 5 SE): sail
- `place:Q:R`    the empty sea at axial (Q, R) where a new tile may go: tile
A move with no element of its own (`colony`, `take nothing`, `land -`) has no target: the
views offer it as a button or a typed word.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Line = tuple[str, str]  # (style, text): a story line, as `story.Line`
# a story line of one view only, its style ending so (`info.terminal`): the terminal says
# why its map is drawn compact, which means nothing on the board page
VIEW_ONLY = ".terminal"
# a story line for the views with a command line (the terminal, the line mode), its style
# ending so (`info.typed`): what to type there. The board page, where nothing is typed,
# leaves it out (a headless `watch --board` page read "say TEXT chats, follow NAME …")
TYPED = ".typed"
# The story's "Since your last move:" lines sum up, in typed words, the moves told a
# moment before, for a terminal whose narrow log has scrolled them away; struck out
# (`STRUCK_SUMMARY`) when those moves are taken back. Only the terminal shows them: the
# board page and plain mode tell each move once.
SUMMARY = "summary"
STRUCK_SUMMARY = "void.summary"


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the panel shows it."""

    index: int
    name: str  # the player's name alone (`Maui`)
    label: str  # who plays it, as read (`Maui — bot (normal)`)
    colour: str  # engine colour name (`blue`)
    letter: str  # its letter (`B`), shown beside the colour everywhere
    colour_name: str  # the colour in the player's language
    driver: str  # "you", "player", "bot", "laptop-bot" (a laptop playing with a bot)
    local: bool  # played from this keyboard
    viewer: bool  # the screen looks from this seat (a watcher: the player it follows)
    # this laptop's seat, whoever plays it (`local`, or its bot on a headless node's page:
    # the page of a bot laptop marked no seat as its own)
    this_laptop: bool = False
    away: bool = False
    # away because they do not play, their laptop here: "Waiting for Ben to play"
    idle: bool = False
    left: bool = False  # gone for good (its seat played by the table's bot)
    expelled: bool = False  # gone for good because the table expelled its laptop
    score: int = 0  # the score as it stands (E2); final points are in `final`
    ships_in_reserve: int = 0
    bot_kind: str = ""  # the kind of bot that plays it now (`normal`, `search`), else ""


@dataclass(frozen=True, slots=True)
class MoveOption:
    """One legal move of the pending decision, as the views offer it."""

    text: str  # what a player types, and what a click sends (`place Tonga 3`)
    shown: str  # the same, spaced as read (`place Tonga 3`, `sail Hiva Oa 2 NE`)
    preview: str = ""  # what it would do, in words ("beach 1 fills")
    targets: tuple[str, ...] = ()  # board elements that stand for it (module docstring)


@dataclass(frozen=True, slots=True)
class DecisionView:
    """The pending decision: whose, of which kind, in words, and (when it is this
    keyboard's) its legal moves."""

    seat: int | None  # None: a tile reveal (chance) or nothing pending
    kind: str  # the engine's decision kind, or "" at the end
    mine: bool  # this keyboard decides it
    # the decision in words, as any view says it: nothing of how it is typed or of a key
    # (the board page has no command line and no Enter; it offers buttons and clicks)
    text: str
    moves: tuple[MoveOption, ...] = ()  # empty unless `mine`
    waiting_for: str = ""  # who or what the table waits for, in words ("" if nothing)
    # `text` for a line that holds something else than the move offered (our landing:
    # "Enter takes the hint" is not true then); "" when `text` holds either way
    typed_over: str = ""
    # the same decision as a view with a command line says it: what to type, what Enter
    # does (`put a ship on Tonga — place Tonga BEACH`); "" when it says nothing more
    line_text: str = ""
    # the same on a line where Tab completes (the terminal's): `… (Tab: where it goes)`;
    # "" when it says nothing more than `line_text` (the line mode has no Tab)
    tab_text: str = ""


@dataclass(frozen=True, slots=True)
class LastMove:
    """The last move applied, so every view can mark it."""

    index: int  # its index in the game's moves
    seat: int | None
    text: str  # in words, with who made it
    targets: tuple[str, ...] = ()  # the board elements it touched
    tiles: tuple[int, ...] = ()  # tile ids it placed or changed


@dataclass(frozen=True, slots=True)
class Countdown:
    """A wait with an end the player is shown (a draw, a replace, a laptop waking)."""

    kind: str  # "draw", "replace", "wake"
    text: str  # in words, as of the state (status.py says it again as seconds go by)
    ends_at: float  # monotonic seconds (views compute what is left)
    who: str = ""  # whom it waits for, by name ("Ana, Ben")
    endless: bool = False  # a draw waiting for the last who draw: no end, they must return
    # the words with `{s}` where the seconds left go, for a view that counts them itself
    # (the board page); "": `text`, the seconds after it. The page showed `text`'s
    # seconds as of the state it was sent, then its own: "in 42 s … (29 s)"
    template: str = ""


@dataclass(frozen=True, slots=True)
class ReplayPosition:
    """Where the position shown stands among the moves: a replay's, or a live game's
    that a watcher looks back at (`live`: `last` returns to the game as it goes on)."""

    index: int  # moves applied to what is shown
    total: int  # moves in the record (a live game: moves played so far)
    can_step: bool = True  # the steps are taken (False: the controls are shown, greyed)
    text: str = ""  # where it stands in words (`move 12/80 — next: place Tonga 2`)
    live: bool = False  # a live game, not a record: at `total` it is the game as it goes

    @property
    def away_from_now(self) -> bool:
        """Whether the position shown is not the game as it stands: a replay's, or a
        live game's looked back at."""
        return not self.live or self.index < self.total


@dataclass(frozen=True, slots=True)
class TableState:
    """Everything a view draws, replaced as a whole on each change."""

    version: int  # grows with every change the views must redraw
    kind: str  # "solo", "lan", "watch", "replay"
    lang: str  # the language the texts are in
    title: str
    move_index: int  # moves applied to the game shown (`data-move-index` on the page)
    seats: tuple[SeatView, ...]
    decision: DecisionView
    # the position to draw: a copy of the engine's `Game` made for this state, which views
    # read (`svgboard.board_svg`, the terminal map) and never apply a move to
    board: Any = None
    frontier: bool = False  # draw the empty places a new tile may take (a tile decision)
    focus: int | None = None  # the island the decision is about, to keep in sight
    last_move: LastMove | None = None
    story: tuple[Line, ...] = ()  # the log, oldest first (views show its end)
    status: str = ""  # the status line's text
    hint: str = ""  # the last hint in words, while its decision stands
    offer: str = ""  # a move offered on the input line (a landing), as text
    notice: Line | None = None  # the message line (a refusal with its rule, a note)
    # the notice and the hint as a view with a command line says them (the terminal, the
    # line mode): with what Enter does ("Hint: place Tonga 3 (Enter plays it)")
    line_notice: Line | None = None
    line_hint: str = ""
    away: tuple[str, ...] = ()  # names of players away
    left: tuple[str, ...] = ()  # names of players gone for good
    watchers: tuple[str, ...] = ()
    open_seats: tuple[str, ...] = ()  # colour names of seats a newcomer may take
    # the seats a newcomer may take now, by index (a watcher's `take`; one per seat, where
    # `open_seats` names a player's two colours once)
    open_seat_indices: tuple[int, ...] = ()
    countdowns: tuple[Countdown, ...] = ()
    replay: ReplayPosition | None = None
    final: tuple[Line, ...] = ()  # the final table's rows at the end, else empty
    final_grid: Any = None  # the same as values (console.final.FinalGrid), at the end
    over: bool = False
    can_undo: bool = False  # solo: `undo` would take something back now
    commands: tuple[str, ...] = field(default=())  # verbs this table takes besides moves
    # grows with every change of the game, its seats or its story (not with a notice or an
    # offer): a view scrolls its log back to the newest lines then
    feed_version: int = 0
    game_name: str = ""  # a LAN table's name
    followed: str = ""  # whose side a watcher looks from (`follow NAME`), else ""
    seat_lost: bool = False  # back after a goodbye for good, a newcomer plays our seat
    # the table expelled this laptop (a proof that it sent what no honest copy sends)
    this_laptop_expelled: bool = False
    waking: str = ""  # instead of the decision: this laptop asks the table what it missed
    watch_cut: bool = False  # watching, and no member of the table answers
    from_lobby: bool = False  # `lobby` goes back to the lobby (after the game, or watching)
    bot_thinking: bool = False  # a bot is choosing the pending decision
    numbers_tiles: bool = False  # a LAN table: its lines name tiles by number (`Drawn:`)
    status_style: str = ""  # the status line's kind: "status", "status.mine", "status.over"

"""The one input path: a line typed in the terminal, a move clicked on the board page, a
line read by the line mode, all become a command here, and each gets a `Reply`.

A player's words are read the same way whatever view they came from: a move in its
short form (`place Tonga 3`, an island as the map writes it, beaches as people list them),
a command (`hint`, `rules`, `undo`, `say`, `next` in a replay), a confirmation (`colony`
takes every ship home: a second Enter), a question before leaving mid-game. The reply is
the notice line (a refusal names the rule behind it, as `rules` shows it) and what only a
view can do (leave the screen, centre its map, show the top of a long answer). A move
offered for the pending decision (a landing's hint, a confirmation) goes on the line of
the view that has one (`InputLine`) and into the state (`TableState.offer`) for the rest.
"""

from __future__ import annotations

import asyncio
import difflib
from dataclasses import dataclass

from tongiaki_lan.engine import (
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
from tongiaki_lan.engine.tiles import tile_by_name, token_name
from tongiaki_lan.i18n import _, ngettext
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import engine_text, island_name, shown_move

from .feeds.base import NotYet
from .model import LOOK_WORDS, META, TableModel, decision_key
from .rules import clause_text, rules_lines
from .state import TableState
from .status import draw_wait_text
from .words import MOVE_HELP, engine_reason, help_lines, move_preview

BACK_TO_LOBBY = 3  # what the screen ends with when the player typed `lobby` after a game
# what a LAN watcher's command line takes (it has no seat: no moves, no hints); `chat` and
# `join` are other words for `say` and `take`, `board`, `map` and `centre` only change the
# view, and the steps look back at the moves so far (`last`: the game as it goes on)
WATCHER_WORDS = ("say", "follow", "take", "help", "quit")
WATCHER_ALSO = ("chat", "join", "?", "exit", "q", "board", "map", "centre", "center",
                "lobby", *LOOK_WORDS)
# a replay's steps by other words (the board page's buttons say `forward`)
STEP_WORDS = {"forward": "next", "previous": "back", "prev": "back"}
QUIT_WORDS = ("quit", "exit", "q")
TYPED_SHOWN = 32  # of a refused line, the characters repeated in its message
CLOSE_CHANCES = 0.03  # a hint's next best option this near is "much the same"


@dataclass(frozen=True)
class Reply:
    """What a command says and what only a view can do about it."""

    style: str = ""  # the notice's: "" or "error" (a refusal)
    text: str = ""  # the notice line ("" when there is nothing to say)
    exit: int | None = None  # leave the game screen with this result (0, BACK_TO_LOBBY)
    # a view's own: ("centre", tile id), ("recentre",), ("map",) at the end (the map or
    # the final table), ("board",) (the board page, in the browser)
    view: tuple = ()
    anchor: int | None = None  # a long answer's first line in the story: show it from there


@dataclass
class _Effects:
    exit: int | None = None
    view: tuple = ()
    anchor: int | None = None


class InputLine:
    """The line a player types on, as the input path sees it. A view without one (the
    board page) keeps this: nothing is ever typed on it, so an offer is always welcome."""

    # whether Tab completes on it (the terminal's): the line mode's words send a listener
    # to `moves` instead (it heard "Tab lists the legal moves" and had no Tab to press)
    tab = True

    def text(self) -> str:
        """What is on the line now."""
        return ""

    def offered(self) -> str | None:
        """The offer on the line while nothing was typed over it (else None)."""
        return None

    def offer(self, text: str) -> None:
        """Put `text` on the line as an offer: Enter plays it, typing replaces it."""

    def withdraw(self) -> None:
        """Take an untouched offer off the line (typed text stays)."""


def leaving_word(text: str) -> str | None:
    """What leaving the line asks for, by its first word: "quit" (`quit`, `exit`, `q`,
    `quit soon`), "lobby", or None."""
    words = text.split()
    word = words[0].lower() if words else ""
    return "quit" if word in QUIT_WORDS else "lobby" if word == "lobby" else None


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


class TableInput:
    """Commands for one table, from any view: `enter(text)` when Enter is pressed (what
    must be settled before the next key, a question before leaving), then
    `await submit(text)`; `leave(key)` for a leaving key (Ctrl-C); `click_text(hit)` for
    a click on the terminal's map. Also asks the hint for the landings of this keyboard
    by itself, so that Enter lands the group the hint recommends."""

    def __init__(self, model: TableModel, line: InputLine | None = None):
        self.model = model
        self.feed = model.feed
        self.line = line or InputLine()
        self._confirm: tuple[int, str] | None = None  # (moves, word) awaiting a 2nd Enter
        # `quit` (or `lobby`) mid-game was typed once: Enter again leaves; the word, or False
        self.quit_asked: str | bool = False
        self._quit_notice: tuple[str, str] | None = None  # the question, as it was said
        self._for_this_decision: tuple[str, str] | None = None  # a notice cleared with it
        self._waiting_offer: str | None = None  # a move kept on the line while waking
        # a `replace` refused as too soon: its "has been away 2 s" stood on the message line
        # under the status line's countdown, and after it; it goes when the wait is over
        self._until_replace: tuple[str, str] | None = None
        self.hinting = False
        self._landing_after_hint = False  # our landing came while a hint was on its way
        # the last hint, (decision key, move, its options): `hint` again on the same
        # decision says the same, and agrees with the landing offered (a second draw of
        # the bot's dice could recommend the other of two landings "much the same")
        self._hinted: tuple | None = None
        self._landing_asked: tuple | None = None  # the decision whose landing hint is asked
        self._decision_key: tuple | None = None
        self._was_mine = False  # whether the decision on show was ours (`_on_change`)
        self._feed_seen = model.feed.version  # (what the feed had said when we came)
        model.subscribe(self._on_change)

    # ---------------------------------------------------------------- the notice

    @property
    def notice(self) -> tuple[str, str]:
        return self.model.notice

    @notice.setter
    def notice(self, value: tuple[str, str]) -> None:
        self.model.set_notice(*value)

    def _reply(self, fx: _Effects) -> Reply:
        return Reply(self.notice[0], self.notice[1], exit=fx.exit, view=fx.view,
                     anchor=fx.anchor)

    # ---------------------------------------------------------------- entering a line

    def enter(self, text: str) -> Reply | None:
        """What Enter settles at once, before the line's command runs: leaving mid-game
        asks first (asked here, not in the command, so that an Enter typed right after
        finds the question already asked and `quit` still on the line). A Reply: the line
        stays as it is; None: `submit(text)` next."""
        text = text.strip()
        self.notice = ("", "")
        low = text.lower()
        leaving = ("quit" if low in QUIT_WORDS
                   else "lobby" if low == "lobby" and self.lobby_leaves_game() else None)
        if self.quit_asked and self.quit_asked != leaving:
            self.quit_asked = False  # anything else typed: staying after all
        if leaving and not self.quit_asked and self.quit_needs_asking():
            self._ask_quit(word=leaving)
            return self._reply(_Effects())
        return None

    async def submit(self, text: str) -> Reply:
        """Run one line typed, or one command clicked (its text: `place Tonga 3`, `hint`,
        `undo`, `forward`). Never raises: problems become the reply's notice."""
        fx = _Effects()
        text = text.strip()
        if not text:  # Enter alone: a replay's next move
            self.step(1)
            return self._reply(fx)
        try:
            await self._command(text, fx)
        except NotYet as exc:  # (back from a sleep: kept on the line for when it may go)
            self.notice = ("", _("{reason}: your move stays on the line, Enter plays it "
                                 "once the table has answered").format(reason=exc))
            self.line.offer(text)
            self._waiting_offer = text
        except IllegalMove as exc:
            self.notice = ("error", refusal_text(typed_shortly(text), exc))
        except ValueError as exc:
            said = (_("{command}: {reason} (Tab lists the legal moves)") if self.line.tab
                    else _("{command}: {reason} (moves lists the legal moves)"))
            self.notice = ("error", said.format(
                command=typed_shortly(text), reason=without_verb(text, engine_reason(exc))))
        except Exception as exc:  # noqa: BLE001 - the console must survive anything
            self.notice = ("error", _("{command}: internal error: {error}").format(
                command=typed_shortly(text), error=repr(exc)[:200]))
        # At our landing the landing offered comes back on the line the command left
        # empty: after a refused landing, and after `rules`, `help`, `moves` or a typo
        # too, which left the status line's "Enter takes the hint" over an empty line
        # where Enter did nothing.
        if fx.exit is None:
            self._offer_again()
        return self._reply(fx)

    def leave(self, key: str) -> Reply:
        """Ctrl-C (or Ctrl-D on an empty line) is `quit` by another name: mid-game it asks
        the same question first, and the same key again (or Enter) leaves. A key pressed
        by habit, or by a neighbour, must not end a LAN game for everyone waiting on us."""
        confirmed = self.quit_asked and self.line.offered() == "quit"
        if confirmed or not self.quit_needs_asking():
            return Reply(exit=0)
        self._ask_quit(key)
        self.line.offer("quit")  # Enter confirms, as after a typed `quit`; typing cancels
        return self._reply(_Effects())

    def step(self, delta: int) -> None:
        """A replay's step by a key (PgDn, Enter alone): tile reveals go with their move."""
        if self.feed.kind == "replay":
            self.feed.step(delta)

    def typed_over(self) -> None:
        """The player typed over the offer on the line: over an offered `quit`, they
        stay, and the question goes."""
        if self.quit_asked:
            self._drop_quit_question()

    def line_edited(self, text: str) -> None:
        """The player changed the line by hand (typed, deleted, pasted, completed; not an
        offer put there). A leaving question stands only while the line still says leave:
        "Ctrl-C again (or Enter) leaves" stayed on screen while Backspace took `quit` off
        the line and a move was typed in its place. At our landing a line emptied gets
        the landing offered back, so that the status line's "Enter takes the hint" stays
        true: after a Ctrl-C was taken back, Enter on the empty line did nothing."""
        if self.quit_asked and leaving_word(text) != self.quit_asked:
            self._drop_quit_question()
        state = self.model.state
        said = state.line_hint  # (the hint as a view with a line says it: Enter plays it)
        if said and self.notice == ("", said) and text.strip() != state.offer:
            # "Hint: … (Enter plays it)" is true only while the hint's move is on the line
            # (`hint` again says it again)
            self.notice = ("", "")
        if not text.strip() and not self.quit_asked and self._offer_again() \
                and not self.notice[1] and self.model.state.line_hint:
            self.notice = ("", self.model.state.line_hint)  # (its reasons, as first said)

    def _drop_quit_question(self) -> None:
        """Staying after all: the question goes with its notice (not another notice said
        since)."""
        if self.notice == self._quit_notice:
            self.notice = ("", "")
        self.quit_asked = False

    # ---------------------------------------------------------------- leaving

    def lobby_leaves_game(self) -> bool:
        """`lobby` in a solo game the lobby started, before its end: back there, the game
        kept for `solo resume` (a player who came from the lobby expects to return to it;
        `quit` left the program). A LAN seat is not left this way: others wait on it."""
        s = self.feed
        return s.kind == "solo" and s.from_lobby and not s.game.is_over

    def quit_needs_asking(self) -> bool:
        s = self.feed
        return (s.can_play and not s.game.is_over and not s.watching
                and not s.seat_lost)  # (a watcher, or a player whose seat a newcomer took,
        # loses nothing by leaving: no seat waits, no bot takes over)

    def _ask_quit(self, key: str | None = None, word: str = "quit") -> None:
        """Leaving mid-game: ask once, and say what is kept (a solo game can be resumed).
        `key`: asked because of that key (Ctrl-C), which then confirms too; `word`: quit,
        or lobby (back to the lobby, which can resume a solo game)."""
        s = self.feed
        path = s.record_path
        if path is not None and s.kind == "solo":
            what = _("the record keeps the game ({path}; tongiaki-lan solo --resume plays on "
                     "it)").format(path=path)
        elif path is not None:
            what = _("the record keeps the game ({path}; tongiaki-lan replay shows it)").format(
                path=path)
        else:
            what = _("this game is not recorded")
        note = s.leave_note()
        if note is not None:  # a LAN seat: for good or back soon, and how to come back
            what = note  # (the record's path would push the way back off an 80x24 screen)
        if word == "lobby":
            text = _("lobby: the game is not over — Enter again to go back to the lobby; "
                     "solo resume there plays on it")
        elif key is None:
            text = _("quit: the game is not over — Enter again to leave; {what}")
        else:
            text = _("{key}: the game is not over — {key} again (or Enter) leaves; {what}")
        self.notice = ("", text.format(what=what, key=_(key) if key else ""))
        self._quit_notice = self.notice
        self.quit_asked = word

    # ---------------------------------------------------------------- the decision moves on

    def _on_change(self, state: TableState) -> None:
        """The game (or its seats, or its story) changed: what was said or offered for the
        decision before goes with it; our landing gets its hint on the line."""
        if state.feed_version == self._feed_seen:
            return  # (a notice or an offer of ours: nothing moved on)
        self._feed_seen = state.feed_version
        s = self.feed
        g = s.game
        p = g.pending
        key = decision_key(g)
        new_decision = key != self._decision_key
        if new_decision:
            # a new decision: an old reason or a pending confirmation no longer applies.
            # A refusal typed while others decide stays until a decision of ours comes: a
            # watcher's "you are watching, with no seat" went with the next player's move,
            # 0.3 s after it showed, before it could be read (a playtest)
            self._decision_key = key
            mine = s.my_decision()
            refusal_stale = self.notice[0] == "error" and (mine or self._was_mine)
            self._was_mine = mine
            if (refusal_stale or self._confirm is not None
                    or self.notice == self._for_this_decision
                    or self._waiting_offer is not None):
                self.notice = ("", "")
            if self._waiting_offer is not None and self.line.offered() == self._waiting_offer:
                # (the table played on while we slept: a move kept for the old decision
                # must not be played on the new one by an Enter)
                self.line.withdraw()
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
            want = self.model.landing_offer()
            if want is None and self._landing_asked != key:
                self._landing_asked = key
                s.spawn(self._hint(auto=True))
        if want is not None and self._line_is_free():
            # (not over a `quit` awaiting its Enter: that Enter must not land a group)
            self.line.offer(want)
        elif want is None and new_decision and not self.quit_asked:
            # An offer (a hint's move) belongs to its decision: it goes with it, and only
            # then (a seat taken, a chat line or a player back is no new decision: the
            # hint's move vanished from a player's line as someone sat down at the table).
            # A `quit` awaiting its Enter stays while bots move.
            self.line.withdraw()

    def replace_wait_over(self) -> None:
        """A `replace` refused as too soon: its reason goes once the wait is over."""
        if (self._until_replace is not None and self.notice == self._until_replace
                and self.feed.replace_left() is None):
            self.notice = ("", "")
            self._until_replace = None

    def _line_is_free(self) -> bool:
        """Whether an offer may go on the line: nothing typed on it (an untouched offer
        is not typing) and no `quit` awaiting its Enter (that Enter must not land)."""
        return not self.quit_asked and (not self.line.text()
                                        or self.line.text() == self.line.offered())

    def _offer_again(self) -> bool:
        """At our landing the landing offered comes back on the empty line (whether it
        did)."""
        s = self.feed
        p = s.game.pending
        if s.my_decision() and p is not None and p.kind == D.LANDING and not self.line.text():
            text = self.model.landing_offer()
            if text is not None:
                self.line.offer(text)
                return True
        return False

    # ---------------------------------------------------------------- commands

    async def _command(self, text: str, fx: _Effects) -> None:
        word, _sep, rest = text.partition(" ")
        word = word.lower()
        s = self.feed
        asked, self.quit_asked = self.quit_asked, False
        if word in QUIT_WORDS and rest.strip().lower() == "soon" and s.leave_for_good is not None:
            s.leave_for_good = False  # at a LAN table: back soon, the seat waits for us
            fx.exit = 0
            return
        if word in QUIT_WORDS:
            if not asked and self.quit_needs_asking():
                self._ask_quit()
                self.line.offer("quit")
                return
            fx.exit = 0
            return
        if s.watching:
            word = {"chat": "say", "join": "take", "center": "centre"}.get(word, word)
            if word not in (*WATCHER_WORDS, *WATCHER_ALSO):
                if s.open_seat_list():
                    text = _("{command}: you are watching, with no seat — say TEXT, follow "
                             "NAME, take COLOUR, help, quit").format(command=typed_shortly(text))
                else:  # ("take COLOUR" with no seat open sent a player looking for one)
                    text = _("{command}: you are watching, with no seat — say TEXT, follow "
                             "NAME, help, quit").format(command=typed_shortly(text))
                self.notice = ("error", text)
                return
            if word in ("help", "?"):
                self._watcher_help()
                return
        if word == "lobby" and self.lobby_leaves_game():
            if not asked:  # (a solo game under way: there is always something to keep)
                self._ask_quit(word="lobby")
                self.line.offer("lobby")
                return
            fx.exit = BACK_TO_LOBBY
            return
        if word == "lobby" and s.from_lobby:
            # (a watcher has no seat to leave: back to the lobby at any time; `quit` left
            # the program, and a playtest's watcher wanted the next table)
            if not s.game.is_over and not s.seat_lost and not s.watching:
                self.notice = ("error", _("lobby: after the game; to leave it now, quit"))
                return
            fx.exit = BACK_TO_LOBBY
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
            for line in help_lines(rest, replay=not s.can_play,
                                   recorded=s.record_path is not None, tab=self.line.tab):
                s.lines.append(("info", line))
            s.lines.extend(own)
            if not rest and self.lobby_leaves_game():
                s.lines.append(("info", "  " + _("lobby — back to the lobby (this game is "
                                                 "kept: solo resume there plays on it)")))
            elif not rest and s.from_lobby:
                s.lines.append(("info", "  " + _("lobby — after the game, back to the "
                                                 "lobby for the next one")))
            s.changed()
            fx.anchor = anchor  # (after changed(), which scrolls to the newest)
            return
        if word == "rules":
            anchor = len(s.lines)
            for line in rules_lines(s.game, rest):
                s.lines.append(("info", line))
            s.changed()
            fx.anchor = anchor
            return
        if word in ("centre", "center"):
            self._centre(rest.strip(), fx)
            return
        if word == "board":  # the board page: the view that can show it says where
            fx.view = ("board",)
            return
        if word == "map":
            if not s.game.is_over:  # (it did nothing, silently)
                self.notice = ("", _("map: the map is on screen; at the end of the game "
                                     "map switches between it and the final table"))
                return
            fx.view = ("map",)
            return
        if word in LOOK_WORDS and self.model.can_look_back():
            self._look(word, rest)
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
            if moves and s.can_play and not s.my_decision():  # (they read as ours: typed,
                # each was refused as "it is Hina's decision, not yours")
                s.say(_("Legal moves for {who} (not your decision): {moves}").format(
                    who=s.names[s.game.pending.seat], moves=shown))
                return
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
            self.notice = ("", _("The game has started: it is on the screen now."))
            return
        extra = s.commands()
        if s.kind == "replay" and word in STEP_WORDS:
            word = STEP_WORDS[word]
        if word in extra:
            result = extra[word][1](rest)
            if asyncio.iscoroutine(result):
                result = await result
            if isinstance(result, str):
                self.notice = ("error", result)
                if word == "replace" and s.replace_left():
                    self._until_replace = self.notice  # (too soon: cleared at the end)
                    # and kept in the log: typed again in the last second, the reason
                    # went with the wait a moment later, before it could be read (a
                    # playtest)
                    s.say(result, "bad")
            return
        if not s.can_play:
            self.notice = ("error", _("{command}: a replay takes no moves (help lists "
                                      "commands)").format(command=typed_shortly(text)))
            return
        if word == "undo":  # (a solo game's command: elsewhere it read as a typo, in
            # the words of a playtest's French player, "undo : commande inconnue")
            self.notice = ("error", _("undo: only in a solo game; at a LAN table every "
                                      "laptop has played your move already"))
            return
        if word not in MOVE_HELP:  # (its keys: the words a player's move begins with)
            # (the engine's own message lists `reveal` too, which is the dealer's, never
            # a player's: the player hears what they can type instead)
            near = difflib.get_close_matches(word, [*MOVE_HELP, *META, *extra],
                                             n=1, cutoff=0.75)
            if near:  # `beach 5 6`, `expnad Fiji`: the word meant
                self.notice = ("error", _("{command}: unknown command — did you mean "
                                          "{word}?").format(command=typed_shortly(text),
                                                            word=near[0]))
                return
            said = (_("{command}: unknown command — help lists the commands, Tab the legal "
                      "moves") if self.line.tab else
                    _("{command}: unknown command — help lists the commands, moves the legal "
                      "moves"))
            self.notice = ("error", said.format(command=typed_shortly(text)))
            return
        await self._play(text, word)

    async def _play(self, text: str, word: str) -> None:
        s = self.feed
        typed = engine_text(text)  # (an island by the name the map shows)
        if word in ("beaches", "place"):  # beach numbers as people list them: `beaches 4,6`
            typed = typed.replace(",", " ")
        if word == "place" and typed.split()[1:2] and typed.split()[1].isdigit():
            typed = self.only_island(typed)
        move = parse_move(typed)
        colony = isinstance(move, Colony) and s.my_decision() and s.game.is_legal(move)
        if colony and not s.game.on_board(s.game.pending.seat):
            # Nothing goes home, so there is nothing to confirm: a question here read as
            # an error ("you have no ships…") followed by "confirm", and said nothing of
            # what does happen. Play it, and say plainly why no ship comes home.
            self._confirm = None
            await s.submit(move)
            self.notice = ("", _("colony: you have no ships on the beaches, so none go home; "
                                 "the New Colony begins (kings stay)"))
            return
        if colony and self._confirm != (len(s.game.moves), "colony"):
            self._ask_colony()
            return
        self._confirm = None
        await s.submit(move)

    def only_island(self, typed: str) -> str:
        """`place 1` where only one island takes ships (Tonga, at the start): that island.
        A newcomer read "place Tonga BEACH", typed `place 1`, and was told "no island
        named '1'"."""
        g = self.feed.game
        islands = {m.island for m in g.legal_moves() if isinstance(m, Place)}
        if len(islands) != 1:
            return typed
        word, _sep, rest = typed.partition(" ")
        return f"{word} {token_name(islands.pop())} {rest}"

    def _ask_colony(self) -> None:
        """C1 takes every ship home: a slip of the keyboard must not cost a whole board."""
        s = self.feed
        seat = s.game.pending.seat
        ships = s.game.on_board(seat)  # at least one: with none, nothing is asked
        what = ngettext("your {n} ship on the board goes home",
                        "your {n} ships on the board go home", ships).format(n=ships)
        self.model.set_notice("", _("colony: {what} — Enter again to confirm").format(
            what=what), shown=_("colony: {what} — play it again to confirm").format(what=what))
        self._confirm = (len(s.game.moves), "colony")
        # offered on every view: Enter on the line, a button on the board page
        self.model.set_hint(decision_key(s.game), "", "colony")
        self.line.offer("colony")

    def _look(self, word: str, rest: str) -> None:
        """A watcher's steps through the moves so far while the game goes on: `back`,
        `forward`, `first`, `goto N`; `last` (or `forward` to the end) is the game as it
        goes on again. One path for every view: the model shows the position, the
        terminal's map and the board page draw it."""
        m = self.model
        count = int(rest) if rest.strip().isdigit() else 1
        if word in ("back", "previous", "prev"):
            m.look_step(-count)
        elif word in ("forward", "next"):
            m.look_step(count)
        elif word == "first":
            m.look(0)
        elif word == "last":
            m.look(None)
        elif not rest.strip().isdigit():
            self.notice = ("error", _("goto: give a move number, e.g. 'goto 40'"))
        else:
            m.look(int(rest))

    def _watcher_help(self) -> None:
        s = self.feed
        s.lines.append(("info", _("You are watching {game}: no seat, no moves. "
                                  "Commands:").format(game=s.game_name)))
        for help_text, _handler in s.commands().values():
            s.lines.append(("info", "  " + _(help_text)))
        if s.from_lobby:
            s.lines.append(("info", "  " + _("lobby — stop watching and go back to the lobby")))
        s.lines.append(("info", "  " + _("quit — stop watching (nobody waits for you)")))
        s.lines.append(("info", "  " + _("back, forward, first, goto N — look back at the "
                                         "moves so far while the game goes on; last — the "
                                         "game as it goes on again")))
        s.lines.append(("info", _("Keys: arrows pan the map, PgUp/PgDn scroll the log, Tab "
                                  "completes.")))
        s.changed()

    def _centre(self, name: str, fx: _Effects) -> None:
        """`centre` alone: the whole board again; `centre Tahiti`: that island (a hint
        named an island off a newcomer's 80x24 screen, and `centre Tahiti` said nothing
        and went back to the middle)."""
        if not name:
            fx.view = ("recentre",)
            # (it went back in silence: a playtest's player wondered whether it was heard)
            self.notice = ("", _("The map is back to its usual view."))
            return
        word = engine_text(name)
        try:
            tile = tile_by_name(word)
        except KeyError:
            tile = None
        if tile is None or not tile.is_island:
            self.notice = ("error", _("centre: no island named '{name}' (centre alone goes "
                                      "back to the usual view)").format(
                name=typed_shortly(name)))
            return
        g = self.feed.game
        if g.hex_of(tile.id) is None:
            self.notice = ("error", _("centre: {island} is not on the board").format(
                island=island_name(tile.id)))
            return
        fx.view = ("centre", tile.id)
        self.notice = ("", _("The map shows {island} until the next move; centre alone "
                             "goes back to the usual view.").format(
            island=island_name(tile.id)))

    # ---------------------------------------------------------------- hints

    async def _hint(self, auto: bool = False) -> None:
        """`hint`: a bot's move on the line, and why. `auto`: asked by the input itself
        for our landing, whose offer is the hint's move; it then leaves alone a line
        the player has typed on meanwhile, and a pending `quit`."""
        s = self.feed
        p = s.game.pending
        if p is None:
            self.notice = ("", _("The game is over: no hint."))
            return
        if not s.can_play:
            self.notice = ("", _("A replay takes no moves: no hint."))
            return
        if not s.my_decision():
            if auto:
                return
            if p.seat is None:  # a tile being drawn: nobody's decision ("the dealer's" read
                # as if someone at the table had to act)
                waits = draw_wait_text(self.model.state)
                self.notice = ("", waits or _("A tile is being revealed…"))
            else:
                who = s.names[p.seat]
                self.notice = ("", _("It is {who}'s decision, not yours: no hint.").format(
                    who=who))
            # true of this decision only: "It is Tim's decision" stayed on screen after Tim
            # moved and the decision was ours
            self._for_this_decision = self.notice
            return
        key = decision_key(s.game)
        if self._hinted is not None and self._hinted[0] == key:
            move, options = self._hinted[1], self._hinted[2]  # (asked already: the same)
        else:
            if self.hinting:
                # (another hint is on its way, for a decision now gone: a landing that
                # comes meanwhile gets its own when it is done — it never did, and the
                # status line said "a hint is on its way…" for good)
                self._landing_after_hint = self._landing_after_hint or auto
                return
            self.hinting = True
            version = s.version
            if not auto or self._line_is_free():
                self.notice = ("", _("Thinking…"))
            try:
                move = await s.hint()
            except Exception as exc:  # noqa: BLE001 - a hint must never take the game down
                if not auto:
                    raise
                move = None
                error = exc
            finally:
                self.hinting = False
                if self._landing_after_hint:
                    self._landing_after_hint = False
                    now = s.game.pending
                    if (s.my_decision() and now is not None and now.kind == D.LANDING
                            and self.model.landing_offer() is None):
                        s.spawn(self._hint(auto=True))
            # (a typed hint is for the screen it was asked on; the screen's own, for the
            # decision: a chat line in between must not leave the landing without offer)
            moved_on = decision_key(s.game) != key if auto else (s.version != version)
            if moved_on:
                if not auto or self.notice == ("", _("Thinking…")):
                    self.notice = ("", "")
                return
            if move is None:  # (the hint bot failed: the plain landing, not called advice)
                self._offer_landing(key, str(s.game.default_landing()), plain=True)
                self.notice = ("error", _("hint: {error}").format(error=repr(error)[:200]))
                return
            options = s.hint_options
            self._hinted = (key, move, options)
        text = shown_move(str(move))  # (on the line, as typed: `sail RapaNui 2 SE`)
        if p.kind == D.LANDING:
            self.model.set_landing(key, text, plain=False)
        if auto and not self._line_is_free():
            return  # (the status line says the hint's landing is known)
        self.quit_asked = False  # `quit` mid-game was typed once: Enter again leaves
        spaced = shown_move(str(move), spaced=True)  # (read, as its next best option is)
        words = _("Hint: {move} (Enter plays it)").format(move=spaced)
        # (the board page has no Enter: it shows the hint with a button that plays it)
        shown = _("Hint: {move}").format(move=spaced)
        if isinstance(move, Colony) and not s.game.on_board(p.seat):
            words = _("Hint: colony (Enter plays it: you have no ships on the beaches, so "
                      "none go home)")
            shown = _("Hint: colony (you have no ships on the beaches, so none go home)")
        elif isinstance(move, Colony):  # the hint's words are the confirmation
            ships = s.game.on_board(p.seat)
            words = ngettext(
                "Hint: colony (Enter plays it: your {n} ship on the board goes home)",
                "Hint: colony (Enter plays it: your {n} ships on the board go home)",
                ships).format(n=ships)
            shown = ngettext("Hint: colony (your {n} ship on the board goes home)",
                             "Hint: colony (your {n} ships on the board go home)",
                             ships).format(n=ships)
            self._confirm = (len(s.game.moves), "colony")
        why = hint_reason(s.game, move, options)
        self.model.set_hint(key, shown + why, text, said=words + why)
        self.model.set_notice("", words + why, shown="")  # (the page: in the hint's place)
        self.line.offer(text)

    def _offer_landing(self, key: tuple, text: str, plain: bool) -> None:
        self.model.set_landing(key, text, plain)
        if self._line_is_free():
            self.line.offer(text)

    # ---------------------------------------------------------------- clicks

    def click_text(self, hit: dict) -> str | None:
        """The legal move (or the start of one) a click on the map stands for: `hit`
        names the tile, beach and pier clicked (`BoardView.hit`), or the empty hex. On a
        choice of beaches, each click adds its beach to those already on the line."""
        moves = self.model.legal_moves()
        if not moves:
            return None
        tid, beach, pier = hit["tile"], hit["beach"], hit["pier"]
        if tid is None:
            q, r = hit["hex"]
            if any(isinstance(m, PlaceTile) and (m.q, m.r) == (q, r) for m in moves):
                return f"tile {q},{r} "
            return None
        p = self.feed.game.pending
        if p.kind == D.EXPAND_BEACHES:
            if beach is None:
                return None
            line = self.line.text()
            chosen = line.split()[1:] if line.startswith("beaches") else []
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

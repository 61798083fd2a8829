"""A LAN game on the game screen, played or watched: others' moves appear as they happen.

The node owns the engine and the record; this feed reads the node's game, hands typed
moves to `Node.send_move` (which checks them with the engine before anything is sent)
and answers the table's own commands (say, replace, guests; a watcher's follow and take).
What the node's events say is told by `LanStory` (lanstory.py); what they leave known
about the table (a draw waiting, who left, who watches) is kept by `TableFacts`
(lanfacts.py), which the table model reads through this feed.
"""

from __future__ import annotations

import contextlib

from tongiaki_lan.engine import IllegalMove, Move
from tongiaki_lan.i18n import N_, _
from tongiaki_lan.net.aio.pump import clock as pump_clock
from tongiaki_lan.net.protocol.movesync import WAKING

from ..networds import net_reason
from ..seats import colour_name, find_colour
from ..state import TYPED
from ..status import draw_wait_words
from .base import GameSession, NotYet, _shared
from .lanfacts import TableFacts, caught_up, is_watching, peer_label, seats_of, set_guests
from .lanstory import REJOIN_QUIET_S, WATCH_LOOK_S, LanStory  # noqa: F401 - also read here


class LanSession(GameSession):
    title = N_("LAN")
    from_lobby = True  # a LAN game always starts from the lobby
    #: the panel counts the tiles drawn: this table's lines name tiles by number
    numbers_tiles = True

    def __init__(self, node, discovery=None, carried: list | None = None,
                 take: str | None = None, own_bot: bool = False):
        self.node = node
        self.own_bot = own_bot  # this laptop's bot plays its seat (a headless node's page)
        self.discovery = discovery
        # guests (a watcher: no seat): the seats of the player followed (`follow NAME`),
        # the seat `join N [COLOUR]` asked for ("": any one open seat)
        self.followed: tuple[int, ...] = ()
        self.want_seat = take
        self._taking = False
        self._newcomer = False  # took a seat at this table from its screen
        super().__init__(node.game, seats_of(node, own_bot=own_bot))
        self.facts = TableFacts(node, lambda: self.game)
        self.story = LanStory(self)
        self.carried = list(carried or [])  # the lobby's chat, shown first
        self.title = f"{_('LAN')} {node.lobby.name}"[:20]
        # how we leave at `quit` mid-game: for good (a bot takes the seat at once and the
        # table stops waiting for us) unless the player typed `quit soon`
        self.leave_for_good = True
        self.left_alone = False  # left a table no other laptop played at (`close`)
        node.add_listener(self._on_node_event)

    # ---------------------------------------------------------------- the table's facts

    @property
    def watching(self) -> bool:
        """This laptop follows the table without a seat (until it takes one)."""
        return is_watching(self.node)

    @property
    def kind(self) -> str:
        return "watch" if self.watching else "lan"

    @property
    def record_path(self):
        """Where the node records the game (it keeps the record of a LAN game)."""
        return getattr(self.node, "record_path", None)

    @property
    def game_name(self) -> str:
        return self.node.lobby.name if self.node.lobby is not None else ""

    @property
    def seat_lost(self) -> bool:
        """Back after a goodbye for good, a newcomer plays the seat."""
        return self.facts.seat_lost

    @property
    def this_laptop_expelled(self) -> bool:
        """The table expelled this laptop on a proof of misbehaviour."""
        return self.facts.this_laptop_expelled

    @property
    def watch_cut(self) -> bool:
        """Watching, and no member of the table answers (`lobby` leaves)."""
        return self.facts.watch_cut

    @property
    def draw_wait(self) -> tuple[int, str, float] | None:
        return self.facts.draw_wait

    def viewer_seats(self) -> set[int]:
        """The seats the screen looks from: ours, or while watching the followed
        player's (`follow NAME`)."""
        return set(self.followed) if self.watching else self.local_seats()

    def followed_name(self) -> str | None:
        if not self.watching or not self.followed:
            return None
        return self.names[self.followed[0]]

    def watcher_names(self) -> list[str]:
        """The names of those watching, for the panel's `Watching:` line (each once)."""
        return self.facts.watcher_names()

    def open_seat_list(self) -> list[int]:
        """Seats a newcomer may take now, if the table lets newcomers take seats."""
        return self.facts.open_seat_list()

    def open_seats_text(self) -> str | None:
        """For the status line of someone watching: the seats they may take. Said once in
        the log, that line was soon buried under the story of the moves caught up (85 lines
        in a playtest), and the screen showed only whose turn it was."""
        return ", ".join(self.open_seat_colours()) or None

    def open_seat_colours(self) -> list[str]:
        if not self.watching or self.node.lobby is None or not caught_up(self.node):
            return []
        lb = self.node.lobby
        return [colour_name(lb.seats[g[0]].colour)
                for g in self.facts.player_groups(self.open_seat_list())]

    def countdown_left(self) -> float | None:
        return self.facts.countdown_left()

    def countdown_text(self) -> str | None:
        """The status line while a draw waits: whose value, and the seconds left."""
        left = self.countdown_left()
        if left is None:
            return None
        return draw_wait_words(self.facts.draw_wait[1], self.facts.draw_never, left)

    def draw_waiting(self) -> tuple[str, bool] | None:
        return self.facts.draw_waiting()

    def left_seats(self) -> set[int]:
        return self.facts.left_seats()

    def expelled_seats(self) -> set[int]:
        return self.facts.expelled_seats()

    def away_seats(self) -> set[int]:
        return self.facts.away_seats()

    def leave_note(self) -> str:
        """What the leaving question says of a LAN seat: `quit` is for good (a bot takes
        the seat at once, the table waits for nobody), `quit soon` keeps the seat waiting,
        and how to come back to it; or, with no other laptop at the table, that leaving
        ends the game."""
        if self.alone_at_table():
            # (a table of this laptop and its bots was promised "your seat waits — join
            # the game marked 'yours'", and the list was empty when the player came back)
            return _("no other laptop plays at this table, so the game ends here; its "
                     "record keeps it (tongiaki-lan replay shows it)")
        return self.table_leave_note()

    @staticmethod
    def table_leave_note() -> str:
        """The leaving question's note at a table where other laptops play on."""
        return _("you go for good and a bot takes your seat at once; back soon instead? Type "
                 "'quit soon': your seat waits — run tongiaki-lan again and join the game "
                 "marked 'yours'")  # ("leave; for good: …" read as two choices)

    def alone_at_table(self) -> bool:
        """Whether no other laptop plays at this table (the other seats are bots this
        laptop runs, or players' who left for good): nobody plays on once this one
        leaves, and no seat waits to be joined again."""
        lb = self.node.lobby
        if lb is None or self.watching or self.game is None or self.game.is_over:
            return False
        me = self.node.peer_id
        return not any(m.peer != me and m.peer.hex() not in self.facts.gone
                       for m in lb.members)

    def replace_left(self) -> float | None:
        """Seconds (on this screen's clock) before `replace` may give the seat whose
        decision waits to a bot; None when that seat is not an absent player's, or when
        `replace` may already."""
        core = getattr(self.node, "core", None)
        ask = getattr(core, "replace_wait", None)  # (a stand-in node without it: none)
        p = self.game.pending if self.game is not None else None
        if ask is None or p is None or p.seat is None or self.watching:
            return None
        wait = ask(p.seat)
        if wait is None:
            return None
        # (the core's `now` is its last tick: count on from there on the screen's clock;
        # once it may, there is nothing left to count)
        left = wait - max(0.0, pump_clock() - core.now)
        return left if left > 0 else None

    def waking_text(self) -> str | None:
        """The status line while this laptop, back from a sleep, waits for the table's
        word: "Waiting for Ana (B): choosing an action…" on Ana's own screen read as if
        the decision were someone else's."""
        core = getattr(self.node, "core", None)
        if core is None or self.game.is_over:
            return None
        if self.watching and self.facts.watch_cut:  # (the game shown stopped where it was cut)
            return _("Nobody at the table answers  (lobby: the list of games · quit "
                     "leaves)")
        if self.watching:  # (back from a sleep, the feed asked for again: not yet here)
            asking = getattr(core, "rewatching", lambda: None)()
            return (_("Asking the table what happened while this laptop was away…")
                    if asking else None)
        if not getattr(core, "waking", lambda: False)():  # (a stand-in core without it)
            return None
        return _("Asking the table what happened while this laptop was away…")

    def local_seats(self) -> set[int]:
        """Our seats — once our game is the table's: a newcomer's, or a laptop's back from
        a crash or a sleep, may still lack the last moves, and the decision it shows then
        is one a bot has played already."""
        if not caught_up(self.node) or self.seat_lost:
            return set()
        return super().local_seats()

    def played_by_bot(self, seat: int, index: int) -> bool:
        return index in self.facts.bot_moves

    def played_for_us(self, seat: int, index: int) -> bool:
        """Our seat's moves not typed here were a bot's, on whichever laptop drove the
        seat while we were away (or down). (A followed player's are their own.)"""
        return not self.watching and index not in self.facts.typed

    def settled_departure(self, k: int) -> bool:
        return self.facts.spans.settled(self.game, k)

    def follow_game(self, new) -> int:
        # (the moves after the shared ones are the table's, not ours)
        self.facts.spans.forget_from(_shared(list(self.game.moves), list(new.moves)))
        return super().follow_game(new)

    # ---------------------------------------------------------------- the node's events

    def _on_node_event(self, ev) -> None:
        k, d = ev.kind, ev.data
        self.story.flush_unwatched()
        self.facts.remember_guests()  # (while they watch: where they speak from)
        if self.node.game is not None and self.node.game is not self.game:
            if self.game is None:
                self.game = self.node.game
            else:  # (taken back to where the table is: what it never counted is struck)
                self.story.struck(self.follow_game(self.node.game))
        self.facts.note(ev)
        if k == "seat_taken" and d.get("mine"):
            self.followed, self.want_seat, self._taking = (), None, False
            self._newcomer = True
            self._snap = None  # (the summary starts with our first decision)
        elif k == "guest_refused":
            self._taking = False
        self.story.tell(ev)
        if self.node.lobby is not None:
            # (who drives each seat: the labels follow)
            before = self.names
            self.seats = seats_of(self.node, self.facts.gone, own_bot=self.own_bot)
            self._narrator.names, self._narrator.labels = self.names, self.labels
            if self.names != before and self.game is not None:
                if not self.names_from:  # (the names of the moves before any change)
                    self.names_from.append((0, before))
                self.names_from.append((len(self.game.moves), self.names))
            if k != "away":  # (a goodbye's own line first, then the seat it opens)
                self._open_seat_news()
        self.changed()

    # ---------------------------------------------------------------- guests

    def _open_seat_news(self) -> None:
        """While watching: say once when a seat opens (`take COLOUR` plays it), and take
        the seat `join N [COLOUR]` asked for as soon as the table says it is open."""
        if not self.watching or self.node.lobby is None or not caught_up(self.node):
            return  # (told, and taken, only once this laptop has the game as it is now:
            # a seat taken while catching up would show decisions long played)
        f = self.facts
        opens = self.open_seat_list()
        if self.want_seat is not None and not self._taking:
            lb, want = self.node.lobby, self.want_seat
            groups = f.player_groups(opens)
            if want:
                pick = [i for i in opens if lb.seats[i].colour == want]
            else:
                pick = groups[0] if len(groups) == 1 else []
            self.want_seat = None
            self.story.open_seats(opens, told=True)
            if pick:
                self.spawn(self._take(pick[0]))
                return
            if not opens and not f.takes_newcomers():  # (the host's `guests`)
                self.lines.append(("bad", _("{reason}: you are watching it.").format(
                    reason=f.no_guest_seats())))
            elif not opens:  # caught up, and no seat is open: watching it is
                self.lines.append(("bad", _("No seat is open at {game} any more: you are "
                                            "watching it.").format(game=self.game_name)))
            else:  # several, or not the one asked for: the player says which
                self.lines.append(("info", _("Open seats: {colours} — take COLOUR plays "
                                             "one.").format(colours=f.colours_of(
                    [g[0] for g in groups]))))
        self.story.open_seats(opens)

    async def _take(self, seat: int) -> str | None:
        """Ask the table for `seat`; None once it is ours, else the reason."""
        from tongiaki_lan.net.protocol.invite import JoinRefused

        self._taking = True
        colours = self.facts.colours_of([seat])
        self.lines.append(("info", _("Asking the table for the {colour} seat (it changes hands "
                                     "between two decisions)…").format(colour=colours)))
        self.changed()
        try:
            await self.node.take_seat(seat)
        except JoinRefused as exc:
            reason = _("take: {reason}").format(reason=net_reason(exc))
            self.lines.append(("bad", reason))
            return reason
        finally:
            self._taking = False
            self.changed()
        return None

    def take(self, word: str):
        """`take [COLOUR]` (or `join`): while watching, play a seat a bot plays."""
        if not self.watching:
            return _("take: you play at this table already")
        opens = self.open_seat_list()
        if not opens and not self.facts.takes_newcomers():
            # (bots may play seats all the same: "one opens when a player leaves" misled)
            return _("take: {reason}").format(reason=self.facts.no_guest_seats())
        if not opens:
            return _("take: no seat is open (one opens when a player leaves for good)")
        groups = self.facts.player_groups(opens)
        if not word.strip():
            if len(groups) > 1:
                return _("take: which seat? open: {colours}").format(
                    colours=self.facts.colours_of([g[0] for g in groups]))
            seat = groups[0][0]
        else:
            colour = find_colour(word)
            seat = next((i for i in opens if self.node.lobby.seats[i].colour == colour), None)
            if seat is None:
                # (a colour by its shown name, whichever way it was typed: `take green`
                # in Italian is answered "verde non è libero; liberi: rosso")
                return _("take: {colour} is not open; open: {colours}").format(
                    colour=colour_name(colour) if colour else word.strip()[:12],
                    colours=self.facts.colours_of([g[0] for g in groups]))
        if self._taking:
            return _("take: already asked; the table answers between two decisions")
        if not caught_up(self.node):  # (taken once this laptop has caught up)
            self.want_seat = colour = self.node.lobby.seats[seat].colour
            # (said: with nothing on the screen the command seemed lost)
            return _("take: this laptop is catching up with the table; it asks for the "
                     "{colour} seat as soon as it has").format(
                colour=colour_name(colour).lower())
        return self._take(seat)

    def follow(self, who: str):
        """`follow NAME` (or a colour): look at the game from that player's seats — their
        row marked in the panel, the status line naming them, and when the decision comes
        back to them the log sums up what the others did since. `follow` alone: nobody."""
        if not self.watching:
            return _("follow: you play at this table: your own seat is the one shown")
        who = who.strip()
        if not who:
            self.followed = ()
            self.say(_("Following nobody."))
            return None
        names = self.names
        colour = find_colour(who)
        seats = [i for i, c in enumerate(self.game.colours) if c == colour] if colour else []
        if not seats:
            low = who.casefold()
            exact = [i for i, n in enumerate(names) if n.casefold() == low]
            seats = exact or [i for i, n in enumerate(names) if n.casefold().startswith(low)]
        players = {names[i] for i in seats}
        if not seats:
            return _("follow: nobody called '{name}' at this table (players: {names})").format(
                name=who[:16], names=", ".join(dict.fromkeys(names)))
        if len(players) > 1:
            return _("follow: '{name}' could be {names}: type more of the name").format(
                name=who[:16], names=", ".join(sorted(players)))
        name = names[seats[0]]
        self.followed = tuple(i for i, n in enumerate(names) if n == name)
        self._snap = None  # (the summary starts at their next decision)
        self.say(_("Following {name}: their seat is marked in the panel; when the decision "
                   "comes back to them, the log sums up what the others did.").format(name=name))
        return None

    # ---------------------------------------------------------------- the game

    async def start(self) -> None:
        n = len(self.game.moves)
        if self.carried:
            self.lines.append(("info", _("From the lobby:")))
            self.lines.extend(self.carried)
        if self.watching:
            self.lines.append(("info", _("You are watching {game}: no seat, no moves.").format(
                game=self.node.lobby.name)))
            # (what to type: the console's and the line mode's; a headless `watch --board`
            # page, where nothing is typed, said it too)
            self.lines.append(("info" + TYPED, _("say TEXT chats, follow NAME shows a "
                                                 "player's side, help lists the rest.")))
        else:
            self.lines.append(("info", _("Game {game} started; record: {path}").format(
                game=self.node.lobby.name, path=self.node.record_path)))
        if n and not self.watching:  # (a watcher simply came in after them)
            self.lines.append(("info", _("Resumed after {n} moves.").format(n=n)))
        self._open_seat_news()  # (a seat `join N` asked for, or open before this screen)
        await super().start()
        if n and not self.watching:
            self.story.resumed()

    async def submit(self, move: Move) -> None:
        # Marked before it is sent: the node applies it at once and tells the screen
        # (whose summary must already know the move was typed here) before returning.
        index = len(self.game.moves)
        self.facts.typed.add(index)
        try:
            self.node.send_move(move)
        except IllegalMove:
            self.facts.typed.discard(index)
            raise
        except ValueError as exc:  # not sent: the net's reason, in the player's language
            self.facts.typed.discard(index)
            if str(exc) == WAKING:  # (not a rule: "T0: asking the table…" read oddly)
                raise NotYet(net_reason(exc)) from None
            raise IllegalMove("T0", net_reason(exc)) from None

    def commands(self):
        def say(text: str):
            from tongiaki_lan.net.protocol.codec import GUEST_CHAT

            if not text.strip():
                return _("say: what?")
            lb = self.node.lobby
            if self.watching and lb is not None and not lb.guests & GUEST_CHAT:
                return net_reason("watchers do not chat at this table")  # (not sent: the
                # table would only say so)
            self.node.chat(text.strip())
            return None

        def replace(who: str):
            if not who.strip():
                return _("replace: whose seat? (a player's name or colour)")
            at = len(self.lines)
            try:
                self.node.replace(who.strip())
            except ValueError as exc:
                return _("replace: {reason}").format(reason=net_reason(exc))
            # (before what the table answered: on the coordinator that is already here).
            # The seat's player by the name the table knows, not as typed ("finn")
            want = who.strip().casefold()
            named = next((t.name for t in self.node.lobby.seats
                          if want in (t.name.casefold(), t.colour.casefold())), who.strip())
            self.lines.insert(min(at, len(self.lines)), ("info", _(
                "Asked the table to give {name}'s seat to a bot.").format(name=named)))
            drawer = self.facts.last_drawer()
            if drawer is not None and drawer != self.node.peer_id and (
                    drawer not in self.node.present()):
                # (a playtest: the seat went to a bot, and the table still stood still)
                self.lines.append(("info", _(
                    "The tiles still wait for {name}'s laptop: it is the only one left that "
                    "draws them.").format(name=peer_label(self.node, {"peer": drawer.hex()}))))
            return None

        def resume(_rest: str):
            try:
                self.node.reclaim()
            except ValueError as exc:
                return _("resume: {reason}").format(reason=net_reason(exc))
            self.lines.append(("info", _("Asked the table for your seat back: you play it "
                                         "again from the next decision.")))
            return None

        def guests(word: str):
            try:
                self.say(set_guests(self.node, word))
            except ValueError as exc:
                return net_reason(exc)
            return None

        if self.watching:  # no seat: chat, a player's view, an open seat
            return {"say": (N_("say TEXT — chat with the table (if it lets watchers chat)"), say),
                    "follow": (N_("follow NAME — the game from that player's side (follow "
                                  "alone: nobody)"), self.follow),
                    "take": (N_("take [COLOUR] — play a seat a bot plays for a player who "
                                "left"), self.take)}
        return {"say": (N_("say TEXT — chat with the table"), say),
                "replace": (N_("replace NAME — a bot plays an absent player's seat until they "
                               "are back"), replace),
                "resume": (N_("resume — play your seat again, after a bot played it while "
                              "you did not"), resume),
                "guests": (N_("guests open|watch|quiet|closed — the host says who may watch, "
                              "chat, sit in"), guests)}

    async def close(self) -> None:
        await super().close()
        self.left_alone = self.alone_at_table()  # (nobody plays on: no seat waits)
        with contextlib.suppress(Exception):
            await self.node.leave(for_good=self.leave_for_good)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()

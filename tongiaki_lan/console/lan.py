"""The game screen driven by a LAN node: others' moves appear as they happen.

The node owns the engine and the record; this session only reads the node's game,
turns node events into story lines, and hands typed moves to `Node.send_move`,
which checks them with the engine before anything is sent.
"""

from __future__ import annotations

import contextlib
import math
import time

from tongiaki_lan.draws import MAX_LATE_CHAINS
from tongiaki_lan.engine import COLOURS, LETTERS, IllegalMove, Move
from tongiaki_lan.engine.tiles import ISLAND_IDS, SEA_IDS
from tongiaki_lan.i18n import N_, _
from tongiaki_lan.net.aio.pump import clock as pump_clock
from tongiaki_lan.net.protocol.handover import handed
from tongiaki_lan.net.protocol.latechains import CHAIN_LEAD
from tongiaki_lan.net.protocol.movesync import WAKING
from tongiaki_lan.net.protocol.settings import HANDOVER_BOT

from .departures import MoveSpans
from .session import STRUCK, GameSession, NotYet, Seat, _shared, kind_label, seat_label
from .wakestory import WakeStory
from .words import net_reason

# a restart heard this soon after the laptop was told back is no news: a laptop that
# woke and took moves back starts its links afresh (`Links.rebirth`), as a restart does
REJOIN_QUIET_S = 30.0


def _now() -> float:
    return time.monotonic()  # (the event loop's clock, also where no loop runs)


# a watcher gone and back within this watched all along: the lobby's look at a running
# table and the `watch` after it are one watch to the players
WATCH_LOOK_S = 10.0


# the host's word for who else may come to the table (net.protocol.watching.GUESTS_BY_WORD)
GUEST_WORDS = {
    "open": N_("open: anyone may watch and chat, and take a seat a bot plays"),
    "watch": N_("watch: anyone may watch and chat, nobody takes a seat"),
    "quiet": N_("quiet: anyone may watch, watchers do not chat"),
    "closed": N_("closed: nobody watches, nobody takes a seat"),
}
# colour names as shown (typed commands take the English names or the letters)
COLOUR_NAMES = {
    "blue": N_("blue"), "red": N_("red"), "green": N_("green"),
    "yellow": N_("yellow"), "orange": N_("orange"), "purple": N_("purple"),
}


def colour_name(colour: str) -> str:
    return _(COLOUR_NAMES.get(colour, colour))


def guests_word(bits: int) -> str:
    """The word for a table's guests setting (`open`, `watch`, …), or its bits."""
    from tongiaki_lan.net.protocol.watching import GUESTS_BY_WORD

    return next((w for w, b in GUESTS_BY_WORD.items() if b == bits), str(bits))


def set_guests(node, word: str) -> str:
    """`guests WORD`: the host's say on who else may come; returns what it now means.
    Raises ValueError with the reason (not the host, an unknown word)."""
    from tongiaki_lan.net.protocol.watching import GUESTS_BY_WORD

    word = word.strip().lower()
    lb = node.lobby
    if lb is None:
        raise ValueError(_("you are not at a table: create or join a game first"))
    if not word:
        return _("guests: {meaning}").format(meaning=_(GUEST_WORDS.get(guests_word(lb.guests),
                                                                        guests_word(lb.guests))))
    if word not in GUESTS_BY_WORD:
        raise ValueError(_("guests: one of open, watch, quiet, closed"))
    if node.coordinator() != node.peer_id:
        who = next((x.name for x in lb.seats if x.owner == node.coordinator()
                    and x.kind == "human"), _("the table's creator"))
        raise ValueError(_("guests: {who} hosts this table and says who may come").format(
            who=who))
    node.set_guests(GUESTS_BY_WORD[word])
    return _("guests: {meaning}").format(meaning=_(GUEST_WORDS[word]))


def find_colour(word: str) -> str | None:
    """A colour typed by its English name, its name in the player's language or its
    letter (`blue`, `blu`, `B`); None when it names none."""
    w = word.strip().lower()
    for i, c in enumerate(COLOURS):
        if w in (c, colour_name(c).lower(), LETTERS[i].lower()):
            return c
    return None


def open_seats(node) -> list[int]:
    """Seats a newcomer may take now (a bot plays them: its player left for good, or the
    table added it), as the node knows the table."""
    try:
        return list(node.lobby_json().get("open_seats") or ())
    except Exception:  # noqa: BLE001 - a node without the guests part: none
        return []


def is_watching(node) -> bool:
    core = getattr(node, "core", None)
    return bool(getattr(core, "watching", False))


def table_moves(node) -> int:
    """How many moves the table has played, as far as this node knows (the net layer's
    `table_moves`: a watcher, or a newcomer just seated, may still be catching up)."""
    return node.core.table_moves()


def caught_up(node) -> bool:
    """Whether this node's game has every move a member said it has (and, watching,
    whether its feeder said how far the table is at all)."""
    check = getattr(getattr(node, "core", None), "caught_up_with_table", None)
    return True if check is None else check()  # (a stand-in node without a core: yes)


def seats_of(node, gone: set[str] | frozenset[str] = frozenset()) -> list[Seat]:
    """The seats as the screen shows them. `gone`: peers (hex) that left for good: a bot
    plays their seats from now on, so they are not shown as away (greyed, "Away: Cat")
    as if the table still waited for them."""
    lb = node.lobby
    present = node.present()
    try:  # (what the node knows of goodbyes, also those said before this screen began)
        left = [bool(s.get("left")) for s in node.lobby_json()["seats"]]
    except Exception:  # noqa: BLE001 - a node without it: the goodbyes this screen heard
        left = []
    if is_watching(node):  # it hears only its feeder: away is who the feeder says is
        away = getattr(node.core, "table_away", set)()  # (a node without it: nobody)
        present = {s.owner for i, s in enumerate(lb.seats)
                   if not (i < len(left) and left[i]) and s.owner not in away}
    out = []
    for i, s in enumerate(lb.seats):
        mine = s.owner == node.peer_id
        if s.kind == "bot":
            kind = s.bot or "bot"
        else:
            kind = "human" if mine else "remote"
        laptop_bot = False
        if s.kind == "human" and s.bot:  # handed to a bot while its player is away
            kind = s.bot
        elif s.kind == "human" and s.plays and not mine:  # a laptop that runs a bot
            kind = s.plays
            laptop_bot = True
        out.append(Seat(s.name, s.colour, kind, local=mine and s.kind != "bot" and not s.bot,
                        away=(s.owner not in present and s.owner.hex() not in gone
                              and not (i < len(left) and left[i])), laptop_bot=laptop_bot))
    return out


def peer_label(node, data: dict) -> str:
    """The name to show for the peer of a node event (chat, away, back, rejoined): the
    player's name alone, with the short peer id only when two players share that name.

    The net layer names peers `Bob (aca600ea)` for its own logs; a player needs the id
    only to tell two Bobs apart."""
    peer = data.get("peer") or ""
    lb = getattr(node, "lobby", None)
    if lb is not None and peer:
        humans = [s for s in lb.seats if s.kind == "human"]
        mine = next((s for s in humans if s.owner.hex() == peer), None)
        if mine is not None:
            if sum(1 for s in humans if s.name == mine.name) > 1:
                return f"{mine.name} ({peer[:8]})"
            return mine.name
    name = str(data.get("name") or "")
    if peer and name.endswith(f" ({peer[:8]})"):
        return name[:-len(peer[:8]) - 3]
    return name or _("a peer")


class LanSession(GameSession):
    title = N_("LAN")
    from_lobby = True  # a LAN game always starts from the lobby
    seat_lost = False  # back after a goodbye for good, the seat was a newcomer's
    watch_cut = False  # watching, and no member of the table answers (`lobby` leaves)
    _answer_due = False  # back from a sleep: say so once the game has caught up

    def __init__(self, node, discovery=None, carried: list | None = None,
                 take: str | None = None):
        self.node = node
        self.discovery = discovery
        # guests (a watcher: no seat): the seats of the player followed (`follow NAME`),
        # the seat `join N [COLOUR]` asked for ("": any one open seat), the open seats
        # already told, who watches (peer hex -> name) as last told
        self.followed: tuple[int, ...] = ()
        self.want_seat = take
        self._open_told: set[int] = set()
        self._watchers: dict[str, str] = {}
        self._taking = False
        self._newcomer = False  # took a seat at this table from its screen
        self._reclaimed: tuple[int, str] = (-1, "")  # the last "is back" line: where, who
        self._spans = MoveSpans()  # which departures a move chose (`settled_departure`)
        super().__init__(node.game, seats_of(node))
        self.carried = list(carried or [])  # the lobby's chat, shown first
        self.title = f"{_('LAN')} {node.lobby.name}"[:20]
        # a fair draw waiting for someone's value: (draw, who, when they are left out, on
        # the monotonic clock). The node says it once; the screen counts down from it.
        self.draw_wait: tuple[int, str, float] | None = None
        self._draw_never = False  # the tile waits for the last who draw: no countdown
        self._typed: set[int] = set()  # indices of the moves played at this keyboard
        self._wake = WakeStory()  # since the last sleep: what is told, and in which order
        self._bot_moves: set[int] = set()  # moves a bot made for another, away player
        self._handed_kind: dict[int, str] = {}  # seat -> the bot kind that last played it
        self._struck_unsaid = 0  # story lines struck since the last take-back's line
        self._unwatched: dict[str, float] = {}  # watchers gone (name -> since), not yet said
        self._left: set[str] = set()  # peers that said they left: their echoes are quiet
        # peer -> index in `lines` of its "left the table" line, which the goodbye that
        # follows (for good / back soon) replaces rather than contradicts
        self._left_line: dict[str, int] = {}
        self._back_line: dict[str, int] = {}  # peer -> its "is back." line, for `reclaimed`
        # peer -> when it was told back (or rejoined), not away since
        self._back_told: dict[str, float] = {}
        self._last_drawer_said = False  # "Only Ana's laptop still draws the tiles" told
        self._nobody_said = False  # "This laptop hears nobody" said since the last "back"
        # peers that left for good (until they start again): a bot plays their seats, so
        # the table's routine lines about them (waiting, handover, left out of the draws)
        # would only contradict "left for good" — that one line says it all
        self._gone: set[str] = set()
        # how we leave at `quit` mid-game: for good (a bot takes the seat at once and the
        # table stops waiting for us) unless the player typed `quit soon`
        self.leave_for_good = True
        self._watchers = self._watchers_now()
        # everyone who watched this table (peer hex) and where they spoke from: a watcher
        # that has gone is off the list before its last datagrams (its goodbye) come in,
        # and those are refused, which read "refused from 10.77.5.13:41905: link-MACed
        # datagram from a sender without a link key" three times in the players' logs
        self._guests_seen: set[str] = set()
        self._guest_addrs: set[str] = set()
        self._remember_guests()
        # the table's guests setting as last told: the host's `guests quiet` was said
        # only on the host's screen, and a watcher learnt it from a refused `say`
        self._guests = getattr(node.lobby, "guests", None)
        node.add_listener(self._on_node_event)

    # ---------------------------------------------------------------- guests

    @property
    def watching(self) -> bool:
        """This laptop follows the table without a seat (until it takes one)."""
        return is_watching(self.node)

    @property
    def game_name(self) -> str:
        return self.node.lobby.name if self.node.lobby is not None else ""

    def viewer_seats(self) -> set[int]:
        """The seats the screen looks from: ours, or while watching the followed
        player's (`follow NAME`)."""
        return set(self.followed) if self.watching else self.local_seats()

    def followed_name(self) -> str | None:
        if not self.watching or not self.followed:
            return None
        return self.names[self.followed[0]]

    def _watchers_now(self) -> dict[str, str]:
        """Who watches the table (peer hex -> name), ourselves left out."""
        try:
            listed = self.node.lobby_json().get("watchers") or ()
        except Exception:  # noqa: BLE001 - a node without the guests part
            listed = ()
        me = self.node.peer_id.hex()
        return {w["peer"]: w["name"] for w in listed if w.get("peer") != me}

    #: the panel counts the tiles drawn: this table's lines name tiles by number
    numbers_tiles = True

    def watcher_names(self) -> list[str]:
        """The names of those watching, for the panel's `Watching:` line (each once)."""
        return sorted(set(self._watchers.values()), key=str.casefold)

    def _takes_newcomers(self) -> bool:
        """Whether the table's host lets a newcomer take a seat (`guests open`)."""
        from tongiaki_lan.net.protocol.codec import GUEST_SEATS

        lb = self.node.lobby
        return lb is None or bool(getattr(lb, "guests", GUEST_SEATS) & GUEST_SEATS)

    def _no_guest_seats(self) -> str:
        from tongiaki_lan.net.protocol.lobby import NO_GUEST_SEATS

        return _(NO_GUEST_SEATS).format(name=repr(self.game_name))

    def open_seat_list(self) -> list[int]:
        """Seats a newcomer may take now, if the table lets newcomers take seats."""
        from tongiaki_lan.net.protocol.codec import GUEST_SEATS

        lb = self.node.lobby
        if lb is None or not lb.guests & GUEST_SEATS or self.game.is_over:
            return []
        return open_seats(self.node)

    def open_seats_text(self) -> str | None:
        """For the status line of someone watching: the seats they may take. Said once in
        the log, that line was soon buried under the story of the moves caught up (85 lines
        in a playtest), and the screen showed only whose turn it was."""
        if not self.watching or self.node.lobby is None or not caught_up(self.node):
            return None
        opens = self.open_seat_list()
        if not opens:
            return None
        return self._colours_of([g[0] for g in self._player_groups(opens)])

    def _colours_of(self, seats) -> str:
        lb = self.node.lobby
        return ", ".join(colour_name(lb.seats[i].colour) for i in seats)

    def _player_groups(self, seats: list[int]) -> list[list[int]]:
        """`seats` by player: one seat each, or a player's two colours together (V1)."""
        lb = self.node.lobby
        groups: list[list[int]] = []
        for i in seats:
            s = lb.seats[i]
            for g in groups:
                t = lb.seats[g[0]]
                if (t.owner, t.name, t.kind) == (s.owner, s.name, s.kind) and s.kind != "bot":
                    g.append(i)
                    break
            else:
                groups.append([i])
        return groups

    def _guest_events(self, k: str, d: dict) -> None:
        """Lines for guests at the table: who watches, a seat taken, a watcher's chat."""
        if k == "watchers":  # told by name, as people know each other: a second laptop
            # of the same Dan (or the lobby's look at the table) is no news
            now = self._watchers_now()
            before, after = set(self._watchers.values()), set(now.values())
            for name in sorted(after - before, key=str.casefold):
                if self._unwatched.pop(name, None) is None:  # (else: back after a look)
                    self.lines.append(("info", _("{name} is watching.").format(name=name)))
            for name in sorted(before - after, key=str.casefold):
                self._unwatched[name] = _now()  # said once they stay away (`_flush_unwatched`)
            self._watchers = now
            self._remember_guests()
        elif k == "seat_taken":
            at, name = self._reclaimed
            if name == d["name"] and at < len(self.lines) and name in self.lines[at][1]:
                del self.lines[at]  # (not "back": new at this seat)
            colours = self._colours_of(d["seats"])
            if d.get("mine"):
                self.followed, self.want_seat, self._taking = (), None, False
                self._newcomer = True
                self._snap = None  # (the summary starts with our first decision)
                self.lines.append(("good", _("You take {was}'s seat ({colours}): its decisions "
                                             "are yours from now on.").format(
                    was=d["was"], colours=colours)))
            else:
                self._watchers.pop(d.get("peer") or "", None)  # (a player now)
                lb = self.node.lobby
                plays = lb.seats[d["seats"][0]].plays if lb is not None and d["seats"] else ""
                # (a laptop that plays with a bot, `play --headless --bot`: labelled so)
                name = seat_label(Seat(d["name"], "", plays or "remote"))
                self.lines.append(("info", _("{name} takes {was}'s seat ({colours}).").format(
                    name=name, was=d["was"], colours=colours)))
        elif k == "guest_refused":
            self._taking = False
            if self._seat_given_news(d.get("reason") or ""):
                return
            self.lines.append(("bad", net_reason(d.get("reason"))))

    def _seat_given_news(self, reason: str) -> bool:
        """Back after a goodbye for good, and a newcomer plays the seat: this game is
        theirs now, and this screen no longer follows it. Said once, with the way out,
        whichever laptop says it (every member repeats it every 5 s, and one this laptop
        did not know as a member came as a plain refusal: the screen showed the line again
        and again and still waited for its own player — a LAN-party playtest)."""
        from tongiaki_lan.net.protocol.lobby import is_seat_given

        if self.watching or not is_seat_given(reason):
            return False
        if not self.seat_lost:
            self.seat_lost = True
            self.lines.append(("bad", net_reason(reason)))
            self.lines.append(("info", _("Type lobby to go back to the list of games, "
                                         "where watch N follows this one.")))
        return True

    def _open_seat_news(self) -> None:
        """While watching: say once when a seat opens (`take COLOUR` plays it), and take
        the seat `join N [COLOUR]` asked for as soon as the table says it is open."""
        if not self.watching or self.node.lobby is None or not caught_up(self.node):
            return  # (told, and taken, only once this laptop has the game as it is now:
            # a seat taken while catching up would show decisions long played)
        opens = self.open_seat_list()
        if self.want_seat is not None and not self._taking:
            lb, want = self.node.lobby, self.want_seat
            groups = self._player_groups(opens)
            if want:
                pick = [i for i in opens if lb.seats[i].colour == want]
            else:
                pick = groups[0] if len(groups) == 1 else []
            self.want_seat = None
            self._open_told.update(opens)
            if pick:
                self.spawn(self._take(pick[0]))
                return
            if not opens and not self._takes_newcomers():  # (the host's `guests`)
                self.lines.append(("bad", _("{reason}: you are watching it.").format(
                    reason=self._no_guest_seats())))
            elif not opens:  # caught up, and no seat is open: watching it is
                self.lines.append(("bad", _("No seat is open at {game} any more: you are "
                                            "watching it.").format(game=self.game_name)))
            else:  # several, or not the one asked for: the player says which
                self.lines.append(("info", _("Open seats: {colours} — take COLOUR plays "
                                             "one.").format(colours=self._colours_of(
                    [g[0] for g in groups]))))
        for group in self._player_groups([i for i in opens if i not in self._open_told]):
            self._open_told.update(group)
            colour = self.node.lobby.seats[group[0]].colour
            # (`take verde`, as the panel names it: `take green` read as English in an
            # Italian log, and Tab after `take ` offers the shown name too)
            self.lines.append(("info", _("The {colour} seat is open: take {word} plays "
                                         "it.").format(colour=colour_name(colour),
                                                       word=colour_name(colour).lower())))
        self._open_told &= set(opens)  # (a seat taken and open again is told again)

    async def _take(self, seat: int) -> str | None:
        """Ask the table for `seat`; None once it is ours, else the reason."""
        from tongiaki_lan.net.protocol.invite import JoinRefused

        self._taking = True
        colours = self._colours_of([seat])
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
        if not opens and not self._takes_newcomers():
            # (bots may play seats all the same: "one opens when a player leaves" misled)
            return _("take: {reason}").format(reason=self._no_guest_seats())
        if not opens:
            return _("take: no seat is open (one opens when a player leaves for good)")
        groups = self._player_groups(opens)
        if not word.strip():
            if len(groups) > 1:
                return _("take: which seat? open: {colours}").format(
                    colours=self._colours_of([g[0] for g in groups]))
            seat = groups[0][0]
        else:
            colour = find_colour(word)
            seat = next((i for i in opens if self.node.lobby.seats[i].colour == colour), None)
            if seat is None:
                # (a colour by its shown name, whichever way it was typed: `take green`
                # in Italian is answered "verde non è libero; liberi: rosso")
                return _("take: {colour} is not open; open: {colours}").format(
                    colour=colour_name(colour) if colour else word.strip()[:12],
                    colours=self._colours_of([g[0] for g in groups]))
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

    async def start(self) -> None:
        n = len(self.game.moves)
        if self.carried:
            self.lines.append(("info", _("From the lobby:")))
            self.lines.extend(self.carried)
        if self.watching:
            self.lines.append(("info", _("You are watching {game}: no seat, no moves. say TEXT "
                                         "chats, follow NAME shows a player's side, help lists "
                                         "the rest.").format(game=self.node.lobby.name)))
        else:
            self.lines.append(("info", _("Game {game} started; record: {path}").format(
                game=self.node.lobby.name, path=self.node.record_path)))
        if n and not self.watching:  # (a watcher simply came in after them)
            self.lines.append(("info", _("Resumed after {n} moves.").format(n=n)))
        self._open_seat_news()  # (a seat `join N` asked for, or open before this screen)
        await super().start()
        if n and not self.watching:
            self._left_out_news()

    def _flush_unwatched(self) -> None:
        """Say who stopped watching once they have been gone WATCH_LOOK_S: the lobby's
        look at a running table (`join N`), then `watch`, read at the table "Cy is
        watching. Cy stopped watching. Cy is watching." (a playtest)."""
        t = _now()
        for name, since in list(self._unwatched.items()):
            if t - since >= WATCH_LOOK_S:
                del self._unwatched[name]
                self.lines.append(("info", _("{name} stopped watching.").format(name=name)))

    def settled_departure(self, k: int) -> bool:
        return self._spans.settled(self.game, k)

    def follow_game(self, new) -> int:
        # (the moves after the shared ones are the table's, not ours)
        self._spans.forget_from(_shared(list(self.game.moves), list(new.moves)))
        return super().follow_game(new)

    def _on_node_event(self, ev) -> None:
        k, d = ev.kind, ev.data
        self._flush_unwatched()
        self._remember_guests()  # (while they watch: where they speak from)
        struck = 0
        if self.node.game is not None and self.node.game is not self.game:
            if self.game is None:
                self.game = self.node.game
            else:  # (taken back to where the table is: what it never counted is struck)
                struck = self.follow_game(self.node.game)
        # (said with the take-back's own line: the game changed already as the events of
        # the lobby that caused it came in, "left out of the draws" first)
        self._struck_unsaid += struck
        if k in ("move", "reveal"):  # (before its events are told)
            self._spans.note(d["index"], d.get("events_from", -1))
        if k in ("move", "game_over", "reveal", "draw_dropped", "rewound", "mismatch"):
            self.draw_wait = None  # the tile came, its contributor was left out, or the
            # game moved on: nothing is waited for any more
        if k == "lobby" and self.node.lobby is not None:  # (the kind of bot each seat
            # had, for a header told after the seat was given back: `mark_bot_turn`)
            for i, seat in enumerate(self.node.lobby.seats):
                if handed(seat):
                    self._handed_kind[i] = seat.bot
        if k == "rewound":  # (moves taken back: their indices hold other moves now)
            self._wake.rewound(d["index"])
            self._spans.forget_from(d["index"])
        if k == "move" and d.get("seat") is not None:
            bot = d.get("by_bot")  # (judged by who sent it: the lobby may have given the
            # seat back before the bot's last moves reached us)
            if bot is None and self.node.lobby is not None:  # (from a log: a guess)
                seats = self.node.lobby.seats
                bot = 0 <= d["seat"] < len(seats) and handed(seats[d["seat"]])
            if bot:
                self._bot_moves.add(d["index"])  # (a bot for its away player)
                seats = self.node.lobby.seats if self.node.lobby is not None else ()
                seat = seats[d["seat"]] if 0 <= d["seat"] < len(seats) else None
                if seat is not None and not handed(seat):  # (the seat given back before
                    # the bot's moves came: the turn's header named the player alone)
                    self.mark_bot_turn(d["seat"], self._handed_kind.get(d["seat"],
                                                                        HANDOVER_BOT))
        if k in ("move", "game_over", "reveal"):
            self._drain_events()  # (a tile dealt once a late value came is told at once)
        elif k == "chat":
            who = peer_label(self.node, d)
            if d.get("watcher"):  # said by someone watching the table
                who = _("{name} (watching)").format(name=who)
            self.lines.append(("", f"<{who}> {d.get('text', '')}"))
        elif k in ("watchers", "seat_taken", "guest_refused"):
            self._guest_events(k, d)
        elif k in ("away", "back"):
            self._presence_line(k, d)
        elif k == "unheard" and d.get("unheard"):
            self.lines.append(("bad", _(
                "The others do not hear this laptop, though it hears them (a firewall, or "
                "the Wi-Fi): the table goes on without your moves, and what you play now "
                "is taken back once they hear you again.")))
        elif k == "unheard":
            self.lines.append(("info", _("The others hear this laptop again.")))
        elif k in ("waiting", "handover") and self._seat_gone(d.get("seat")):
            pass  # (said by "left for good": the table waits for nobody, a bot plays)
        elif k == "draw_dropped" and (d.get("peer") or "") in self._gone:
            pass  # (a goodbye for good leaves the draws too: nothing went wrong)
        elif k == "waiting":
            # (the wait is this laptop's: a minute, or `--handover S`; "a minute" was said
            # of a 30 s wait too)
            self.lines.append(("info", _("Waiting for {name} to come back… (replace {who} gives "
                                         "the seat to a bot once they have been away {limit} "
                                         "s)").format(
                name=d.get("name", "?"), who=d.get("name", "NAME"),
                limit=round(self.node.core.handover_limit()))))
        elif k == "handover" and self._is_mine(d.get("seat")):
            self._wake.handover_told = True
            # (on our own screen: "Ben's seat is played by a bot" read as about someone else)
            self.lines.append(("info", _("While you were away your seat was played by a bot "
                                         "({bot}, on {driver}'s laptop): it is yours again "
                                         "as soon as this laptop has caught up.").format(
                bot=kind_label(d["bot"]),
                driver=peer_label(self.node, {"peer": d["driver"], "name": d["driver_name"]}))))
        elif k == "handover":
            self.lines.append(("info", _("{name}'s seat is played by a bot ({bot}, on {driver}'s "
                                         "laptop) until they are back.").format(
                name=d["name"], bot=kind_label(d["bot"]),
                driver=peer_label(self.node, {"peer": d["driver"], "name": d["driver_name"]}))))
        elif k == "left" and d["for_good"]:
            self._gone.add(d.get("peer") or "")
            self._said_left(d, _("{name} left for good; a bot ({bot}) plays their seat from "
                                 "now on.").format(name=peer_label(self.node, d),
                                                   bot=kind_label(d["bot"])))
        elif k == "left":
            self._said_left(d, _("{name} left and will be back soon; their seat "
                                 "waits.").format(name=peer_label(self.node, d)))
        elif k == "woke":
            self._wake.woke(self.game)
            self.lines.append(("bad", _("This computer was asleep for {s} s: asking the table "
                                        "what happened…").format(s=round(d["slept"]))))
        elif k == "answered" and d["slept"]:
            # (nothing else may happen: the decision waiting may be ours, as before the
            # sleep, and the screen went on saying it was someone else's). Said once the
            # moves played meanwhile are here and told, below them: what happened while
            # away landed 28 lines up, above the story of the moves caught up.
            self._answer_due = True
        elif k == "watch_cut" and d["cut"]:
            # (a playtest's watcher, woken from a sleep, sat at move 7 while the table
            # played to its end, with no word that nothing came any more)
            self.watch_cut = True
            self.lines.append(("bad", _(
                "Nobody at the table answers this laptop: it is cut off (its Wi-Fi, or a "
                "long sleep), or the game ended meanwhile. It keeps asking; the game here "
                "goes up to move {n}.").format(n=d["moves"])))
            self.lines.append(("info", _("Type lobby to go back to the list of games, "
                                         "where watch N follows this one.")))
        elif k == "watch_cut":
            self.watch_cut = False
            self._answer_due = True  # (said once the moves missed are here and told)
        elif k == "table_gone":
            self._wake.answered = True  # (nothing more comes: nothing waits for it)
            self.lines.append(("bad", _("The table did not answer: it finished or broke up "
                                        "while this computer slept. Your record keeps the game "
                                        "up to move {n}.").format(n=d["moves"])))
        elif k == "bot_fallback":
            self.lines.append(("bad", _("The {bot} bot failed at move {n}; the {fallback} bot "
                                        "played it.").format(
                bot=kind_label(d["bot"]), n=d["index"] + 1, fallback=kind_label(d["fallback"]))))
        elif k == "reclaimed":
            # (a newcomer taking a seat a bot played is told so too: `seat_taken`, which
            # follows, takes this line back)
            lb = self.node.lobby
            if self._is_mine(d["seat"]):
                # (our own seat: "Dee is back" read as if about someone else; after a
                # sleep, below the moves missed meanwhile)
                self._drain_events()  # (the moves the game has first: `_answer_due`)
                self.lines.extend(self._wake.reclaimed(self._bot_moves_since_wake))
            else:
                text = _("{name} is back and plays their seat again.").format(name=d["name"])
                owner = lb.seats[d["seat"]].owner.hex() if lb is not None else ""
                self._back_told[owner] = _now()
                at = self._back_line.pop(owner, None)
                if at is not None and at == len(self.lines) - 1:
                    # (one line: "Ben is back." came just before, and both were shown)
                    self.lines[at] = ("info", text)
                    self._reclaimed = (at, d["name"])
                else:
                    self._reclaimed = (len(self.lines), d["name"])
                    self.lines.append(("info", text))
        elif k == "restarted":
            self._left.discard(d.get("peer") or "")  # (really back: told from now on)
            self._gone.discard(d.get("peer") or "")
            self._left_line.pop(d.get("peer") or "", None)
            told = self._back_told.get(d.get("peer") or "")
            if told is None or _now() - told >= REJOIN_QUIET_S:
                # (else told back a moment ago, which says it: a laptop that woke and took
                # moves back starts its links afresh, as a restart does, and playtest
                # screens read "Dee is back and plays their seat again." then "Dee
                # rejoined.")
                self._back_told[d.get("peer") or ""] = _now()
                self.lines.append(("info", _("{name} rejoined.").format(
                    name=peer_label(self.node, d))))
        elif k == "draw_waiting":
            names = ", ".join(peer_label(self.node, {"peer": p, "name": n})
                              for p, n in zip(d["peers"], d["names"], strict=False))
            if d["drop_in"] < 0:  # the last ones who draw: the tile waits for them
                self.lines.append(("info", _(
                    "The next tile waits for {names}: no other laptop draws the tiles any "
                    "more, so the game goes on when they are back.").format(names=names)))
            elif d["drop_in"] > 0:
                self.lines.append(("info", _(
                    "The next tile waits for {names}, whose laptop takes part in every draw; "
                    "in about {s} s the others draw it without them.").format(
                    names=names, s=d["drop_in"])))
            else:  # (their laptop was already away: not "after about 0 s more")
                self.lines.append(("info", _(
                    "The next tile waits for {names}, whose laptop takes part in every draw; "
                    "the others draw it without them any moment.").format(names=names)))
            self.draw_wait = (d["draw"], names, _now() + max(0, d["drop_in"]))
            self._draw_never = d["drop_in"] < 0
        elif k == "draw_dropped" and (d.get("peer") or "") in self._left:
            pass  # a player who said goodbye: their leaving was told, and that they no
            # longer draw goes with it
        elif k == "draw_dropped" and (d.get("peer") or "") == self.node.peer_id.hex():
            self._my_drop_line(d["draw"])
        elif k == "draw_dropped":
            if self._may_draw_again():
                text = _("{name} did not answer in time for tile {n}: the others draw the "
                         "tiles without their laptop until it is back.")
            else:
                text = _("{name} did not answer in time for tile {n}: the others draw the "
                         "tiles without their laptop from then on.")
            self.lines.append(("bad", text.format(name=peer_label(self.node, d),
                                                  n=d["draw"] + 1)))
        elif k == "draw_taken":
            self._last_drawer_said = False  # (more than one draws again: told anew if not)
            mine = (d.get("peer") or "") == self.node.peer_id.hex()
            if mine and d.get("again"):
                text = _("This laptop takes part in the draws again from tile {n}.")
            elif mine:
                text = _("This laptop takes part in the draws from tile {n}.")
            elif d.get("again"):
                text = _("{name}'s laptop takes part in the draws again from tile {n}.")
            else:
                text = _("{name}'s laptop takes part in the draws from tile {n}.")
            self.lines.append(("good", text.format(name=peer_label(self.node, d),
                                                   n=d["draw"] + 1)))
        elif k == "expelled":  # (issue 44: a broken or modified laptop at the table)
            self._expelled_line(d)
        elif k == "rewound" and d.get("expelled"):
            pass  # (the moves an expelled laptop signed, taken back: said by its line)
        elif k == "rewound":  # (the moves taken back are mostly the table's own, as this
            # laptop had them before its draw value was left out: none need be ours)
            self.lines.append(("bad", _(
                "This laptop was away (asleep, or cut off) and the table went on without it: "
                "this laptop now follows the game as the table played it.")))
            # (it named "move 80", a number the screen shows nowhere else: a playtest's
            # player who had played nothing meanwhile wondered what it meant)
            if self._struck_unsaid:
                self._struck_unsaid = 0
                self.lines.append(("bad", _("The lines marked {mark} above tell moves and tiles "
                                            "the table never counted; what it played follows."
                                            ).format(mark=STRUCK.strip())))
            self._drain_events()
        elif k == "warning":
            self.lines.append(("bad", d.get("text", "")))
        elif k == "mismatch":
            self.lines.append(("bad", _("Game stopped: {reason} (dump {dump})").format(
                reason=d.get("reason"), dump=d.get("dump"))))
        elif k == "request_refused" and self._seat_given_news(d.get("reason") or ""):
            pass  # (said once, with the way out: it came every 5 s from each laptop)
        elif k in ("error", "request_refused"):
            self.lines.append(("bad", net_reason(d.get("reason", d))))
        elif k == "refused" and d.get("what") is None and (
                self._member(d.get("peer")) or self._member_address(d.get("addr"))):
            pass  # a member's datagram the transport set aside (keys renewed after a cut, a
            # late copy): routine, and in the log file; the game pane keeps to the game
        elif k == "refused" and self._a_guests(d):
            pass  # a watcher's datagram that a member does not take (its goodbye, say):
            # routine, and in the log file
        elif k == "refused" and d.get("what") == "join" and not self._member(d.get("peer")):
            pass  # someone in the lobby tried to join this game after it started: told so
            # on their screen; at the table it read "refused from a4f5319da6d841fb: game
            # 'Cove' has already started" (the log file keeps it)
        elif k == "refused" and self._member(d.get("peer")) and not caught_up(self.node):
            pass  # a member's move refused while this laptop is behind (after a sleep: a
            # bot's move for our seat as the lobby gave it back): it comes again with the
            # table's log, and the log file keeps the refusal. Ben's Italian screen read
            # "rifiutato da 03d9f2b8fe3e07d2: it is Ben's (red) decision, not Ana's"
        elif k == "refused":
            who = (peer_label(self.node, d) if self._member(d.get("peer"))
                   else d.get("peer") or d.get("addr"))  # (a member by name, not by id)
            self.lines.append(("bad", _("refused from {peer}: {reason}").format(
                peer=who, reason=net_reason(d.get("reason")))))
        if k == "draw_dropped":  # (after the line that says who left the draws)
            self._last_drawer_news(d)
        if self._answer_due and caught_up(self.node):
            self._answer_due = False
            # (the game has the moves missed before their events come: a playtest's answer
            # stood above most of them, told after it)
            self._drain_events()
            self.lines.extend(self._wake.answer(self._answer_line(), self._seat_handed(),
                                                self._bot_moves_since_wake))
        if self.node.lobby is not None:
            self._guests_news()
            # (who drives each seat: the labels follow)
            before = self.names
            self.seats = seats_of(self.node, self._gone)
            self._narrator.names, self._narrator.labels = self.names, self.labels
            if self.names != before and self.game is not None:
                if not self.names_from:  # (the names of the moves before any change)
                    self.names_from.append((0, before))
                self.names_from.append((len(self.game.moves), self.names))
            if k != "away":  # (a goodbye's own line first, then the seat it opens)
                self._open_seat_news()
        self.changed()

    def _answer_line(self) -> tuple[str, str]:
        """The table answered a woken laptop and the moves missed are here: in a player's
        words (a woken player read the watcher's "this laptop follows the game again")."""
        p = self.game.pending if self.game is not None else None
        ours = p is not None and p.seat is not None and p.seat in self.local_seats()
        if ours and len(self.game.moves) == self._wake.woke_at:
            return ("good", _("The table answered: the game is where it was, and the decision "
                              "is yours."))
        if ours:
            return ("good", _("The table answered: this laptop has caught up, and the "
                              "decision is yours."))
        if self.watching:
            return ("good", _("The table answered: this laptop follows the game again."))
        return ("good", _("The table answered: this laptop has caught up, and you play on."))

    def _bot_moves_since_wake(self) -> int:
        """Our seats' moves since the wake not typed here (by the lobby's owners: while
        the laptop caught up, the screen played no seat)."""
        return self._wake.bot_moves(self.game, self._is_mine, self._typed.__contains__)

    def _seat_handed(self) -> bool:
        """A bot still plays one of our seats (the give-back is still to come)."""
        lb = self.node.lobby
        return lb is not None and any(handed(s) and s.owner == self.node.peer_id
                                      for s in lb.seats)

    def _guests_news(self) -> None:
        """Say at the table when its host changes who may watch, chat or sit in (the
        host's own `guests WORD` answers on the host's screen)."""
        guests = getattr(self.node.lobby, "guests", None)
        if guests is None or guests == self._guests:
            return
        first, self._guests = self._guests is None, guests
        if first or self.node.coordinator() == self.node.peer_id:
            return
        word, lb = guests_word(guests), self.node.lobby
        who = next((x.name for x in lb.seats if x.owner == self.node.coordinator()
                    and x.kind == "human"), _("the table's creator"))
        self.lines.append(("info", _("{who} changed the table's guests: {meaning}").format(
            who=who, meaning=_(GUEST_WORDS.get(word, word)))))

    def _presence_line(self, kind: str, d: dict) -> None:
        """A player who quit on purpose is one line, the goodbye's (`left`: for good, or
        back soon), not also "away" (and after the game: "Cat left the table."); the
        datagrams still on their way from that laptop would otherwise make it "back", then
        "away" again. They are told again once their node restarts."""
        peer = d.get("peer") or ""
        name = peer_label(self.node, d)
        if kind == "away" and d.get("left"):
            if peer not in self._left:
                self._left.add(peer)
                self._left_line[peer] = len(self.lines)
                self.lines.append(("info", _("{name} left the table; their seat waits for "
                                             "them.").format(name=name)))
            return
        if peer in self._left:
            return
        g = self.node.game
        if g is not None and g.is_over:
            # after the game a silent laptop has quit (a headless node ends with the game,
            # a player closes the window): nothing waits for it, "away" read as a worry
            if kind == "away":
                self._left.add(peer)
                self.lines.append(("info", _("{name} left the table.").format(name=name)))
            return
        if kind == "back" and peer in self._back_told:
            return  # ("Ben rejoined." said it: its node restarted, and is heard again)
        if kind == "back":
            self._back_told[peer] = _now()
        else:
            self._back_told.pop(peer, None)
        text = _("{name} is away.") if kind == "away" else _("{name} is back.")
        if kind == "back":  # (the seat given back next says it again: one line, `reclaimed`)
            self._back_line[peer] = len(self.lines)
        self.lines.append(("info", text.format(name=name)))
        if kind == "back":
            self._nobody_said = False
        elif not self._nobody_said and self.node.hears_nobody():
            # (each "away" alone reads as the others' trouble; when it is everyone's, it
            # is most likely ours, and the player can do something about it)
            self._nobody_said = True
            self.lines.append(("bad", _("This laptop hears nobody at the table: it may be "
                                        "cut off (its Wi-Fi, a firewall). The game goes on "
                                        "here once it hears the others again.")))

    def _said_left(self, d: dict, text: str) -> None:
        """A goodbye (for good, or back soon): it replaces the "left the table" line the
        node's "away" gave a moment before, so the log says once, and rightly, what
        happens to the seat."""
        at = self._left_line.pop(d.get("peer") or "", None)
        if at is not None and at < len(self.lines) and self.lines[at][0] == "info":
            self.lines[at] = ("info", text)
        else:
            self.lines.append(("info", text))

    def _my_drop_line(self, draw: int) -> None:
        if self._may_draw_again():
            text = _("While this laptop was away the table drew tile {n} without it: the "
                     "others draw the tiles until it takes part again, a few tiles on "
                     "(your moves count as before).")
        else:  # (too near the end, or the table took all the fresh chains it may)
            text = _("While this laptop was away the table drew tile {n} without it: from "
                     "then on the others draw the tiles (your moves count as before).")
        self.lines.append(("info", text.format(n=draw + 1)))

    def _left_out_news(self) -> None:
        """Resumed while the table draws without this laptop: say so below the story told
        again. The node does not tell a drop its resume data holds already, and a
        playtest's laptop, restarted after a crash while left out, read only that it
        "takes part in the draws again", as if out of nowhere."""
        lb, core = self.node.lobby, getattr(self.node, "core", None)
        contributors = list(getattr(core, "contributors", None) or ())
        if lb is None or self.node.peer_id not in contributors:
            return
        last = max(i for i, p in enumerate(contributors) if p == self.node.peer_id)
        draw = next((d for i, d in lb.dropped if i == last), None)
        if draw is not None:
            self._my_drop_line(draw)

    def _may_draw_again(self) -> bool:
        """Can a laptop left out of the draws still take part again (net/protocol/
        latechains.py): room for a fresh chain in the lobby, and tiles left for it? A
        playtest's laptop dropped at tile 30 of 31 was promised it would."""
        lb = self.node.lobby
        if self.game is None or (lb is not None and len(lb.chains) >= MAX_LATE_CHAINS):
            return False
        # (the game ends when either kind of tile runs out, E1: a few of each must be left
        # past the lead a chain needs, for the tiles a waking laptop lets go by — 3 to 13
        # in the simulated sweeps)
        islands, seas = self.game.revealed_counts()
        return min(len(ISLAND_IDS) - islands, len(SEA_IDS) - seas) > CHAIN_LEAD + 1

    def _last_drawer_news(self, d: dict) -> None:
        """Once a single laptop is left drawing the tiles, say so, once: the draws stay
        fair (its values were fixed by the chain it committed to at the start), but the
        game now stops whenever that laptop sleeps, and nobody knew why it might (a
        LAN-party playtest: a lid closed on the one laptop that still drew)."""
        if self._last_drawer_said:
            return
        drawer = self._last_drawer(d.get("contributor"))
        if drawer is None:
            return
        self._last_drawer_said = True
        if drawer == self.node.peer_id:
            text = _("Only this laptop still draws the tiles: it alone could know the tiles "
                     "to come, and if it sleeps or goes, the game waits for it to come back.")
        else:
            text = _("Only {name}'s laptop still draws the tiles: it alone could know the "
                     "tiles to come, and if it sleeps or goes, the game waits for it to come "
                     "back.").format(
                name=peer_label(self.node, {"peer": drawer.hex()}))
        self.lines.append(("info", text))

    def _last_drawer(self, leaving: int | None = None) -> bytes | None:
        """The one laptop still drawing the tiles (of two or more that began), or None;
        `leaving`: a contributor just left out, whose lobby may not be here yet."""
        contributors = getattr(getattr(self.node, "core", None), "contributors", None)
        lb = self.node.lobby
        if lb is None or not contributors or len(contributors) < 2:
            return None
        out = {i for i, _ in lb.dropped} | {leaving}
        left = [p for i, p in enumerate(contributors) if i not in out]
        return left[0] if len(left) == 1 else None

    def _is_mine(self, seat) -> bool:
        lb = self.node.lobby
        return (lb is not None and isinstance(seat, int) and 0 <= seat < len(lb.seats)
                and lb.seats[seat].owner == self.node.peer_id)

    def _expelled_line(self, d: dict) -> None:
        """A member expelled on a proof (protocol/security.md, "Expelled"), or this laptop:
        said once, with what its laptop sent; its seat's handover and its drop from the
        draws are part of it, so they are not said again (`_gone`)."""
        what = {"two-moves": _("two different moves for one move of the game"),
                "refused-move": _("a move the rules refuse"),
                "two-lobbies": _("two different tables under one number"),
                }.get(d.get("proof_kind") or "", d.get("detail") or "")
        if d.get("you"):
            self.lines.append(("bad", _(
                "This laptop was expelled from the table: the others hold proof, signed with "
                "its key, that it sent {what} (a broken or modified copy of the program?). "
                "Type lobby, then watch N to follow the game.").format(what=what)))
        elif not d.get("earlier") and (d.get("peer") or "") not in self._gone:
            self._gone.add(d.get("peer") or "")
            self.lines.append(("bad", _(
                "{name}'s laptop is expelled from the table: it sent {what}, signed with its "
                "key (a broken or modified copy of the program?). A bot ({bot}) plays that "
                "seat from now on, and the others draw the tiles without that laptop."
            ).format(name=peer_label(self.node, d), what=what, bot=kind_label(d["bot"]))))
        if self._struck_unsaid:  # (what this laptop had of the moves taken back)
            self._struck_unsaid = 0
            self.lines.append(("bad", _("The lines marked {mark} above tell moves and tiles "
                                        "the table never counted; what it played follows."
                                        ).format(mark=STRUCK.strip())))

    def _seat_gone(self, seat) -> bool:
        """Whether seat index `seat` belongs to a player who left for good."""
        lb = self.node.lobby
        if not self._gone or lb is None or not isinstance(seat, int) or not (
                0 <= seat < len(lb.seats)):
            return False
        return lb.seats[seat].owner.hex() in self._gone

    def leave_note(self) -> str:
        """What the leaving question says of a LAN seat: `quit` is for good (a bot takes
        the seat at once, the table waits for nobody), `quit soon` keeps the seat waiting,
        and how to come back to it."""
        return _("you go for good and a bot takes your seat at once; back soon instead? Type "
                 "'quit soon': your seat waits — run tongiaki-lan again and join the game "
                 "marked 'yours'")  # ("leave; for good: …" read as two choices)

    def countdown_left(self) -> float | None:
        """Seconds until the contributor(s) a draw waits for are left out; None when no
        draw waits (or the game is no longer at that draw)."""
        if self.draw_wait is None:
            return None
        g = self.game
        if g is None or g.is_over or not g.awaiting_reveal or g.draws() != self.draw_wait[0]:
            self.draw_wait = None
            return None
        return max(0.0, self.draw_wait[2] - _now())

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
        if self.watching and self.watch_cut:  # (the game shown stopped where it was cut)
            return _("Nobody at the table answers  (lobby: the list of games · quit "
                     "leaves)")
        if self.watching:  # (back from a sleep, the feed asked for again: not yet here)
            asking = getattr(core, "rewatching", lambda: None)()
            return (_("Asking the table what happened while this laptop was away…")
                    if asking else None)
        if not core.waking():
            return None
        return _("Asking the table what happened while this laptop was away…")

    def countdown_text(self) -> str | None:
        """The status line while a draw waits: whose value, and the seconds left."""
        left = self.countdown_left()
        if left is None:
            return None
        names = self.draw_wait[1]
        if self._draw_never:
            return _("Next tile waits for {names}: the game goes on when they are back").format(
                names=names)
        if left <= 0:
            return _("Next tile waits for {names}: the others draw it without them any "
                     "moment").format(names=names)
        return _("Next tile waits for {names}: the others draw it without them in {s} "
                 "s").format(names=names, s=math.ceil(left))

    def _remember_guests(self) -> None:
        watching = set(self._watchers)
        if not watching:
            return
        self._guests_seen |= watching
        transport = getattr(self.node, "transport", None)
        links = getattr(transport, "links", None) or {}
        self._guest_addrs |= {f"{lk.addr[0]}:{lk.addr[1]}" for peer, lk in links.items()
                              if isinstance(peer, bytes) and peer.hex() in watching}

    def _a_guests(self, d: dict) -> bool:
        """Whether a refused datagram came from someone who watches or watched the table."""
        return ((d.get("peer") or "") in self._guests_seen
                or (d.get("addr") or "") in self._guest_addrs)

    def _member_address(self, addr: str | None) -> bool:
        """Whether `addr` ("host:port") is where a member of our game speaks from: after
        a cut its datagrams come with keys this node no longer holds, so they are refused
        before the sender is known."""
        lb = self.node.lobby
        if not addr or lb is None:
            return False
        members = {m.peer for m in lb.members}
        known = {f"{m.host}:{m.port}" for m in lb.members}
        transport = getattr(self.node, "transport", None)  # (where the node lives)
        links = transport.links.items() if transport is not None else ()
        known |= {f"{lk.addr[0]}:{lk.addr[1]}" for peer, lk in links if peer in members}
        return addr in known

    def _member(self, peer: str | None) -> bool:
        lb = self.node.lobby
        return bool(peer) and lb is not None and any(m.peer.hex() == peer for m in lb.members)

    async def submit(self, move: Move) -> None:
        # Marked before it is sent: the node applies it at once and tells the screen
        # (whose summary must already know the move was typed here) before returning.
        index = len(self.game.moves)
        self._typed.add(index)
        try:
            self.node.send_move(move)
        except IllegalMove:
            self._typed.discard(index)
            raise
        except ValueError as exc:  # not sent: the net's reason, in the player's language
            self._typed.discard(index)
            if str(exc) == WAKING:  # (not a rule: "T0: asking the table…" read oddly)
                raise NotYet(net_reason(exc)) from None
            raise IllegalMove("T0", net_reason(exc)) from None

    def local_seats(self) -> set[int]:
        """Our seats — once our game is the table's: a newcomer's, or a laptop's back from
        a crash or a sleep, may still lack the last moves, and the decision it shows then
        is one a bot has played already."""
        if not caught_up(self.node) or self.seat_lost:
            return set()
        return super().local_seats()

    def away_seats(self) -> set[int]:
        """Seats whose player is away from the table now (`replace` may give them to a
        bot)."""
        lb = self.node.lobby
        if lb is None:
            return set()
        present = self.node.present()
        return {i for i, s in enumerate(lb.seats)
                if s.kind == "human" and s.owner != self.node.peer_id and s.owner not in present}

    def played_by_bot(self, seat: int, index: int) -> bool:
        return index in self._bot_moves

    def played_for_us(self, seat: int, index: int) -> bool:
        """Our seat's moves not typed here were a bot's, on whichever laptop drove the
        seat while we were away (or down). (A followed player's are their own.)"""
        return not self.watching and index not in self._typed

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
            drawer = self._last_drawer()
            if drawer is not None and drawer != self.node.peer_id and (
                    drawer not in self.node.present()):
                # (a playtest: the seat went to a bot, and the table still stood still)
                self.lines.append(("info", _(
                    "The tiles still wait for {name}'s laptop: it is the only one left that "
                    "draws them.").format(name=peer_label(self.node, {"peer": drawer.hex()}))))
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
                "guests": (N_("guests open|watch|quiet|closed — the host says who may watch, "
                              "chat, sit in"), guests)}

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(Exception):
            await self.node.leave(for_good=self.leave_for_good)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()

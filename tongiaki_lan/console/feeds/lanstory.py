"""What the network node's events say at a LAN table, as lines of the story.

The node reports what happens at the table (a player away and back, a goodbye, a draw
waiting for someone's value, a laptop asleep and woken, a newcomer at a seat, a refused
datagram); most of it is news to the players only once, in a few words, at the right
place among the lines of the game. `LanStory` decides what is news and how it is said;
the facts it reads (who left for good, who watches, a draw waiting) are `TableFacts`'s
(lanfacts.py), kept by the LAN feed (lan.py), which hands it each event.
"""

from __future__ import annotations

import time

from tongiaki_lan.i18n import _
from tongiaki_lan.net.protocol.handover import handed
from tongiaki_lan.net.protocol.settings import HANDOVER_BOT, IDLE_AFTER_S, IDLE_AGAIN_S

from ..networds import net_reason
from ..seats import Seat, colour_name, kind_label, seat_label
from ..state import TYPED, VIEW_ONLY
from ..wakestory import WakeStory
from .base import STRUCK
from .lanfacts import GUEST_WORDS, caught_up, guests_word, peer_label

# a restart heard this soon after the laptop was told back is no news: a laptop that
# woke and took moves back starts its links afresh (`Links.rebirth`), as a restart does
REJOIN_QUIET_S = 30.0
# a watcher gone and back within this watched all along: the lobby's look at a running
# table and the `watch` after it are one watch to the players
WATCH_LOOK_S = 10.0


def _now() -> float:
    return time.monotonic()  # (the event loop's clock, also where no loop runs)


class LanStory:
    """The lines a LAN table's node events add to the story of `session` (a `LanSession`:
    its lines, its game, its facts)."""

    def __init__(self, session):
        self.s = session
        self.facts = session.facts
        self._open_told: set[int] = set()  # open seats already told
        self._reclaimed: tuple[int, str] = (-1, "")  # the last "is back" line: where, who
        self._wake = WakeStory()  # since the last sleep: what is told, and in which order
        self._struck_unsaid = 0  # story lines struck since the last take-back's line
        self._unwatched: dict[str, float] = {}  # watchers gone (name -> since), not yet said
        self._left: set[str] = set()  # peers that said they left: their echoes are quiet
        self._expelled: set[str] = set()  # members whose expulsion was told (once each)
        # peer -> index in `lines` of its "left the table" line, which the goodbye that
        # follows (for good / back soon) replaces rather than contradicts
        self._left_line: dict[str, int] = {}
        self._back_line: dict[str, int] = {}  # peer -> its "is back." line, for `reclaimed`
        self._idle_seats: set[int] = set()  # our seats a bot plays since we did not play
        # peer -> when it was told back (or rejoined), not away since
        self._back_told: dict[str, float] = {}
        self.last_drawer_said = False  # "Only Ana's laptop still draws the tiles" told
        self._nobody_said = False  # "This laptop hears nobody" said since the last "back"
        self._seat_lost_said = False  # "Ben took your seat…" told
        self.answer_due = False  # back from a sleep: say so once the game has caught up
        # the table's guests setting as last told: the host's `guests quiet` was said
        # only on the host's screen, and a watcher learnt it from a refused `say`
        node = session.node
        self._guests = getattr(node.lobby, "guests", None)

    @property
    def lines(self) -> list:
        return self.s.lines

    @property
    def node(self):
        return self.s.node

    # ---------------------------------------------------------------- before and after

    def struck(self, n: int) -> None:
        """`n` lines were struck as the game shown followed the table's: said with the
        take-back's own line (the game changed already as the events of the lobby that
        caused it came in, "left out of the draws" first)."""
        self._struck_unsaid += n

    def flush_unwatched(self) -> None:
        """Say who stopped watching once they have been gone WATCH_LOOK_S: the lobby's
        look at a running table (`join N`), then `watch`, read at the table "Cy is
        watching. Cy stopped watching. Cy is watching." (a playtest)."""
        t = _now()
        for name, since in list(self._unwatched.items()):
            if t - since >= WATCH_LOOK_S:
                del self._unwatched[name]
                self.lines.append(("info", _("{name} stopped watching.").format(name=name)))

    def resumed(self) -> None:
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

    def open_seats(self, opens: list[int], told: bool = False) -> None:
        """While watching: say once when a seat opens (`take COLOUR` plays it); `told`:
        the seats `opens` were answered already (`join N [COLOUR]`)."""
        if told:
            self._open_told.update(opens)
        f = self.facts
        for group in f.player_groups([i for i in opens if i not in self._open_told]):
            self._open_told.update(group)
            colour = self.node.lobby.seats[group[0]].colour
            # (`take verde`, as the panel names it: `take green` read as English in an
            # Italian log, and Tab after `take ` offers the shown name too)
            self.lines.append(("info", _("The {colour} seat is open: take {word} plays "
                                         "it.").format(colour=colour_name(colour),
                                                       word=colour_name(colour).lower())))
        self._open_told &= set(opens)  # (a seat taken and open again is told again)

    # ---------------------------------------------------------------- one event

    def tell(self, ev) -> None:
        """The lines of one node event, told after the facts have taken it in."""
        k, d = ev.kind, ev.data
        s, f = self.s, self.facts
        if k == "rewound":  # (moves taken back: their indices hold other moves now)
            self._wake.rewound(d["index"])
        if k == "move" and d.get("seat") is not None and d["index"] in f.bot_moves:
            seats = self.node.lobby.seats if self.node.lobby is not None else ()
            seat = seats[d["seat"]] if 0 <= d["seat"] < len(seats) else None
            if seat is not None and not handed(seat):  # (the seat given back before the
                # bot's moves came: the turn's header named the player alone)
                s.mark_bot_turn(d["seat"], f.handed_kind.get(d["seat"], HANDOVER_BOT))
        if k in ("move", "game_over", "reveal"):
            s._drain_events()  # (a tile dealt once a late value came is told at once)
        elif k == "chat":
            who = peer_label(self.node, d)
            if d.get("watcher"):  # said by someone watching the table
                who = _("{name} (watching)").format(name=who)
            self.lines.append(("", f"<{who}> {d.get('text', '')}"))
        elif k in ("watchers", "seat_taken", "guest_refused"):
            self._guest_events(k, d)
        elif k in ("away", "back"):
            self._presence_line(k, d)
        elif k == "not_playing":
            self.lines.append(("bad", _("You have not played for a while: the others count "
                                        "you as away, and may soon give your seat to a bot. "
                                        "Play, and it stays yours.")))
        elif k == "unheard" and d.get("unheard"):
            self.lines.append(("bad", _(
                "The others do not hear this laptop, though it hears them (a firewall, or "
                "the Wi-Fi): the table goes on without your moves, and what you play now "
                "is taken back once they hear you again.")))
        elif k == "unheard":
            self.lines.append(("info", _("The others hear this laptop again.")))
        elif k in ("waiting", "handover") and f.seat_gone(d.get("seat")):
            pass  # (said by "left for good": the table waits for nobody, a bot plays)
        elif k == "draw_dropped" and (d.get("peer") or "") in f.gone:
            pass  # (a goodbye for good leaves the draws too: nothing went wrong)
        elif k == "waiting" and d.get("idle"):
            # (their laptop is here: "to come back … once they have been away" read as
            # if they had gone)
            self.lines.append(("info", _("Waiting for {name} to play… (replace {who} gives "
                                         "the seat to a bot in {limit} s)").format(
                name=d.get("name", "?"), who=d.get("name", "NAME"),
                limit=round(self.node.core.handover_limit()))))
        elif k == "waiting":
            # (the wait is this laptop's: a minute, or `--handover S`; "a minute" was said
            # of a 30 s wait too)
            self.lines.append(("info", _("Waiting for {name} to come back… (replace {who} gives "
                                         "the seat to a bot once they have been away {limit} "
                                         "s)").format(
                name=d.get("name", "?"), who=d.get("name", "NAME"),
                limit=round(self.node.core.handover_limit()))))
        elif k == "handover" and f.is_mine(d.get("seat")) and d.get("again"):
            # (the second time it waited 30 s, not the two minutes the line said)
            self._idle_seats.add(d["seat"])
            self.lines.append(("bad", _("You did not play for {seconds} s again: a bot ({bot}) "
                                        "plays your seat now, so the table goes on. Type "
                                        "resume to play it again.").format(
                seconds=round(IDLE_AGAIN_S), bot=kind_label(d["bot"]))))
        elif k == "handover" and f.is_mine(d.get("seat")) and d.get("idle"):
            self._idle_seats.add(d["seat"])
            # (this laptop was here all along: nothing comes back by itself)
            self.lines.append(("bad", _("You did not play for {minutes} min: a bot ({bot}) "
                                        "plays your seat now, so the table goes on. Type "
                                        "resume to play it again.").format(
                minutes=round(IDLE_AFTER_S / 60), bot=kind_label(d["bot"]))))
        elif k == "handover" and d.get("idle"):
            self.lines.append(("info", _("{name} did not play for a while: a bot ({bot}, on "
                                         "{driver}'s laptop) plays their seat until they type "
                                         "resume.").format(
                name=d["name"], bot=kind_label(d["bot"]),
                driver=peer_label(self.node, {"peer": d["driver"], "name": d["driver_name"]}))))
        elif k == "handover" and f.is_mine(d.get("seat")):
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
            self._said_left(d, _("{name} left for good; a bot ({bot}) plays their seat from "
                                 "now on.").format(name=peer_label(self.node, d),
                                                   bot=kind_label(d["bot"])))
        elif k == "left":
            self._said_left(d, _("{name} left and will be back soon; their seat "
                                 "waits.").format(name=peer_label(self.node, d)))
        elif k == "woke":
            self._wake.woke(s.game)
            self.lines.append(("bad", _("This computer was asleep for {s} s: asking the table "
                                        "what happened…").format(s=round(d["slept"]))))
        elif k == "answered" and d["slept"]:
            # (nothing else may happen: the decision waiting may be ours, as before the
            # sleep, and the screen went on saying it was someone else's). Said once the
            # moves played meanwhile are here and told, below them: what happened while
            # away landed 28 lines up, above the story of the moves caught up.
            self.answer_due = True
        elif k == "watch_cut" and d["cut"]:
            # (a playtest's watcher, woken from a sleep, sat at move 7 while the table
            # played to its end, with no word that nothing came any more)
            self.lines.append(("bad", _(
                "Nobody at the table answers this laptop: it is cut off (its Wi-Fi, or a "
                "long sleep), or the game ended meanwhile. It keeps asking; the game here "
                "goes up to move {n}.").format(n=d["moves"])))
            if s.from_lobby:  # (`lobby` goes nowhere from `watch --plain` or `--board`;
                # and the console's page types nothing: the console's line)
                self.lines.append(("info" + TYPED, _("Type lobby to go back to the list of "
                                                     "games, where watch N follows this "
                                                     "one.")))
        elif k == "watch_cut":
            self.answer_due = True  # (said once the moves missed are here and told)
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
            self._reclaimed_line(d)
        elif k == "restarted":
            self._left.discard(d.get("peer") or "")  # (really back: told from now on)
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
            names = f.draw_wait[1] if f.draw_wait is not None else ""
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
        elif k == "draw_dropped" and (d.get("peer") or "") in self._left:
            pass  # a player who said goodbye: their leaving was told, and that they no
            # longer draw goes with it
        elif k == "draw_dropped" and (d.get("peer") or "") == self.node.peer_id.hex():
            self._my_drop_line(d["draw"])
        elif k == "draw_dropped":
            if f.may_draw_again():
                text = _("{name} did not answer in time for tile {n}: the others draw the "
                         "tiles without their laptop until it is back.")
            else:
                text = _("{name} did not answer in time for tile {n}: the others draw the "
                         "tiles without their laptop from then on.")
            self.lines.append(("bad", text.format(name=peer_label(self.node, d),
                                                  n=d["draw"] + 1)))
        elif k == "draw_taken":
            self.last_drawer_said = False  # (more than one draws again: told anew if not)
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
            s._drain_events()
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
                f.member(d.get("peer")) or f.member_address(d.get("addr"))):
            pass  # a member's datagram the transport set aside (keys renewed after a cut, a
            # late copy): routine, and in the log file; the game pane keeps to the game
        elif k == "refused" and f.a_guests(d):
            pass  # a watcher's datagram that a member does not take (its goodbye, say):
            # routine, and in the log file
        elif k == "refused" and d.get("what") == "join" and not f.member(d.get("peer")):
            pass  # someone in the lobby tried to join this game after it started: told so
            # on their screen; at the table it read "refused from a4f5319da6d841fb: game
            # 'Cove' has already started" (the log file keeps it)
        elif k == "refused" and f.member(d.get("peer")) and not caught_up(self.node):
            pass  # a member's move refused while this laptop is behind (after a sleep: a
            # bot's move for our seat as the lobby gave it back): it comes again with the
            # table's log, and the log file keeps the refusal. Ben's Italian screen read
            # "rifiutato da 03d9f2b8fe3e07d2: it is Ben's (red) decision, not Ana's"
        elif k == "refused":
            who = (peer_label(self.node, d) if f.member(d.get("peer"))
                   else d.get("peer") or d.get("addr"))  # (a member by name, not by id)
            self.lines.append(("bad", _("refused from {peer}: {reason}").format(
                peer=who, reason=net_reason(d.get("reason")))))
        if k == "draw_dropped":  # (after the line that says who left the draws)
            self._last_drawer_news(d)
        if self.answer_due and caught_up(self.node):
            self.answer_due = False
            # (the game has the moves missed before their events come: a playtest's answer
            # stood above most of them, told after it)
            s._drain_events()
            self.lines.extend(self._wake.answer(self._answer_line(), self._seat_handed(),
                                                self._bot_moves_since_wake))
        if self.node.lobby is not None:
            self._guests_news()

    # ---------------------------------------------------------------- guests

    def _guest_events(self, k: str, d: dict) -> None:
        """Lines for guests at the table: who watches, a seat taken, a watcher's chat."""
        f = self.facts
        if k == "watchers":  # told by name, as people know each other: a second laptop
            # of the same Dan (or the lobby's look at the table) is no news
            before = set(f.watchers_before.values())
            after = set(f.watchers.values())
            for name in sorted(after - before, key=str.casefold):
                if self._unwatched.pop(name, None) is None:  # (else: back after a look)
                    self.lines.append(("info", _("{name} is watching.").format(name=name)))
            for name in sorted(before - after, key=str.casefold):
                self._unwatched[name] = _now()  # said once they stay away (`flush_unwatched`)
        elif k == "seat_taken":
            at, name = self._reclaimed
            if name == d["name"] and at < len(self.lines) and name in self.lines[at][1]:
                del self.lines[at]  # (not "back": new at this seat)
            colours = f.colours_of(d["seats"])
            if d.get("mine"):
                self.lines.append(("good", _("You take {was}'s seat ({colours}): its decisions "
                                             "are yours from now on.").format(
                    was=d["was"], colours=colours)))
            else:
                lb = self.node.lobby
                plays = lb.seats[d["seats"][0]].plays if lb is not None and d["seats"] else ""
                # (a laptop that plays with a bot, `play --headless --bot`: labelled so)
                name = seat_label(Seat(d["name"], "", plays or "remote"))
                self.lines.append(("info", _("{name} takes {was}'s seat ({colours}).").format(
                    name=name, was=d["was"], colours=colours)))
        elif k == "guest_refused":
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

        if self.s.watching or not is_seat_given(reason):
            return False
        if not self._seat_lost_said:
            self._seat_lost_said = True
            self.lines.append(("bad", net_reason(reason)))
            # (the console's own line: the page, which types nothing, says its way on its
            # status line)
            self.lines.append(("info" + VIEW_ONLY, _("Type lobby to go back to the list of "
                                                     "games, where watch N follows this "
                                                     "one.")))
        return True

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

    # ---------------------------------------------------------------- comings and goings

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
        if kind == "away" and d.get("again"):
            # (the second time it waited 30 s, not the two minutes the line said)
            self.lines.append(("info", _("{name} has not played for {seconds} s again: the "
                                         "table counts them as away.").format(
                name=name, seconds=round(IDLE_AGAIN_S))))
            return
        if kind == "away" and d.get("idle"):
            # (their laptop is here, and follows the game: "is away" read as a lost Wi-Fi)
            self.lines.append(("info", _("{name} has not played for {minutes} min: the table "
                                         "counts them as away.").format(
                name=name, minutes=round(IDLE_AFTER_S / 60))))
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

    def _reclaimed_line(self, d: dict) -> None:
        """A seat given back to its player. (A newcomer taking a seat a bot played is told
        so too: `seat_taken`, which follows, takes this line back.)"""
        lb = self.node.lobby
        if self.facts.is_mine(d["seat"]) and d["seat"] in self._idle_seats:
            # (given back at `resume`: "the bot that played it while you were away" was
            # said to a player who had been at the table all along)
            self._idle_seats.discard(d["seat"])
            self.lines.append(("good", _("Your seat is yours again: the bot that played it "
                                         "stops.")))
            return
        if self.facts.is_mine(d["seat"]):
            # (our own seat: "Dee is back" read as if about someone else; after a
            # sleep, below the moves missed meanwhile)
            self.s._drain_events()  # (the moves the game has first: `answer_due`)
            self.lines.extend(self._wake.reclaimed(self._bot_moves_since_wake))
            return
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

    # ---------------------------------------------------------------- the draws

    def _expelled_line(self, d: dict) -> None:
        """A member expelled on a proof (protocol/security.md, "Expelled"), or this laptop:
        said once, with what its laptop sent; its seat's handover and its drop from the
        draws are part of it, so they are not said again (the facts count it `gone`)."""
        what = {"two-moves": _("two different moves for one move of the game"),
                "refused-move": _("a move the rules refuse"),
                "two-lobbies": _("two different tables under one number"),
                }.get(d.get("proof_kind") or "", d.get("detail") or "")
        peer = d.get("peer") or ""
        if d.get("you"):
            self.lines.append(("bad", _(
                "This laptop was expelled from the table: the others hold proof, signed with "
                "its key, that it sent {what} (a broken or modified copy of the program?)."
            ).format(what=what)))
            # the way to follow the game, typed: the console's own line (the page, which
            # types nothing, says its own way on its status line)
            self.lines.append(("bad" + VIEW_ONLY, _("Type lobby, then watch N to follow the "
                                                    "game.")))
        elif not d.get("earlier") and peer not in self._expelled:
            self._expelled.add(peer)
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

    def _my_drop_line(self, draw: int) -> None:
        if self.facts.may_draw_again():
            text = _("While this laptop was away the table drew tile {n} without it: the "
                     "others draw the tiles until it takes part again, a few tiles on "
                     "(your moves count as before).")
        else:  # (too near the end, or the table took all the fresh chains it may)
            text = _("While this laptop was away the table drew tile {n} without it: from "
                     "then on the others draw the tiles (your moves count as before).")
        self.lines.append(("info", text.format(n=draw + 1)))

    def _last_drawer_news(self, d: dict) -> None:
        """Once a single laptop is left drawing the tiles, say so, once: the draws stay
        fair (its values were fixed by the chain it committed to at the start), but the
        game now stops whenever that laptop sleeps, and nobody knew why it might (a
        LAN-party playtest: a lid closed on the one laptop that still drew)."""
        if self.last_drawer_said:
            return
        drawer = self.facts.last_drawer(d.get("contributor"))
        if drawer is None:
            return
        self.last_drawer_said = True
        if drawer == self.node.peer_id:
            text = _("Only this laptop still draws the tiles: it alone could know the tiles "
                     "to come, and if it sleeps or goes, the game waits for it to come back.")
        else:
            text = _("Only {name}'s laptop still draws the tiles: it alone could know the "
                     "tiles to come, and if it sleeps or goes, the game waits for it to come "
                     "back.").format(
                name=peer_label(self.node, {"peer": drawer.hex()}))
        self.lines.append(("info", text))

    # ---------------------------------------------------------------- a sleep

    def _answer_line(self) -> tuple[str, str]:
        """The table answered a woken laptop and the moves missed are here: in a player's
        words (a woken player read the watcher's "this laptop follows the game again")."""
        s = self.s
        p = s.game.pending if s.game is not None else None
        ours = p is not None and p.seat is not None and p.seat in s.local_seats()
        if ours and len(s.game.moves) == self._wake.woke_at:
            return ("good", _("The table answered: the game is where it was, and the decision "
                              "is yours."))
        if ours:
            return ("good", _("The table answered: this laptop has caught up, and the "
                              "decision is yours."))
        if s.watching:
            return ("good", _("The table answered: this laptop follows the game again."))
        return ("good", _("The table answered: this laptop has caught up, and you play on."))

    def _bot_moves_since_wake(self) -> int:
        """Our seats' moves since the wake not typed here (by the lobby's owners: while
        the laptop caught up, the screen played no seat)."""
        f = self.facts
        return self._wake.bot_moves(self.s.game, f.is_mine, f.typed.__contains__)

    def _seat_handed(self) -> bool:
        """A bot still plays one of our seats (the give-back is still to come)."""
        lb = self.node.lobby
        return lb is not None and any(handed(s) and s.owner == self.node.peer_id
                                      for s in lb.seats)

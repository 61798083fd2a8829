"""The lobby's commands: one typed line (`create Reef 4`, `join 2`, `bot easy red`, `solo`)
read, checked and carried out through the lobby's network side (lobbynet.py), its answer
on the model's message line; a passphrase asked for on the next line, never shown.
"""

from __future__ import annotations

import difflib
import shlex

from tongiaki_lan.i18n import N_, _
from tongiaki_lan.profile import fits_the_wire

from .feeds.lanfacts import is_watching
from .feeds.lanfacts import set_guests as _set_guests
from .lobbymodel import COLOUR_NAMES, LobbyModel, WrongPassphrase, colour_key, level_key
from .lobbymodel import shown_colours as shown_colours
from .lobbynet import LobbyNet
from .seats import find_colour, kind_label

GAME_NAME_MAX = 24  # characters of a game's name on the wire (net/protocol/codec.MAX_NAME)

# `help` shows these lines, in this order; a few lines name two commands, so that the
# whole list fits the message area of an 80x24 lobby (tests/console/test_tmux.py)
COMMANDS = {
    "solo": N_("solo [BOTS] [LEVEL] — play against bots on this machine (solo 2 easy; solo "
               "resume: your unfinished one)"),
    "create": N_("create NAME [SEATS] [lock] [--two-colours] — open a game (2–6 seats, default "
                 "4; lock: a passphrase; --two-colours: 2 players, two colours each)"),
    "join": N_("join N — sit at game N (or its name), resume yours, or take a bot's seat"),
    "watch": N_("watch N — follow a running game from the side, no seat (say, follow NAME)"),
    "name": N_("name NAME · colour C — at the table (blue red green yellow orange purple)"),
    "bot": N_("bot [LEVEL] [COLOUR] — add a bot: easy, normal, hard · unbot COLOUR"),
    "ready": N_("ready / unready — a full table where everyone is ready starts by itself"),
    "wait": N_("wait S — seconds a tile waits for a vanished player (2–600; 15)"),
    "start": N_("start — the table's creator starts with the seats taken (everyone ready)"),
    "guests": N_("guests open|watch|quiet|closed — the host says who may watch, chat, sit in"),
    "say": N_("say TEXT — chat with your table"),
    "doctor": N_("doctor — why no game shows: checks the network and says what to do"),
    "help": N_("help — this list (PgUp/PgDn scroll the messages)"),
    "leave": N_("leave — leave this table · quit — leave tongiaki-lan"),
}
# commands whose help is on another's line (completed all the same)
# (`board` is the game screen's, the board page: said here too)
MORE_COMMANDS = ("colour", "unbot", "unready", "quit", "board")

def _count(word: str, what: str, lo: int, hi: int, example: str) -> int:
    """A number typed as an argument, or a one-line reason naming the command."""
    if not word.isdigit() or not lo <= int(word) <= hi:
        raise ValueError(_("{what} is a number from {lo} to {hi}, e.g. {example}").format(
            what=what, lo=lo, hi=hi, example=example))
    return int(word)




class LobbyInput:
    """What the lobby does with a line typed (`enter`), for `model` through `net`."""

    def __init__(self, model: LobbyModel, net: LobbyNet):
        self.m = model
        self.net = net
        self.secret: tuple[str, object] | None = None  # (prompt, coroutine fn) of a passphrase

    def enter(self, text: str) -> None:
        """A line entered: the passphrase asked for (never kept), or a command."""
        text = text.strip()
        self.m.message = ""
        if self.secret is not None:
            _prompt, then = self.secret
            self.secret = None
            if text:
                self.net.spawn(self._guarded(then(text)))
            else:
                self.m.lines.append(("info", _("Cancelled.")))
            return
        if text:
            self.net.spawn(self.command(text))

    async def command(self, text: str) -> None:
        self.m.busy += 1  # (a create or join under way: the network is not idle)
        try:
            await self._command(text)
        except Exception as exc:  # noqa: BLE001 - a typo must never end the lobby
            reason = str(exc)
            verb = text.split()[0].lower() if text.split() else ""
            # Our own reasons name their command already ("join: give a game number…");
            # anything else is shown after what was typed.
            shown = text if len(text) <= 32 else text[:31] + "…"  # (a pasted page)
            self.m.message = reason if verb and reason.startswith(verb) else f"{shown}: {reason}"
        finally:
            self.m.busy -= 1
        self.m.changed()

    async def _guarded(self, coro) -> None:
        self.m.busy += 1
        try:
            await coro
        except Exception as exc:  # noqa: BLE001
            self.m.message = str(exc)
        finally:
            self.m.busy -= 1
        self.m.changed()

    def cancel_secret(self) -> bool:
        """Ctrl-C at the passphrase asked for: the question is cancelled, as by an empty
        line (it left tongiaki-lan, halfway through `create NAME lock`). False: none."""
        if self.secret is None:
            return False
        self.enter("")
        return True

    def ask_secret(self, prompt: str, then) -> None:
        """The next line typed is a passphrase: not echoed, not kept in the history. A
        table that stays silent to it (a wrong one, most often) asks again: a playtest's
        player typed the passphrase again as a command, and the screen showed it
        ("kumara: not a command")."""
        async def attempt(secret: str) -> None:
            try:
                await then(secret)
            except WrongPassphrase as exc:
                self.m.lines.append(("bad", str(exc)))
                self.m.lines.append(("info", _("Type the passphrase again (it is not shown), or "
                                               "Enter alone to cancel.")))
                self.ask_secret(prompt, then)

        self.secret = (prompt, attempt)
        self.m.changed()

    def need_lan(self):
        if self.m.node is None:
            raise ValueError(self.m.lan_error or _("LAN not available"))
        return self.m.node

    def need_table(self, seat: bool = True):
        """The node, at a table; `seat`: as a player (a watcher has no say in the lobby)."""
        node = self.need_lan()
        if node.lobby is None:
            raise ValueError(_("you are not at a table: create or join a game first"))
        if seat and is_watching(node):
            raise ValueError(_("you are watching this table, with no seat: leave, then join "
                               "a game"))
        return node

    async def _command(self, text: str) -> None:
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
        verb, args = words[0].lower(), words[1:]
        if verb in ("quit", "exit", "q"):
            self.m.finish(("quit",))
        elif verb == "help":
            self.m.log_anchor = len(self.m.lines)
            self.m.lines.append(("info", _("Commands (PgUp/PgDn scroll this list):")))
            self.m.lines.extend(("info", "  " + _(h)) for h in COMMANDS.values())
        elif verb == "solo" and [a.lower() for a in args] in (["resume"], [_("resume")]):
            # the lobby's way to `solo --resume`: a game left mid-way is kept, and the
            # player who left it from here should not need the command line to go on
            unfinished = self.net.unfinished_solo()
            if unfinished is None:
                raise ValueError(_("solo resume: no unfinished solo game here; solo starts "
                                   "a new one"))
            if self.m.node is not None and self.m.node.lobby is not None:
                await self.m.node.leave_game()
            self.m.finish(("resume", unfinished[0]))
        elif verb == "solo":
            from tongiaki_lan.bots.levels import LEVELS

            # `solo 2 easy`, `solo easy`: a newcomer's first game is against easy bots
            # (the README says so), and the lobby's solo took no level
            keys = [level_key(a) for a in args]
            levels = [k for k in keys if k in LEVELS]
            counts = [a for a, k in zip(args, keys, strict=True) if k not in LEVELS]
            bots = (_count(counts[0], _("solo: the number of bots"), 1, 5, "solo 3")
                    if counts else 3)
            if self.m.node is not None and self.m.node.lobby is not None:
                await self.m.node.leave_game()
            self.m.finish(("solo", bots, levels[0] if levels else ""))
        elif verb == "create":
            node = self.need_lan()
            variant = "standard"
            if "--two-colours" in args:  # V1: two players, two colours each
                args = [a for a in args if a != "--two-colours"]
                variant = "two-colours"
            if args:  # (`create ""` and `create "   "` opened tables with no name, which
                # the list showed as a blank and `join` could not name)
                args[0] = " ".join(args[0].split())
            if not args or not args[0]:
                raise ValueError(_("create: give the game a name, e.g. create Friday 4"))
            if len(args) > 3 or (len(args) > 1 and not args[1].isdigit()):
                # `create Friday night 5`: the second word is the name's, not a bad number
                raise ValueError(_("create NAME [SEATS] [lock]: a name with spaces needs "
                                   "quotes"))
            if not fits_the_wire(args[0], GAME_NAME_MAX):  # (it was cut without a word, as
                # "Island party of the " with its space, and 13 emoji went out whole for
                # every other laptop to refuse; `play --game` refuses such a name)
                raise ValueError(_("create: a game's name has at most {n} characters (fewer "
                                   "with emoji)").format(n=GAME_NAME_MAX))
            seats = (_count(args[1], _("create: SEATS"), 2, 6, "create Friday 4")
                     if len(args) > 1 else 4 if variant == "standard" else 2)
            wanted = args[0].casefold()
            for number, g in self.m.numbered():
                if g.name.casefold() == wanted and g.phase != "over" and (
                        g.game_id != getattr(node, "game_id", None)):
                    # two tables of one name: friends who said "Reef" sit at both, and
                    # `join reef` cannot tell them apart
                    raise ValueError(_("create: {number}. {game} is already on the LAN: "
                                       "join {number}, or give yours another name").format(
                        number=number, game=g.name))
            if variant == "two-colours" and seats != 2:
                raise ValueError(_("create: --two-colours is for 2 players, e.g. create Duo 2 "
                                   "--two-colours"))

            async def create(passphrase: str | None) -> None:
                if node.lobby is not None:
                    await node.leave_game()
                await node.create_game(args[0], seats, passphrase, self.m.colour,
                                       variant=variant)
                self.net.opened(node, args[0], passphrase)

            if len(args) > 2 and args[2].lower() == "lock":
                self.ask_secret(_("Passphrase for {game}:").format(game=args[0]), create)
            else:  # a passphrase typed on the line still works, as it always did
                await create(args[2] if len(args) > 2 else None)
        elif verb == "join":
            node = self.need_lan()
            info, rest = self.m.find_game(args)
            passphrase = rest[0] if rest else None
            mine = self.m.yours.get(info.game_id)
            if info.phase == "over":
                raise ValueError(_("join: {game} is over; create a new game or join "
                                   "another").format(game=info.name))
            if info.running and mine is None:
                await self._join_running(node, info, rest)
                return
            if mine is not None:
                async def resume(secret: str | None) -> None:
                    if node.lobby is not None:
                        await node.leave_game()
                    if not getattr(mine, "left", False):  # (a crash, `quit soon`)
                        self.m.lines.append(("info", _("Resuming {game} from {record}…").format(
                            game=info.name, record=mine.record)))
                        await node.resume(mine.record, secret)  # game_start opens the game
                        return
                    # left for good: a newcomer may play the seat now, and the table
                    # says so only after the game has started again here
                    self.m.lines.append(("info", _("You left {game} for good: asking its table "
                                                   "for your seat back…").format(game=info.name)))
                    self.m.reclaiming = info.game_id  # (before: game_start comes at once)
                    try:
                        await node.resume(mine.record, secret)
                    except BaseException:
                        self.m.reclaiming = None
                        raise
                    await self.net.reclaim(node, info)

                if mine.passphrase and not passphrase and not mine.key_kept:
                    # (with its key kept, not asked: typing it again cost a player back
                    # after a crash the table's draw wait, and his part in the draws)
                    self.ask_secret(_("Passphrase for {game}:").format(game=info.name), resume)
                    return
                await resume(passphrase)
                return
            if info.passphrase and not passphrase:
                self.ask_secret(_("Passphrase for {game}:").format(game=info.name),
                                lambda secret: self.net.join(node, info, secret))
                return
            await self.net.join(node, info, passphrase)
        elif verb == "watch":
            node = self.need_lan()
            info, rest = self.m.find_game(args, "watch")
            if info.phase == "over":
                raise ValueError(_("watch: {game} is over; create a new game or join "
                                   "another").format(game=info.name))
            if not info.watchable:
                raise ValueError(_("watch: {game} takes no watchers").format(game=info.name))
            passphrase = rest[0] if rest else None
            if info.passphrase and not passphrase:
                self.ask_secret(_("Passphrase for {game}:").format(game=info.name),
                                lambda secret: self.net.watch(node, info, secret))
                return
            await self.net.watch(node, info, passphrase)
        elif verb == "guests":
            self.m.lines.append(("info", _set_guests(self.need_table(), " ".join(args))))
        elif verb == "name":
            from tongiaki_lan.profile import clean_name

            if not clean_name(" ".join(args)):
                raise ValueError(_("name: what name?"))
            self.m.name = clean_name(" ".join(args))
            if self.m.on_name is not None:
                self.m.on_name(self.m.name)
            if self.m.node is not None:
                self.m.node.name = self.m.name
                if self.m.node.lobby is not None:
                    self.m.node.set_seat(self.m.name, "")
        elif verb in ("colour", "color"):
            colour = colour_key(args[0]) if args else None
            if colour is None:
                raise ValueError(_("colour: one of {colours}").format(colours=shown_colours()))
            self.m.colour = colour
            if self.m.node is not None and self.m.node.lobby is not None:
                self.m.node.set_seat(self.m.name, self.m.colour)
            else:  # (it said nothing, and seemed lost: a playtest)
                self.m.lines.append(("info", _("Your colour at the next table you create or "
                                               "join: {colour}.").format(
                    colour=_(COLOUR_NAMES[colour]))))
        elif verb == "bot":
            from tongiaki_lan.bots import bot_kinds
            from tongiaki_lan.bots.levels import DEFAULT_LEVEL, LEVELS

            node = self.need_table()
            kind = (level_key(args[0]) or args[0].lower()) if args else DEFAULT_LEVEL
            if kind not in bot_kinds():  # (a colour first: `bot red` is the default level)
                if colour_key(kind) is not None and len(args) == 1:
                    args, kind = [DEFAULT_LEVEL, args[0]], DEFAULT_LEVEL
                else:
                    raise ValueError(_("bot: a level ({levels}) or a kind ({kinds})").format(
                        levels=", ".join(kind_label(k) for k in LEVELS), kinds=", ".join(
                            k for k in bot_kinds() if k not in LEVELS)))
            colour = (colour_key(args[1]) or args[1].lower()) if len(args) > 1 else ""
            node.add_bot(kind, colour)
        elif verb == "unbot":
            if not args:
                raise ValueError(_("unbot: which colour?"))
            node = self.need_table()
            colour = colour_key(args[0])
            if colour is not None and not any(s.kind == "bot" and s.colour == colour
                                               for s in node.lobby.seats):
                # (said here: the table's own refusal names the colour in English)
                raise ValueError(_("no bot plays {colour}").format(
                    colour=_(COLOUR_NAMES[colour])))
            node.remove_bot(colour or args[0].lower())
        elif verb in ("ready", "unready"):
            self.need_table().set_ready(verb == "ready")
        elif verb == "wait":
            if not args or not args[0].isdigit() or not 2 <= int(args[0]) <= 600:
                raise ValueError(_("wait: a number of seconds from 2 to 600"))
            self.need_table().set_draw_wait(int(args[0]))
            # (the table line changed, but nothing said so: the player wondered)
            self.m.lines.append(("info", _("At this table a tile now waits {s} s for a player "
                                           "who vanished, then is drawn without them.").format(
                s=int(args[0]))))
        elif verb == "start":
            node = self.need_table()
            lb = node.lobby
            host = node.coordinator()  # the creator, or who took over when they left
            if host != node.peer_id:
                who = next((x.name for x in lb.seats if x.owner == host and x.kind == "human"),
                           _("the table's creator"))
                raise ValueError(_("{who} opened this table and starts it; a full table where "
                                   "everyone is ready starts by itself").format(who=who))
            others = [x.name for x in lb.seats
                      if x.kind == "human" and not x.ready and x.owner != node.peer_id]
            if others:  # (the table would refuse it, naming the host too, with no command)
                raise ValueError(_("start: waiting for {names} to say ready").format(
                    names=", ".join(others)))
            if any(x.kind == "human" and not x.ready and x.owner == node.peer_id
                   for x in lb.seats):
                node.set_ready(True)  # the host who starts is ready, whether said or not
            if node.lobby.phase == "lobby":  # (not started by itself on that ready)
                node.start_game()
        elif verb == "doctor":
            await self.net.doctor()
        elif verb == "say":
            node = self.need_table(seat=False)
            if not " ".join(args).strip():  # (it sent an empty line: "<Ana>")
                raise ValueError(_("say: what?"))
            node.chat(" ".join(args))
        elif verb == "leave":
            node = self.need_table(seat=False)
            await node.leave_game()
            self.m.lines.append(("info", _("You left the table.")))
        elif verb == "board":  # (the board page shows a game: the next one here)
            self.m.board_wanted = True
            url = self.m.board_url()
            self.m.lines.append(("info", _("board: the board page opens in your browser with "
                                           "the next game") if url is None else _(
                "The board page: {url} (it shows the last game until the next one "
                "begins)").format(url=url)))
        else:
            near = difflib.get_close_matches(verb, [*COMMANDS, *MORE_COMMANDS], n=1,
                                             cutoff=0.75)
            if near:  # (`creat Lagon`: the game screen said "did you mean", the lobby not)
                raise ValueError(_("{command}: not a command — did you mean {word}?").format(
                    command=verb if len(verb) <= 24 else verb[:23] + "…", word=near[0]))
            raise ValueError(_("{command}: not a command (help lists them)").format(
                command=verb if len(verb) <= 24 else verb[:23] + "…"))

    async def _join_running(self, node, info, rest: list[str]) -> None:
        """`join N [COLOUR]` of a game already running: with a seat open, watch it and
        take the seat (COLOUR, or the only one open) once the game screen follows it;
        else say how far it is and that it may be watched."""
        colour = None
        words = []
        for w in rest:
            c = find_colour(w)
            if c is not None and colour is None:
                colour = c
            else:
                words.append(w)
        passphrase = words[0] if words else None
        if not info.watchable:
            raise ValueError(_("join: {game} is running and takes no watchers nor newcomers; "
                               "create a new game or join another").format(game=info.name))
        if info.open_seats:
            async def then(secret):
                await self.net.watch(node, info, secret, take=colour or "")
        else:
            async def then(secret):
                await self.net.running_note(info, secret)
        if info.passphrase and not passphrase:
            self.ask_secret(_("Passphrase for {game}:").format(game=info.name), then)
            return
        await then(passphrase)

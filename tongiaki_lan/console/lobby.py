"""The lobby: games on the LAN, your table, chat, and the way to solo play.

It runs on the same event loop as the node and the zeroconf browser, and ends with
what the player chose: ("solo", bots), ("game", node, discovery) once a LAN game
starts, or ("quit",). If the network cannot be used (no multicast, no interface)
the lobby says so and still offers solo play.
"""

from __future__ import annotations

import asyncio
import contextlib
import difflib
import logging
import shlex
import time
import unicodedata
from pathlib import Path

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.i18n import N_, _, ngettext

from .feeds.lanfacts import guests_word, is_watching, peer_label, table_moves
from .feeds.lanfacts import set_guests as _set_guests
from .networds import net_reason
from .seats import COLOUR_NAMES as COLOUR_NAMES  # (colour names as shown)
from .seats import LEVEL_NAMES, find_colour, kind_label
from .terminal.theme import build_style, player_style
from .terminal.widgets import CanvasControl, wrap_words

log = logging.getLogger("tongiaki_lan.console.lobby")

# `help` shows these lines, in this order; a few lines name two commands, so that the
# whole list fits the message area of an 80x24 lobby (tests/console/test_tmux.py)
COMMANDS = {
    "solo": N_("solo [BOTS] [LEVEL] — play against bots on this machine (solo 2 easy; solo "
               "resume: your unfinished one)"),
    "create": N_("create NAME [SEATS] [lock] [--two-colours] — open a game (2–6 seats, default "
                 "4; lock: a passphrase; --two-colours: 2 players, two colours each)"),
    "join": N_("join N — sit at game N (or its name), resume yours, or take an open seat"),
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
# commands whose help is on another's line (completed all the same); `board` is the
# game screen's (the board page), said here too
MORE_COMMANDS = ("colour", "unbot", "unready", "quit", "board")

# A game's phase as shown (net.codec.PHASES).
PHASE_NAMES = {"lobby": N_("lobby"), "starting": N_("starting"), "playing": N_("playing"),
               "over": N_("over")}



# how long after `create` a table of the same name opened elsewhere is taken for a twin
# of ours (two friends typing `create Lagon` at once), not a second table on purpose
TWIN_S = 10.0


def _folded(word: str) -> str:
    """A word as compared for a colour or a game's name: any case, accents aside (`grun`
    is `grün`, `recif` is "Récif")."""
    decomposed = unicodedata.normalize("NFKD", word.strip().casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def colour_key(word: str) -> str | None:
    """The colour (its English name, as the lobby on the wire has it) that a player
    typed: the name the table shows in their language (`rot`, `giallo`), the English
    name or the letter; None when it is none of them. A German player reads `2. rot
    Maui (search)` and types `unbot rot`."""
    typed = _folded(word)
    for key in COLOURS:
        if typed in (key, key[0], _folded(_(COLOUR_NAMES.get(key, key)))):
            return key
    return None


def level_key(word: str) -> str | None:
    """The level (`easy`, `normal`, `hard`) a player typed in their language or in English
    (`bot facile`, `bot schwer`); None for any other word."""
    typed = _folded(word)
    return next((key for key, shown in LEVEL_NAMES.items()
                 if typed in (key, _folded(_(shown)))), None)


def shown_colours() -> str:
    """The colour names as the table shows them, for a refusal."""
    return ", ".join(_(COLOUR_NAMES.get(key, key)) for key in COLOURS)


# the table's wait for a vanished player's draw value unless `wait S` changes it
try:
    from tongiaki_lan.net.protocol.codec import DRAW_WAIT_DEFAULT as DEFAULT_DRAW_WAIT
except ImportError:  # (the network extras missing: no table to show it for)
    DEFAULT_DRAW_WAIT = 15

# the lobby suggests `doctor` once when it has heard of no game for this long
SUGGEST_DOCTOR_AFTER_S = 20.0

# how long `join N` of a game left for good waits for the table's word on the seat before
# it opens the game screen all the same: a newcomer's seat is said at once to the first
# heartbeat of the resumed game, and again every 5 s (net/protocol/watching.py), so this
# covers one lost answer; a table that stays silent is shown by the game screen as gone
RECLAIM_WAIT_S = 8.0


def _count(word: str, what: str, lo: int, hi: int, example: str) -> int:
    """A number typed as an argument, or a one-line reason naming the command."""
    if not word.isdigit() or not lo <= int(word) <= hi:
        raise ValueError(_("{what} is a number from {lo} to {hi}, e.g. {example}").format(
            what=what, lo=lo, hi=hi, example=example))
    return int(word)


class WrongPassphrase(ValueError):
    """A join or watch with a passphrase that no member answered: most often a wrong one
    (its datagrams fail the MAC and are dropped), so the passphrase is asked again."""


class LobbyScreen:
    def __init__(self, name: str, colour: str = "", record_dir=None, host: str = "0.0.0.0",
                 port: int = 0, lan: bool = True, colour_output: bool = True,
                 interfaces: list[str] | None = None):
        self.name = name
        self.on_name = None  # called with the new name after `name NEW` (the profile keeps it)
        # `board`: the board page is wanted with the next game (cli/lobby.py serves it);
        # `board_url()`: its address once served (None before)
        self.board_wanted = False
        self.board_url = lambda: None
        self.colour = colour
        self.record_dir = record_dir
        self.host = host
        self.port = port
        self.want_lan = lan
        self.interfaces = interfaces  # (mDNS only through these addresses; None: all)
        self.node = None
        self.discovery = None
        self.yours: dict = {}  # game id -> Resumable: unfinished games this laptop played
        self._busy = 0  # commands under way (a create or a join takes a few seconds)
        self._yours_told: set = set()  # games of `yours` said to be resumable
        # (game id, when, passphrase) of the table `create` opened here: `_settle_twin`
        self._created: tuple[bytes, float, str | None] | None = None
        self._moving = False
        # (game id, the table's people) as last seen: "Ben left." was said, but nobody was
        # told that Ben sat down (the host waiting for friends had to watch the seats)
        self._people: tuple[bytes | None, dict[bytes, str]] = (None, {})
        self._numbers: dict[bytes, int] = {}  # game id -> its number in the list
        self._next_number = 1
        self.lan_error: str | None = None
        self.lines: list[tuple[str, str]] = []
        self.message = ""
        self.log_scroll = 0  # lines scrolled back from the newest
        # `help` at a table of 80x24 is longer than the messages' room: its first line (an
        # index in `lines`) goes to the top at the next drawing, as in the game's log
        # (the list showed its last lines, with no sign that the top was cut off)
        self._log_anchor: int | None = None
        self._secret: tuple[str, object] | None = None  # (prompt, coroutine fn) of a passphrase
        # after `join N [COLOUR]` of a running game with an open seat: the seat to take once
        # the game screen follows it ("": the only one open); cli/lobby.py passes it on
        self.take_wanted: str | None = None
        # `join N` of a game this laptop left for good: the game's id while the table is
        # asked for the seat back (`_reclaim`), the games whose seat a newcomer plays
        # (told once: every member says it), and how long the table's word is waited for
        self._reclaiming: bytes | None = None
        self._seat_gone: set[bytes] = set()
        self.reclaim_wait_s = RECLAIM_WAIT_S
        self._tasks: set[asyncio.Task] = set()
        self.buffer = Buffer(multiline=False, accept_handler=self._accept,
                             completer=WordCompleter([*COMMANDS, *MORE_COMMANDS],
                                                     sentence=True),
                             complete_while_typing=False)
        self.app = self._build(colour_output)

    # ---------------------------------------------------------------- network

    async def start_network(self) -> None:
        if not self.want_lan:
            self.lan_error = _("LAN disabled (--no-lan)")
            return
        try:
            from tongiaki_lan.net.aio.discovery import Discovery
            from tongiaki_lan.net.aio.node import Node
        except ImportError as exc:
            self.lan_error = _("LAN not available in this build ({module} missing)").format(
                module=exc.name)
            return
        try:
            disc = Discovery(self.interfaces) if self.interfaces else Discovery()
            await disc.start()
        except Exception as exc:  # no multicast, no interface, port in use…
            log.info("zeroconf could not start: %r", exc)
            if "No interfaces" in str(exc):  # (python-zeroconf's words for it)
                # Wi-Fi off, a train, a cabin: say so plainly, not zeroconf's sentence cut
                # at the edge of the header
                self.lan_error = _("LAN not available: this laptop is on no network (Wi-Fi "
                                   "off?); solo play works without one")
            else:
                self.lan_error = _("LAN not available: zeroconf could not start ({error})"
                                   ).format(error=exc)
            return
        try:
            from tongiaki_lan.net.aio.identity_file import player_identity_path

            profile = (player_identity_path(self.record_dir, self.name)
                       if self.record_dir is not None else None)
            node = Node(self.name, host=self.host, port=self.port, discovery=disc,
                        record_dir=self.record_dir, profile=profile)
            await node.start()
        except Exception as exc:
            from tongiaki_lan.files import DamagedFile  # (a damaged identity: not a socket's)

            self.lan_error = str(exc) if isinstance(exc, DamagedFile) else _(
                "LAN not available: cannot open a UDP socket ({error})").format(error=exc)
            with contextlib.suppress(Exception):
                await disc.close()
            return
        self.attach(node, disc)
        self._find_yours()

    def attach(self, node, discovery) -> None:
        """Use this node and this browser (start_network's, or a test's own)."""
        self.discovery, self.node = discovery, node
        with contextlib.suppress(AttributeError):  # (a stand-in browser may not tell)
            discovery.add_listener(self.app.invalidate)
            discovery.add_listener(self._tell_yours)  # (with the row marked 'yours')
        node.add_listener(self._on_node_event)

    def _find_yours(self) -> None:
        """Games this laptop left unfinished (a crash, Ctrl-C): offered for resuming."""
        from tongiaki_lan.net.aio.resumable import unfinished_games

        if self.record_dir is None:
            return
        self.yours = unfinished_games(self.record_dir)
        self._yours_told.clear()
        self._tell_yours()

    def _tell_yours(self) -> None:
        """Say once that a game this laptop left unfinished can be resumed, when it shows
        in the list: a record of a game that ended or broke up since (a table left for
        good, a crash after the others finished) is not offered at every start."""
        told = self._yours_told
        for number, g in self.numbered() if self.yours else ():
            r = self.yours.get(g.game_id)
            if r is None or g.game_id in told or g.phase == "over":
                continue
            told.add(g.game_id)
            # (the game's own number: "join N" sent a new player looking for what N is)
            self.lines.append(("info", _("You were playing {game} ({n} moves): it is marked "
                                         "'yours' in the list; join {number} resumes your "
                                         "seat.").format(
                game=getattr(r, "name", g.name), n=getattr(r, "moves", "?"), number=number)))
            self.app.invalidate()

    async def _watch_yours(self) -> None:
        while True:
            await asyncio.sleep(0.5)
            self._tell_yours()
            try:
                await self._settle_twin()
            except Exception:  # noqa: BLE001 - the lobby lives on; the log keeps why
                log.exception("settling a twin table failed")

    async def _settle_twin(self) -> None:
        """Two friends typed `create Lagon` in the same second: neither list showed the
        other's table yet, and the party had two tables of one name (a playtest). While
        the table we opened is new (TWIN_S) and nobody has joined it, one of the same
        name with a smaller game id wins, as `play --game` settles it
        (net/aio/matchmaking.py): we move there, and say so. Both laptops see the same
        ids, so one moves and the other stays."""
        node, made = self.node, self._created
        lb = node.lobby if node is not None else None
        if (made is None or self._moving or lb is None or node.game_id != made[0]
                or lb.phase != "lobby" or len(lb.members) > 1):
            return
        if time.monotonic() - made[1] > TWIN_S:
            self._created = None
            return
        twins = sorted((g for _n, g in self.numbered()
                        if _folded(g.name) == _folded(lb.name) and g.joinable
                        and g.game_id < node.game_id and g.passphrase == bool(made[2])),
                       key=lambda g: g.game_id)
        if not twins:
            return
        self._moving, self._created = True, None
        try:
            await self._join(node, twins[0], made[2])
        except Exception:  # noqa: BLE001 - it filled up, refused us, went: ours again
            log.info("could not move to the twin table %s", twins[0].game_id.hex())
            if node.lobby is None:
                await node.create_game(lb.name, lb.total, made[2], self.colour,
                                       variant=lb.variant)
            return
        finally:
            self._moving = False
        self.lines.append(("info", _("Another table named {game} opened at the same moment "
                                     "as yours: you sit at that one now, so the party has "
                                     "one table, not two.").format(game=twins[0].name)))
        self.app.invalidate()

    async def close_network(self) -> None:
        if self.node is not None:
            with contextlib.suppress(Exception):
                await self.node.leave()
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()
        self.node = self.discovery = None

    def _on_node_event(self, ev) -> None:
        k, d = ev.kind, ev.data
        if k in ("guest_refused", "request_refused") and self._seat_given(d.get("reason")):
            self.app.invalidate()
            return
        if k == "chat":
            who = peer_label(self.node, d)
            if d.get("watcher"):
                who = _("{name} (watching)").format(name=who)
            self.lines.append(("", f"<{who}> {d.get('text', '')}"))
        elif k == "watching":
            self.lines.append(("info", _("You are watching {game}: the game screen opens when it "
                                         "runs.").format(game=d.get("game"))))
        elif k == "guest_refused":
            self.lines.append(("bad", net_reason(d.get("reason"))))
        elif k == "joined":
            if not self._moving:  # (moving to a twin table of the same name: its own
                # line says so, and "You are at the table Lagon." came twice)
                self.lines.append(("info", _("You are at the table {game}.").format(
                    game=d.get("game"))))
            lb = getattr(self.node, "lobby", None)
            got = next((x.colour for x in getattr(lb, "seats", ())
                        if x.owner == self.node.peer_id and x.kind == "human"), None)
            if self.colour and got and got != self.colour:  # (given another in silence:
                # a playtest's player who had chosen violet played blue and was not told)
                self.lines.append(("info", _("{wanted} was taken at this table: you play "
                                             "{colour} (colour COLOUR changes it).").format(
                    wanted=_(COLOUR_NAMES[self.colour]), colour=_(COLOUR_NAMES[got]))))
        elif k in ("request_refused", "error"):
            self.lines.append(("bad", net_reason(d.get("reason"))))
        elif k == "turned_away" and d.get("bots"):
            # (a newcomer came to a full table of people and bots, and nobody knew why
            # they could not sit down, nor that the host could free a bot's seat)
            self.lines.append(("info", _("{name} wanted to join, but every seat is taken: "
                                         "unbot {colour} frees a bot's seat.").format(
                name=d.get("name", "?"), colour=_(COLOUR_NAMES.get(d["bots"][0],
                                                                   d["bots"][0])))))
        elif k == "warning":
            self.lines.append(("bad", str(d.get("text"))))
        elif k == "abort":
            self.lines.append(("bad", _("Start aborted: {reason}").format(
                reason=net_reason(d.get("reason")))))
        elif k == "starting":
            self.lines.append(("info", _("Everyone is ready: agreeing on the seed…")))
        elif k in ("away", "back") and self._asking():
            pass  # (the table, asked for the seat back, is heard or not: no news here; a
            # playtest's screen flapped "away" and "back" at each refusal of the seat)
        elif k in ("away", "back"):
            if d.get("left"):
                text = _("{name} left.")
            else:
                text = _("{name} is away.") if k == "away" else _("{name} is back.")
            self.lines.append(("info", text.format(name=peer_label(self.node, d))))
        elif k == "lobby":
            self._tell_arrivals()
        elif k == "game_start":
            if self._reclaiming is None or self._reclaiming != self.node.game_id:
                self._open_game()
            # (else a game left for good, resumed: the table's word opens it, `_reclaim`)
        self.app.invalidate()

    def _open_game(self) -> None:
        """Hand over to the game screen (cli/lobby.py builds it from the node)."""
        if self.app.is_running and not self.app.future.done():
            self.app.exit(result=("game", self.node, self.discovery))

    def _asking(self) -> bool:
        """Whether the node's game is one this lobby asks the seat back at, or was told a
        newcomer plays: its table's comings and goings are not this lobby's news."""
        gid = getattr(self.node, "game_id", None)
        return gid is not None and (gid == self._reclaiming or gid in self._seat_gone)

    async def _reclaim(self, node, info) -> None:
        """`join N` of a game left for good, resumed: open the game screen once the table
        takes this laptop back as one of its members (`heard_as_member`: its heartbeats
        and moves, which members send to members only), or after `reclaim_wait_s` with no
        word at all (a table gone quiet: the game screen says so, nothing is lost). A
        newcomer's seat keeps the player here (`_seat_given`). A playtest's screen opened
        at once at the record's old state, frozen, flapping "away" and "back", and only
        then said that Dee played the seat now."""
        gid = info.game_id
        await node.wait_for(lambda: (self._reclaiming != gid or node.game_id != gid
                                     or node.heard_as_member()),
                            self.reclaim_wait_s, raise_on_timeout=False)
        if self._reclaiming != gid:
            return  # a newcomer's seat (said), or another command's table since
        self._reclaiming = None
        if node.game_id == gid and node.game is not None:  # (not left meanwhile)
            self._open_game()

    def _seat_given(self, reason) -> bool:
        """REFUSE SEAT_GIVEN to a game resumed after a goodbye for good: a newcomer plays
        the seat. The player stays in the lobby, told who took it and how to follow the
        game; the node forgets the game (it deleted the resume data already) and the row
        no longer says "yours". True when the refusal was this (or a repeat of it: each
        member says it every 5 s until the node has left)."""
        from tongiaki_lan.net.protocol.lobby import is_seat_given

        if not is_seat_given(reason or ""):
            return False
        gid = self._reclaiming
        if gid is None or gid != getattr(self.node, "game_id", None):
            return self._asking()
        self._reclaiming = None
        self._seat_gone.add(gid)
        mine = self.yours.pop(gid, None)
        number = self._numbers.get(gid)
        self.lines.append(("bad", net_reason(reason)))
        self.lines.append(("info", _("The game goes on without you: watch {game} follows it "
                                     "from the side.").format(
            game=number if number is not None else getattr(mine, "name", ""))))
        task = asyncio.ensure_future(self._forget(self.node))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return True

    async def _forget(self, node) -> None:
        """Leave the game whose seat a newcomer plays: the node stops following it."""
        try:
            await node.leave_game()
        except Exception:  # noqa: BLE001 - the lobby lives on; the log keeps why
            log.exception("leaving a game whose seat was given failed")
        self.app.invalidate()

    def _tell_arrivals(self) -> None:
        """Say who sits down at our table: people, and bots (a bot added by the host
        appeared in the seats with no word, and the others wondered who Maui was)."""
        node = self.node
        lb = getattr(node, "lobby", None)
        if lb is None:
            self._people = (None, {})
            return
        people = {(s.owner if s.kind == "human" else (i, s.name)): s
                  for i, s in enumerate(lb.seats) if s.kind in ("human", "bot")}
        game, before = self._people
        self._people = (node.game_id, people)
        if game != node.game_id:
            return  # (just sat down ourselves: those already there are no news)
        for key, seat in people.items():
            if key in before or key == node.peer_id:
                continue
            bot = seat.bot if seat.kind == "bot" else seat.plays
            if not bot:
                self.lines.append(("info", _("{name} sat down at the table.").format(
                    name=seat.name)))
            else:  # (a bot the host added, or a laptop that plays its seat with one)
                name = seat.name.removesuffix(f" ({bot})")  # (`Maui (normal)`)
                self.lines.append(("info", _("A bot sat down at the table: {name} "
                                             "({level}).").format(
                    name=name, level=kind_label(bot))))

    def carried_lines(self) -> list[tuple[str, str]]:
        """The table's chat so far, for the game screen's log: a line said just before
        the start (or while the screens change) must not vanish with the lobby."""
        return [line for line in self.lines if line[0] == "" and line[1].startswith("<")][-12:]

    # ---------------------------------------------------------------- drawing

    def games(self):
        """The games on the LAN in the order of their numbers (`numbered`)."""
        return [g for _n, g in self.numbered()]

    def numbered(self) -> list[tuple[int, object]]:
        """(number, game) for every game listed. A game keeps its number for as long as
        it is listed, so `join 2` means the game shown as 2 even after another game
        appeared or went away; games seen for the first time together are numbered by
        name (not in the order their adverts happened to arrive, which differs from
        laptop to laptop), and a number is not given to another game while any game is
        listed."""
        found = self.discovery.games() if self.discovery is not None else []
        ids = {g.game_id for g in found}
        for gid in [gid for gid in self._numbers if gid not in ids]:
            del self._numbers[gid]
        if not self._numbers:  # (an empty list starts again at 1: a playtest's fresh
            # lobby showed its only game as "2.", a number kept by one seen for a moment)
            self._next_number = 1
        for g in sorted((g for g in found if g.game_id not in self._numbers),
                        key=lambda g: (g.name.casefold(), g.game_id)):
            self._numbers[g.game_id] = self._next_number
            self._next_number += 1
        return sorted(((self._numbers[g.game_id], g) for g in found), key=lambda x: x[0])

    def find_game(self, words: list[str], command: str = "join"):
        """The listed game that `join`'s (or `watch`'s) argument names: its number, or its
        name (or the start of it, any case, accents optional: `join recif` finds "Récif",
        typed on a keyboard without é). Raises ValueError naming the command otherwise."""
        listed = self.numbered()
        if not words:
            raise ValueError(_("{command}: give a game's number or name from the list").format(
                command=command))
        if words[0].isdigit():
            for number, game in listed:
                if number == int(words[0]):
                    return game, words[1:]
            if listed:  # (numbers stay with their games: the one left may be 2, not 1;
                # and each laptop numbers games as it hears them: "join 2" said across the
                # room failed on a laptop where that game was 1)
                raise ValueError(_("{command}: there is no game {n} here (listed: {numbers}); "
                                   "each laptop numbers its own list, a game's name works on "
                                   "all").format(command=command, n=words[0],
                                                 numbers=", ".join(f"{n} {g.name}"
                                                                   for n, g in listed)))
            raise ValueError(_("{command}: there is no game {n} in the list").format(
                command=command, n=words[0]))
        # a name may have spaces: the longest run of words that names a game wins, and a
        # word after it is the passphrase (as after a number)
        for cut in range(len(words), 0, -1):
            typed = _folded(" ".join(words[:cut]))
            exact = [g for _n, g in listed if _folded(g.name) == typed]
            starts = exact or [g for _n, g in listed if _folded(g.name).startswith(typed)]
            if len(starts) == 1:
                return starts[0], words[cut:]
            if len(starts) > 1 and cut == 1:
                raise ValueError(_("{command}: '{typed}' could be {games}: type more of the name "
                                   "or the number").format(
                    command=command, typed=words[0],
                    games=", ".join(f"{n}. {g.name}" for n, g in listed if g in starts)))
        raise ValueError(_("{command}: no game named '{name}' in the list").format(
            command=command, name=words[0]))

    def number_of(self, info) -> int | None:
        return self._numbers.get(info.game_id)

    def draw_top(self, width: int, height: int):
        out: list[list[tuple[str, str]]] = []
        head = "class:lobby.head"
        out.append([("class:title", _(" Tongiaki — LAN lobby   you: {name}").format(
            name=self.name))])
        if self.lan_error:
            out.append([("class:message.error", f" {self.lan_error}")])
            out.append([("", _(" You can still play solo: type ")), ("class:prompt", "solo")])
        else:
            games = self.numbered()
            out.append([(head, _(" Games on the LAN ({n})").format(n=len(games)))])
            if not games:
                out.append([("class:panel.head",
                             _("  looking… none yet — create one: create NAME [SEATS]"))])
            for i, g in games[:8]:
                lock = " " + _("[passphrase]") if g.passphrase else ""
                mine = ("  " + _("← your table")  # (once seated: while a join waited
                        # for a refusal, a wrong passphrase, the row said so for 4 s)
                        if self.node and g.game_id == self.node.game_id
                        and getattr(self.node, "lobby", None) is not None else "")
                if mine and is_watching(self.node):
                    mine = "  " + _("← you watch it")
                if not mine and g.game_id in self.yours and g.phase != "over":
                    mine = "  " + _("← yours: join resumes your seat")
                # (a running game's seats a newcomer may take are not counted as taken:
                # "6/6 seats · playing · 3 seats open" read as a contradiction)
                taken = g.taken - (g.open_seats if getattr(g, "running", False) else 0)
                seats = _("{taken}/{total} seats").format(taken=max(0, taken), total=g.total)
                phase = _(PHASE_NAMES.get(g.phase, g.phase)) + self._guest_note(g)
                row = f"  {i}. {g.name[:24]:<24} {seats}  {phase:<8}"
                if len(row) + len(lock) + len(mine) <= width:
                    out.append([("", row), ("class:message", lock), ("class:panel.head", mine)])
                elif len(row) + len(lock) <= width:  # the notes on a row of their own
                    out.append([("", row), ("class:message", lock)])
                    out.append([("class:panel.head", "      " + mine.strip())])
                elif len(row) <= width:  # (a running game's offer is long)
                    out.append([("", row)])
                    out.append([("class:message", "     " + lock), ("class:panel.head", mine)])
                else:  # a narrow terminal (or long words): nothing cut off
                    out.append([("", f"  {i}. {g.name[:24]:<24} {seats}")])
                    out.append([("", "      " + phase), ("class:message", lock),
                                ("class:panel.head", mine)])
        lb = self.node.lobby if self.node is not None else None
        if lb is not None:
            present = self.node.present()
            out.append([("", "")])
            seats = _("{taken}/{total} seats").format(taken=len(lb.seats), total=lb.total)
            extra = ", " + _("passphrase") if lb.passphrase else ""
            if lb.variant == "two-colours":  # V1: said on the table's line, for everyone
                extra += ", " + _("two colours each")
            guests = getattr(lb, "guests", None)
            if guests is not None and guests_word(guests) != "open":  # (once changed)
                extra += ", " + _("guests: {word}").format(word=guests_word(guests))
            if getattr(lb, "draw_wait", DEFAULT_DRAW_WAIT) != DEFAULT_DRAW_WAIT:
                # (`wait 30` said nothing, to the one who typed it nor to the others)
                extra += ", " + _("tiles wait {s} s").format(s=lb.draw_wait)
            phase = _(PHASE_NAMES.get(lb.phase, lb.phase))
            if is_watching(self.node):
                title = _(" You watch: {name} ({phase}, {seats}{extra})")
            else:
                title = _(" Your table: {name} ({phase}, {seats}{extra})")
            out.append([(head, title.format(name=lb.name, phase=phase, seats=seats,
                                             extra=extra))])
            # (the colour column as wide as its longest name in this language: `keltainen`)
            cw = max(len(_(c)) for c in COLOUR_NAMES.values())
            for i, s in enumerate(lb.seats, 1):
                bot = s.bot if s.kind == "bot" else s.plays  # (plays: a laptop's bot)
                kind = _("bot {kind}").format(kind=kind_label(bot)) if bot else _("human")
                name = s.name
                if s.kind == "bot" and name.endswith(f" ({s.bot})") and len(name) > len(s.bot) + 3:
                    name = name[:-len(s.bot) - 3]  # `Tangaroa (search)`: the kind column says it
                flags = []
                if s.owner == self.node.peer_id and s.kind != "bot":
                    flags.append(_("you"))
                if s.owner not in present:
                    flags.append(_("away"))
                colour = _(COLOUR_NAMES.get(s.colour, s.colour))
                out.append([
                    ("", f"  {i}. "),
                    (player_style(s.colour), f"{colour:<{cw}}"),
                    ("", f" {name[:16]:<16} {kind:<12} "),
                    ("class:log.good" if s.ready else "class:panel.head",
                     _("ready") if s.ready else _("not ready")),
                    ("class:panel.head", ("  " + ", ".join(flags)) if flags else ""),
                ])
            me = self.node.peer_id.hex()
            listed = (self.node.lobby_json().get("watchers") or ()
                      if hasattr(self.node, "lobby_json") else ())
            watchers = sorted({w["name"] for w in listed if w.get("peer") != me},
                              key=str.casefold)
            if watchers:
                out.append([("class:panel.head", "  " + _("Watching: ")),
                            ("", ", ".join(watchers)[:max(10, width - 16)])])
        return out[:height]

    @staticmethod
    def _guest_note(g) -> str:
        """What a running game offers a latecomer: `· 1 seat open · watch`."""
        if not getattr(g, "running", False):
            return ""
        note = ""
        if g.open_seats:
            note += " · " + ngettext("{n} seat open", "{n} seats open", g.open_seats).format(
                n=g.open_seats)
        if g.watchable:
            note += " · watch"  # (the command word, as typed)
        return note

    def draw_log(self, width: int, height: int):
        rows = []
        for style, text in self.lines:
            cls = f"class:log.{style}" if style else "class:log"
            for part in wrap_words(text, max(10, width - 2), subsequent_indent="   ") or [""]:
                rows.append([(cls, " " + part)])
        if not height:
            return []
        if self._log_anchor is not None:
            anchor, self._log_anchor = self._log_anchor, None
            below = sum(len(wrap_words(text, max(10, width - 2), subsequent_indent="   ")
                            or [""]) for _s, text in self.lines[anchor:])
            self.log_scroll = max(0, below - height)
        self.log_scroll = min(self.log_scroll, max(0, len(rows) - height))
        end = len(rows) - self.log_scroll
        shown = rows[max(0, end - height):end]
        if self.log_scroll and shown:
            shown[-1] = [("class:rule", " " + ngettext(
                "── {n} more line below: PgDn ──", "── {n} more lines below: PgDn ──",
                self.log_scroll).format(n=self.log_scroll))]
        return shown

    def _status(self) -> tuple[str, str]:
        if self._secret is not None:
            return "class:status", " " + _("{prompt} (typed unseen; empty cancels)").format(
                prompt=self._secret[0])
        if self.message:
            return "class:message.error", " " + self.message
        if self._reclaiming is not None:  # (not `ready · bot · start` at a running table)
            hint = _("asking the table for your seat back… · leave · help · quit")
        elif self.node is not None and self.node.lobby is not None and is_watching(self.node):
            hint = _("watching: say TEXT · leave · help")
        elif self.node is not None and self.node.lobby is not None:
            if self.node.coordinator() == self.node.peer_id:
                hint = _("say TEXT · ready · bot [LEVEL] · start · leave · help")
            else:  # only the host starts early: the others wait for a full, ready table
                hint = _("say TEXT · ready · bot [LEVEL] · leave · help")
        elif self.lan_error:  # (no table to create or join: what can be done here)
            hint = _("solo [BOTS] [LEVEL] · solo resume · help · quit")
        else:
            hint = _("solo · create NAME [SEATS] [lock] · join N · watch N · help · quit")
        return "class:status", " " + hint

    def _columns(self) -> int:
        try:
            return self.app.output.get_size().columns
        except Exception:  # pragma: no cover - no terminal attached
            return 80

    def _status_rows(self) -> list[str]:
        """The status line, wrapped to the terminal's width: a refusal's explanation is
        usually at its end, so it gets a second (or third) row rather than being cut."""
        return wrap_words(self._status()[1], max(10, self._columns() - 1),
                             subsequent_indent="  ")[:4] or [""]

    def status(self):
        return [(self._status()[0], "\n".join(self._status_rows()))]

    def _build(self, colour: bool) -> Application:
        kb = KeyBindings()

        @kb.add("c-c")
        @kb.add("c-d")
        def _(event):
            event.app.exit(result=("quit",))

        @kb.add("pageup")
        def _(event):
            self.log_scroll += 5

        @kb.add("pagedown")
        def _(event):
            self.log_scroll = max(0, self.log_scroll - 5)

        def top_height() -> Dimension:
            want = len(self.draw_top(self._columns(), 100))
            return Dimension(min=3, preferred=want, max=want)

        secret = Condition(lambda: self._secret is not None)
        root = HSplit([
            Window(CanvasControl(self.draw_top), wrap_lines=False, height=top_height),
            Window(height=1, char="─", style="class:rule"),
            Window(CanvasControl(self.draw_log), wrap_lines=False,
                   height=Dimension(min=5, weight=1)),
            Window(FormattedTextControl(self.status), style="class:status",
                   height=lambda: Dimension.exact(len(self._status_rows()))),
            Window(BufferControl(self.buffer, input_processors=[
                ConditionalProcessor(PasswordProcessor(), secret),
                BeforeInput("> ", style="class:prompt")]), height=1,
                # (the `> ` comes back after a pasted page: screen.py says why)
                get_horizontal_scroll=lambda window: 0),
        ])
        from prompt_toolkit.output import ColorDepth

        return Application(layout=Layout(root), key_bindings=kb, style=build_style(),
                           full_screen=True,
                           color_depth=None if colour else ColorDepth.DEPTH_1_BIT)

    # ---------------------------------------------------------------- commands

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text.strip()
        self.message = ""
        self.log_scroll = 0
        if self._secret is not None:
            # a passphrase never reaches the history (Up would show it) nor the screen
            buffer.set_document(buffer.document.__class__(""), True)
            _prompt, then = self._secret
            self._secret = None
            if text:
                task = asyncio.ensure_future(self._guarded(then(text)))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
            else:
                self.lines.append(("info", _("Cancelled.")))
            return False
        if text:
            task = asyncio.ensure_future(self.command(text))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return False

    async def command(self, text: str) -> None:
        self._busy += 1  # (a create or join under way: the network is not idle)
        try:
            await self._command(text)
        except Exception as exc:  # noqa: BLE001 - a typo must never end the lobby
            reason = str(exc)
            verb = text.split()[0].lower() if text.split() else ""
            # Our own reasons name their command already ("join: give a game number…");
            # anything else is shown after what was typed.
            shown = text if len(text) <= 32 else text[:31] + "…"  # (a pasted page)
            self.message = reason if verb and reason.startswith(verb) else f"{shown}: {reason}"
        finally:
            self._busy -= 1
        self.app.invalidate()

    async def _guarded(self, coro) -> None:
        self._busy += 1
        try:
            await coro
        except Exception as exc:  # noqa: BLE001
            self.message = str(exc)
        finally:
            self._busy -= 1
        self.app.invalidate()

    def ask_secret(self, prompt: str, then) -> None:
        """The next line typed is a passphrase: not echoed, not kept in the history. A
        table that stays silent to it (a wrong one, most often) asks again: a playtest's
        player typed the passphrase again as a command, and the screen showed it
        ("kumara: not a command")."""
        async def attempt(secret: str) -> None:
            try:
                await then(secret)
            except WrongPassphrase as exc:
                self.lines.append(("bad", str(exc)))
                self.lines.append(("info", _("Type the passphrase again (it is not shown), or "
                                             "Enter alone to cancel.")))
                self.ask_secret(prompt, then)

        self._secret = (prompt, attempt)
        self.app.invalidate()

    def _need_lan(self):
        if self.node is None:
            raise ValueError(self.lan_error or _("LAN not available"))
        return self.node

    def _need_table(self, seat: bool = True):
        """The node, at a table; `seat`: as a player (a watcher has no say in the lobby)."""
        node = self._need_lan()
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
            self.app.exit(result=("quit",))
        elif verb == "help":
            self._log_anchor = len(self.lines)
            self.lines.append(("info", _("Commands (PgUp/PgDn scroll this list):")))
            self.lines.extend(("info", "  " + _(h)) for h in COMMANDS.values())
        elif verb == "solo" and [a.lower() for a in args] in (["resume"], [_("resume")]):
            # the lobby's way to `solo --resume`: a game left mid-way is kept, and the
            # player who left it from here should not need the command line to go on
            unfinished = self._unfinished_solo()
            if unfinished is None:
                raise ValueError(_("solo resume: no unfinished solo game here; solo starts "
                                   "a new one"))
            if self.node is not None and self.node.lobby is not None:
                await self.node.leave_game()
            self.app.exit(result=("resume", unfinished[0]))
        elif verb == "solo":
            from tongiaki_lan.bots.levels import LEVELS

            # `solo 2 easy`, `solo easy`: a newcomer's first game is against easy bots
            # (the README says so), and the lobby's solo took no level
            keys = [level_key(a) for a in args]
            levels = [k for k in keys if k in LEVELS]
            counts = [a for a, k in zip(args, keys, strict=True) if k not in LEVELS]
            bots = (_count(counts[0], _("solo: the number of bots"), 1, 5, "solo 3")
                    if counts else 3)
            if self.node is not None and self.node.lobby is not None:
                await self.node.leave_game()
            self.app.exit(result=("solo", bots, levels[0] if levels else ""))
        elif verb == "create":
            node = self._need_lan()
            variant = "standard"
            if "--two-colours" in args:  # V1: two players, two colours each
                args = [a for a in args if a != "--two-colours"]
                variant = "two-colours"
            if not args:
                raise ValueError(_("create: give the game a name, e.g. create Friday 4"))
            if len(args) > 3 or (len(args) > 1 and not args[1].isdigit()):
                # `create Friday night 5`: the second word is the name's, not a bad number
                raise ValueError(_("create NAME [SEATS] [lock]: a name with spaces needs "
                                   "quotes"))
            seats = (_count(args[1], _("create: SEATS"), 2, 6, "create Friday 4")
                     if len(args) > 1 else 4 if variant == "standard" else 2)
            wanted = args[0][:24].casefold()
            for number, g in self.numbered():
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
                await node.create_game(args[0][:24], seats, passphrase, self.colour,
                                       variant=variant)
                self._created = (node.game_id, time.monotonic(), passphrase)

            if len(args) > 2 and args[2].lower() == "lock":
                self.ask_secret(_("Passphrase for {game}:").format(game=args[0][:24]), create)
            else:  # a passphrase typed on the line still works, as it always did
                await create(args[2] if len(args) > 2 else None)
        elif verb == "join":
            node = self._need_lan()
            info, rest = self.find_game(args)
            passphrase = rest[0] if rest else None
            mine = self.yours.get(info.game_id)
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
                        self.lines.append(("info", _("Resuming {game} from {record}…").format(
                            game=info.name, record=mine.record)))
                        await node.resume(mine.record, secret)  # game_start opens the game
                        return
                    # left for good: a newcomer may play the seat now, and the table
                    # says so only after the game has started again here
                    self.lines.append(("info", _("You left {game} for good: asking its table "
                                                 "for your seat back…").format(game=info.name)))
                    self._reclaiming = info.game_id  # (before: game_start comes at once)
                    try:
                        await node.resume(mine.record, secret)
                    except BaseException:
                        self._reclaiming = None
                        raise
                    await self._reclaim(node, info)

                if mine.passphrase and not passphrase and not mine.key_kept:
                    # (with its key kept, not asked: typing it again cost a player back
                    # after a crash the table's draw wait, and his part in the draws)
                    self.ask_secret(_("Passphrase for {game}:").format(game=info.name), resume)
                    return
                await resume(passphrase)
                return
            if info.passphrase and not passphrase:
                self.ask_secret(_("Passphrase for {game}:").format(game=info.name),
                                lambda secret: self._join(node, info, secret))
                return
            await self._join(node, info, passphrase)
        elif verb == "watch":
            node = self._need_lan()
            info, rest = self.find_game(args, "watch")
            if info.phase == "over":
                raise ValueError(_("watch: {game} is over; create a new game or join "
                                   "another").format(game=info.name))
            if not info.watchable:
                raise ValueError(_("watch: {game} takes no watchers").format(game=info.name))
            passphrase = rest[0] if rest else None
            if info.passphrase and not passphrase:
                self.ask_secret(_("Passphrase for {game}:").format(game=info.name),
                                lambda secret: self._watch(node, info, secret))
                return
            await self._watch(node, info, passphrase)
        elif verb == "guests":
            self.lines.append(("info", _set_guests(self._need_table(), " ".join(args))))
        elif verb == "name":
            from tongiaki_lan.profile import clean_name

            if not clean_name(" ".join(args)):
                raise ValueError(_("name: what name?"))
            self.name = clean_name(" ".join(args))
            if self.on_name is not None:
                self.on_name(self.name)
            if self.node is not None:
                self.node.name = self.name
                if self.node.lobby is not None:
                    self.node.set_seat(self.name, "")
        elif verb in ("colour", "color"):
            colour = colour_key(args[0]) if args else None
            if colour is None:
                raise ValueError(_("colour: one of {colours}").format(colours=shown_colours()))
            self.colour = colour
            if self.node is not None and self.node.lobby is not None:
                self.node.set_seat(self.name, self.colour)
            else:  # (it said nothing, and seemed lost: a playtest)
                self.lines.append(("info", _("Your colour at the next table you create or "
                                             "join: {colour}.").format(
                    colour=_(COLOUR_NAMES[colour]))))
        elif verb == "bot":
            from tongiaki_lan.bots import bot_kinds
            from tongiaki_lan.bots.levels import DEFAULT_LEVEL, LEVELS

            node = self._need_table()
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
            node = self._need_table()
            colour = colour_key(args[0])
            if colour is not None and not any(s.kind == "bot" and s.colour == colour
                                               for s in node.lobby.seats):
                # (said here: the table's own refusal names the colour in English)
                raise ValueError(_("no bot plays {colour}").format(
                    colour=_(COLOUR_NAMES[colour])))
            node.remove_bot(colour or args[0].lower())
        elif verb in ("ready", "unready"):
            self._need_table().set_ready(verb == "ready")
        elif verb == "wait":
            if not args or not args[0].isdigit() or not 2 <= int(args[0]) <= 600:
                raise ValueError(_("wait: a number of seconds from 2 to 600"))
            self._need_table().set_draw_wait(int(args[0]))
            # (the table line changed, but nothing said so: the player wondered)
            self.lines.append(("info", _("At this table a tile now waits {s} s for a player "
                                         "who vanished, then is drawn without them.").format(
                s=int(args[0]))))
        elif verb == "start":
            node = self._need_table()
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
            await self.doctor()
        elif verb == "say":
            node = self._need_table(seat=False)
            node.chat(" ".join(args))
        elif verb == "leave":
            node = self._need_table(seat=False)
            await node.leave_game()
            self.lines.append(("info", _("You left the table.")))
        elif verb == "board":  # (the board page shows a game: the next one here)
            self.board_wanted = True
            url = self.board_url()
            self.lines.append(("info", _("board: the board page opens in your browser with "
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

    async def _join(self, node, info, passphrase) -> None:
        from tongiaki_lan.net.aio.matchmaking import refs_of
        from tongiaki_lan.net.aio.node import JoinRefused

        if node.lobby is not None:
            await node.leave_game()
        last, locked = _("no address to reach it"), False
        for ref in refs_of(info):
            try:
                await node.join_game(ref, passphrase, self.colour, timeout=4.0)
                return
            except JoinRefused as exc:
                last, locked = net_reason(exc), exc.silent_lock
        raise (WrongPassphrase if locked and passphrase else ValueError)(
            _("could not join {game}: {reason}").format(game=info.name, reason=last))

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
                await self._watch(node, info, secret, take=colour or "")
        else:
            async def then(secret):
                await self._running_note(info, secret)
        if info.passphrase and not passphrase:
            self.ask_secret(_("Passphrase for {game}:").format(game=info.name), then)
            return
        await then(passphrase)

    async def _watch_any(self, node, info, passphrase) -> None:
        """Watch `info` through the first of its members that answers."""
        from tongiaki_lan.net.aio.matchmaking import refs_of
        from tongiaki_lan.net.aio.node import JoinRefused

        if node.lobby is not None:
            await node.leave_game()
        last, locked = _("no address to reach it"), False
        for ref in refs_of(info):
            try:
                await node.watch_game(ref, passphrase, timeout=4.0)
                return
            except JoinRefused as exc:
                last, locked = net_reason(exc), exc.silent_lock
        raise (WrongPassphrase if locked and passphrase else ValueError)(
            _("could not watch {game}: {reason}").format(game=info.name, reason=last))

    async def _watch(self, node, info, passphrase, take: str | None = None) -> None:
        """`watch N` (and `join N` of a running game with a seat open, `take` naming the
        seat): the game screen opens once the game's start is here."""
        self.take_wanted = take  # (set first: the game may start before watch_game returns)
        try:
            await self._watch_any(node, info, passphrase)
        except Exception:
            self.take_wanted = None
            raise

    async def _running_note(self, info, passphrase) -> None:
        """`join N` of a running game with no seat open: how many moves in, and `watch N`.
        The count comes from the table itself, looked at for a moment by a node of its own
        (a fresh identity, records in a scratch directory): this laptop's node, and the
        table it may sit at in the lobby, are left as they are."""
        import tempfile
        from pathlib import Path

        from tongiaki_lan.net.aio.node import Node
        from tongiaki_lan.net.protocol.identity import Identity

        number = self.number_of(info)
        with tempfile.TemporaryDirectory(prefix="tongiaki-peek-") as tmp:
            peek = Node(self.name, host=self.host, record_dir=tmp, identity=Identity.generate(),
                        profile=Path(tmp) / "peek.identity")
            await peek.start()
            try:
                await self._watch_any(peek, info, passphrase)
                # the table's count comes with the feeder's first heartbeat or moves
                await peek.wait_for(lambda: table_moves(peek) > 0, 3.0, raise_on_timeout=False)
                moves = table_moves(peek)
            finally:
                with contextlib.suppress(Exception):
                    await peek.leave()
        raise ValueError(ngettext("join: {game} is running, {n} move in; you may watch: watch "
                                  "{number}",
                                  "join: {game} is running, {n} moves in; you may watch: watch "
                                  "{number}", moves).format(game=info.name, n=moves,
                                                            number=number))

    async def doctor(self) -> None:
        """`doctor`: the network check of `tongiaki-lan doctor`, its lines in the log."""
        from tongiaki_lan.console.doctor import report_lines
        from tongiaki_lan.net.aio.doctor import LISTEN_S, diagnose, verdict

        self.lines.append(("info", _("Checking the network ({s:.0f} s)…").format(s=LISTEN_S)))
        self.app.invalidate()
        facts = await diagnose(name=self.name)
        me = getattr(self.node, "peer_id", None)
        if me is not None:  # this lobby's own node (advertised at a table) is not someone
            # else on the network: alone at our own table is "alone", not "everything works"
            facts["nodes"] = [n for n in facts.get("nodes", []) if n.get("peer") != me.hex()]
        for style, text in report_lines(facts, verdict(facts)):
            self.lines.append(("bad" if style == "bad" else "info", text))

    async def _suggest_doctor(self) -> None:
        """Once, when no game has been heard of for a while (and the player sits at no
        table): say that `doctor` may tell why."""
        loop = asyncio.get_running_loop()
        last_heard = loop.time()
        while True:
            await asyncio.sleep(1.0)
            if self.discovery is None or self.lan_error or self.games() or self._busy or (
                    self.node is not None and getattr(self.node, "lobby", None) is not None):
                last_heard = loop.time()
                continue
            if loop.time() - last_heard >= SUGGEST_DOCTOR_AFTER_S:
                # (not "find out why" alone: friends in the lobby who have not created a
                # table yet are not announced, and doctor then blamed the network)
                self.lines.append(("info", _("No game heard on the network for {s:.0f} s. "
                                             "Nobody has created one yet? create NAME opens "
                                             "one. If a friend's table is missing, doctor "
                                             "finds out why.").format(
                    s=SUGGEST_DOCTOR_AFTER_S)))
                self.app.invalidate()
                return

    def _unfinished_solo(self):
        """(path, moves) of the latest solo game here left before its end, or None."""
        from tongiaki_lan.records import iter_unfinished_solo_records

        if self.record_dir is None:
            return None
        return next(iter_unfinished_solo_records(Path(self.record_dir)), None)

    async def run(self):
        await self.start_network()
        if self.lan_error:
            self.lines.append(("bad", self.lan_error))
        else:
            self.lines.append(("info", _("help lists the commands.")))
        unfinished = self._unfinished_solo()
        if unfinished is not None:  # (left mid-way, from here or `solo`: not lost)
            self.lines.append(("info", _("Your last solo game stopped after move {n}: solo "
                                         "resume plays on it.").format(n=unfinished[1])))
        for job in (self._suggest_doctor(), self._watch_yours()):
            task = asyncio.ensure_future(job)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        result = await self.app.run_async()
        for task in list(self._tasks):
            task.cancel()
        return result or ("quit",)

"""The lobby as a model: what it shows and says, whatever draws it.

The games heard on the LAN, each with a number that stays while it is listed (`join 2`
means the game shown as 2); the table this laptop sits at or watches; what the lobby has
said (its lines, the message of the last command); the games this laptop left unfinished.
The lobby's network side (lobbynet.py) and its commands (lobbyinput.py) write here; the
terminal's lobby screen (terminal/lobby.py) draws it and is told of each change.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.i18n import N_, _

from .seats import COLOUR_NAMES, LEVEL_NAMES, kind_label

# A game's phase as shown (net.codec.PHASES).
PHASE_NAMES = {"lobby": N_("lobby"), "starting": N_("starting"), "playing": N_("playing"),
               "over": N_("over")}



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


class WrongPassphrase(ValueError):
    """A join or watch with a passphrase that no member answered: most often a wrong one
    (its datagrams fail the MAC and are dropped), so the passphrase is asked again."""


class LobbyModel:
    """What the lobby shows: the games listed and their numbers, your table, the lines
    said and the last command's message; `subscribe(fn)` to redraw on each change."""

    def __init__(self, name: str, colour: str = "", record_dir=None):
        self.name = name
        self.on_name: Callable[[str], None] | None = None  # called after `name NEW`
        self.colour = colour
        self.record_dir = record_dir
        self.node = None  # this laptop's network node, once the LAN is up
        self.discovery = None  # the zeroconf browser that lists the games
        self.lan_error: str | None = None  # why there is no LAN, if there is none
        self.lines: list[tuple[str, str]] = []
        self.message = ""  # the last command's refusal ("" when it went well)
        self.yours: dict = {}  # game id -> Resumable: unfinished games this laptop played
        self._yours_told: set = set()  # games of `yours` said to be resumable
        self.busy = 0  # commands under way (a create or a join takes a few seconds)
        # after `join N [COLOUR]` of a running game with an open seat: the seat to take once
        # the game screen follows it ("": the only one open); cli/lobby.py passes it on
        self.take_wanted: str | None = None
        # `board`: the board page is wanted with the next game (cli/lobby.py serves it);
        # `board_url()`: its address once served (None before)
        self.board_wanted = False
        self.board_url = lambda: None
        # `join N` of a game this laptop left for good: the game's id while the table is
        # asked for the seat back (lobbynet.py), and the games whose seat a newcomer plays
        # (told once: every member says it)
        self.reclaiming: bytes | None = None
        self.seat_gone: set[bytes] = set()
        # `help` at a table of 80x24 is longer than the messages' room: its first line (an
        # index in `lines`) is shown at the top at the next drawing, as in the game's log
        self.log_anchor: int | None = None
        # (game id, the table's people) as last seen: "Ben left." was said, but nobody was
        # told that Ben sat down (the host waiting for friends had to watch the seats)
        self._people: tuple[bytes | None, dict[bytes, str]] = (None, {})
        self._numbers: dict[bytes, int] = {}  # game id -> its number in the list
        self._next_number = 1
        self._subscribers: list[Callable[[], None]] = []
        self._finish: Callable[[tuple], None] | None = None

    # ---------------------------------------------------------------- observing

    def subscribe(self, fn: Callable[[], None]) -> None:
        self._subscribers.append(fn)

    def changed(self) -> None:
        for fn in list(self._subscribers):
            fn()

    def on_finish(self, fn: Callable[[tuple], None]) -> None:
        """`fn(result)` ends the lobby with what the player chose: ("game", node,
        discovery), ("solo", bots, level), ("resume", path) or ("quit",)."""
        self._finish = fn

    def finish(self, result: tuple) -> None:
        if self._finish is not None:
            self._finish(result)

    # ---------------------------------------------------------------- what it shows

    def watching(self) -> bool:
        """This laptop watches a table (no seat)."""
        return bool(getattr(getattr(self.node, "core", None), "watching", False))

    def hint(self) -> str:
        """The commands that matter now, for the status line."""
        node = self.node
        if self.reclaiming is not None:  # (not `ready · bot · start` at a running table)
            return _("asking the table for your seat back… · leave · help · quit")
        if node is not None and node.lobby is not None and self.watching():
            return _("watching: say TEXT · leave · help")
        if node is not None and node.lobby is not None:
            if node.coordinator() == node.peer_id:
                return _("say TEXT · ready · bot [LEVEL] · start · leave · help")
            # only the host starts early: the others wait for a full, ready table
            return _("say TEXT · ready · bot [LEVEL] · leave · help")
        if self.lan_error:  # (no table to create or join: what can be done here)
            return _("solo [BOTS] [LEVEL] · solo resume · help · quit")
        return _("solo · create NAME [SEATS] [lock] · join N · watch N · help · quit")

    def tell_yours(self) -> None:
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
            self.changed()

    def tell_arrivals(self) -> None:
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

"""The engine's events told as a story: one line of words per fact.

The engine records facts with colour ids and tile ids only; this module is where
they become "Ana's group (B R) crosses S07: danger 3 against 2 colours — wrecked".
A `Narrator` keeps the little context a story needs across events (who is on
turn, whether this departure is a chain reaction, where the group came from).
"""

from __future__ import annotations

from collections.abc import Sequence

from tongiaki_lan.engine import COLOURS, LETTERS, TILES, Event, Game
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n import _, ngettext
from tongiaki_lan.i18n.islands import island_name

from .departures import settled_departure_text
from .phrases import (  # noqa: F401 - the story's words, also read from here
    END_REASONS,
    Line,
    beaches_text,
    final_words,
    numbers_text,
    ships_text,
    tile_label,
)


class Narrator:
    """Turns events into lines; call `tell` with every event, in order."""

    def __init__(self, game: Game, names: Sequence[str], labels: Sequence[str] | None = None):
        self.names = list(names)
        # who plays each seat (`Maui — bot (search)`): in turn headers and the result
        self.labels = list(labels) if labels is not None else self.names
        self.colour_ids = game.colour_ids()
        self.colours = game.colours
        self._group_colours = 0
        # the beaches the last landing put ships on: one of them sailing is the chain
        # reaction (not a second beach an expansion filled: a playtest read "Chain
        # reaction!" for a beach its own expansion had filled)
        self._landed: set[tuple[int, int]] = set()
        self._turns = 0
        # the event told next is a departure the engine settled by itself (one option
        # left): its line says why that pier. Set by the session, which knows the moves
        self.settled = False
        self._turn_opens = False  # the next event is a turn's first: its action

    def who(self, cid: int) -> str:
        seat = self.colour_ids.index(cid) if cid in self.colour_ids else -1
        name = self.names[seat] if 0 <= seat < len(self.names) else COLOURS[cid]
        return f"{name} ({LETTERS[cid]})"

    def seat_name(self, seat: int) -> str:
        return f"{self.names[seat]} ({LETTERS[self.colour_ids[seat]]})"

    def header(self, seat: int, n: int, label: str | None = None) -> Line:
        """The header of turn `n`, `seat`'s, naming who plays it (`label`: another than
        the narrator's, for a turn told before the story knew a bot played it)."""
        who = f"{label or self.labels[seat]} ({LETTERS[self.colour_ids[seat]]})"
        return ("turn", _("── turn {n}: {who} ──").format(n=n, who=who))

    @property
    def turns(self) -> int:
        """How many turns were told."""
        return self._turns

    def tell(self, ev: Event, game: Game | None = None) -> Line | None:
        opens, self._turn_opens = self._turn_opens, ev.kind == "turn"
        k, d = ev.kind, ev.data
        if k == "turn":
            self._turns += 1
            self._landed = set()
            return self.header(d[0], self._turns)
        if k == "setup":
            return ("", _("{who} puts a ship on beach {n} of Tonga.").format(
                who=self.who(d[0]), n=d[2] + 1))
        if k == "expand":
            if not d[2]:
                return ("", _("{who} expands on {island}, but has no ship to add.").format(
                    who=self.who(d[0]), island=island_name(d[1])))
            text = ngettext("{who} expands on {island}: a new ship on beach {beaches}.",
                            "{who} expands on {island}: new ships on beaches {beaches}.",
                            len(d[2]))
            return ("", text.format(who=self.who(d[0]), island=island_name(d[1]),
                                    beaches=numbers_text(d[2])))
        if k == "take":
            return ("", _("{who} brings a ship over from beach {n} of {island}.").format(
                who=self.who(d[0]), island=island_name(d[1]), n=d[2] + 1))
        if k == "place":
            n, beaches = len(d[2]), sorted(set(d[2]))
            if opens:  # a turn's action: X1, no ships on the board (a colony's ship comes
                # later in its turn). Said, or a bot's ship on "my" island looked like a
                # slip of the rules to a newcomer (a playtest)
                if len(beaches) > 1:
                    text = _("{who} has no ships on the board and places {n} ships on beaches "
                             "{beaches} of {island} (X1).")
                else:
                    text = ngettext("{who} has no ships on the board and places a ship on "
                                    "beach {beaches} of {island} (X1).",
                                    "{who} has no ships on the board and places {n} ships on "
                                    "beach {beaches} of {island} (X1).", n)
            elif len(beaches) > 1:  # (two ships, one on each)
                text = _("{who} places {n} ships on beaches {beaches} of {island}.")
            else:
                text = ngettext("{who} places a ship on beach {beaches} of {island}.",
                                "{who} places {n} ships on beach {beaches} of {island}.", n)
            return ("", text.format(who=self.who(d[0]), n=n, island=island_name(d[1]),
                                    beaches=numbers_text(beaches)))
        if k == "royal":
            return ("good", _("{who} founds the Royal Island of {island}!").format(
                who=self.who(d[0]), island=tile_label(d[1])))
        if k == "colony":
            if not d[1]:
                return ("info", _("{who} sets out for a New Colony.").format(who=self.who(d[0])))
            text = ngettext("{who} sets out for a New Colony, taking {n} ship back home.",
                            "{who} sets out for a New Colony, taking {n} ships back home.",
                            d[1])
            return ("info", text.format(who=self.who(d[0]), n=d[1]))
        if k == "depart":
            island, beach, pier, group = d
            self._group_colours = len(set(group))
            text = None
            if self.settled and game is not None:  # (nobody chose it: say why this pier)
                text = settled_departure_text(game, island, beach, pier, group)
            if text is None:
                text = _("{island} beach {beach} is full: {ships} sail {pier}.").format(
                    island=island_name(island), beach=beach + 1, ships=ships_text(group),
                    pier=DIRECTION_NAMES[pier])
            if (island, beach) in self._landed:
                text = _("Chain reaction! {text}").format(text=text)
            return ("info", text)
        if k == "reveal":
            tid, q, r, _rot = d
            style = "good" if TILES[tid].is_island else ""
            return (style, _("Discovered at {hex}: {tile}.").format(hex=f"{q},{r}",
                                                                    tile=tile_label(tid)))
        if k == "cross":
            tid, danger, ncol = d
            if not danger:
                return ("", _("They cross {tile} (no danger).").format(tile=island_name(tid)))
            text = ngettext("They cross {tile}: danger {danger}, {n} colour in the group "
                            "— safe.",
                            "They cross {tile}: danger {danger}, {n} colours in the group "
                            "— safe.", ncol)
            return ("good", text.format(tile=island_name(tid), danger=danger, n=ncol))
        if k == "fail":
            tid, danger, ncol, group = d
            return ("bad", _("Wrecked on {tile}: danger {danger} needs {danger} colours, the "
                             "group has {n}; {ships} go home.").format(
                tile=island_name(tid), danger=danger, n=ncol, ships=ships_text(group)))
        if k == "turn_back":
            return ("info", _("{royal} is a Royal Island: the group turns back to "
                              "{island}.").format(royal=island_name(d[0]),
                                                  island=island_name(d[1])))
        if k == "land":
            island, placements, returned = d
            self._landed = {(island, b) for b, _cs in placements}
            parts = [f"{b + 1}:{''.join(LETTERS[c] for c in cs)}" for b, cs in placements]
            where = ", ".join(parts) if parts else _("no free berth")
            if returned:
                text = _("They land on {island} ({where}); {ships} go home.")
            else:
                text = _("They land on {island} ({where}).")
            return ("", text.format(island=island_name(island), where=where,
                                    ships=ships_text(returned)))
        if k == "lost":
            # (not "no tiles are left", nor "the last tile has been drawn": tiles of the
            # other kind may be left, and the panel counts them beside this line ("Left: 0
            # islands, 1 sea tile"); none is drawn after the last island or sea tile, E1-E2)
            left = game.unrevealed_tiles() if game is not None else None
            if left is not None and not any(t < 16 for t in left):
                text = _("No tile is drawn after the last island tile: {ships} are lost at "
                         "sea and go home.")
            elif left is not None and all(t < 16 for t in left):
                text = _("The last sea tile has been drawn: {ships} are lost at sea and go "
                         "home.")
            else:
                text = _("No tile is drawn any more: {ships} are lost at sea and go home.")
            return ("bad", text.format(ships=ships_text(d[0])))
        if k == "closed":
            names = ", ".join(island_name(t) for t in d)
            text = ngettext("Closed path: {islands} leaves the game.",
                            "Closed path: {islands} leave the game.", len(d))
            return ("bad", text.format(islands=names))
        if k == "endless":
            return ("bad", _("Endless chain: this position was already left the same way; "
                             "{ships} go home and the turn ends.").format(
                ships=ships_text(d[0])))
        if k == "removed":
            return ("bad", _("{island} is removed; {ships} go home.").format(
                island=island_name(d[0]), ships=ships_text(d[1])))
        if k == "colony_tile":
            tid, q, r, rot = d
            return ("info", _("The colony tile {tile} goes to {hex} (red mark {dir}).").format(
                tile=tile_label(tid), hex=f"{q},{r}", dir=DIRECTION_NAMES[rot]))
        if k == "game_over":
            reason = _(END_REASONS[d[0]]) if d[0] in END_REASONS else d[0]
            if d[0] == "E1" and game is not None:  # which of the two ran out (E1)
                left = game.unrevealed_tiles()
                if not any(TILES[t].is_sea for t in left):
                    reason = _("the last sea tile has been revealed")
                elif all(TILES[t].is_sea for t in left):
                    reason = _("the last island tile has been revealed")
            text = _("Game over: {reason}.").format(reason=reason)
            if game is not None:
                text += " " + final_words(game, self.labels)
            return ("good", text)
        return None


def tell_all(game: Game, names: Sequence[str], events: Sequence[Event],
             labels: Sequence[str] | None = None) -> list[Line]:
    narrator = Narrator(game, names, labels)
    out = []
    for ev in events:
        line = narrator.tell(ev, game)
        if line:
            out.append(line)
    return out

"""Why a departure the engine settled by itself went by its pier (rules X2a, X2d).

The engine plays a decision with one option itself (`Game._settle`), a departure too:
its story said only "Tonga beach 5 is full: B R G sail NE.", and a newcomer who was
never asked could not tell why the ships took that pier (a playtest). With one option
left, every other pier of that beach was ruled out: by X2a when it leads back home, else
by X2d (taken before from the same position this turn). The board read here is the one
after the move, which only has more tiles than at the departure (a route that led back
over placed tiles still does); an island removed since (X2b) leaves nothing to say.
"""

from __future__ import annotations

from tongiaki_lan.engine import Game, Sail
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.engine.tiles import TILES
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n.islands import island_name

from .phrases import ships_text


def settled_departure_text(game: Game, island: int, beach: int, pier: int,
                           group: tuple[int, ...]) -> str | None:
    """The story's line of a departure nobody chose, saying why its pier; None when
    the board no longer tells (its island was removed)."""
    h = game.hex_of(island)
    if h is None:
        return None
    rot = game.placed_tiles()[h][1]
    piers = [(p + rot) % 6 for p in TILES[island].beaches[beach].piers]
    others = [p for p in piers if p != pier]
    values = {"island": island_name(island), "beach": beach + 1, "ships": ships_text(group),
              "pier": DIRECTION_NAMES[pier]}
    if not others:
        return _("{island} beach {beach} is full: {ships} sail {pier}, its only "
                 "pier.").format(**values)
    colours = len(set(group))
    if all(game.leads_back(island, p, colours) for p in others):
        return _("{island} beach {beach} is full: {ships} sail {pier}: {others} would lead "
                 "back to {island} (X2a).").format(
            others=", ".join(DIRECTION_NAMES[p] for p in others), **values)
    return _("{island} beach {beach} is full: {ships} sail {pier}: the other piers were "
             "taken from this same position already this turn (X2d).").format(**values)


class MoveSpans:
    """Where each move's events begin in a LAN game's event list, as the node says when it
    applies the move (`MoveApplied.events_from`): a Sail's first departure is the one its
    player chose, any other departure among its events (or another move's) the engine
    settled, and the story says why, as in a solo game. A LAN screen said only "Tonga
    beach 5 is full: B R G sail NE." (a playtest), since the game alone does not tell
    which departures a move chose. Said only where both ends of the move's events are
    known: a node that applied several moves in one step, or took them from a log, says
    the plain line rather than guess."""

    def __init__(self) -> None:
        self._start: dict[int, int] = {}  # move index -> its first event's index

    def note(self, index: int, start: int) -> None:
        if start >= 0:
            self._start[index] = start

    def forget_from(self, index: int) -> None:
        """Moves from `index` on were taken back: their indices hold other moves now."""
        self._start = {i: s for i, s in self._start.items() if i < index}

    def settled(self, game: Game, k: int) -> bool:
        """Whether event `k`, a departure, was settled by the engine (no one chose it)."""
        events = game.events
        if not 0 <= k < len(events) or events[k].kind != "depart":
            return False
        owner = max((i for i, s in self._start.items() if s <= k), default=None)
        if owner is None or owner >= len(game.moves):
            return False
        after = self._start.get(owner + 1)
        if after is None and len(game.moves) > owner + 1:
            return False  # (the next move's start not known: k may be its own)
        if after is not None and after <= k:
            return False
        if not isinstance(game.moves[owner], Sail):
            return True
        first = next(j for j in range(self._start[owner], len(events))
                     if events[j].kind == "depart")
        return k != first

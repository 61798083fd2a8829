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

from tongiaki_lan.engine import Game
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.engine.tiles import TILES
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n.islands import island_name

from .story import ships_text


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

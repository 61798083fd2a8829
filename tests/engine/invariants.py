"""Checks every reachable position must pass (the rules digest's always-true checks).

The checks themselves live in the engine (`Game.status()`); the few here recompute what
they can from the public API, independently, so a bug in `status()` cannot hide itself.
"""

from __future__ import annotations

from tongiaki_lan.engine import Game
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.hexgrid import neighbour
from tongiaki_lan.engine.tiles import TILES


def check(g: Game) -> None:
    assert g.status() == [], g.position()
    for seat in range(g.n_seats):
        cid = g.colour_ids()[seat]
        on = sum(b.count(cid) for t in g.islands() for b in g.ships_on(t))
        kings = sum(1 for c in g.kings().values() if c == cid)
        total = g.reserve(seat) + on + kings + g.group_at_sea().count(cid)
        assert total == 15, f"{g.colours[seat]} has {total} ships"
    if g.pending is not None and g.pending.kind == D.ACTION:
        for t in g.islands():
            for b, ships in enumerate(g.ships_on(t)):
                assert len(ships) < TILES[t].beaches[b].berths, "a full beach between turns"


def check_new_events(g: Game, start: int) -> None:
    """Tiles revealed by a voyage face the tile they were attached through (M2)."""
    for e in g.events[start:]:
        if e.kind == "reveal":
            tile, q, r, rot = e.data
            attached = neighbour((q, r), rot)  # where the red mark points
            assert attached in g.placed_tiles() or attached in _ever_placed(g), (
                f"{TILES[tile].name} at {q},{r}: red mark points at an empty hex"
            )


def _ever_placed(g: Game) -> set:
    # a tile removed by X2 later in the same move was there when the reveal happened
    return {(e.data[1], e.data[2]) for e in g.events if e.kind in ("reveal", "colony_tile")} | {
        (0, 0)
    }


def recomputed_scores(g: Game) -> dict[str, int]:
    """E3 computed again from the raw board, independently of Game.scores()."""
    out = {}
    for seat, colour in enumerate(g.colours):
        cid = g.colour_ids()[seat]
        held = {t for t in g.islands() if any(cid in b for b in g.ships_on(t))}
        held |= {t for t, c in g.kings().items() if c == cid}
        out[colour] = sum(TILES[t].value for t in held)
    return out

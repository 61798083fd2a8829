"""The end of a game in numbers: each player's points island by island, and what decided.

E3 scores an island for every colour present on it (a ship on a beach or its king);
E4 breaks ties by islands present, then by fewer ships on the board. The table shows
exactly those numbers, so a player can check the result by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from tongiaki_lan.engine import LETTERS, TILES, Game
from tongiaki_lan.i18n import _


def presence(game: Game) -> dict[int, list[int]]:
    """Colour id -> islands (sorted ids) where that colour has a ship or its king."""
    out: dict[int, set[int]] = {c: set() for c in game.colour_ids()}
    for tid in game.islands():
        for beach in game.ships_on(tid):
            for c in beach:
                out[c].add(tid)
        king = game.king_of(tid)
        if king is not None:
            out[king].add(tid)
    return {c: sorted(isl) for c, isl in out.items()}


def decided_by(game: Game, names: Sequence[str]) -> str:
    """Which E4 criterion separated the winner(s) from the next player, in words."""
    keys = game.ranking_keys()
    order = sorted(range(game.n_seats), key=lambda s: keys[game.colours[s]], reverse=True)
    winners = [s for s in order if keys[game.colours[s]] == keys[game.colours[order[0]]]]
    who = " & ".join(names[s] for s in winners)
    if len(winners) == len(order):
        return _("{who} share the win: equal points, islands and ships.").format(who=who)
    best, nxt = keys[game.colours[winners[0]]], keys[game.colours[order[len(winners)]]]
    runner = names[order[len(winners)]]
    one = len(winners) == 1
    if best[0] != nxt[0]:
        text = (_("{who} wins on points ({best} against {runner}'s {next})."
                  ) if one else _("{who} share the win on points ({best} against {runner}'s "
                                  "{next})."))
        return text.format(who=who, best=best[0], runner=runner, next=nxt[0])
    if best[1] != nxt[1]:
        text = (_("{who} wins: tied on {points} points with {runner}, present on more islands "
                  "({best} against {next}).") if one else
                _("{who} share the win: tied on {points} points with {runner}, present on more "
                  "islands ({best} against {next})."))
        return text.format(who=who, points=best[0], runner=runner, best=best[1], next=nxt[1])
    text = (_("{who} wins: tied on points and islands with {runner}, fewer ships and kings on "
              "the board ({best} against {next}).") if one else
            _("{who} share the win: tied on points and islands with {runner}, fewer ships and "
              "kings on the board ({best} against {next})."))
    return text.format(who=who, runner=runner, best=-best[2], next=-nxt[2])


def final_table(game: Game, names: Sequence[str]) -> list[str]:
    """Rows of text: what decided first (it must be seen on the smallest screen), then a
    column per player: the totals E4 compares, then the points island by island.

    The panel's `brd` counts ships on beaches; E4 counts a king as a ship on the board
    too, so the table shows both and their sum, the number the tie-break sentence quotes.
    """
    cids = game.colour_ids()
    present = presence(game)
    keys = game.ranking_keys()
    islands = sorted({t for isl in present.values() for t in isl},
                     key=lambda t: (-TILES[t].value, TILES[t].name))
    col = 5
    seats = range(len(cids))

    def row(label: str, values) -> str:
        return f"{label:<14.14}" + "".join(f"{v:>{col}}" for v in values)

    beached = [game.on_board(s) for s in seats]
    ships = [-keys[game.colours[s]][2] for s in seats]
    rows = [decided_by(game, names), "", _("Final score: points per island"),
            row(_("Island"), (names[s][:col - 1] for s in seats)),
            row("", (LETTERS[c] for c in cids)),
            row(_("Points"), (keys[game.colours[s]][0] for s in seats)),
            row(_("Islands"), (keys[game.colours[s]][1] for s in seats)),
            row(_("Ships (brd)"), beached),
            row(_("Kings"), (ships[s] - beached[s] for s in seats)),
            row(_("Ships + kings"), ships),
            ""]
    for tid in islands:
        rows.append(row(TILES[tid].name[:13], (TILES[tid].value if tid in present[c] else "·"
                                               for c in cids)))
    return rows

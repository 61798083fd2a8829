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
    text = (_("{who} wins: tied on points and islands with {runner}, fewer ships on the board "
              "({best} against {next}).") if one else
            _("{who} share the win: tied on points and islands with {runner}, fewer ships on "
              "the board ({best} against {next})."))
    return text.format(who=who, runner=runner, best=-best[2], next=-nxt[2])


def final_table(game: Game, names: Sequence[str]) -> list[str]:
    """Rows of text: one per island anyone is on, a column per player, then the totals."""
    cids = game.colour_ids()
    present = presence(game)
    keys = game.ranking_keys()
    islands = sorted({t for isl in present.values() for t in isl},
                     key=lambda t: (-TILES[t].value, TILES[t].name))
    col = 5
    head = f"{_('Island'):<14.14}" + "".join(f"{names[s][:col - 1]:>{col}}"
                                              for s in range(len(cids)))
    rows = [_("Final score: points per island"), head,
            f"{'':<14}" + "".join(f"{LETTERS[c]:>{col}}" for c in cids)]
    for tid in islands:
        cells = "".join(f"{TILES[tid].value if tid in present[c] else '·':>{col}}" for c in cids)
        rows.append(f"{TILES[tid].name[:13]:<14}" + cells)
    rows.append(f"{_('Points'):<14.14}" + "".join(f"{keys[game.colours[s]][0]:>{col}}"
                                             for s in range(len(cids))))
    rows.append(f"{_('Islands'):<14.14}" + "".join(f"{keys[game.colours[s]][1]:>{col}}"
                                              for s in range(len(cids))))
    rows.append(f"{_('Ships on board'):<14.14}" + "".join(f"{-keys[game.colours[s]][2]:>{col}}"
                                                     for s in range(len(cids))))
    rows.append("")
    rows.append(decided_by(game, names))
    return rows

"""The end of a game in numbers: each player's points island by island, and what decided.

E3 scores an island for every colour present on it (a ship on a beach or its king);
E4 breaks ties by islands present, then by fewer ships on the board. The table shows
exactly those numbers, so a player can check the result by hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tongiaki_lan.engine import LETTERS, TILES, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n.islands import island_name


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
    """Which E4 criterion separated the winner(s) from the next player, in words (by
    player: under two colours each, V1, a player's colours together)."""
    keys = V.ranking_keys(game)
    names = V.player_names(game, names)
    order = sorted(range(len(keys)), key=lambda p: keys[p], reverse=True)
    winners = [p for p in order if keys[p] == keys[order[0]]]
    who = " & ".join(names[s] for s in winners)
    if len(winners) == len(order):
        return _("{who} share the win: equal points, islands and ships.").format(who=who)
    best, nxt = keys[winners[0]], keys[order[len(winners)]]
    runner = names[order[len(winners)]]
    one = len(winners) == 1
    if best[0] != nxt[0]:
        # (not "{runner}'s": a name may end in a bot's label, "Bot 2 (hard)'s" reads badly)
        text = (_("{who} wins on points ({best} against {next} for {runner})."
                  ) if one else _("{who} share the win on points ({best} against {next} for "
                                  "{runner})."))
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


NAME_MOST = 16  # a name up to this long is shown whole: 80 columns leave the map 47


def final_rows(game: Game, names: Sequence[str], width: int = 0) -> list[tuple[str, str]]:
    """(kind, text) rows: what decided first (it must be seen on the smallest screen),
    then a row per player in seat order, as in the side panel — name, colour letter and
    the totals E4 compares — then the points island by island, a column per colour.

    Rows per player rather than a column each: six columns of names in the 47 columns an
    80-column terminal leaves the map cut every name to four letters. `kind` is "head"
    for the rows drawn as headings.

    The panel's `brd` counts ships on beaches; E4 counts a king as a ship on the board
    too, so the table shows both and their sum, the number the tie-break sentence quotes.
    """
    cids = game.colour_ids()
    grid = final_grid(game, names)  # (the numbers; here set in 47 columns)
    heads = [h[:6] for h in (_("pts"), _("isl"), _("brd"), _("kings"), _("s+k"))]
    widths = [max(4, len(h) + 1) for h in heads]  # a space between columns, at most 7
    # a bot's label (`Tangaroa — bot (search)`) whole where `width` leaves it room
    most = max(NAME_MOST, min(26, width - 4 - sum(widths))) if width else NAME_MOST
    shown = [short_name(n, most) for n in names]
    player = _("player")
    name_w = max(len(player), *(len(n) for n in shown))

    def row(label: str, letter: str, values) -> str:
        return (f"{label:<{name_w}} {letter:1}"
                + "".join(f"{v:>{w}}" for v, w in zip(values, widths, strict=True))).rstrip()

    rows = [("head", grid.decided), ("", ""), ("head", _("Final score")),
            ("head", row(player, "", heads))]
    for r in grid.players:
        rows.append(("", row(shown[r.seat], LETTERS[cids[r.seat]], map(str, r.values))))
    rows.append(("", _("brd ships on beaches · s+k ships and kings (fewer wins a tie)")))
    if game.owners is not None:  # V1: what decides is the players' colours together
        rows += [("", ""), ("head", _("Two colours each: a player's colours together")),
                 ("head", f"{player:<{name_w}}     " + "".join(
                     f"{h:>{w}}" for h, w in ((heads[0], widths[0]), (heads[1], widths[1]),
                                              (heads[4], widths[4]))))]
        pkeys = V.ranking_keys(game)
        for p, pname in enumerate(V.player_names(game, shown)):
            k = pkeys[p]
            rows.append(("", f"{pname:<{name_w}} {V.player_letters(game, p):<4}"
                             f"{k[0]:>{widths[0]}}{k[1]:>{widths[1]}}{-k[2]:>{widths[4]}}"))
    rows += [("", ""), ("head", f"{_('Island'):<14.14}" + "".join(f"{LETTERS[c]:>3}"
                                                                 for c in cids))]
    for isl in grid.islands:
        rows.append(("", f"{isl.name[:13]:<14}" + "".join(
            f"{isl.value if there else '·':>3}" for there in isl.present)))
    return rows


@dataclass(frozen=True)
class FinalRow:
    """A player's (a colour's) totals, the numbers E4 compares, in `FinalGrid.columns`'
    order: points, islands present, ships on beaches, kings, ships and kings."""

    seat: int
    name: str
    values: tuple[int, ...]
    winner: bool


@dataclass(frozen=True)
class FinalIsland:
    name: str
    value: int
    present: tuple[bool, ...]  # per seat: its ship or king is there (E3: it scores)


@dataclass(frozen=True)
class FinalGrid:
    """The final table as values, for a view that draws tables of its own (the board
    page): the same numbers as `final_rows`, with whole words for its columns where the
    text table, made for 47 columns, abbreviates them ("isl", "brd", "s+k")."""

    decided: str
    columns: tuple[str, ...]
    players: tuple[FinalRow, ...]
    islands: tuple[FinalIsland, ...]
    # two colours each (V1): (player, letters, points, islands, ships and kings, winner)
    pairs: tuple[tuple[str, str, int, int, int, bool], ...] = ()


def final_grid(game: Game, names: Sequence[str]) -> FinalGrid:
    """`final_rows`' numbers as values (see FinalGrid)."""
    cids = game.colour_ids()
    present = presence(game)
    keys = game.ranking_keys()
    best = max(keys.values())
    islands = sorted({t for isl in present.values() for t in isl},
                     key=lambda t: (-TILES[t].value, island_name(t)))
    players = []
    for s in range(len(cids)):
        k = keys[game.colours[s]]
        ships, beached = -k[2], game.on_board(s)
        players.append(FinalRow(s, names[s], (k[0], k[1], beached, ships - beached, ships),
                                k == best and game.owners is None))
    pairs: tuple = ()
    if game.owners is not None:  # V1: the players' colours together decide
        pkeys = V.ranking_keys(game)
        pbest = max(pkeys)
        pairs = tuple((pname, V.player_letters(game, p), k[0], k[1], -k[2], k == pbest)
                      for p, (pname, k) in enumerate(zip(V.player_names(game, names), pkeys,
                                                         strict=True)))
    return FinalGrid(
        decided_by(game, names),
        (_("points"), _("islands"), _("ships on beaches"), _("kings"),
         _("ships and kings")),
        tuple(players),
        tuple(FinalIsland(island_name(t), TILES[t].value,
                          tuple(t in present[c] for c in cids)) for t in islands),
        pairs)


def final_table(game: Game, names: Sequence[str]) -> list[str]:
    """The rows of `final_rows` as plain text."""
    return [text for _kind, text in final_rows(game, names)]


def short_name(name: str, width: int) -> str:
    """A player's name in `width` columns: whole if it fits; else without a bracketed
    note (a LAN bot seat is `Maui (search)`), else cut with an ellipsis."""
    if len(name) <= width:
        return name
    base = name.split(" (", 1)[0].strip()
    if base and len(base) <= width:
        return base
    return name[:width - 1] + "…"

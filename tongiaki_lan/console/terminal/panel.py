"""The game screen's side panel and final table, drawn from the state: the seats' rows
(reserve, ships on the board, islands, points, kings), who plays them, who is away or
watching, the tiles left, and what the decision holds (the group at sea, a tile in hand).
"""

from __future__ import annotations

from tongiaki_lan.engine import LETTERS
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine import variant as V
from tongiaki_lan.i18n import _, ngettext

from ..final import final_rows, short_name
from ..phrases import tile_label
from ..seatmarks import mark_lines, seat_marks
from ..state import TableState
from .board import OUTLINES as HEX_OUTLINES
from .board import TOP as TOP_EDGE
from .board import Canvas, tile_face
from .theme import player_style
from .widgets import wrap_words

Fragments = list[tuple[str, str]]
COUNT_HERE = ("class:panel.drawn", "")  # the line that says how many watch when the list goes


def panel_lines(state: TableState, width: int, steps: frozenset[str]) -> list[Fragments]:
    """The panel with the shortenings `steps` (seatmarks.STEPS) applied."""
    g = state.board
    p = g.pending
    lines: list[Fragments] = []
    name_w = max(4, min(12, width - 24))
    title = _("{title} · turn {n}").format(title=state.title, n=g.turn + 1)
    if state.replay is not None and state.replay.away_from_now:
        title = f"{state.title} · {state.replay.text}"
        if len(title) > width and " — " in title:
            # a replay's next move is on the status line in full: at 80x24 the panel
            # showed "Replay · move 0/132 — next: plac"
            title = title.split(" — ")[0]
    lines.append([("class:panel.head", title[:width])])
    # Column heads: reserve, ships on the board, islands present on, points, Royal
    # Islands (kings) founded of the 2 allowed.
    # The player head may run over the colour letter's two columns (" B" in the rows),
    # one space kept before "res": `giocatore` is whole at 32 columns.
    heads = "".join(f"{h:>4.4}" for h in (_("res"), _("brd"), _("isl"), _("pts"), _("K/2")))
    player = _("player")
    lines.append([("class:panel.head", f"  {player:<{name_w + 2}.{name_w + 1}}{heads}")])
    scores = g.scores()
    keys = g.ranking_keys()
    for seat in state.seats:
        i = seat.index
        on_turn = p is not None and p.seat == i
        marker = "▶ " if on_turn else ("* " if i == g.active_seat and p else "  ")
        name = short_name(seat.name, name_w)  # away players: greyed, listed below
        name_style = "class:panel.away" if seat.away else (
            "class:panel.me" if seat.local or seat.viewer else "")
        lines.append([
            ("class:panel.turn" if on_turn else "", marker),
            (name_style, f"{name[:name_w]:<{name_w}}"),
            ("", " "),
            (player_style(seat.colour), seat.letter),
            ("", f"{g.reserve(i):>4}{g.on_board(i):>4}{keys[seat.colour][1]:>4}"
                 f"{scores[seat.colour]:>4}{g.royals_founded(i):>2}/2"),
        ])
    if g.owners is not None:  # two colours each (V1): a player's colours together
        pkeys = V.ranking_keys(g)
        for pl, pname in enumerate(V.player_names(g, [s.name for s in state.seats])):
            lines.append([("class:panel.head", f"  {short_name(pname, name_w):<{name_w}} "
                                               f"{V.player_letters(g, pl)}"),
                          ("", " " + _("{points} pts, {islands} isl").format(
                              points=pkeys[pl][0], islands=pkeys[pl][1]))])
    # Who a bot plays, by kind (`Hina, Maui — bots (search)`, `Cat — bot (greedy)` for
    # a seat handed over while its player is away), and who is away (greyed above): a
    # row has no room for it. (Once the game is over nobody is waited for: "Away: Cy"
    # stood beside "Cy left the table." as the players closed their laptops.)
    lines.extend(mark_lines(seat_marks(state.seats, g.is_over), width, steps, wrap_words))
    if state.watchers and "watchers" not in steps:  # a LAN table's guests: who looks on
        label = _("Watching: ")
        names = ", ".join(state.watchers)
        if len(label) + len(names) > width:
            names = names[:max(1, width - len(label) - 1)] + "…"
        lines.append([("class:panel.head", label), ("", names)])
    if state.numbers_tiles and "drawn" not in steps:
        # a LAN table's lines say who draws which tile by number ("takes part in the
        # draws again from tile 13"): the count drawn says where the table stands
        lines.append([("class:panel.head", _("Drawn: ")),
                      ("", ngettext("{n} tile", "{n} tiles", g.draws()).format(
                          n=g.draws())), COUNT_HERE])
    left = g.unrevealed_tiles()
    left_isl = sum(1 for t in left if t < 16)
    seas = len(left) - left_isl
    if "left" not in steps:
        lines.append([("class:panel.head", _("Left: ")),
                      ("", _("{islands}, {seas}").format(
                          islands=ngettext("{n} island", "{n} islands", left_isl).format(
                              n=left_isl),
                          seas=ngettext("{n} sea tile", "{n} sea tiles", seas).format(
                              n=seas)))])
    if g.is_over:
        lines.append([("class:panel.head", _("The game is over."))])
    elif "ends" not in steps:
        lines.append([("class:panel.head", _("Ends when either kind runs out"))])
    removed = g.removed_tiles()
    if removed and "removed" not in steps:
        lines.append([("class:panel.head", _("Removed: ")),
                      ("", ", ".join(tile_label(t) for t in removed))])
    group = g.group_at_sea()
    if group and p is not None and p.kind == D.LANDING:
        row = [("class:panel.head", _("At sea: "))]
        for c in group:
            row.append((f"class:ship.{g.colours[g.seat_of_colour(c)]}", LETTERS[c] + " "))
        lines.append(row)
    if p is not None and p.kind == D.COLONY_TILE and p.tile is not None:
        row = [("class:panel.head", _("In hand: ")), ("", tile_label(p.tile))]
        note = ("class:panel.head", _(" (red mark S)"))
        if sum(len(t) for _s, t in row) + len(note[1]) <= width:
            lines.append([*row, note])
        else:  # a long island name: the note on a line of its own
            lines.extend([row, [note]])
        if "picture" not in steps:
            lines.extend(tile_picture(p.tile))
    return lines


def tile_picture(tid: int) -> list[Fragments]:
    canvas = Canvas(16, 5)
    for dx, dy, style, text in HEX_OUTLINES["hex.island" if tid < 16 else "hex"]:
        canvas.put(dx, dy, text, style)
    ships = tuple(() for _ in range(6)) if tid < 16 else ()
    for dx, dy, style, text in tile_face(tid, 0, ships, None):
        canvas.put(dx, dy, text, style)
    mark = _("red mark")[:TOP_EDGE]
    canvas.put(2 + (TOP_EDGE - len(mark)) // 2, 4, mark, "class:danger")
    return [[("", " ")] + line for line in canvas.fragment_lines()]


def watchers_counted(lines: list[Fragments], n: int, width: int) -> list[Fragments]:
    """How many watch, when their names had no room: on the "Drawn:" line, else on
    the title, wherever it fits ("Drawn: 12 tiles · 2 watching"), so that a player
    still sees the table is watched; nowhere when neither has room."""
    if not n:
        return lines
    more = ("class:panel.head", " · " + ngettext("{n} watching", "{n} watching", n).format(
        n=n))
    places = [i for i, line in enumerate(lines) if line[-1] == COUNT_HERE] + [0]
    for i in places:
        line = [f for f in lines[i] if f != COUNT_HERE]
        if i < len(lines) and sum(len(t) for _s, t in line) + len(more[1]) <= width:
            return [*lines[:i], [*line, more], *lines[i + 1:]]
    return lines


def final_lines(state: TableState, width: int) -> list[Fragments]:
    # Who won and why come first, then how to get the map back: on an 80x24 screen
    # the island rows at the end are what may not fit, never the result.
    rows = final_rows(state.board, [s.label for s in state.seats], width)
    rows[1:1] = [("note", _("(map — show the map · the log has the story)"))]
    out = []
    styles = {"head": "class:final.head", "note": "class:panel.head"}
    for kind, row in rows:
        style = styles.get(kind, "class:final")
        if len(row) <= width - 2:  # (a table row: its spaces are its columns)
            out.append([(style, " " + row)])
            continue
        for part in wrap_words(row, max(10, width - 2), subsequent_indent="  "):
            out.append([(style, " " + part)])
    return out

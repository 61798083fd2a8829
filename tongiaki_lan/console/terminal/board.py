r"""The archipelago as a hex map of text.

Flat-topped hexes share their borders, so a board of 31 tiles stays compact enough
for an 80x24 terminal (with panning) and simply shows more of itself in a larger
one. Each hex is 16 columns by 5 rows:

      ___Samoa 5__          top edge carries the island's name and value
     / 1BR· SW NW \         one beach per row: number, ships (colour letters),
    /  2···· N NE  \        free berths (·), piers by compass direction
    \  3Y····· SE  /
     \____________/

Sea tiles list their routes as compass pairs with the danger number (none = any
group crosses). Everything a tile shows depends only on (tile, rotation, ships,
king), so that text is built once and cached: a full board costs little more than
copying characters into a grid.

A late board (ten or more hex columns) does not fit even a 120x40 window at that size,
so there is a second, compact drawing (docs/console.md): 6 columns by 3 rows inside
straight walls, columns still offset by half a hex, so the six neighbours touch as on
the table.

     Samo 5       abbreviated name and value on the top wall
    |1BR···|      one beach per row: number, ships, free berths (no piers)
    |2···  |      a sea tile: routes as `SW-NW3` (danger after the pair)
    |3Y··· |      Tonga: beaches 1|2, 3|4, 5|6, three berths each, side by side
     ______

The view uses it only where the full drawing does not fit and the compact one does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from tongiaki_lan.engine import LETTERS, TILES, TONGA, Game
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES, Hex
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n import current as current_language
from tongiaki_lan.i18n.islands import island_name

from .theme import king_style, ship_style

TOP = 12  # length of a hex's top (and bottom) edge
HALF = 2  # rows from the top edge to the middle of a hex
STEP_X = TOP + HALF  # columns between neighbouring hex columns
STEP_Y = 2 * HALF  # rows between a hex and the one below it
HEX_W = TOP + 2 * HALF
HEX_H = 2 * HALF + 1
ROW_SPAN = ((2, TOP), (1, TOP + 2), (1, TOP + 2))  # (dx, width) of interior rows 1..3
FREE = "·"

Fragment = tuple[str, str]
Segment = tuple[int, int, str, str]  # dx, dy, style, text


def hex_origin(h: Hex) -> tuple[int, int]:
    """Board-space column and row of a hex's bounding box top-left corner."""
    q, r = h
    return STEP_X * q, STEP_Y * r + HALF * q


@dataclass(frozen=True)
class Geometry:
    """Where hexes go for one of the two drawings: a hex's box and the steps between
    neighbours (a column to the right sits `half` rows lower)."""

    name: str
    step_x: int
    step_y: int
    half: int
    box_w: int
    box_h: int

    def origin(self, h: Hex) -> tuple[int, int]:
        q, r = h
        return self.step_x * q, self.step_y * r + self.half * q


C_W = 6  # interior columns of a compact hex (and the length of its top wall)
FULL = Geometry("full", STEP_X, STEP_Y, HALF, HEX_W, HEX_H)
COMPACT = Geometry("compact", C_W + 1, 4, 2, C_W + 2, 5)


class Canvas:
    """A grid of characters with one style per cell."""

    __slots__ = ("width", "height", "chars", "styles")

    def __init__(self, width: int, height: int):
        self.width = max(0, width)
        self.height = max(0, height)
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles = [[""] * self.width for _ in range(self.height)]

    def put(self, x: int, y: int, text: str, style: str = "") -> None:
        if not 0 <= y < self.height or not text:
            return
        start = max(0, x)
        end = min(self.width, x + len(text))
        if start >= end:
            return
        self.chars[y][start:end] = text[start - x : end - x]
        self.styles[y][start:end] = [style] * (end - start)

    def text_lines(self) -> list[str]:
        return ["".join(row).rstrip() for row in self.chars]

    def text(self) -> str:
        lines = self.text_lines()
        while lines and not lines[-1]:
            lines.pop()
        return "\n".join(lines) + "\n"

    def fragment_lines(self) -> list[list[Fragment]]:
        out: list[list[Fragment]] = []
        for chars, styles in zip(self.chars, self.styles, strict=True):
            line: list[Fragment] = []
            start = 0
            n = len(chars)
            while start < n:
                style = styles[start]
                end = start + 1
                while end < n and styles[end] == style:
                    end += 1
                line.append((style, "".join(chars[start:end])))
                start = end
            out.append(line)
        return out


# ------------------------------------------------------------------ tile faces


def _outline(kind: str) -> tuple[Segment, ...]:
    style = f"class:{kind}"
    bar = "_" * TOP
    return (
        (HALF, 0, style, bar),
        (1, 1, style, "/"), (HEX_W - 2, 1, style, "\\"),
        (0, 2, style, "/"), (HEX_W - 1, 2, style, "\\"),
        (0, 3, style, "\\"), (HEX_W - 1, 3, style, "/"),
        (1, 4, style, "\\"), (HALF, 4, style, bar), (HEX_W - 2, 4, style, "/"),
    )


OUTLINES = {k: _outline(k) for k in ("hex", "hex.island", "hex.tonga", "hex.focus", "hex.frontier")}


def _beach_fragments(tid: int, b: int, rot: int, ships: tuple[int, ...], spaced: bool) -> list:
    """A beach as number, ships, free berths and then its piers after a space (`spaced`),
    or, on Tonga, its one pier first (`SW2B··`): a pier's letters never touch a ship's
    (`5BGYNE` could not be read), and Tonga's rows have no room for a space in each."""
    beach = TILES[tid].beaches[b]
    free = beach.berths - len(ships)
    # a full beach is the one that departs next (M1): its number stands out
    frags: list[Fragment] = [("class:beach.full" if free <= 0 else "class:beach", str(b + 1))]
    frags.extend((ship_style(c), LETTERS[c]) for c in ships)
    if free > 0:
        frags.append(("class:berth", FREE * free))
    piers = " ".join(DIRECTION_NAMES[(p + rot) % 6] for p in beach.piers)
    if not spaced:  # Tonga
        return [("class:pier", piers), *frags]
    frags.append(("class:pier", " " + piers))
    return frags


def _width(frags: list[Fragment]) -> int:
    return sum(len(t) for _, t in frags)


def _row_segments(row: int, frags: list[Fragment], indent: bool = True) -> list[Segment]:
    dx, width = ROW_SPAN[row - 1]
    if indent and _width(frags) < width:
        dx += 1
    out = []
    for style, text in frags:
        if dx >= ROW_SPAN[row - 1][0] + width:
            break
        text = text[: ROW_SPAN[row - 1][0] + width - dx]
        out.append((dx, row, style, text))
        dx += len(text)
    return out


def _title_segments(text: str, style: str) -> list[Segment]:
    text = text[:TOP]
    pad = TOP - len(text)
    left = pad // 2
    return [(HALF + left, 0, style, text)]


def _island_title(tid: int) -> str:
    tile = TILES[tid]
    if tid == TONGA:
        return "Tonga"
    name = island_name(tid)
    text = f"{name} {tile.value}"
    return text if len(text) <= TOP else f"{name}{tile.value}"


def tile_face(tid: int, rot: int, ships: tuple[tuple[int, ...], ...], king: int | None) -> tuple:
    """Everything drawn inside one placed tile, as segments relative to its origin."""
    return _tile_face(tid, rot, ships, king, current_language())


@lru_cache(maxsize=4096)
def _tile_face(tid: int, rot: int, ships: tuple[tuple[int, ...], ...], king: int | None,
               language: str) -> tuple:
    """The cached faces; `language` is part of the key since a Royal Island has words."""
    tile = TILES[tid]
    segs: list[Segment] = []
    if tile.is_sea:
        segs += _title_segments(tile.name, "class:title.sea")
        for i, route in enumerate(tile.routes):
            a = DIRECTION_NAMES[(route.a + rot) % 6]
            b = DIRECTION_NAMES[(route.b + rot) % 6]
            frags = [("class:route", f"{a}-{b}")]
            if route.danger:
                frags.append(("class:danger", f" {route.danger}"))
            segs += _row_segments(i + 1, frags)
        return tuple(segs)
    title_style = "class:title.tonga" if tid == TONGA else "class:title"
    if king is not None:
        title_style = king_style(king)
    segs += _title_segments(_island_title(tid), title_style)
    if king is not None:
        segs += _row_segments(1, [("class:royal", _("ROYAL ISLAND")[:TOP])])
        segs += _row_segments(2, [("class:royal", _("king {colour}").format(colour="")),
                                  (king_style(king), LETTERS[king])])
        return tuple(segs)
    if tid == TONGA:
        for row in range(3):
            frags: list[Fragment] = []
            for b in (2 * row, 2 * row + 1):
                if frags:
                    frags.append(("", " "))
                frags += _beach_fragments(tid, b, rot, ships[b], spaced=False)
            segs += _row_segments(row + 1, frags, indent=row > 0)
        return tuple(segs)
    first_row = 1 if len(tile.beaches) >= 3 else 2
    for b in range(len(tile.beaches)):
        frags = _beach_fragments(tid, b, rot, ships[b], spaced=True)
        segs += _row_segments(first_row + b, frags)
    return tuple(segs)


@lru_cache(maxsize=512)
def frontier_face(q: int, r: int) -> tuple:
    label = f"{q},{r}"
    dx, width = ROW_SPAN[1]
    return ((dx + (width - len(label)) // 2, 2, "class:coord", label),)


# ------------------------------------------------------------------ compact faces


def _compact_outline(kind: str) -> tuple[Segment, ...]:
    """Straight walls: the top wall (row 0) carries the title, the bottom one (row 4)
    is the top wall of the hex below, each side wall is shared with two neighbours."""
    style = f"class:{kind}"
    bar = "_" * C_W
    walls = [(x, y, style, "|") for y in (1, 2, 3) for x in (0, C_W + 1)]
    return ((1, 0, style, bar), *walls, (1, 4, style, bar))


COMPACT_OUTLINES = {k: _compact_outline(k) for k in OUTLINES}


def compact_title(tid: int) -> str:
    """An island's first four letters and its value (`Samo 5`, `Rapa 3`): the four
    letters tell the sixteen islands apart; a sea tile keeps its name (`S07`)."""
    tile = TILES[tid]
    if tid == TONGA or tile.is_sea:
        return tile.name
    return f"{island_name(tid).replace(' ', '')[:4]} {tile.value}"


def _compact_row(row: int, frags: list[Fragment]) -> list[Segment]:
    out, dx = [], 1
    for style, text in frags:
        text = text[: 1 + C_W - dx]
        if text:
            out.append((dx, row, style, text))
            dx += len(text)
    return out


def compact_face(tid: int, rot: int, ships: tuple[tuple[int, ...], ...],
                 king: int | None) -> tuple:
    """Everything drawn inside one placed tile of the compact board."""
    return _compact_face(tid, rot, ships, king, current_language())


@lru_cache(maxsize=4096)
def _compact_face(tid: int, rot: int, ships: tuple[tuple[int, ...], ...], king: int | None,
                  language: str) -> tuple:
    tile = TILES[tid]
    title = compact_title(tid)
    style = "class:title.sea" if tile.is_sea else (
        "class:title.tonga" if tid == TONGA else "class:title")
    if king is not None:
        style = king_style(king)
    segs: list[Segment] = [(1 + (C_W - len(title)) // 2, 0, style, title)]
    if tile.is_sea:
        for i, route in enumerate(tile.routes):
            pair = f"{DIRECTION_NAMES[(route.a + rot) % 6]}-{DIRECTION_NAMES[(route.b + rot) % 6]}"
            frags = [("class:route", pair)]
            if route.danger:  # `S-SW 3`, or `SW-NW3` where the space does not fit
                frags.append(("class:danger", (" " if len(pair) < C_W - 1 else "")
                              + str(route.danger)))
            segs += _compact_row(i + 1, frags)
        return tuple(segs)
    if king is not None:
        # "King B": the king's colour letter; a translation must keep to 6 characters
        word = _("King {colour}").format(colour="")[: C_W - 1]
        segs += _compact_row(2, [("class:royal", word), (king_style(king), LETTERS[king])])
        return tuple(segs)
    if tid == TONGA:  # two beaches of three berths to a row, numbers by position
        for row in range(3):
            frags: list[Fragment] = []
            for b in (2 * row, 2 * row + 1):
                beach_ships = ships[b]
                free = tile.beaches[b].berths - len(beach_ships)
                frags.extend((ship_style(c), LETTERS[c]) for c in beach_ships)
                if free > 0:
                    frags.append(("class:berth", FREE * free))
            segs += _compact_row(row + 1, frags)
        return tuple(segs)
    first_row = 1 if len(tile.beaches) >= 3 else 2
    for b in range(len(tile.beaches)):
        frags = _beach_fragments(tid, b, rot, ships[b], spaced=True)[:-1]  # no piers
        segs += _compact_row(first_row + b, frags)
    return tuple(segs)


@lru_cache(maxsize=512)
def compact_frontier_face(q: int, r: int) -> tuple:
    label = f"{q},{r}"[:C_W]
    return ((1 + (C_W - len(label)) // 2, 2, "class:coord", label),)


# ------------------------------------------------------------------ the view


def board_extent(hexes, geo: Geometry = FULL) -> tuple[int, int, int, int]:
    """Board-space bounding box (x0, y0, x1, y1), exclusive ends, of some hexes."""
    xs, ys = [], []
    for h in hexes:
        x, y = geo.origin(h)
        xs.append(x)
        ys.append(y)
    if not xs:
        return 0, 0, geo.box_w, geo.box_h
    return min(xs), min(ys), max(xs) + geo.box_w, max(ys) + geo.box_h


def fitting_geometry(hexes, width: int, height: int) -> Geometry:
    """The full drawing where the whole board fits the window, else the compact one
    where that fits; else the full one again, which the view then scrolls around the
    decision (its piers matter more than the far side of the board)."""
    for geo in (FULL, COMPACT):
        x0, y0, x1, y1 = board_extent(hexes, geo)
        if x1 - x0 <= width and y1 - y0 <= height:
            return geo
    return FULL


class BoardView:
    """A window onto the board: where it looks (pan state) and how it draws.

    Until the player pans, the view keeps the whole archipelago centred as it grows,
    compact where only that fits; a pan shows the full-size hexes (the way to read a
    compact board's piers) and stays put until re-centred.
    """

    def __init__(self, usual_height: Callable[[], int] | None = None) -> None:
        self.offset: tuple[int, int] | None = None
        # The window's height as it mostly is (the screen's, with a one-row status and
        # message line): the drawing is chosen for it, not for the rows a longer status or
        # message leaves for a while. A board that just fits compact was drawn as hexes
        # for as long as a reason took two rows, and then boxes again, with nothing said.
        self._usual_height = usual_height
        self.geometry: Geometry = FULL  # of the last drawing
        self._last_auto = (0, 0)  # the full-size origin a first pan starts from
        self._drawn: tuple[int, int] = (0, 0)  # origin of the last drawing, for clicks
        self.pinned: tuple[int, int] | None = None  # (island, moves then): `centre_on`

    def recentre(self) -> None:
        self.offset = None
        self.pinned = None

    def centre_on(self, tile_id: int, moves: int) -> None:
        """`centre Tahiti`: the view goes to that island (a hint named an island off the
        screen of a newcomer's 80x24 window) and stays there until the next move."""
        self.offset = None
        self.pinned = (tile_id, moves)

    def pan(self, dx_hexes: int, dy_hexes: int) -> None:
        ox, oy = self.offset if self.offset is not None else self._last_auto
        self.offset = (ox + dx_hexes * STEP_X, oy + dy_hexes * STEP_Y)

    def origin_for(self, game: Game, width: int, height: int, extra=(),
                   focus: Hex | None = None, geo: Geometry = FULL) -> tuple[int, int]:
        """Centred on the whole board; where the board is wider or taller than the
        window, as much of it as fits around the hex the decision is about."""
        if self.offset is not None:
            return self.offset
        x0, y0, x1, y1 = board_extent([*game.placed_tiles(), *extra], geo)
        ox, oy = (x0 + x1) // 2 - width // 2, (y0 + y1) // 2 - height // 2
        if focus is not None:
            fx, fy = geo.origin(focus)
            if x1 - x0 > width:
                ox = min(max(fx + geo.box_w // 2 - width // 2, x0), x1 - width)
            if y1 - y0 > height:
                oy = min(max(fy + geo.box_h // 2 - height // 2, y0), y1 - height)
        return ox, oy

    def render(
        self,
        game: Game,
        width: int,
        height: int,
        frontier: bool = False,
        focus: int | None = None,
    ) -> Canvas:
        """`frontier` (a New Colony) draws the free hexes with their coordinates; at
        other times they are drawn faintly, so a player sees where the board may grow."""
        if self.pinned is not None:
            if self.pinned[1] == len(game.moves) and game.hex_of(self.pinned[0]) is not None:
                focus = self.pinned[0]
            else:
                self.pinned = None
        placed = game.placed_tiles()
        free: list[Hex] = game.frontier()
        extra = free if frontier else ()
        focus_hex = game.hex_of(focus) if focus is not None else None
        geo = FULL
        if self.offset is None:
            fit = max(height, self._usual_height()) if self._usual_height else height
            geo = fitting_geometry([*placed, *extra], width, fit)
            if geo is FULL and extra and fitting_geometry(placed, width, fit) is COMPACT:
                # a New Colony on a late board: every tile in compact hexes, the ring of
                # free hexes around it as far as it fits (centred, so it is cut evenly)
                geo = COMPACT
            self._last_auto = self.origin_for(game, width, height, extra, focus_hex)
        ox, oy = self.origin_for(game, width, height, extra, focus_hex, geo)
        self.geometry = geo
        self._drawn = (ox, oy)
        return draw(game, placed, width, height, ox, oy, free, focus, coords=frontier, geo=geo)

    def hit(self, game: Game, x: int, y: int) -> dict | None:
        """What is under a cell of the last drawing: {"hex", "tile", "beach", "pier"}
        (tile None on a free hex; beach and pier None where none was hit)."""
        bx, by = x + self._drawn[0], y + self._drawn[1]
        placed = game.placed_tiles()
        compact = self.geometry is COMPACT
        for h in [*placed, *game.frontier()]:
            x0, y0 = self.geometry.origin(h)
            dx, dy = bx - x0, by - y0
            # rows 0..3 belong to this hex (row 4 is the title row of the one below)
            if not 0 <= dy <= 3:
                continue
            if compact:
                lo, width = 1, C_W
            else:
                lo, width = (HALF, TOP) if dy == 0 else (ROW_SPAN[dy - 1][0] - 1,
                                                           ROW_SPAN[dy - 1][1] + 2)
            if not lo <= dx < lo + width:
                continue
            cell = placed.get(h)
            if cell is None:
                return {"hex": h, "tile": None, "beach": None, "pier": None}
            tid, rot = cell
            beach, pier = None, None
            if tid < 16 and game.king_of(tid) is None and dy:
                if compact:
                    beach = _compact_beach_at(tid, dx, dy)
                else:
                    beach, pier = _beach_at(game, tid, rot, dx, dy)
            return {"hex": h, "tile": tid, "beach": beach, "pier": pier}
        return None


def _compact_beach_at(tid: int, dx: int, dy: int) -> int | None:
    """The beach drawn on row dy of a compact island (Tonga: left or right half)."""
    if tid == TONGA:
        return 2 * (dy - 1) + (1 if dx - 1 >= 3 else 0)
    n = len(TILES[tid].beaches)
    beach = dy - (1 if n >= 3 else 2)
    return beach if 0 <= beach < n else None


def _beach_at(game: Game, tid: int, rot: int, dx: int, dy: int) -> tuple[int | None, str | None]:
    """The beach drawn on row dy of an island's face, and the pier word under column dx."""
    segs = [s for s in tile_face(tid, rot, game.ships_on(tid), None) if s[1] == dy]
    n = len(TILES[tid].beaches)
    if tid == TONGA:  # a beach starts with its pier there: the second pier starts beach 2
        starts = [s[0] for s in segs if s[2] == "class:pier"]
        beach = 2 * (dy - 1) + (1 if len(starts) > 1 and dx >= starts[1] else 0)
    else:
        first_row = 1 if n >= 3 else 2
        beach = dy - first_row
        if not 0 <= beach < n:
            return None, None
    pier = None
    for sx, _row, style, text in segs:
        if style == "class:pier" and sx <= dx < sx + len(text):
            i = dx - sx
            if text[i] != " ":
                start = text.rfind(" ", 0, i) + 1
                end = text.find(" ", i)
                pier = text[start:end if end >= 0 else len(text)]
    return beach, pier


def draw(game: Game, placed, width: int, height: int, ox: int, oy: int,
         free=(), focus: int | None = None, coords: bool = True,
         geo: Geometry = FULL) -> Canvas:
    compact = geo is COMPACT
    outlines = COMPACT_OUTLINES if compact else OUTLINES
    face_of = compact_face if compact else tile_face
    free_face = compact_frontier_face if compact else frontier_face
    canvas = Canvas(width, height)
    put = canvas.put
    visible: list[tuple[int, int, Hex]] = []
    for h in [*free, *placed]:
        x, y = geo.origin(h)
        x -= ox
        y -= oy
        if x + geo.box_w <= 0 or y + geo.box_h <= 0 or x >= width or y >= height:
            continue
        visible.append((x, y, h))
    # Borders first (shared between neighbours), then every face on top of them.
    focus_at = None
    for x, y, h in visible:
        cell = placed.get(h)
        if cell is None:
            kind = "hex.frontier"
        else:
            tid = cell[0]
            if tid == focus:
                focus_at = (x, y)
            kind = "hex.tonga" if tid == TONGA else ("hex.island" if tid < 16 else "hex")
        for dx, dy, style, text in outlines[kind]:
            put(x + dx, y + dy, text, style)
    if focus_at is not None:
        for dx, dy, style, text in outlines["hex.focus"]:
            put(focus_at[0] + dx, focus_at[1] + dy, text, style)
    for x, y, h in visible:
        cell = placed.get(h)
        if cell is None:
            if not coords:
                continue
            face = free_face(*h)
        else:
            tid, rot = cell
            if tid < 16:
                face = face_of(tid, rot, game.ships_on(tid), game.king_of(tid))
            else:
                face = face_of(tid, rot, (), None)
        for dx, dy, style, text in face:
            put(x + dx, y + dy, text, style)
    return canvas


def render_text(game: Game, width: int = 0, height: int = 0, frontier: bool = False,
                compact: bool = False) -> str:
    """The whole board (or a window of the given size), colour-free: for snapshots,
    logs and anyone piping the output."""
    geo = COMPACT if compact else FULL
    placed = game.placed_tiles()
    free: list[Hex] = game.frontier() if frontier else []
    x0, y0, x1, y1 = board_extent([*placed, *free], geo)
    if not width or not height:
        width, height = x1 - x0, y1 - y0
        ox, oy = x0, y0
    else:
        ox, oy = (x0 + x1) // 2 - width // 2, (y0 + y1) // 2 - height // 2
    return draw(game, placed, width, height, ox, oy, free, geo=geo).text()


tile_face.cache_clear = _tile_face.cache_clear  # type: ignore[attr-defined]
compact_face.cache_clear = _compact_face.cache_clear  # type: ignore[attr-defined]

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
"""

from __future__ import annotations

from functools import lru_cache

from tongiaki_lan.engine import LETTERS, TILES, TONGA, Game
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES, Hex
from tongiaki_lan.i18n import _
from tongiaki_lan.i18n import current as current_language

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
    beach = TILES[tid].beaches[b]
    free = beach.berths - len(ships)
    # a full beach is the one that departs next (M1): its number stands out
    frags: list[Fragment] = [("class:beach.full" if free <= 0 else "class:beach", str(b + 1))]
    frags.extend((ship_style(c), LETTERS[c]) for c in ships)
    if free > 0:
        frags.append(("class:berth", FREE * free))
    piers = " ".join(DIRECTION_NAMES[(p + rot) % 6] for p in beach.piers)
    frags.append(("class:pier", (" " if spaced else "") + piers))
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
    text = f"{tile.name} {tile.value}"
    return text if len(text) <= TOP else f"{tile.name}{tile.value}"


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


# ------------------------------------------------------------------ the view


def board_extent(hexes) -> tuple[int, int, int, int]:
    """Board-space bounding box (x0, y0, x1, y1), exclusive ends, of some hexes."""
    xs, ys = [], []
    for h in hexes:
        x, y = hex_origin(h)
        xs.append(x)
        ys.append(y)
    if not xs:
        return 0, 0, HEX_W, HEX_H
    return min(xs), min(ys), max(xs) + HEX_W, max(ys) + HEX_H


class BoardView:
    """A window onto the board: where it looks (pan state) and how it draws.

    Until the player pans, the view keeps the whole archipelago centred as it grows;
    after a pan it stays put until re-centred.
    """

    def __init__(self) -> None:
        self.offset: tuple[int, int] | None = None
        self._last_auto = (0, 0)
        self._drawn: tuple[int, int] = (0, 0)  # origin of the last drawing, for clicks

    def recentre(self) -> None:
        self.offset = None

    def pan(self, dx_hexes: int, dy_hexes: int) -> None:
        ox, oy = self.offset if self.offset is not None else self._last_auto
        self.offset = (ox + dx_hexes * STEP_X, oy + dy_hexes * STEP_Y)

    def origin_for(self, game: Game, width: int, height: int, extra=(),
                   focus: Hex | None = None) -> tuple[int, int]:
        """Centred on the whole board; where the board is wider or taller than the
        window, as much of it as fits around the hex the decision is about."""
        if self.offset is not None:
            return self.offset
        x0, y0, x1, y1 = board_extent([*game.placed_tiles(), *extra])
        ox, oy = (x0 + x1) // 2 - width // 2, (y0 + y1) // 2 - height // 2
        if focus is not None:
            fx, fy = hex_origin(focus)
            if x1 - x0 > width:
                ox = min(max(fx + HEX_W // 2 - width // 2, x0), x1 - width)
            if y1 - y0 > height:
                oy = min(max(fy + HEX_H // 2 - height // 2, y0), y1 - height)
        self._last_auto = (ox, oy)
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
        placed = game.placed_tiles()
        free: list[Hex] = game.frontier()
        ox, oy = self.origin_for(game, width, height, free if frontier else (),
                                 game.hex_of(focus) if focus is not None else None)
        self._drawn = (ox, oy)
        return draw(game, placed, width, height, ox, oy, free, focus, coords=frontier)

    def hit(self, game: Game, x: int, y: int) -> dict | None:
        """What is under a cell of the last drawing: {"hex", "tile", "beach", "pier"}
        (tile None on a free hex; beach and pier None where none was hit)."""
        bx, by = x + self._drawn[0], y + self._drawn[1]
        placed = game.placed_tiles()
        for h in [*placed, *game.frontier()]:
            x0, y0 = hex_origin(h)
            dx, dy = bx - x0, by - y0
            # rows 0..3 belong to this hex (row 4 is the title row of the one below)
            if not 0 <= dy <= 3:
                continue
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
                beach, pier = _beach_at(game, tid, rot, dx, dy)
            return {"hex": h, "tile": tid, "beach": beach, "pier": pier}
        return None


def _beach_at(game: Game, tid: int, rot: int, dx: int, dy: int) -> tuple[int | None, str | None]:
    """The beach drawn on row dy of an island's face, and the pier word under column dx."""
    segs = [s for s in tile_face(tid, rot, game.ships_on(tid), None) if s[1] == dy]
    n = len(TILES[tid].beaches)
    if tid == TONGA:
        starts = [s[0] for s in segs if s[2].startswith("class:beach")]
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
         free=(), focus: int | None = None, coords: bool = True) -> Canvas:
    canvas = Canvas(width, height)
    put = canvas.put
    visible: list[tuple[int, int, Hex]] = []
    for h in [*free, *placed]:
        x, y = hex_origin(h)
        x -= ox
        y -= oy
        if x + HEX_W <= 0 or y + HEX_H <= 0 or x >= width or y >= height:
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
        for dx, dy, style, text in OUTLINES[kind]:
            put(x + dx, y + dy, text, style)
    if focus_at is not None:
        for dx, dy, style, text in OUTLINES["hex.focus"]:
            put(focus_at[0] + dx, focus_at[1] + dy, text, style)
    for x, y, h in visible:
        cell = placed.get(h)
        if cell is None:
            if not coords:
                continue
            face = frontier_face(*h)
        else:
            tid, rot = cell
            if tid < 16:
                face = tile_face(tid, rot, game.ships_on(tid), game.king_of(tid))
            else:
                face = tile_face(tid, rot, (), None)
        for dx, dy, style, text in face:
            put(x + dx, y + dy, text, style)
    return canvas


def render_text(game: Game, width: int = 0, height: int = 0, frontier: bool = False) -> str:
    """The whole board (or a window of the given size), colour-free: for snapshots,
    logs and anyone piping the output."""
    placed = game.placed_tiles()
    free: list[Hex] = game.frontier() if frontier else []
    x0, y0, x1, y1 = board_extent([*placed, *free])
    if not width or not height:
        width, height = x1 - x0, y1 - y0
        ox, oy = x0, y0
    else:
        ox, oy = (x0 + x1) // 2 - width // 2, (y0 + y1) // 2 - height // 2
    return draw(game, placed, width, height, ox, oy, free).text()


tile_face.cache_clear = _tile_face.cache_clear  # type: ignore[attr-defined]

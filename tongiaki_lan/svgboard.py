"""The board as a standalone SVG picture, for sharing a game's final (or any) position.

`board_svg(game)` is a pure function of the public state: the same position (and the
same language, for the legend's words, and the same marks) always gives the same bytes,
and nothing here needs a terminal, a font file or the network. It draws both the
exported picture (`export --svg`) and the live board page (`console/web`), one code
path for both. The picture is drawn to be read by
people who know the physical game, so it keeps its look: sea tiles with their routes
and danger numbers, islands with their beaches (a row of berths per beach, on its
piers), ships as coloured discs with their colour's letter (readable without colour
vision too), a crown for each king. Every placed tile is one `<g class="tile">`
holding one hexagon, which the tests count.

The board page plays by clicks on the same drawing: the elements a move can name carry
`data-target` in the vocabulary of `console/state.py` — an island tile `island:T`, a
beach (its sand, berths and number) `beach:T:B`, a pier `pier:T:B:D`, and, when asked
(`frontier=True`, a New Colony tile in hand), each empty place a tile may take
`place:Q:R` — and the last move's elements (`marks`, `marked_tiles`) are drawn marked.
Player colours are Okabe and Ito's (`palette.py`), each with its letter.

Geometry follows `engine.hexgrid`: flat-topped hexes in axial coordinates, board
direction d (0 = S, clockwise seen from above) is the edge whose midpoint lies at
60·d + 90 degrees, SVG's y axis pointing down.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from xml.sax.saxutils import escape

from tongiaki_lan.engine import COLOURS, LETTERS, TILES, TONGA, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n.islands import island_name
from tongiaki_lan.palette import PLAYER_PAINT

SIZE = 80  # circumradius of a hex, in SVG user units
APOTHEM = SIZE * math.sqrt(3) / 2
MARGIN = 24
LEGEND_ROW = 22
BERTH_R = 6.0
BADGE_R = 10.0
BERTH_RADIUS = 0.56 * SIZE  # distance of the berth rows from a tile's centre
# Tonga's six beaches of three berths each: a wider ring, so that two neighbouring
# beaches (5 and 6 beside the NE-SE edge) stand clearly apart
TONGA_BERTH_RADIUS = 0.62 * SIZE
LAND_RX, LAND_RY = 0.46 * SIZE, 0.3 * SIZE  # the name's oval
NAME_PX, ROYAL_PX = 12.5, 9.0
# Advance widths (em) of DejaVu Sans Bold, the widest of the fonts the style names, for
# the letters island names use; others count as the widest. A name's size is chosen
# from these so that it fits its oval whichever of those fonts draws it.
_EM = {**dict.fromkeys("iIjlt.:'", 0.40), **dict.fromkeys("frJ ", 0.50),
       **dict.fromkeys("acekhnopsuvxyzïžFLSTZ", 0.72), **dict.fromkeys("bdgqABCEKPRVXY", 0.78),
       **dict.fromkeys("DGHNOQU", 0.84), **dict.fromkeys("mwMW", 1.04)}
# degrees between neighbouring berths of a beach: their discs just clear each other
BERTH_STEP = math.degrees((2 * BERTH_R + 2) / BERTH_RADIUS)

# Ship and king fills, with the ink of the letter on them (palette.py: colour-blind safe)
FILL = PLAYER_PAINT

END_REASONS = {
    "E1": N_("the last island or the last sea tile has been revealed"),
    "X3": N_("the turn limit was reached"),
}
COLOUR_NAMES = {
    "blue": N_("blue"), "red": N_("red"), "green": N_("green"),
    "yellow": N_("yellow"), "orange": N_("orange"), "purple": N_("purple"),
}

# A beach number is drawn on a light halo of its own (`paint-order:stroke`): near the
# tile's edge it meets the last move's outline, black and white, and a pier.
STYLE = """
.sea{fill:#3f86bd;stroke:#1c4866;stroke-width:1.5}
.isle{fill:#8cc3e3;stroke:#1c4866;stroke-width:1.5}
.tonga{fill:#8cc3e3;stroke:#8a5a00;stroke-width:3}
.route{fill:none;stroke:#f4f8fb;stroke-width:4;stroke-linecap:round}
.badge{fill:#fffbe6;stroke:#1c2a33;stroke-width:1.2}
.land{fill:#e9d7a0;stroke:#9c7c3c;stroke-width:1.2}
.pier{stroke:#6b4a21;stroke-width:3.5;stroke-linecap:butt}
.sand{fill:none;stroke:#e9d7a0;stroke-width:16;stroke-linecap:round;opacity:.9}
.berth{fill:#fffdf5;stroke:#6b4a21;stroke-width:1}
.ship{stroke:#111;stroke-width:1.3}
.hit{stroke:#000;stroke-opacity:0;stroke-width:15;stroke-linecap:round}
.spot{fill:#f7f3e8;fill-opacity:.35;stroke:#1c4866;stroke-width:2;stroke-dasharray:7 6}
.coord{font-size:13px;font-weight:bold;fill:#1c4866}
.mark{fill:none;stroke:#111;stroke-width:7;stroke-linejoin:round}
.mark2{fill:none;stroke:#fff;stroke-width:2.5;stroke-dasharray:9 6;stroke-linejoin:round}
.beach.last .sand{stroke:#111;opacity:1}
line.pier.last{stroke:#111;stroke-width:7}
text{font-family:'DejaVu Sans','Liberation Sans',Arial,sans-serif;text-anchor:middle}
.name{font-size:12.5px;font-weight:bold;fill:#2a2110}
.value{font-size:15px;font-weight:bold;fill:#2a2110}
.seaname{font-size:9px;fill:#d8e8f4}
.danger{font-size:12px;font-weight:bold;fill:#1c2a33}
.num{font-size:9px;font-weight:bold;fill:#10202c}
.num{stroke:#fffdf5;stroke-width:2.5px;stroke-linejoin:round;paint-order:stroke}
.letter{font-size:7.5px;font-weight:bold}
.keyletter{font-size:9px;font-weight:bold}
.royal{font-size:9px;font-weight:bold;fill:#5a3a00}
.title{font-size:16px;font-weight:bold;text-anchor:start;fill:#10202c}
.legend{font-size:13px;text-anchor:start;fill:#10202c}
"""


def _f(x: float) -> str:
    """Numbers in the picture, rounded so that the output is byte-identical everywhere."""
    text = f"{x:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def hex_centre(q: int, r: int) -> tuple[float, float]:
    return 1.5 * SIZE * q, math.sqrt(3) * SIZE * (r + q / 2)


def _polar(cx: float, cy: float, radius: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + radius * math.cos(a), cy + radius * math.sin(a)


def edge_angle(direction: int) -> float:
    """Angle (degrees, y down) from a hex's centre to the midpoint of its edge `direction`."""
    return 60 * direction + 90


def _hexagon(cx: float, cy: float, cls: str = "", radius: float = SIZE) -> str:
    points = " ".join(f"{_f(x)},{_f(y)}" for x, y in
                      (_polar(cx, cy, radius, 60 * k) for k in range(6)))
    attr = f' class="{cls}"' if cls else ""
    return f'<polygon{attr} points="{points}"/>'


def _clickable(cls: str, target: str, marks: Collection[str]) -> str:
    """The attributes of an element that stands for moves: its class (with `last` when
    the last move touched it) and its `data-target` (console/state.py's vocabulary)."""
    last = " last" if target in marks else ""
    return f'class="{cls}{last}" data-target="{target}"'


def _text(x: float, y: float, cls: str, text: str, extra: str = "") -> str:
    return f'<text x="{_f(x)}" y="{_f(y)}" class="{cls}"{extra}>{escape(text)}</text>'


def text_width(text: str, px: float) -> float:
    """The width `text` takes at `px` pixels in DejaVu Sans Bold (an upper bound for the
    other fonts of the style)."""
    return sum(_EM.get(ch, 0.84) for ch in text) * px


def fitted_size(text: str, room: float, px: float) -> float:
    """`px`, or less so that `text` fits `room` units wide (never under 6 units)."""
    width = text_width(text, px)
    return px if width <= room else max(6.0, math.floor(px * room / width * 10) / 10)


def name_room(dy_top: float, dy_bottom: float) -> float:
    """The width of the name's oval over a band of rows (relative to its centre)."""
    far = max(abs(dy_top), abs(dy_bottom))
    return 2 * LAND_RX * math.sqrt(max(0.0, 1 - (far / LAND_RY) ** 2)) - 4


def _fitted_text(x: float, y: float, cls: str, text: str, room: float, px: float) -> str:
    size = fitted_size(text, room, px)
    extra = f' style="font-size:{_f(size)}px"' if size != px else ""
    return _text(x, y, cls, text, extra)


def _disc(x: float, y: float, r: float, cls: str, fill: str = "", beach: int = 0) -> str:
    paint = f' fill="{fill}"' if fill else ""
    if beach:  # a berth: which beach it is on (as typed: 1..6)
        paint += f' data-beach="{beach}"'
    return f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(r)}" class="{cls}"{paint}/>'


# ------------------------------------------------------------------ sea tiles


def _route_badges(cx, cy, routes) -> list[tuple[float, float]]:
    """Where each route's danger number goes: the middle of its curve, except that a
    straight route (through the centre) slides along itself out of the way of the
    curved ones, whose middles can lie on it (tiles S05–S12)."""
    spots: list[tuple[float, float] | None] = []
    for (ax, ay), (bx, by), _danger in routes:
        straight = abs(ax + bx - 2 * cx) < 1e-6 and abs(ay + by - 2 * cy) < 1e-6
        spots.append(None if straight else
                     (0.25 * ax + 0.5 * cx + 0.25 * bx, 0.25 * ay + 0.5 * cy + 0.25 * by))
    taken = [s for s in spots if s is not None]
    out: list[tuple[float, float]] = []
    for spot, ((ax, ay), _b, _d) in zip(spots, routes, strict=True):
        if spot is not None:
            out.append(spot)
            continue
        ux, uy = (ax - cx) / APOTHEM, (ay - cy) / APOTHEM
        for offset in (0.0, 0.55, -0.55, 0.75, -0.75):
            x, y = cx + ux * offset * APOTHEM, cy + uy * offset * APOTHEM
            if all(math.hypot(x - tx, y - ty) >= 2 * BADGE_R + 1.5 for tx, ty in taken):
                break
        out.append((x, y))
        taken.append((x, y))
    return out


def _outline(cx: float, cy: float) -> list[str]:
    """The last move's mark on a tile: a band just inside its edge, drawn over the tile's
    ground and under all that stands on it. Drawn over everything, it hid the beach
    numbers of an island just expanded on (Tonga's most of all, the first turns' choice
    of beaches) and took the clicks on them."""
    return [_hexagon(cx, cy, "mark", SIZE - 3.5), _hexagon(cx, cy, "mark2", SIZE - 3.5)]


def _sea_tile(tid: int, rot: int, cx: float, cy: float, marked: bool = False) -> list[str]:
    tile = TILES[tid]
    routes = []
    for route in tile.routes:
        a = _polar(cx, cy, APOTHEM, edge_angle((route.a + rot) % 6))
        b = _polar(cx, cy, APOTHEM, edge_angle((route.b + rot) % 6))
        routes.append((a, b, route.danger))
    out = [f'<g class="tile sea-tile" data-tile="{escape(tile.name)}">',
           f'<g class="sea">{_hexagon(cx, cy)}</g>']
    if marked:
        out += _outline(cx, cy)
    for (ax, ay), (bx, by), _danger in routes:
        out.append(f'<path class="route" d="M{_f(ax)},{_f(ay)} Q{_f(cx)},{_f(cy)} '
                   f'{_f(bx)},{_f(by)}"/>')
    for ((_a, _b, danger), (x, y)) in zip(routes, _route_badges(cx, cy, routes),
                                          strict=True):
        if danger:
            out.append(_disc(x, y, BADGE_R, "badge"))
            out.append(_text(x, y + 4.2, "danger", str(danger)))
    # The tile's own name sits in its bottom-left corner: routes join edge midpoints,
    # so the corners stay clear of them and of their numbers.
    nx, ny = _polar(cx, cy, 0.74 * SIZE, 120)
    out.append(_text(nx, ny + 3, "seaname", tile.name))
    out.append("</g>")
    return out


# ------------------------------------------------------------------ islands


def _beach_angle(piers: Sequence[int], rot: int) -> float:
    """The mean direction of a beach's piers (they are always adjacent edges)."""
    angles = [edge_angle((p + rot) % 6) for p in piers]
    x = sum(math.cos(math.radians(a)) for a in angles)
    y = sum(math.sin(math.radians(a)) for a in angles)
    return math.degrees(math.atan2(y, x))


def _crown(cx: float, cy: float, colour: str) -> str:
    """The king's crown in its colour, with the colour's letter on it."""
    fill, ink = FILL[colour]
    w, h = 22, 14
    x0, y0 = cx - w / 2, cy - h / 2
    pts = [(x0, y0 + h), (x0, y0 + 2), (x0 + w * 0.25, y0 + h * 0.55), (x0 + w / 2, y0 - 2),
           (x0 + w * 0.75, y0 + h * 0.55), (x0 + w, y0 + 2), (x0 + w, y0 + h)]
    points = " ".join(f"{_f(x)},{_f(y)}" for x, y in pts)
    letter = _text(cx, y0 + h - 2.2, "letter", LETTERS[COLOURS.index(colour)], f' fill="{ink}"')
    return f'<polygon class="ship king" points="{points}" fill="{fill}"/>{letter}'


def _island_tile(game: Game, tid: int, rot: int, cx: float, cy: float,
                 marks: Collection[str] = (), alone: bool = False,
                 marked: bool = False) -> list[str]:
    """An island tile on the board (`alone`: in hand, not on the board: no ships;
    `marked`: outlined as the last move's)."""
    tile = TILES[tid]
    cls = "tonga" if tid == TONGA else "isle"
    out = [f'<g {_clickable("tile island-tile", f"island:{tid}", marks)} '
           f'data-tile="{escape(tile.name)}">',
           f'<g class="{cls}">{_hexagon(cx, cy)}</g>']
    if marked:
        out += _outline(cx, cy)
    radius = TONGA_BERTH_RADIUS if tid == TONGA else BERTH_RADIUS
    hits = []  # each pier's outer end, over the berths: what a click on a pier finds
    for b, beach in enumerate(tile.beaches):
        for p in beach.piers:
            d = (p + rot) % 6
            x1, y1 = _polar(cx, cy, 0.3 * SIZE, edge_angle(d))
            x2, y2 = _polar(cx, cy, APOTHEM - 1, edge_angle(d))
            target = f"pier:{tid}:{b}:{d}"
            out.append(f'<line {_clickable("pier", target, marks)} x1="{_f(x1)}" '
                       f'y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
            hx, hy = _polar(cx, cy, radius + BERTH_R + 8, edge_angle(d))
            hits.append(f'<line class="hit" data-target="{target}" x1="{_f(hx)}" '
                        f'y1="{_f(hy)}" x2="{_f(x2)}" y2="{_f(y2)}"/>')
    out.append(f'<ellipse class="land" cx="{_f(cx)}" cy="{_f(cy)}" '
               f'rx="{_f(LAND_RX)}" ry="{_f(LAND_RY)}"/>')
    king = None if alone else game.king_of(tid)
    ships = [()] * len(tile.beaches) if alone else game.ships_on(tid)
    # Nobody lands on a Royal Island (K2, K3): only its piers and its king.
    step = math.degrees((2 * BERTH_R + 2) / radius)  # neighbouring berths just clear
    for b, beach in enumerate(tile.beaches if king is None else ()):
        centre = _beach_angle(beach.piers, rot)
        first = centre - step * (beach.berths - 1) / 2
        out.append(f'<g {_clickable("beach", f"beach:{tid}:{b}", marks)}>')
        # a band of sand under each beach's berths: which berths are one beach shows
        # even where two beaches come close
        a0, a1 = (_polar(cx, cy, radius, first), _polar(cx, cy, radius,
                                                        first + step * (beach.berths - 1)))
        out.append(f'<path class="sand" d="M{_f(a0[0])},{_f(a0[1])} A{_f(radius)},'
                   f'{_f(radius)} 0 0 1 {_f(a1[0])},{_f(a1[1])}"/>')
        for k in range(beach.berths):
            x, y = _polar(cx, cy, radius, first + k * step)
            if k < len(ships[b]):
                cid = ships[b][k]
                fill, ink = FILL[COLOURS[cid]]
                out.append(_disc(x, y, BERTH_R, "ship", fill, b + 1))
                out.append(_text(x, y + 2.7, "letter", LETTERS[cid], f' fill="{ink}"'))
            else:
                out.append(_disc(x, y, BERTH_R, "berth", "", b + 1))
        # The beach number (as in `sail Oahu 2 NE`) just outside its berths, beside the
        # pier when one runs through the middle of them.
        aside = 0 if len(beach.piers) % 2 == 0 else 9
        nx, ny = _polar(cx, cy, radius + 14, centre + aside)
        out.append(_text(nx, ny + 3.2, "num", str(b + 1)))
        out.append("</g>")
    # The name inside its oval, in the player's language, smaller where it is long: the
    # rows it takes are from its baseline up 0.75 em (capitals) and down 0.25 em.
    name = island_name(tid)
    if king is not None:
        out.append(_fitted_text(cx, cy - 7, "name", name, name_room(-7 - 0.75 * NAME_PX, -7
                                                                     + 0.25 * NAME_PX),
                                NAME_PX))
        out.append(_crown(cx, cy + 8, COLOURS[king]))
        out.append(_fitted_text(cx, cy + LAND_RY + 13, "royal", _("Royal Island"),
                                1.5 * SIZE, ROYAL_PX))
    elif tid == TONGA:
        out.append(_fitted_text(cx, cy + 4, "name", name,
                                name_room(4 - 0.75 * NAME_PX, 4 + 0.25 * NAME_PX), NAME_PX))
    else:
        out.append(_fitted_text(cx, cy - 2, "name", name,
                                name_room(-2 - 0.75 * NAME_PX, -2 + 0.25 * NAME_PX), NAME_PX))
        out.append(_text(cx, cy + 14, "value", str(tile.value)))
    out += hits
    out.append("</g>")
    return out


def _place(q: int, r: int, marks: Collection[str]) -> list[str]:
    """An empty place where a New Colony tile may go (C2), with its coordinates as
    typed in `tile Q,R DIR`."""
    cx, cy = hex_centre(q, r)
    return [f'<g {_clickable("place", f"place:{q}:{r}", marks)}>',
            _hexagon(cx, cy, "spot", SIZE - 3),
            _text(cx, cy + 4.5, "coord", f"{q},{r}"), "</g>"]


# ------------------------------------------------------------------ the picture


def board_svg(game: Game, names: Mapping[str, str] | None = None, title: str = "", *,
              marks: Collection[str] = (), marked_tiles: Collection[int] = (),
              frontier: bool = False, legend: bool = True) -> str:
    """The whole board as SVG text.

    `names` maps colours to player names for the legend (colours alone otherwise);
    `title` is a line above it, e.g. the record and the move shown. `marks` are the
    targets (`beach:T:B`, …) and `marked_tiles` the tile ids the last move touched
    (`console/targets.touched`), drawn marked; `frontier` draws the empty places a New
    Colony tile may take; `legend=False` leaves the rows under the board out (the page
    shows the players in a panel of its own).
    """
    placed = game.placed_tiles()
    spots = game.frontier() if frontier else []
    centres = {h: hex_centre(*h) for h in placed}
    xs = [x for x, _ in centres.values()] + [hex_centre(*h)[0] for h in spots]
    ys = [y for _, y in centres.values()] + [hex_centre(*h)[1] for h in spots]
    if not xs:  # every tile removed (X2b) and no place asked for: an empty sea
        xs, ys = [0.0], [0.0]
    x0, x1 = min(xs) - SIZE - MARGIN, max(xs) + SIZE + MARGIN
    y0, y1 = min(ys) - APOTHEM - MARGIN, max(ys) + APOTHEM + MARGIN
    rows = _legend(game, names or {}, title) if legend else []
    # Whole-pixel sizes, so that a browser's picture is exactly width x height pixels.
    width = math.ceil(max(x1 - x0, 420 if rows else 0))
    height = math.ceil((y1 - y0) + (LEGEND_ROW * len(rows) + MARGIN if rows else 0))
    # Centre the board horizontally when the legend is wider than it.
    x0 -= (width - (x1 - x0)) / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(width)}" height="{_f(height)}" '
        f'viewBox="{_f(x0)} {_f(y0)} {_f(width)} {_f(height)}">',
        f"<style>{STYLE}</style>",
        f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(width)}" height="{_f(height)}" '
        f'fill="#f7f3e8"/>',
    ]
    # Placement order: Tonga first, then each tile as it came out of the stack.
    # The last move's tiles are outlined inside their edge (`_outline`): a neighbour
    # drawn later covers no more of it than the width of its own border.
    for h, (tid, rot) in placed.items():
        cx, cy = centres[h]
        marked = tid in marked_tiles or f"island:{tid}" in marks
        if TILES[tid].is_sea:
            out += _sea_tile(tid, rot, cx, cy, marked)
        else:
            out += _island_tile(game, tid, rot, cx, cy, marks, marked=marked)
    for q, r in spots:
        out += _place(q, r, marks)
    x = x0 + MARGIN
    for i, (cls, colour, text) in enumerate(rows):
        y = y1 + MARGIN / 2 + LEGEND_ROW * i
        if colour:  # the player's colour, with its letter on it
            fill, ink = FILL[colour]
            out.append(_disc(x + 8, y - 4.5, 8, "ship", fill))
            out.append(_text(x + 8, y - 1.3, "keyletter", LETTERS[COLOURS.index(colour)],
                             f' fill="{ink}"'))
            out.append(_text(x + 22, y, cls, text, f' data-colour="{colour}"'))
        else:
            out.append(_text(x, y, cls, text))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def tile_svg(game: Game, tid: int, rot: int) -> str:
    """One tile alone, turned as it would lie with its S edge towards board direction
    `rot` (`tile Q,R DIR`), its red mark on that edge: the board page shows a New Colony
    tile in hand this way, and each way it may be placed (the console's side panel draws
    it in characters, its red mark at S)."""
    body = (_sea_tile(tid, rot, 0, 0) if TILES[tid].is_sea
            else _island_tile(game, tid, rot, 0, 0, alone=True))
    x1, y1 = _polar(0, 0, SIZE, 60 * rot + 60)  # (the corners of edge `rot`)
    x2, y2 = _polar(0, 0, SIZE, 60 * rot + 120)
    edge = (f'<line class="redmark" x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" '
            f'y2="{_f(y2)}"/>')
    w, h = 2 * SIZE + 8, 2 * APOTHEM + 8
    return "\n".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_f(w)}" height="{_f(h)}" '
        f'viewBox="{_f(-w / 2)} {_f(-h / 2)} {_f(w)} {_f(h)}" class="tile-in-hand">',
        f"<style>{STYLE}.redmark{{stroke:#d00;stroke-width:7;stroke-linecap:round}}</style>",
        *body, edge, "</svg>"]) + "\n"


def _legend(game: Game, names: Mapping[str, str], title: str) -> list[tuple[str, str, str]]:
    """Rows under the board: (text class, colour of the row's disc or "", text)."""
    rows = []
    if title:
        rows.append(("title", "", title))
    scores = game.scores()
    winners = set(game.winners()) if game.is_over else set()
    sole = len(winners) == 1
    if game.owners is not None and game.is_over:  # V1: a winner's colours both win
        sole = len(V.winners(game)) == 1
        winners = {c for p in V.winners(game) for c in V.player_colours(game, p)}
    for seat, colour in enumerate(game.colours):
        who = names.get(colour, "")
        shown = _(COLOUR_NAMES[colour])
        parts = [f"{who} ({shown})" if who else shown,
                 ngettext("{n} point", "{n} points", scores[colour]).format(n=scores[colour]),
                 ngettext("{n} ship in reserve", "{n} ships in reserve",
                          game.reserve(seat)).format(n=game.reserve(seat))]
        if colour in winners:
            parts.append(_("winner") if sole else _("shared win"))
        rows.append(("legend", colour, " — ".join(parts)))
    if game.owners is not None:  # two colours each (V1): who owns which, scores together
        for p, key in enumerate(V.ranking_keys(game)):
            own = V.player_colours(game, p)
            rows.append(("legend", "", ngettext(
                "{who} ({colours}): {n} point together", "{who} ({colours}): {n} points together",
                key[0]).format(who=names.get(own[0], ""), n=key[0],
                               colours=" + ".join(_(COLOUR_NAMES[c]) for c in own))))
    if game.is_over:
        why = _(END_REASONS[game.end_reason]) if game.end_reason in END_REASONS \
            else game.end_reason
        rows.append(("legend", "", _("Game over: {reason}.").format(
            reason=f"{why} ({game.end_reason})")))
    return rows

"""The text form of a position (`Game.position()` / `Game.from_position()`), and the
checks that tell a possible position from an impossible one (`Game.status()`).

One line of space-separated `key=value` fields in a fixed order, for example::

    tongiaki2 seats=BRG turn=4 setup=6 active=1 reserve=12,13,13
    board=Tonga@0,0r0:B/R/G/B/-/-;S13@-1,-1r5;Samoa@0,-2r1:-/-/R kings=- removed=-
    stack=Muroroa,... pending=action seen=- flags=-

(on one line). A game under a table variant (engine/variant.py) ends with one more
field, `variant=two-colours`. Tiles are named as in the console (`RapaNui`, `S07`); a
tile a New Colony placed (free rotation, C2) has a `*` after its rotation; beaches list
their ships' colour letters, `-` for an empty beach. The format is meant for people and
bug reports; peers compare the binary state of protocol/state.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import decisions as D
from .colours import LETTERS, colour_id
from .hexgrid import DIRECTION_NAMES, DIRECTIONS, direction_by_name
from .moves import Sail
from .tiles import STACK_IDS, TILES, TONGA, tile_by_name, token_name
from .variant import STANDARD, variant_of, with_variant

if TYPE_CHECKING:
    from .game import Game

MAGIC = "tongiaki2"
KEYS = ("seats", "turn", "setup", "active", "reserve", "board", "kings", "removed", "stack",
        "pending", "seen", "flags")
_PENDING_WORD = {
    D.SETUP: "setup", D.ACTION: "action", D.EXPAND_BEACHES: "beaches", D.T1A_SOURCE: "take",
    D.DEPARTURE: "departure", D.LANDING: "landing", D.REVEAL: "reveal",
    D.COLONY_TILE: "tile", D.COLONY_SHIP: "ship",
}
_KIND_OF_WORD = {w: k for k, w in _PENDING_WORD.items()}
_REASONS = ("E1", "X3")


def _letters(colours) -> str:
    return "".join(LETTERS[c] for c in colours)


def _names(tiles) -> str:
    return ",".join(token_name(t) for t in tiles) or "-"


def _sail_text(o: Sail) -> str:
    return f"{token_name(o.island)}/{o.beach + 1}/{DIRECTION_NAMES[o.pier]}"


def format_position(g: Game) -> str:
    board = []
    for (q, r), (t, rot) in sorted(g._placed.items()):
        item = f"{token_name(t)}@{q},{r}r{rot}{'*' if (q, r) in g._free_rot else ''}"
        if t in g._ships:
            item += ":" + "/".join(_letters(b) or "-" for b in g._ships[t])
        board.append(item)
    kind = g._kind
    if kind is None:
        pending = f"over:{g._end_reason}"
    else:
        pending = _PENDING_WORD[kind]
        if kind == D.EXPAND_BEACHES:
            pending += f":{token_name(g._island)}:{g._count}"
        elif kind in (D.T1A_SOURCE, D.COLONY_SHIP):
            pending += f":{token_name(g._island)}"
        elif kind == D.LANDING:
            pending += f":{token_name(g._island)}:{_letters(g._group)}"
        elif kind == D.REVEAL and g._at is not None:
            q, r, d = g._at
            pending += f"@{q},{r}:{DIRECTION_NAMES[d]}:{_letters(g._group)}:"
            pending += token_name(g._origin)
        elif kind == D.COLONY_TILE:
            pending += f":{token_name(g._ctile)}"
    flags = [f for f, on in (("final", g._final), ("closed", g._closed_turn)) if on]
    fields = [
        MAGIC,
        "seats=" + _letters(g._cid),
        f"turn={g._turns}",
        f"setup={g._setup_done}",
        f"active={g._active}",
        "reserve=" + ",".join(map(str, g._reserve)),
        "board=" + (";".join(board) or "-"),
        "kings=" + (",".join(f"{token_name(t)}:{LETTERS[c]}"
                             for t, c in sorted(g._kings.items())) or "-"),
        "removed=" + _names(g._removed),
        "stack=" + _names(g._unrevealed),
        "pending=" + pending,
        "seen=" + (",".join(f"{k.hex()}>{_sail_text(o)}" for k, o in g._seen) or "-"),
        "flags=" + (",".join(flags) or "-"),
    ]
    if g.owners is not None:  # a table variant (engine/variant.py): an optional last field
        fields.append(f"variant={variant_of(g)}")
    return " ".join(fields)


# ---------------------------------------------------------------------------- parsing


class _Bad(ValueError):
    pass


def _int(text: str, what: str, lo: int, hi: int) -> int:
    try:
        v = int(text)
    except ValueError:
        raise _Bad(f"{what} must be a whole number, got {text!r}") from None
    if not lo <= v <= hi:
        raise _Bad(f"{what} must be in {lo}..{hi}, got {v}")
    return v


def _tile(name: str) -> int:
    try:
        return tile_by_name(name).id
    except KeyError:
        raise _Bad(f"no tile named {name!r}") from None


def _island(name: str) -> int:
    t = _tile(name)
    if t >= 16:
        raise _Bad(f"{name} is not an island")
    return t


def _colours(text: str, allowed: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for ch in text:
        try:
            c = colour_id(ch)
        except ValueError:
            raise _Bad(f"{ch!r} is not a colour letter") from None
        if c not in allowed:
            raise _Bad(f"colour {ch} has no seat in this game")
        out.append(c)
    return tuple(sorted(out))


def _hex(text: str) -> tuple[int, int]:
    parts = text.split(",")
    if len(parts) != 2:
        raise _Bad(f"a hex is Q,R, got {text!r}")
    return _int(parts[0], "q", -64, 64), _int(parts[1], "r", -64, 64)


def _tile_list(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(_tile(n) for n in text.split(","))


def parse_position(cls, text: str) -> Game:
    from .game import BERTHS, Game

    try:
        tokens = text.split()
        variant = STANDARD
        if len(tokens) == 2 + len(KEYS) and tokens[-1].startswith("variant="):
            variant = tokens.pop().partition("=")[2]
        if not tokens or tokens[0] != MAGIC:
            raise _Bad(f"a position starts with {MAGIC!r}")
        fields: dict[str, str] = {}
        for tok, key in zip(tokens[1:], KEYS, strict=False):
            k, sep, v = tok.partition("=")
            if not sep or k != key:
                raise _Bad(f"expected field {key}=..., got {tok!r}")
            fields[key] = v
        if len(tokens) != 1 + len(KEYS):
            raise _Bad(f"a position has {len(KEYS)} fields after {MAGIC}, got {len(tokens) - 1}")
        seats = fields["seats"]
        if not 2 <= len(seats) <= 6:
            raise _Bad("seats: 2 to 6 colour letters")
        g = object.__new__(cls)
        try:
            Game.__init__(g, list(seats))
        except ValueError as exc:
            raise _Bad(f"seats: {exc}") from None
        cids = g._cid
        n = len(cids)
        try:
            with_variant(g, variant)
        except ValueError as exc:
            raise _Bad(f"variant: {exc}") from None
        g._turns = _int(fields["turn"], "turn", 0, 10**6)
        g._setup_done = _int(fields["setup"], "setup", 0, 2 * n)
        g._active = _int(fields["active"], "active", 0, n - 1)
        reserve = fields["reserve"].split(",")
        if len(reserve) != n:
            raise _Bad(f"reserve: one number per seat ({n})")
        g._reserve = tuple(_int(x, "reserve", 0, 15) for x in reserve)
        g._placed, g._where, g._ships, free, used = {}, {}, {}, set(), set()
        for item in ([] if fields["board"] == "-" else fields["board"].split(";")):
            head, _, beaches = item.partition(":")
            name, at, rest = head.partition("@")
            if not at or "r" not in rest:
                raise _Bad(f"board: a tile is NAME@Q,RrROT, got {item!r}")
            hx, _, rot_s = rest.partition("r")
            h = _hex(hx)
            star = rot_s.endswith("*")
            rot = _int(rot_s.rstrip("*"), "rotation", 0, 5)
            t = _tile(name)
            if h in g._placed:
                raise _Bad(f"board: two tiles on hex {h[0]},{h[1]}")
            if t in used:
                raise _Bad(f"board: {TILES[t].name} is placed twice")
            used.add(t)
            g._placed[h] = (t, rot)
            if star:
                free.add(h)
            if t < 16:
                g._where[t] = h
                parts = beaches.split("/") if beaches else []
                if len(parts) != len(BERTHS[t]):
                    raise _Bad(f"board: {TILES[t].name} has {len(BERTHS[t])} beaches, "
                               f"got {len(parts)}")
                g._ships[t] = tuple(() if p == "-" else _colours(p, cids) for p in parts)
            elif beaches:
                raise _Bad(f"board: {TILES[t].name} is a sea tile, it has no beaches")
        g._free_rot = frozenset(free)
        g._kings = {}
        if fields["kings"] != "-":
            for item in fields["kings"].split(","):
                name, sep, c = item.partition(":")
                if not sep:
                    raise _Bad(f"kings: ISLAND:COLOUR, got {item!r}")
                if len(c) != 1:
                    raise _Bad(f"kings: one colour letter per king, got {item!r}")
                g._kings[_island(name)] = _colours(c, cids)[0]
        g._removed = tuple(sorted(_tile_list(fields["removed"])))
        g._unrevealed = tuple(sorted(_tile_list(fields["stack"])))
        _parse_pending(g, fields["pending"], cids)
        g._seen = ()
        if fields["seen"] != "-":
            seen = []
            for item in fields["seen"].split(","):
                key, sep, opt = item.partition(">")
                parts = opt.split("/")
                if not sep or len(key) != 16 or len(parts) != 3:
                    raise _Bad(f"seen: KEY>ISLAND/BEACH/PIER, got {item!r}")
                try:
                    k = bytes.fromhex(key)
                except ValueError:
                    raise _Bad(f"seen: {key!r} is not 16 hex digits") from None
                try:
                    pier = direction_by_name(parts[2])
                except ValueError as exc:
                    raise _Bad(f"seen: {exc}") from None
                seen.append((k, Sail(_island(parts[0]), _int(parts[1], "beach", 1, 6) - 1, pier)))
            g._seen = tuple(seen)
        flags = set() if fields["flags"] == "-" else set(fields["flags"].split(","))
        if flags - {"final", "closed"}:
            raise _Bad(f"flags: unknown {sorted(flags - {'final', 'closed'})}")
        g._final = "final" in flags
        g._closed_turn = "closed" in flags
    except _Bad as exc:
        raise ValueError(f"position: {exc}") from None
    problems = check(g)
    if problems:
        raise ValueError("impossible position: " + "; ".join(problems))
    g._clear_caches()
    if g._kind == D.DEPARTURE and not g._offer_departures(g._full_beaches()):
        raise ValueError("impossible position: every option of this departure was taken "
                         "already from this position this turn (X2d ends such a turn)")
    g._settle()
    return g


def _parse_pending(g: Game, text: str, cids) -> None:
    g._island, g._count, g._group, g._origin, g._at, g._ctile = None, 0, (), None, None, None
    g._end_reason = ""
    if text.startswith("over:"):
        reason = text[5:]
        if reason not in _REASONS:
            raise _Bad(f"pending: a game ends by {' or '.join(_REASONS)}, got {reason!r}")
        g._kind, g._end_reason = None, reason
        return
    if text.startswith("reveal@"):
        parts = text[len("reveal@"):].split(":")
        if len(parts) != 4:
            raise _Bad("pending: reveal@Q,R:DIR:GROUP:HOME")
        q, r = _hex(parts[0])
        try:
            d = direction_by_name(parts[1])
        except ValueError as exc:
            raise _Bad(f"pending: {exc}") from None
        g._kind, g._at = D.REVEAL, (q, r, d)
        g._group = _colours(parts[2], cids)
        g._origin = _island(parts[3])
        return
    word, _, rest = text.partition(":")
    kind = _KIND_OF_WORD.get(word)
    if kind is None:
        raise _Bad(f"pending: unknown decision {word!r}")
    g._kind = kind
    args = rest.split(":") if rest else []
    want = {D.EXPAND_BEACHES: 2, D.T1A_SOURCE: 1, D.COLONY_SHIP: 1, D.LANDING: 2,
            D.COLONY_TILE: 1}.get(kind, 0)
    if len(args) != want:
        raise _Bad(f"pending: {word} takes {want} argument(s) after ':'")
    if kind == D.EXPAND_BEACHES:
        g._island, g._count = _island(args[0]), _int(args[1], "ships to add", 1, 6)
    elif kind in (D.T1A_SOURCE, D.COLONY_SHIP):
        g._island = _island(args[0])
    elif kind == D.LANDING:
        g._island, g._group = _island(args[0]), _colours(args[1], cids)
    elif kind == D.COLONY_TILE:
        g._ctile = _tile(args[0])


# ---------------------------------------------------------------------------- checks


def check(g: Game) -> list[str]:
    """Invariants every reachable position keeps (rules digest, 'Checks')."""
    from .game import BERTHS, SHIPS_PER_COLOUR, TURN_LIMIT

    out: list[str] = []
    n = g.n_seats
    kind = g._kind
    # tiles: each exactly once
    where: dict[int, str] = {}
    places = [(t, "on the board") for t, _ in g._placed.values()]
    places += [(t, "removed") for t in g._removed] + [(t, "in the stack") for t in g._unrevealed]
    if g._ctile is not None:
        places.append((g._ctile, "in hand"))
    for t, place in places:
        if t in where:
            out.append(f"{TILES[t].name} is both {where[t]} and {place}")
        where[t] = place
    for t in STACK_IDS:
        if t not in where:
            out.append(f"{TILES[t].name} is nowhere (not placed, removed or in the stack)")
    if TONGA in g._unrevealed:
        out.append("Tonga is never in the stack")
    # ships: 15 per colour, berths respected, kings alone
    group = g._group if kind in (D.LANDING, D.REVEAL) else ()
    on_beaches = [0] * 6
    for beaches in g._ships.values():
        for b in beaches:
            for c in b:
                on_beaches[c] += 1
    for s in range(n):
        cid = g._cid[s]
        on = on_beaches[cid]
        kings = sum(1 for c in g._kings.values() if c == cid)
        sea = group.count(cid)
        total = g._reserve[s] + on + kings + sea
        if total != SHIPS_PER_COLOUR:
            out.append(f"{g.colours[s]} has {total} ships (reserve {g._reserve[s]}, "
                       f"{on} on beaches, {kings} king(s), {sea} at sea), not 15")
        if kings > 2:
            out.append(f"{g.colours[s]} has {kings} Royal Islands; at most 2 (K1)")
    for t, beaches in g._ships.items():
        for b, ships in enumerate(beaches):
            if len(ships) > BERTHS[t][b]:
                out.append(f"{TILES[t].name} beach {b + 1} holds {len(ships)} ships in "
                           f"{BERTHS[t][b]} berths")
    for t in g._kings:
        if t not in g._ships:
            out.append(f"the king of {TILES[t].name} stands on no island on the board")
        elif any(g._ships[t]):
            out.append(f"{TILES[t].name} is a Royal Island with ships on its beaches (K3)")
        if t == TONGA:
            out.append("Tonga cannot be a Royal Island (K1)")
    full = list(g._scan_full()) if all(t in g._ships for t in g._where) else []
    if kind in (D.SETUP, D.ACTION) and full:
        t, b = full[0]
        out.append(f"{TILES[t].name} beach {b + 1} is full between turns")
    if kind == D.DEPARTURE and not full:
        out.append("a departure is pending but no beach is full")
    if kind == D.DEPARTURE:
        for t in sorted({t for t, _ in full if g._is_closed(t)}):
            out.append(f"{TILES[t].name} is closed and has a full beach: X2b removes it "
                       "before any departure")
    # red marks: a revealed tile faces the tile it was attached through (M2)
    if not g._removed:
        for (q, r), (t, rot) in g._placed.items():
            if t == TONGA or (q, r) in g._free_rot:
                continue
            dq, dr = DIRECTIONS[rot]
            if (q + dq, r + dr) not in g._placed:
                out.append(f"{TILES[t].name} at {q},{r}: its red mark faces an empty hex")
    if TONGA not in g._where and TONGA not in g._removed:
        out.append("Tonga is neither on the board nor removed")
    # setup
    if kind == D.SETUP:
        if g._turns or g._unrevealed != STACK_IDS:
            out.append("setup comes before the first turn and the first tile")
        for s in range(n):
            placed = g._setup_done // n + (1 if s < g._setup_done % n else 0)
            if g.on_board(s) != placed:
                out.append(f"{g.colours[s]} has {g.on_board(s)} ships after "
                           f"{g._setup_done} setup placements, not {placed}")
    elif g._setup_done != 2 * n:
        out.append("setup is not finished")
    # the decision's context
    ctx_island = g._island
    if kind in (D.EXPAND_BEACHES, D.T1A_SOURCE, D.LANDING, D.COLONY_SHIP):
        if ctx_island not in g._ships:
            out.append(f"the pending decision names {TILES[ctx_island].name}, not on the board")
        elif ctx_island in g._kings and kind != D.LANDING:
            out.append(f"{TILES[ctx_island].name} is a Royal Island (K3)")
    if kind == D.LANDING and not 1 <= len(g._group) <= 5:
        out.append("a landing group has 1 to 5 ships")
    if kind == D.REVEAL and g._at is not None:
        if (g._at[0], g._at[1]) in g._placed:
            out.append("a tile is to be revealed on a hex that holds one")
        if g._origin not in g._ships or not g._group:
            out.append("a voyage needs a group and a home island on the board")
    if kind == D.REVEAL and not g._unrevealed:
        out.append("a reveal is pending but the stack is empty")
    if kind == D.COLONY_TILE and g._ctile is None:
        out.append("a New Colony tile is pending but none is in hand")
    islands_left = any(t < 16 for t in g._unrevealed)
    seas_left = any(t >= 16 for t in g._unrevealed)
    if kind is not None and g._final != (not islands_left or not seas_left):
        out.append("flag 'final' must be set exactly when every island or every sea tile "
                   "has been revealed (E1)")
    if kind is not None and not seas_left and kind != D.COLONY_TILE:
        out.append("every sea tile is revealed: the game is over (E1)")
    if kind is not None and g._turns >= TURN_LIMIT:
        out.append(f"turn {g._turns} is past the limit of {TURN_LIMIT} (X3)")
    return out

"""Player decisions as immutable values, with a short text form and a wire form.

Every decision a player takes is exactly one Move. The text form is what a player
types in the console (`expand Samoa`, `sail Oahu 2 NE`, `land 1:BR 3:Y`) and
round-trips through `parse_move`; the wire form is a small msgpack-able list
(protocol/moves.md) used by records and the network. Beach numbers are 1-based in
text and 0-based on the wire; piers are board directions.
"""

from __future__ import annotations

from dataclasses import dataclass

from .colours import LETTERS, colour_id
from .errors import N_, Reason
from .hexgrid import DIRECTION_NAMES, direction_by_name
from .tiles import ISLAND_IDS, TILES, TONGA, tile_by_name, token_name

MAX_COORD = 64  # no chain of 32 tiles reaches further from Tonga


class Move:
    """Base class of all moves (for isinstance checks and typing)."""

    __slots__ = ()

    def to_wire(self) -> list:
        raise NotImplementedError

    def __str__(self) -> str:  # pragma: no cover - every subclass defines it
        raise NotImplementedError


def _island_token(tid: int) -> str:
    return token_name(tid)


def _beaches_text(beaches: tuple[int, ...]) -> str:
    return " ".join(str(b + 1) for b in beaches)


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Ships from the reserve onto beaches: setup (S3), X1, and the New Colony ship (C3)."""

    island: int
    beaches: tuple[int, ...]  # one or two beach indices, non-decreasing

    def to_wire(self) -> list:
        return [1, self.island, list(self.beaches)]

    def __str__(self) -> str:
        return f"place {_island_token(self.island)} {_beaches_text(self.beaches)}"


@dataclass(frozen=True, slots=True)
class Expand(Move):
    """T1: a normal turn on this island."""

    island: int

    def to_wire(self) -> list:
        return [2, self.island]

    def __str__(self) -> str:
        return f"expand {_island_token(self.island)}"


@dataclass(frozen=True, slots=True)
class Royal(Move):
    """K1: found a Royal Island."""

    island: int

    def to_wire(self) -> list:
        return [3, self.island]

    def __str__(self) -> str:
        return f"royal {_island_token(self.island)}"


@dataclass(frozen=True, slots=True)
class Colony(Move):
    """C1: start a New Colony."""

    def to_wire(self) -> list:
        return [4]

    def __str__(self) -> str:
        return "colony"


@dataclass(frozen=True, slots=True)
class ChooseBeaches(Move):
    """T1: which beaches of the expanded island get a ship, when there is a choice."""

    beaches: tuple[int, ...]  # strictly increasing

    def to_wire(self) -> list:
        return [5, list(self.beaches)]

    def __str__(self) -> str:
        return f"beaches {_beaches_text(self.beaches)}"


@dataclass(frozen=True, slots=True)
class Take(Move):
    """T1a: the ship (island, beach) that moves to the expanded island."""

    island: int
    beach: int

    def to_wire(self) -> list:
        return [6, self.island, self.beach]

    def __str__(self) -> str:
        return f"take {_island_token(self.island)} {self.beach + 1}"


@dataclass(frozen=True, slots=True)
class TakeNothing(Move):
    """T1a: with an empty reserve, the player may also bring no ship at all."""

    def to_wire(self) -> list:
        return [6]

    def __str__(self) -> str:
        return "take nothing"


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """M2/C2: the tile that comes off the stack (a chance outcome, supplied by a dealer)."""

    tile: int

    def to_wire(self) -> list:
        return [10, self.tile]

    def __str__(self) -> str:
        return f"reveal {token_name(self.tile)}"


@dataclass(frozen=True, slots=True)
class Sail(Move):
    """M1: the next departure — a full beach and one of its piers (board direction)."""

    island: int
    beach: int
    pier: int

    def to_wire(self) -> list:
        return [7, self.island, self.beach, self.pier]

    def __str__(self) -> str:
        return f"sail {_island_token(self.island)} {self.beach + 1} {DIRECTION_NAMES[self.pier]}"


@dataclass(frozen=True, slots=True)
class Land(Move):
    """L1: where the landing group's ships go; ships not named go back to their reserves.

    `placements` holds (beach, colours) for every beach that receives ships, beaches
    increasing, colours sorted: one canonical value per distinct landing.
    """

    placements: tuple[tuple[int, tuple[int, ...]], ...]

    def to_wire(self) -> list:
        return [8, [[b, list(cs)] for b, cs in self.placements]]

    def __str__(self) -> str:
        if not self.placements:
            return "land -"
        parts = [f"{b + 1}:{''.join(LETTERS[c] for c in cs)}" for b, cs in self.placements]
        return "land " + " ".join(parts)


@dataclass(frozen=True, slots=True)
class PlaceTile(Move):
    """C2: where the revealed tile goes and where its red mark points (rotation)."""

    q: int
    r: int
    rotation: int

    def to_wire(self) -> list:
        return [9, self.q, self.r, self.rotation]

    def __str__(self) -> str:
        return f"tile {self.q},{self.r} {DIRECTION_NAMES[self.rotation]}"


# Every reveal there can be, built once: dealers hand one out at every tile of every game.
REVEALS: tuple[Reveal, ...] = tuple(Reveal(t) for t in range(32))


# ---------------------------------------------------------------- wire decoding


def _int(x: object, lo: int, hi: int, what: str) -> int:
    if type(x) is not int or not lo <= x <= hi:
        raise ValueError(f"{what} must be an integer in {lo}..{hi}, got {x!r}")
    return x


def _island_id(x: object) -> int:
    return _int(x, 0, ISLAND_IDS[-1], "island id")


def _beach_list(x: object, strict: bool) -> tuple[int, ...]:
    if not isinstance(x, (list, tuple)) or not 1 <= len(x) <= 6:
        raise ValueError(f"beach list must hold 1..6 beaches, got {x!r}")
    out = tuple(_int(b, 0, 5, "beach") for b in x)
    pairs = list(zip(out, out[1:], strict=False))
    ok = all(a < b for a, b in pairs) if strict else all(a <= b for a, b in pairs)
    if not ok:
        raise ValueError(f"beach list must be in increasing order, got {list(out)}")
    return out


def move_from_wire(obj: object) -> Move:
    """Decode a move's wire form; anything malformed raises ValueError saying why."""
    if not isinstance(obj, (list, tuple)) or not obj:
        raise ValueError(f"a move is a non-empty list, got {type(obj).__name__}")
    code = obj[0]
    n = len(obj)
    if code == 1 and n == 3:
        beaches = _beach_list(obj[2], strict=False)
        if len(beaches) > 2:
            raise ValueError("place puts at most 2 ships")
        return Place(_island_id(obj[1]), beaches)
    if code == 2 and n == 2:
        return Expand(_island_id(obj[1]))
    if code == 3 and n == 2:
        return Royal(_island_id(obj[1]))
    if code == 4 and n == 1:
        return Colony()
    if code == 5 and n == 2:
        return ChooseBeaches(_beach_list(obj[1], strict=True))
    if code == 6 and n == 3:
        return Take(_island_id(obj[1]), _int(obj[2], 0, 5, "beach"))
    if code == 6 and n == 1:
        return TakeNothing()
    if code == 10 and n == 2:
        return Reveal(_int(obj[1], 1, len(TILES) - 1, "tile id"))
    if code == 7 and n == 4:
        return Sail(_island_id(obj[1]), _int(obj[2], 0, 5, "beach"), _int(obj[3], 0, 5, "pier"))
    if code == 8 and n == 2:
        raw = obj[1]
        if not isinstance(raw, (list, tuple)) or len(raw) > 6:
            raise ValueError("land placements must be a list of at most 6 beaches")
        placements = []
        for item in raw:
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise ValueError(f"land placement must be [beach, colours], got {item!r}")
            beach = _int(item[0], 0, 5, "beach")
            cs = item[1]
            if not isinstance(cs, (list, tuple)) or not 1 <= len(cs) <= 5:
                raise ValueError(f"colours on a beach must be a list of 1..5, got {cs!r}")
            colours = tuple(_int(c, 0, 5, "colour") for c in cs)
            if list(colours) != sorted(colours):
                raise ValueError("colours on a beach must be sorted")
            placements.append((beach, colours))
        if any(a[0] >= b[0] for a, b in zip(placements, placements[1:], strict=False)):
            raise ValueError("land placements must name each beach once, in increasing order")
        return Land(tuple(placements))
    if code == 9 and n == 4:
        return PlaceTile(
            _int(obj[1], -MAX_COORD, MAX_COORD, "q"),
            _int(obj[2], -MAX_COORD, MAX_COORD, "r"),
            _int(obj[3], 0, 5, "rotation"),
        )
    raise ValueError(f"unknown move form {list(obj)[:5]!r}")


# ---------------------------------------------------------------- text parsing


def _parse_island(tokens: list[str]) -> tuple[int, list[str]]:
    """Island names may contain a space ("Rapa Nui", "Hiva Oa"): try two tokens first."""
    if len(tokens) >= 2:
        try:
            tile = tile_by_name(tokens[0] + " " + tokens[1])
            if tile.is_island:
                return tile.id, tokens[2:]
        except KeyError:
            pass
    if not tokens:
        raise ValueError(Reason(N_("an island name is missing")))
    try:
        tile = tile_by_name(tokens[0])
    except KeyError:
        raise ValueError(Reason(N_("no island named '{name}'"), name=tokens[0])) from None
    if not tile.is_island:
        raise ValueError(Reason(N_("{tile} is not an island"), tile=tile.name))
    return tile.id, tokens[1:]


def _parse_beach(tok: str) -> int:
    if not tok.isdigit() or not 1 <= int(tok) <= 6:
        raise ValueError(Reason(N_("beach numbers run from 1 to 6, got '{got}'"), got=tok))
    return int(tok) - 1


def parse_move(text: str) -> Move:
    """Parse the text form; raises ValueError with a one-line reason."""
    tokens = text.replace(",", " , ").split()
    if not tokens:
        raise ValueError(Reason(N_("empty command")))
    verb, rest = tokens[0].lower(), tokens[1:]
    if verb == "colony":
        if rest:
            raise ValueError(Reason(N_("'colony' takes nothing after it")))
        return Colony()
    if verb in ("expand", "royal"):
        island, extra = _parse_island(rest)
        if extra:
            raise ValueError(Reason(N_("unexpected '{words}' after the island"),
                                    words=" ".join(extra)))
        return Expand(island) if verb == "expand" else Royal(island)
    if verb == "place":
        island, extra = _parse_island(rest)
        if not 1 <= len(extra) <= 2:
            raise ValueError(Reason(N_("place: name one or two beach numbers, e.g. 'place Tonga "
                                        "2 5'")))
        return Place(island, tuple(sorted(_parse_beach(t) for t in extra)))
    if verb == "beaches":
        if not rest:
            raise ValueError(Reason(N_("beaches: name the beach numbers, e.g. 'beaches 1 3'")))
        bs = sorted(_parse_beach(t) for t in rest)
        if len(set(bs)) != len(bs):
            raise ValueError(Reason(N_("beaches: each beach at most once")))
        return ChooseBeaches(tuple(bs))
    if verb == "take" and [t.lower() for t in rest] == ["nothing"]:
        return TakeNothing()
    if verb == "reveal":
        if len(rest) != 1:
            raise ValueError(Reason(N_("reveal: name one tile, e.g. 'reveal Samoa' or "
                                       "'reveal S12'")))
        try:
            tile = tile_by_name(rest[0])
        except KeyError:
            raise ValueError(Reason(N_("no tile named '{name}'"), name=rest[0])) from None
        if tile.id == TONGA:
            raise ValueError(Reason(N_("Tonga is never in the stack")))
        return Reveal(tile.id)
    if verb == "take":
        island, extra = _parse_island(rest)
        if len(extra) != 1:
            raise ValueError(Reason(N_("take: name the island and the beach, e.g. 'take Oahu "
                                        "2'")))
        return Take(island, _parse_beach(extra[0]))
    if verb == "sail":
        island, extra = _parse_island(rest)
        if len(extra) != 2:
            raise ValueError(Reason(N_("sail: name island, beach and pier, e.g. 'sail Oahu 2 "
                                        "NE'")))
        return Sail(island, _parse_beach(extra[0]), direction_by_name(extra[1]))
    if verb == "land":
        if rest == ["-"] or not rest:
            return Land(())
        placements: dict[int, tuple[int, ...]] = {}
        for tok in rest:
            beach_s, sep, letters = tok.partition(":")
            if not sep or not letters:
                raise ValueError(Reason(N_("land: write beach:colours, e.g. '1:BR', got '{got}'"),
                                        got=tok))
            beach = _parse_beach(beach_s)
            if beach in placements:
                raise ValueError(Reason(N_("land: beach {beach} named twice"), beach=beach + 1))
            placements[beach] = tuple(sorted(colour_id(ch) for ch in letters))
        return Land(tuple(sorted(placements.items())))
    if verb == "tile":
        # tile Q,R DIR   (tokens were split around the comma)
        if len(rest) != 4 or rest[1] != ",":
            raise ValueError(Reason(N_("tile: give the hex and the red mark's direction, e.g. "
                                       "'tile 1,-2 S'")))
        try:
            q, r = int(rest[0]), int(rest[2])
        except ValueError:
            raise ValueError(Reason(N_("tile: coordinates are whole numbers, e.g. 'tile 1,-2 "
                                       "S'"))) from None
        if not (-MAX_COORD <= q <= MAX_COORD and -MAX_COORD <= r <= MAX_COORD):
            raise ValueError(Reason(N_("tile: hex is too far away")))
        return PlaceTile(q, r, direction_by_name(rest[3]))
    raise ValueError(Reason(N_(
        "unknown command '{command}' (moves: place, expand, royal, colony, beaches, take, sail, "
        "land, tile, reveal)"), command=verb))


__all__ = [
    "Move", "Place", "Expand", "Royal", "Colony", "ChooseBeaches", "Take", "TakeNothing", "Sail",
    "Land", "PlaceTile", "Reveal", "move_from_wire", "parse_move", "TONGA", "TILES",
]

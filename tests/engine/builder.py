"""Explicit positions for scenario tests, written as position text (`Game.from_position`).

Tests describe a situation — tiles, ships, kings, what is pending, the next tiles of the
stack — and get a game in that position through the engine's public reader, which
refuses anything impossible. No test touches the engine's private fields.
"""

from __future__ import annotations

from tongiaki_lan.engine import COLOURS, LETTERS, Dealer, Game, Reveal, colour_id, tile_by_name
from tongiaki_lan.engine.tiles import STACK_IDS, TILES, token_name


def tid(name: str) -> int:
    return tile_by_name(name).id


class Dealt(Game):
    """A game whose reveals come at once from a scripted stack (`stack=` of `build`), so
    a test reads like the table: "sail … ; the tile is S13; then Samoa"."""

    dealer: Dealer

    def apply(self, move) -> None:
        super().apply(move)
        while self.awaiting_reveal:
            super().apply(Reveal(self.dealer.tile_for(self)))


def position_text(
    players: int = 4,
    tiles: dict | None = None,
    ships: dict | None = None,
    kings: dict | None = None,
    active: int = 0,
    removed: list[str] | None = None,
    pending: str = "action",
    group: str = "",
    colours: tuple[str, ...] | None = None,
    turn: int = 0,
    seen: str = "-",
    flags: str | None = None,
) -> str:
    """tiles: {(q, r): (name, rotation)} besides Tonga at (0, 0) (hand-placed: free
    rotation). ships: {island: ["YYOR", "", "B"]}, letters per beach. kings: {island:
    colour}. group: letters of a group at sea (a landing or a voyage waiting for a tile)."""
    colours = colours or COLOURS[:players]
    cids = [colour_id(c) for c in colours]
    placed = {} if "Tonga" in (removed or []) else {(0, 0): ("Tonga", 0, False)}
    for h, (name, rot) in (tiles or {}).items():
        placed[h] = (name, rot, True)
    beaches: dict[str, list[str]] = {}
    for name, _, _ in placed.values():
        t = tid(name)
        if t < 16:
            beaches[TILES[t].name] = ["" for _ in TILES[t].beaches]
    for name, bs in (ships or {}).items():
        assert TILES[tid(name)].name in beaches, f"{name} is not on the board"
        assert len(bs) == len(TILES[tid(name)].beaches), f"{name}: one string per beach"
        beaches[TILES[tid(name)].name] = list(bs)
    king_of = {tid(n): colour_id(c) for n, c in (kings or {}).items()}
    reserve = []
    for cid in cids:
        letter = LETTERS[cid]
        on = sum(b.upper().count(letter) for bs in beaches.values() for b in bs)
        crowns = sum(1 for c in king_of.values() if c == cid)
        reserve.append(15 - on - crowns - group.upper().count(letter))
    board = []
    for (q, r), (name, rot, free) in sorted(placed.items()):
        item = f"{token_name(tid(name))}@{q},{r}r{rot}{'*' if free else ''}"
        if tid(name) < 16:
            item += ":" + "/".join(b.upper() or "-" for b in beaches[TILES[tid(name)].name])
        board.append(item)
    out = {tid(n) for n, _, _ in placed.values()} | {tid(n) for n in (removed or [])}
    stack = [t for t in STACK_IDS if t not in out]
    if flags is None:
        flags = "-" if any(t < 16 for t in stack) else "final"
    fields = [
        "tongiaki2",
        "seats=" + "".join(LETTERS[c] for c in cids),
        f"turn={turn}", f"setup={2 * len(cids)}", f"active={active}",
        "reserve=" + ",".join(map(str, reserve)),
        "board=" + (";".join(board) or "-"),
        "kings=" + (",".join(f"{token_name(t)}:{LETTERS[c]}" for t, c in sorted(king_of.items()))
                    or "-"),
        "removed=" + (",".join(token_name(tid(n)) for n in sorted(removed or [], key=tid)) or "-"),
        "stack=" + (",".join(token_name(t) for t in stack) or "-"),
        "pending=" + pending, "seen=" + seen, "flags=" + flags,
    ]
    return " ".join(fields)


def build(stack: list[str] | None = None, migrate: bool = False, deal: bool = True,
          **kw) -> Game:
    """A game in the described position. stack: the next tiles, in order (the rest
    follow in id order). migrate=True: the departure decision (M1) is pending.
    deal=False: reveals stay pending for the test to answer."""
    if migrate:
        kw["pending"] = "departure"
    cls = Dealt if deal else Game
    g = cls.from_position(position_text(**kw))
    if deal:
        g.dealer = Dealer(order=[tid(n) for n in (stack or [])])
        g.dealer.deal(g)  # a forced departure may already wait for a tile
    return g


def beach(g: Game, name: str, b: int) -> str:
    """Letters on a beach, e.g. 'BBR'."""
    return "".join(LETTERS[c] for c in g.ships_on(tid(name))[b])


def ships_total(g: Game, seat: int) -> int:
    cid = g.colour_ids()[seat]
    on = sum(b.count(cid) for t in g.islands() for b in g.ships_on(t))
    kings = sum(1 for c in g.kings().values() if c == cid)
    sea = g.group_at_sea().count(cid)
    return g.reserve(seat) + on + kings + sea


def at_landing(island: str, group: str, **kw) -> Game:
    """`group` (letters) at sea, about to land on `island` (for L1 tests)."""
    return build(pending=f"landing:{token_name(tid(island))}:{group.upper()}", group=group, **kw)

"""Words for what the game is waiting for, and the help a player can ask for."""

from __future__ import annotations

from tongiaki_lan.engine import LETTERS, TILES, Game, Sail
from tongiaki_lan.engine import decisions as D

from .story import final_words, ships_text, tile_label


def pending_text(game: Game, names: list[str], local: set[int]) -> tuple[str, str]:
    """(style, text) for the status line: the pending decision and whose it is."""
    p = game.pending
    if p is None:
        return "class:status.over", f"Game over. {final_words(game, names)}  (quit to leave)"
    mine = p.seat in local
    who = f"{names[p.seat]} ({LETTERS[game.colour_ids()[p.seat]]})"
    island = TILES[p.island].name if p.island is not None else ""
    if mine:  # short enough for an 80-column status line; the panel says who you are
        text = {
            D.SETUP: "put a ship on Tonga — place Tonga BEACH",
            D.ACTION: _action_text(game, p.seat),
            D.EXPAND_BEACHES: f"{p.count} new ship(s) on {island} — beaches B…",
            D.T1A_SOURCE: f"reserve empty: bring a ship to {island} — take ISLAND B",
            D.DEPARTURE: "a beach is full: sail ISLAND B PIER — Tab shows where each goes",
            D.LANDING: f"{ships_text(p.group)} reach {island}: Enter takes the offer",
            D.COLONY_TILE: f"New Colony: place {tile_label(p.tile) if p.tile is not None else ''}"
                           " — tile Q,R DIR (DIR: its red mark)",
            D.COLONY_SHIP: f"New Colony: a ship on {island} — place {island} BEACH",
        }[p.kind]
        return "class:status.mine", f"Your decision: {text}"
    doing = {
        D.SETUP: "placing a ship on Tonga",
        D.ACTION: "choosing an action",
        D.EXPAND_BEACHES: f"choosing beaches on {island}",
        D.T1A_SOURCE: f"choosing a ship to bring to {island}",
        D.DEPARTURE: "choosing the next departure",
        D.LANDING: f"landing {ships_text(p.group)} on {island}",
        D.COLONY_TILE: "placing a New Colony tile",
        D.COLONY_SHIP: f"putting a ship on {island}",
    }[p.kind]
    return "class:status", f"Waiting for {who}: {doing}…"


def preview_text(game: Game, move: Sail) -> str:
    """Where a departure goes over the tiles already placed, in a few words."""
    pv = game.preview(move)
    if pv.outcome == "land":
        return f"→ lands on {TILES[pv.island].name}"
    if pv.outcome == "back":
        if pv.royal is not None:
            return (f"→ turned back by the Royal Island {TILES[pv.royal].name} "
                    f"to {TILES[pv.island].name}")
        return f"→ leads back to {TILES[pv.island].name}"
    if pv.outcome == "fail":
        cell = game.tile_at(pv.hex)
        where = TILES[cell[0]].name if cell else f"{pv.hex[0]},{pv.hex[1]}"
        return (f"→ wrecked at {where}: danger {pv.danger}, "
                f"the group has {pv.colours} colour(s)")
    if pv.outcome == "lost":
        return "→ lost at sea: no tile is left to discover"
    return f"→ a new tile at {pv.hex[0]},{pv.hex[1]}"


def _action_text(game: Game, seat: int) -> str:
    moves = game.legal_moves()
    kinds = {str(m).split()[0] for m in moves}
    if "expand" in kinds:
        return "your turn — expand ISLAND, royal ISLAND or colony"
    return "your turn, no ships out — place ISLAND B [B] (X1) or colony"


GENERAL_HELP = [
    "Type a move in its short form; Tab lists exactly the legal ones. Other commands:",
    "  hint — a bot's suggestion (put on the line: Enter plays it) · moves — list legal moves",
    "  help [MOVE] · centre — re-centre the map · quit — leave (the record is saved)",
    "  position — the whole position as one line of text (paste it into a bug report)",
    "  board — at the end, switch between the final table and the map",
    "Keys: arrows pan the map while the line is empty (Shift+arrows always), Home re-centres,",
    "  PgUp/PgDn scroll the log, Tab completes (a sail option says where it goes),",
    "  Ctrl-C or Ctrl-D leaves. Text put on the line for you is replaced by what you type.",
    "Mouse: click a beach, an island, a pier or a free hex to put its move on the line.",
    "Map: a beach is its number, ships as colour letters, · a free berth, then its piers",
    "  (N NE SE S SW NW). Sea: 'N-S 4' is a route from N to S with danger 4 (needs 4",
    "  colours in the group); no number = any group crosses.",
]

MOVE_HELP = {
    "place": "place ISLAND B [B] — setup (S3: one ship on Tonga), X1 with no ships on the board "
             "(2 on Tonga or 1 elsewhere), or the New Colony ship (C3)",
    "expand": "expand ISLAND — T1: add as many ships as you have there (one per free beach)",
    "royal": "royal ISLAND — K1: all ships there are yours; they go home but one, the king",
    "colony": "colony — C1: take all your ships home and discover tiles until an island",
    "beaches": "beaches B … — T1: which beaches of the expanded island get the new ships",
    "take": "take ISLAND B — T1a: with an empty reserve, the ship you bring over",
    "sail": "sail ISLAND B PIER — M1: which full beach departs next and by which pier",
    "land": "land B:COLOURS … — L1: e.g. 'land 1:BR 3:Y'; every beach with a free berth first "
            "gets one ship; ships without a berth go home. Enter accepts the offered one.",
    "tile": "tile Q,R DIR — C2: the hex (shown on the map) and where the tile's red mark "
            "(its S edge as shown in the side panel) points",
}


def help_lines(topic: str = "") -> list[str]:
    topic = topic.strip().lower()
    if topic in MOVE_HELP:
        return [MOVE_HELP[topic]]
    if topic:
        return [f"no help on {topic!r}; try: {', '.join(MOVE_HELP)}"]
    return GENERAL_HELP + ["Moves: " + " · ".join(MOVE_HELP[k].split(" — ")[0] for k in MOVE_HELP)]

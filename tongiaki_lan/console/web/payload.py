"""A `TableState` as the JSON the board page draws.

The page holds no rules and keeps no story: each message is the whole table as it is
now (a new one replaces the view), with the board already drawn as SVG by `svgboard` —
the same drawing as `export --svg` — its last move marked and, at a New Colony tile,
the empty places a tile may take. The legal moves come with the board elements that
stand for them (`targets`), so a click is looked up, never worked out.

Pure: the same state (and `now`, for the countdowns) gives the same JSON text.
"""

from __future__ import annotations

import json
import time
from typing import Any

from tongiaki_lan.console.forming import FormingTable
from tongiaki_lan.console.state import STRUCK_SUMMARY, SUMMARY, TYPED, VIEW_ONLY, TableState
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n import current
from tongiaki_lan.palette import PLAYER_PAINT
from tongiaki_lan.svgboard import board_svg, tile_svg

from .pagewords import page_words

STORY_TAIL = 80  # the story's last lines, as many as the page's panel is meant to hold


def _on_page(line: tuple[str, str]) -> bool:
    """Whether the page's story shows a line of the table's: not the terminal's own, nor
    the summary of the moves since ours (`SUMMARY`): the page tells them a line above,
    with the last one marked on the board, and its bold repeat in typed words ("Maui:
    expand Tonga, beaches 3 5, sail Tonga 5 NE, land 1:R 2:G 3:B") pushed the moves
    themselves out of its box. Nor what to type (`TYPED`): nothing is typed on the page."""
    style = line[0]
    return (not style.endswith((VIEW_ONLY, TYPED))
            and style not in (SUMMARY, STRUCK_SUMMARY))


def board_picture(state: TableState) -> str:
    """The board of `state` as inline SVG (no XML prolog), or "" when there is none."""
    if state.board is None:
        return ""
    last = state.last_move
    # the empty places are drawn whenever a move names one: a move must have its element
    frontier = state.frontier or any(t.startswith("place:") for m in state.decision.moves
                                     for t in m.targets)
    svg = board_svg(state.board, {s.colour: s.name for s in state.seats},
                    marks=last.targets if last else (), marked_tiles=last.tiles if last else (),
                    frontier=frontier, legend=False)
    return svg.split("\n", 1)[1] if svg.startswith("<?xml") else svg


def tile_in_hand(state: TableState) -> dict[str, Any] | None:
    """A New Colony tile this keyboard places: the tile drawn each way it may lie, its
    red mark (its S edge) towards the direction named (`tile Q,R DIR`). The page shows it
    in the decision and beside each rotation it offers: placed by a click, a tile is
    chosen by its look, not by a letter of its edge. None otherwise."""
    d = state.decision
    game = state.board
    if not d.mine or d.kind != D.COLONY_TILE or game is None or game.pending is None:
        return None
    tid = game.pending.tile
    if tid is None:
        return None
    return {"directions": list(DIRECTION_NAMES),
            "pictures": [tile_svg(game, tid, rot) for rot in range(6)]}


def _line(line: tuple[str, str] | None) -> list[str] | None:
    return None if line is None else [line[0], line[1]]


def _final_grid(grid) -> dict | None:
    """The final table as values (console/final.py, FinalGrid): the page draws it as
    tables with whole words for headings, where the terminal's text table says
    "isl brd s+k" to fit 47 columns."""
    if grid is None:
        return None
    return {"decided": grid.decided, "columns": list(grid.columns),
            "players": [{"seat": r.seat, "name": r.name, "values": list(r.values),
                         "winner": r.winner} for r in grid.players],
            "islands": [{"name": i.name, "value": i.value, "present": list(i.present)}
                        for i in grid.islands],
            "pairs": [{"name": n, "letters": ls, "values": [p, i, s], "winner": w}
                      for n, ls, p, i, s, w in grid.pairs]}


def state_payload(state: TableState, now: float | None = None) -> dict[str, Any]:
    """The page's message for `state`. `now` (time.monotonic()'s clock, that of
    `Countdown.ends_at`) turns each countdown into the seconds left, which the page
    counts down from the moment it gets them."""
    now = time.monotonic() if now is None else now
    d = state.decision
    last = state.last_move
    replay = state.replay
    return {
        "type": "state",
        "version": state.version,
        "kind": state.kind,
        "lang": state.lang or current(),
        "title": state.title,
        "move_index": state.move_index,
        "seats": [{
            "index": s.index, "name": s.name, "label": s.label, "colour": s.colour,
            "letter": s.letter, "colour_name": s.colour_name, "driver": s.driver,
            "local": s.local, "viewer": s.viewer, "this_laptop": s.this_laptop,
            "away": s.away, "left": s.left,
            "expelled": s.expelled,
            "score": s.score, "reserve": s.ships_in_reserve,
            "fill": PLAYER_PAINT.get(s.colour, ("#888888", "#000000"))[0],
            "ink": PLAYER_PAINT.get(s.colour, ("#888888", "#000000"))[1],
        } for s in state.seats],
        "decision": {
            "seat": d.seat, "kind": d.kind, "mine": d.mine, "text": d.text,
            "waiting_for": d.waiting_for,
            "moves": [{"text": m.text, "shown": m.shown, "preview": m.preview,
                       "targets": list(m.targets)} for m in d.moves],
        },
        "last_move": None if last is None else {
            "index": last.index, "seat": last.seat, "text": last.text,
            "targets": list(last.targets), "tiles": list(last.tiles),
        },
        "story": [_line(x) for x in [x for x in state.story if _on_page(x)][-STORY_TAIL:]],
        "status": state.status,
        "hint": state.hint,
        "offer": state.offer,
        "notice": _line(state.notice),
        "away": list(state.away),
        "left": list(state.left),
        "watchers": list(state.watchers),
        "open_seats": list(state.open_seats),
        "countdowns": [{"kind": c.kind, "text": c.text, "template": c.template,
                        "seconds": max(0, round(c.ends_at - now, 1))}
                       for c in state.countdowns],
        "replay": None if replay is None else {
            "index": replay.index, "total": replay.total, "can_step": replay.can_step,
            "live": replay.live},
        "final": [_line(x) for x in state.final],
        "final_grid": _final_grid(state.final_grid),
        "over": state.over,
        "can_undo": state.can_undo,
        "commands": list(state.commands),
        "svg": board_picture(state),
        "tile": tile_in_hand(state),
        "words": page_words(),
    }


def forming_payload(table: FormingTable) -> dict[str, Any]:
    """The page's message for a table still forming, before its game: its seats as the
    console's lobby lists them (the page said only "Waiting for the game to start…")."""
    return {
        "type": "forming",
        "lang": table.lang or current(),
        "title": table.name,
        "heading": table.heading,
        "watching": table.watching,
        "taken": table.taken,
        "total": table.total,
        "open_text": table.open_text,
        "seats": [{
            "number": s.number, "name": s.name, "colour": s.colour, "letter": s.letter,
            "colour_name": s.colour_name, "kind": s.kind, "ready": s.ready,
            "ready_text": s.ready_text, "flags": list(s.flags), "this_laptop": s.this_laptop,
            "fill": PLAYER_PAINT.get(s.colour, ("#888888", "#000000"))[0],
            "ink": PLAYER_PAINT.get(s.colour, ("#888888", "#000000"))[1],
        } for s in table.seats],
        "watchers": list(table.watchers),
        "words": page_words(),
    }


def state_json(state: TableState | FormingTable, now: float | None = None) -> str:
    """`state_payload` (or `forming_payload`, for a table still forming) as compact JSON
    text (UTF-8 as it is: the page is UTF-8)."""
    data = (forming_payload(state) if isinstance(state, FormingTable)
            else state_payload(state, now))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

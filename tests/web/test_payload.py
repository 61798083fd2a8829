"""What the page is sent for a table state (console/web/payload.py)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from tests.console.test_replay_lobby import _record
from tests.web.table import SoloTable
from tongiaki_lan import i18n
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.state import Countdown
from tongiaki_lan.console.web.pagewords import WORDS
from tongiaki_lan.console.web.payload import (
    STORY_TAIL,
    board_picture,
    state_json,
    state_payload,
)
from tongiaki_lan.records import read_record
from tongiaki_lan.svgboard import board_svg


def test_the_page_gets_the_board_the_decision_with_its_targets_and_the_seats():
    table = SoloTable(players=3)
    table.play("place Tonga 3")
    state = table.state()
    data = json.loads(state_json(state))
    assert data["type"] == "state" and data["move_index"] == 3 == len(table.game.moves)
    # the board, drawn inline (no XML prolog), with what can be clicked
    root = ET.fromstring(data["svg"].encode())
    assert root.tag.endswith("svg")
    assert 'data-target="beach:0:2"' in data["svg"]
    # the decision in words, with its legal moves and the elements that stand for them
    d = data["decision"]
    # (as any view says it: what to type is the console's)
    assert d["mine"] and d["seat"] == 0 and d["text"] == "Your decision: put a ship on Tonga"
    assert data["status"] == d["text"]
    moves = {m["text"]: m["targets"] for m in d["moves"]}
    assert moves["place Tonga 1"] == ["beach:0:0"]
    assert set(moves) == {str(m) for m in table.game.legal_moves()}
    # the seats: name, letter, the colour painted as on the board, and its ink
    ana = data["seats"][0]
    assert (ana["name"], ana["letter"], ana["fill"], ana["ink"]) == ("Ana", "B", "#0072b2",
                                                                    "#ffffff")
    # the last move (Maui's setup), marked on the board too
    assert data["last_move"]["targets"] == list(state.last_move.targets)
    marked = [n.get("data-target") for n in root.iter()
              if "last" in (n.get("class") or "").split()]
    assert marked == list(state.last_move.targets)
    assert data["replay"] is None


def test_the_story_is_its_end_and_the_countdowns_are_seconds_left():
    table = SoloTable(players=3)
    while not table.game.is_over:
        table.play(str(table.game.legal_moves()[0]))
    state = table.state()
    assert len(state.story) > STORY_TAIL
    state = state.__class__(**{**{f: getattr(state, f) for f in state.__slots__},
                               "countdowns": (Countdown("draw", "tile draw", 110.0),)})
    data = state_payload(state, now=100.0)
    # (less the summaries of the moves since ours, which the story told a line above)
    told = [list(x) for x in state.story if x[0] != "summary"]
    assert len(told) < len(state.story) and data["story"] == told[-STORY_TAIL:]
    assert data["countdowns"] == [{"kind": "draw", "text": "tile draw", "template": "",
                                   "seconds": 10.0}]
    assert data["over"] and not data["decision"]["moves"]


def test_a_replay_says_where_it_stands(tmp_path):
    _record(tmp_path / "r.tgrec", moves=40)
    replay = ReplaySession(read_record(tmp_path / "r.tgrec"), "r.tgrec")
    replay.goto(12)
    data = state_payload(TableModel(replay).state)
    total = len(replay.record.moves)  # (the tiles dealt are entries too)
    assert data["replay"] == {"index": replay.index, "total": total, "can_step": True,
                              "live": False}
    assert not data["decision"]["mine"] and data["move_index"] == 12


def test_the_same_state_gives_the_same_text():
    table = SoloTable(players=4, seed="same")
    state = table.state()
    assert state_json(state, now=5.0) == state_json(state, now=5.0)


def test_the_pages_words_come_in_the_players_language():
    i18n.use("it")
    table = SoloTable(players=2)
    data = state_payload(table.state())
    assert data["lang"] == "it"
    assert set(data["words"]) == set(WORDS)
    assert data["words"]["players"] == "Giocatori"
    assert data["words"]["undo"] != "Undo"
    assert data["decision"]["text"].startswith("Tua decisione: metti una barca su Tonga")


def test_the_page_board_draws_the_same_position_as_the_export():
    """The page leaves the legend out (its seats panel says it) but draws every tile,
    ship and target as the export does."""
    table = SoloTable(players=3, seed="same")
    for _ in range(8):
        table.play(str(table.game.legal_moves()[-1]))
    state = table.state()
    page = ET.fromstring(board_picture(state).encode())
    export = ET.fromstring(board_svg(state.board, frontier=state.frontier).encode())

    def parts(root):
        return sorted((n.tag, n.get("data-target") or n.get("data-tile") or "",
                       n.get("fill") or "") for n in root.iter()
                      if n.get("data-target") or n.get("data-tile") or n.get("class") == "ship")

    legend = len(state.seats)
    assert len(parts(export)) == len(parts(page)) + legend
    assert set(parts(page)) <= set(parts(export))


def test_the_places_of_a_tile_in_hand_are_drawn_even_unasked():
    """A move must have its element on the board: a state whose legal moves name empty
    places draws them, whether or not it set `frontier`."""
    table = SoloTable(seed="chooser")
    while table.game.pending.kind != "colony_tile":
        table.play(str(table.game.legal_moves()[-1]))
    state = table.state()
    unasked = state.__class__(**{**{f: getattr(state, f) for f in state.__slots__},
                                 "frontier": False})
    svg = board_picture(unasked)
    for q, r in table.game.frontier():
        assert f'data-target="place:{q}:{r}"' in svg


def test_the_final_table_names_each_bot_with_its_kind():
    """The page's final table cut "Hina — bot (random)" to "Hina — bot": it was made for
    an 80-column terminal's panel. The page's panel has room for the whole label."""
    table = SoloTable(players=3)
    while not table.game.is_over:
        table.play(str(table.game.legal_moves()[0]))
    state = table.state()
    rows = [text for _kind, text in state.final]
    bots = [s.label for s in state.seats if s.driver == "bot"]
    assert bots and all("(" in label for label in bots)  # (as "Hina — bot (random)")
    for label in bots:
        assert any(row.startswith(label + " ") for row in rows), (label, rows)

"""`tongiaki-lan watch --game NAME` without --json or --plain prints one line per move for
a person following the game at a terminal. They read islands as the console and every
other screen names them, and the end by the winner's name: at a real table the lines read
"expand Fidschi", "reveal HivaOa" and "game over: blue win"."""

from __future__ import annotations

from tongiaki_lan.cli.watch import _Over, _text
from tongiaki_lan.net.protocol.events import GameStarted, MoveApplied, TileRevealed

SEATS = [{"name": "Ana", "colour": "blue"}, {"name": "Bruno", "colour": "red"}]


def test_moves_and_reveals_name_islands_as_the_console_does():
    move = MoveApplied(index=40, seat=0, colour="blue", name="Ana", move="expand Fidschi",
                       by=None)
    sail = MoveApplied(index=41, seat=0, colour="blue", name="Ana",
                       move="sail RapaNui 2 NW", by=None)
    assert _text(move) == "  41 Ana (blue): expand Fiji"
    assert _text(sail) == "  42 Ana (blue): sail Rapa Nui 2 NW"
    assert _text(TileRevealed(index=42, move="reveal HivaOa")) == "  43 reveal Hiva Oa"
    assert _text(TileRevealed(index=43, move="reveal S07")) == "  44 reveal S07"


def test_the_end_names_the_winner_and_a_tie_names_both():
    start = GameStarted(seed="00", seats=SEATS, resumed=False, moves=0)
    names = {s["colour"]: s["name"] for s in start.to_json()["seats"]}
    one = _Over({"event": "game_over", "digest": "87" * 32, "winners": ["blue"]})
    tie = _Over({"event": "game_over", "digest": "87" * 32, "winners": ["blue", "red"]})
    assert _text(one, names) == "game over: Ana (blue) wins; digest 8787878787878787"
    assert _text(tie, names) == ("game over: Ana (blue) and Bruno (red) win; digest "
                                 "8787878787878787")

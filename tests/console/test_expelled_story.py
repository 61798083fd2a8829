"""The story line of a laptop the table expelled (issue 44): every console names it, says
what its laptop sent and that a bot plays the seat; the expelled laptop's own console says
it was expelled and how to watch the game. Real nodes on 127.0.0.1, one of them a broken
build (net/lab/corrupt.py), in English and in Italian."""

from __future__ import annotations

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.status import status_line
from tongiaki_lan.console.web.payload import state_payload
from tongiaki_lan.i18n import _
from tongiaki_lan.net.lab.corrupt import Corruptor
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol import codec as C
from tongiaki_lan.net.protocol.proofs import re_sign


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize(("lang", "theirs", "mine", "expelled"), [
    ("en", "p2's laptop is expelled from the table: it sent a move the rules refuse",
     "This laptop was expelled from the table", "its laptop was expelled"),
    ("it", "Il portatile di p2 è escluso dal tavolo: ha inviato una mossa che le regole "
     "rifiutano", "Questo portatile è stato escluso dal tavolo",
     "il suo portatile è stato escluso"),
])
async def test_every_console_names_the_expelled_laptop_and_what_it_sent(tmp_path, lang, theirs,
                                                                        mine, expelled):
    i18n.use(lang)
    nodes = await make_table(3, tmp_path)
    broken = nodes[2]
    sessions = []
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        sessions = [LanSession(nd) for nd in nodes]
        # a broken build: each MOVE it sends goes out with a false state, signed
        bad = Corruptor(1.0, 3, re_sign=re_sign, kinds=(C.MoveMsg,))
        bad._corrupt_move = lambda msg, r: (type(msg)(msg.index, msg.move, bytes(32),
                                                      msg.prev, msg.before, msg.sig),
                                            "move-digest")
        bad.attach(broken.core)
        await play_to_end(nodes[:2], timeout=120)
        for s in sessions[:2]:
            text = "\n".join(line for _, line in s.lines)
            assert theirs in text, text[-1500:]
            assert text.count(theirs.split(":")[0]) == 1  # (said once: not its handover too)
            # the page's seat says so too: it read "left the table", as if its player
            # had gone home
            seats = state_payload(TableModel(s).state)["seats"]
            assert [x["expelled"] for x in seats] == [False, False, True]
            assert state_payload(TableModel(s).state)["words"]["expelled"] == expelled
        text = "\n".join(line for _, line in sessions[2].lines)
        assert mine in text and "watch N" in text
        # the typed way is the console's own (its story's line, its status line); its
        # page, which types nothing, sends the player to the console instead
        state = TableModel(sessions[2]).state
        assert "lobby" in status_line(state)[1] and "watch N" in status_line(state)[1]
        page = state_payload(state)
        assert mine in "\n".join(t for _s, t in page["story"])
        assert not any("watch N" in t for _s, t in page["story"])
        assert page["status"] == _("This laptop was expelled from the table: in the console, "
                                   "lobby, then watch N, follows the game.")
        sessions[2].from_lobby = False  # a headless node's page (nodeboard.py): no console
        assert state_payload(TableModel(sessions[2]).state)["status"] == _(
            "This laptop was expelled from the table. To follow the game, run: tongiaki-lan "
            "watch --game {game}").format(game=nodes[2].lobby.name)
    finally:
        for s in sessions:
            await s.close()
        await close_all(nodes)

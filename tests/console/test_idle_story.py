"""A player who is here but does not play (protocol/transport.md, "A player who does not
play"): the others' consoles say so — not "is away", their laptop is here — `replace`
gives the seat to a bot, the idle player's own console says why and that `resume` gives
it back, and `resume` does. Real nodes on 127.0.0.1 and their consoles' sessions, with
the idle limit cut to seconds (it is two minutes)."""

from __future__ import annotations

import contextlib

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.console.feeds import lanstory
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol import core, handover
from tongiaki_lan.net.protocol.handover import handed


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@contextlib.asynccontextmanager
async def idle_table(tmp_path):
    """Three real nodes on 127.0.0.1 in a game, each with its console's session, bots
    moving every 50 ms; the third one's player stops playing (its laptop stays, and
    follows the game). Yields (nodes, sessions); all closed at the end."""
    nodes = await make_table(3, tmp_path)
    sessions = []
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        sessions.extend(LanSession(nd) for nd in nodes)
        for nd in nodes:
            nd.bot_delay = 0.05
        nodes[2].core.autoplay = None  # here, following the game, but nobody plays
        yield nodes, sessions
    finally:
        for s in sessions:
            await s.close()
        await close_all(nodes)


@pytest.mark.parametrize(("lang", "theirs", "handed_word", "mine"), [
    ("en", "p2 has not played for 2 min: the table counts them as away.",
     "p2 did not play for a while", "Type resume to play it again."),
    ("de", "p2 hat seit 2 Min. nicht gespielt", "p2 hat eine Weile nicht gespielt",
     "Tippe resume, um wieder selbst zu spielen."),
])
async def test_the_others_replace_a_player_who_does_not_play_and_resume_gives_it_back(
        tmp_path, monkeypatch, lang, theirs, handed_word, mine):
    monkeypatch.setattr(core, "IDLE_AFTER_S", 3.0)
    monkeypatch.setattr(lanstory, "IDLE_AFTER_S", 120.0)  # (what the lines say)
    monkeypatch.setattr(handover, "HANDOVER_AFTER_S", 1.0)  # (`replace` after a second)
    i18n.use(lang)
    async with idle_table(tmp_path) as (nodes, sessions):
        host, idle = nodes[0], nodes[2]
        seat = idle.core.my_seats()[0]
        await host.wait_for(lambda: host.core.presence.is_absent(idle.peer_id), 60)
        text = "\n".join(line for _, line in sessions[0].lines)
        assert theirs in text and "p2 is away" not in text, text[-800:]

        await host.wait_for(lambda: host.core.replace_wait(seat) == 0, 10)
        assert sessions[0].commands()["replace"][1]("p2") is None
        await idle.wait_for(lambda: handed(idle.lobby.seats[seat]), 10)
        await host.wait_for(lambda: any(handed_word in line for _, line in sessions[1].lines),
                            10)
        await idle.wait_for(lambda: any(mine in line for _, line in sessions[2].lines), 10)
        assert sessions[2].commands()["resume"][1]("") is None
        await host.wait_for(lambda: not handed(host.lobby.seats[seat]), 30)
        idle.core.autoplay = "random"
        await play_to_end(nodes, timeout=120)
        assert len({nd.game.digest() for nd in nodes}) == 1


async def test_resume_with_no_bot_in_the_seat_says_so(tmp_path):
    nodes = await make_table(2, tmp_path)
    sessions = []
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        sessions = [LanSession(nd) for nd in nodes]
        assert sessions[0].commands()["resume"][1]("") == "resume: no bot plays your seat"
    finally:
        for s in sessions:
            await s.close()
        await close_all(nodes)


async def test_the_others_wait_for_an_idle_player_to_play_not_to_come_back(tmp_path, monkeypatch):
    """Ana sat beside Ben, whose laptop was open on the table, and read "Waiting for Ben
    to come back — in 48 s replace Ben gives the seat to a bot" and, in the log, "replace
    Ben gives the seat to a bot once they have been away 60 s": he had gone nowhere (a LAN
    playtest). Her screen waits for him to play; a player whose laptop went silent is
    still waited for to come back."""
    from tongiaki_lan.console.model import TableModel
    from tongiaki_lan.console.status import status_line

    monkeypatch.setattr(core, "IDLE_AFTER_S", 3.0)
    async with idle_table(tmp_path) as (nodes, sessions):
        host, idle = nodes[0], nodes[2]
        await host.wait_for(lambda: host.core.presence.is_absent(idle.peer_id), 60)
        await host.wait_for(lambda: any("Waiting for p2" in line
                                        for _, line in sessions[0].lines), 10)
        said = [line for _, line in sessions[0].lines if "Waiting for p2" in line]
        assert said == ["Waiting for p2 to play… (replace p2 gives the seat to a bot in 60 s)"]
        state = TableModel(sessions[0]).state
        assert status_line(state)[1].startswith("Waiting for p2 to play — in "), state.status
        # (the page's: its countdown, below, counts the seconds)
        assert state.status == "Waiting for p2 — bot (random) (G) to play", state.status
        assert [s.idle for s in state.seats] == [False, False, True]


async def test_the_second_time_the_lines_say_the_shorter_wait_and_resume_says_no_away(
        tmp_path, monkeypatch):
    """Ben took his seat back with `resume` and read "Your seat is yours again: the bot
    that played it while you were away stops." — he had been at the table all along;
    then he stalled again, and after 30 s (IDLE_AGAIN_S) everyone read "Ben has not
    played for 2 min" (a LAN playtest). The limits are cut here; the lines say 2 min and
    30 s as the table's are."""
    monkeypatch.setattr(core, "IDLE_AFTER_S", 3.0)
    monkeypatch.setattr(core, "IDLE_AGAIN_S", 2.0)
    monkeypatch.setattr(lanstory, "IDLE_AFTER_S", 120.0)
    monkeypatch.setattr(lanstory, "IDLE_AGAIN_S", 30.0)
    monkeypatch.setattr(handover, "HANDOVER_AFTER_S", 1.0)
    async with idle_table(tmp_path) as (nodes, sessions):
        host, idle = nodes[0], nodes[2]

        def said(i: int, text: str) -> bool:
            return any(text in line for _, line in sessions[i].lines)

        seat = idle.core.my_seats()[0]
        for strike in (1, 2):
            await host.wait_for(lambda: host.core.presence.is_absent(idle.peer_id), 60)
            await host.wait_for(lambda: host.core.replace_wait(seat) == 0, 10)
            assert sessions[0].commands()["replace"][1]("p2") is None
            await idle.wait_for(lambda: handed(idle.lobby.seats[seat]), 10)
            await idle.wait_for(lambda: said(2, "plays your seat now"), 10)
            if strike == 1:
                assert sessions[2].commands()["resume"][1]("") is None
                await idle.wait_for(lambda: not handed(idle.lobby.seats[seat]), 30)
                await idle.wait_for(lambda: said(2, "Your seat is yours again"), 10)
        theirs = [line for _, line in sessions[0].lines if "has not played for" in line]
        assert theirs == ["p2 has not played for 2 min: the table counts them as away.",
                          "p2 has not played for 30 s again: the table counts them as away."]
        mine = [line for _, line in sessions[2].lines
                if "plays your seat now" in line or "yours again" in line]
        assert mine == [
            "You did not play for 2 min: a bot (normal) plays your seat now, so the table "
            "goes on. Type resume to play it again.",
            "Your seat is yours again: the bot that played it stops.",
            "You did not play for 30 s again: a bot (normal) plays your seat now, so the "
            "table goes on. Type resume to play it again."], mine


async def test_the_idle_player_is_told_before_the_bot_comes_and_how_to_play_again(
        tmp_path, monkeypatch):
    """Ben's own screen said nothing while the others counted down to `replace Ben`
    (their screens said he had not played for 2 min), and once the bot played his seat
    his status line read "Ben — bot (normal) (R) is thinking: choosing an action…", as of
    anyone's bot (a LAN playtest). His screen tells him before, and the line says how
    to play again (the page's too, which types nothing: in the console)."""
    from tongiaki_lan.console.model import TableModel
    from tongiaki_lan.console.status import status_line

    monkeypatch.setattr(core, "IDLE_AFTER_S", 3.0)
    monkeypatch.setattr(handover, "HANDOVER_AFTER_S", 1.0)
    async with idle_table(tmp_path) as (nodes, sessions):
        host, idle = nodes[0], nodes[2]
        seat = idle.core.my_seats()[0]
        warning = ("You have not played for a while: the others count you as away, and may "
                   "soon give your seat to a bot. Play, and it stays yours.")
        await idle.wait_for(lambda: any(line == warning for _, line in sessions[2].lines), 60)
        assert not handed(idle.lobby.seats[seat])  # (told before the bot comes)
        host.bot_delay = 3600.0  # (the bot that will play the seat holds its move)
        await host.wait_for(lambda: host.core.replace_wait(seat) == 0, 10)
        assert sessions[0].commands()["replace"][1]("p2") is None
        await idle.wait_for(lambda: handed(idle.lobby.seats[seat]), 10)
        assert idle.game.pending.seat == seat
        state = TableModel(sessions[2]).state
        line = status_line(state)[1]
        assert "is thinking: " in line and line.endswith("… — resume plays your seat again"), line
        assert state.status.endswith("— in the console, resume plays your seat again")
        others = status_line(TableModel(sessions[1]).state)[1]
        assert "resume" not in others, others

"""`join N` of a game marked "yours" that this laptop had left for good (a LAN-party
playtest): the game screen opened at once at the record's old state, frozen, and only
then read "Dee took your seat after you left for good". The lobby now asks the table
first: a newcomer's seat keeps the player in the lobby with the way to watch the game;
the table's own word (or its silence) opens the game screen; a game resumed after a
crash or "back soon" opens at once, as before.

The real lobby runs on pipe input; only the node is a stand-in (the table's side of it,
REFUSE SEAT_GIVEN and the seat given back, is tested with real nodes in
tests/net/test_loopback_games.py and tests/console/test_guests.py)."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.net.aio.discovery import GameInfo
from tongiaki_lan.net.aio.resumable import Resumable
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L

from .conftest import FakeLan, wait_until
from .test_lobby_texts import _output, rows_of

REEF = GameInfo(b"\x07" * 8, "Reef", "playing", 3, 3, False, 1.0, ())
GIVEN = L.SEAT_GIVEN.format(name="Dee")


class FakeNode:
    """The lobby's node at `join N` of a game of ours: `resume` starts the game from the
    record (its `game_start`, resumed, comes at once, as the real node's does), and the
    test plays the table's answer: its events, or its taking the player back as a member
    (`heard_as_member`)."""

    def __init__(self) -> None:
        self.lobby = None
        self.game = None
        self.game_id = None
        self.peer_id = b"\x01" * 8
        self.member = False
        self.resumed: list = []
        self.left = 0
        self._listeners: list = []

    def add_listener(self, fn) -> None:
        self._listeners.append(fn)

    def tell(self, ev) -> None:
        for fn in self._listeners:
            fn(ev)

    async def resume(self, record, passphrase=None) -> None:
        self.resumed.append(record)
        self.game_id = REEF.game_id
        self.lobby = SimpleNamespace(name="Reef", phase="playing", seats=(), total=3,
                                     passphrase=False, variant="standard", members=())
        self.game = SimpleNamespace(moves=[None] * 12)
        self.tell(E.GameStarted("00" * 8, [], True, 12, str(record)))

    async def leave_game(self, timeout: float = 2.0) -> None:
        self.left += 1
        self.lobby = self.game = self.game_id = None

    async def wait_for(self, cond, timeout: float, raise_on_timeout: bool = True) -> bool:
        # (the real node checks after each of its steps; here the test's events are the
        # steps, and a poll stands in for them)
        deadline = time.monotonic() + timeout
        while not cond():
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.002)
        return True

    def heard_as_member(self) -> bool:
        return self.member

    def present(self) -> set:
        return set()

    def coordinator(self) -> bytes:
        return b"\x02" * 8


async def _lobby(tmp_path, left: bool, wait_s: float = 600.0):
    """A running lobby listing Reef, marked "yours" (left for good, or not), on a fake
    node; `wait_s`: how long it waits for the table's word (long: never reached here,
    unless the test is about the table's silence)."""
    lobby = LobbyScreen("Cat", lan=False, colour_output=False)
    lobby.reclaim_wait_s = wait_s
    task = asyncio.ensure_future(lobby.run())
    await wait_until(lambda: lobby.app.is_running, what="the lobby")
    lobby.lan_error = None
    node = FakeNode()
    lobby.attach(node, FakeLan(REEF))
    lobby.yours = {REEF.game_id: Resumable(REEF.game_id, "Reef", tmp_path / "Reef.tgrec", 12,
                                           False, node.peer_id, False, left=left)}
    lobby.app.invalidate()
    await wait_until(lambda: any("← yours" in r for r in rows_of(lobby)), what="the row")
    return lobby, node, task


def said(lobby: LobbyScreen) -> list[str]:
    return [t for _s, t in lobby.lines]


async def test_a_seat_a_newcomer_took_keeps_the_player_in_the_lobby(tmp_path):
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, node, task = await _lobby(tmp_path, left=True)
        inp.send_text("join 1\r")
        await wait_until(lambda: node.resumed, what="the resume")
        await wait_until(lambda: any("asking its table for your seat back" in t
                                     for t in said(lobby)), what="the asking line")
        assert not lobby.app.future.done()  # (the resumed game_start opens nothing yet)
        node.tell(E.GuestRefused(GIVEN))
        # every member says it (every 5 s): one saying of it
        node.tell(E.RequestRefused("03" * 8, GIVEN))
        await wait_until(lambda: node.left == 1, what="the game forgotten on the node")
        lines = said(lobby)
        assert lines.count("Dee took your seat after you left for good: you may watch the "
                           "game") == 1
        assert any("watch 1" in t for t in lines), lines
        assert REEF.game_id not in lobby.yours
        lobby.app.invalidate()
        await wait_until(lambda: any("1. Reef" in r for r in rows_of(lobby))
                         and not any("← yours" in r or "← your table" in r
                                     for r in rows_of(lobby)), what="the row, not yours")
        assert all(len(r) <= 80 for r in rows_of(lobby))
        assert not lobby.app.future.done()
        inp.send_text("\x03")
        assert await asyncio.wait_for(task, 30) == ("quit",)


async def test_the_table_taking_the_player_back_opens_the_game(tmp_path):
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, node, task = await _lobby(tmp_path, left=True)
        inp.send_text("join 1\r")
        await wait_until(lambda: any("asking its table for your seat back" in t
                                     for t in said(lobby)), what="the asking line")
        node.tell(E.Back("02" * 8, "Ana"))  # (a member heard: not yet its word on the seat)
        assert not lobby.app.future.done()
        assert not any("Ana is back" in t for t in said(lobby))
        node.member = True  # the table's heartbeats: it counts this laptop in again
        assert await asyncio.wait_for(task, 30) == ("game", node, lobby.discovery)
        assert node.left == 0


async def test_a_table_that_does_not_answer_opens_the_game_all_the_same(tmp_path):
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, node, task = await _lobby(tmp_path, left=True, wait_s=0.0)
        inp.send_text("join 1\r")
        assert await asyncio.wait_for(task, 30) == ("game", node, lobby.discovery)
        assert any("asking its table for your seat back" in t for t in said(lobby))
        assert node.left == 0


async def test_a_game_resumed_after_a_crash_opens_at_once(tmp_path):
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, node, task = await _lobby(tmp_path, left=False)
        inp.send_text("join 1\r")
        assert await asyncio.wait_for(task, 30) == ("game", node, lobby.discovery)
        assert not node.member  # (nobody's word was waited for)
        assert not any("asking" in t for t in said(lobby))
        assert any("Resuming Reef" in t for t in said(lobby))



@pytest.mark.parametrize("dee_took_it", [True, False], ids=["Dee took it", "a bot plays it"])
async def test_with_real_nodes_cat_back_after_a_goodbye_for_good(tmp_path, dee_took_it):
    """The playtest on loopback: Cat leaves a running table for good, a bot plays her seat,
    perhaps Dee takes it from the side (`watch`, `take`), and Cat's next run `join`s the
    game marked hers from the real lobby. Dee's seat: the table's own refusal keeps her
    there, with the way to watch, and the game is no longer hers to resume. The bot's:
    the table takes her back and the game screen opens."""
    import shutil

    from tongiaki_lan.net.aio.node import GameRef, Node
    from tongiaki_lan.net.aio.resumable import unfinished_games
    from tongiaki_lan.net.aio.sidecar import sidecar_path
    from tongiaki_lan.net.lab.loopback import close_all, make_table

    from .test_guests import advertised

    nodes = await make_table(3, tmp_path, autoplay="random")
    dee = Node("Dee", host="127.0.0.1", record_dir=tmp_path / "Dee", autoplay="random")
    back = None
    try:
        for nd in nodes:
            nd.bot_delay = 0.1  # (pacing: the game must still be on when Cat is back)
            nd.core.handover_bot = "random"
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        cat, rest = nodes[2], nodes[:2]
        await cat.wait_for(lambda: len(cat.game.moves) >= 6, 60)
        seat = cat.core.my_seats()[0]
        await cat.leave(for_good=True)
        await rest[0].wait_for(lambda: all(nd.lobby.seats[seat].bot for nd in rest), 10)
        if dee_took_it:
            await dee.start()
            await dee.watch_game(GameRef(rest[0].game_id, rest[0].peer_id, "127.0.0.1",
                                         rest[0].address[1], False))
            await dee.wait_for(lambda: dee.game is not None, 30)
            dee.bot_delay = 0.1
            await dee.take_seat(seat)
            await rest[0].wait_for(lambda: all(nd.lobby.seats[seat].owner == dee.peer_id
                                               for nd in rest), 10)
        mine = tmp_path / "cat"  # (Cat's laptop: her record and its resume data alone)
        mine.mkdir()
        for path in (cat.record_path, sidecar_path(cat.record_path)):
            shutil.copy(path, mine / path.name)
        back = Node(cat.name, host="127.0.0.1", record_dir=tmp_path,  # (her profile)
                    autoplay="random")
        await back.start()
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby = LobbyScreen("p2", lan=False, colour_output=False)
            lobby.reclaim_wait_s = 600.0  # (only the table's word ends the wait here)
            task = asyncio.ensure_future(lobby.run())
            await wait_until(lambda: lobby.app.is_running, what="the lobby")
            lobby.lan_error = None
            lobby.attach(back, FakeLan(advertised(rest[0])))
            lobby.yours = unfinished_games(mine)
            assert lobby.yours[rest[0].game_id].left
            lobby.app.invalidate()
            await wait_until(lambda: any("← yours" in r for r in rows_of(lobby)),
                             what="the row marked yours")
            inp.send_text("join 1\r")
            if not dee_took_it:
                assert await asyncio.wait_for(task, 60) == ("game", back, lobby.discovery)
                assert back.heard_as_member() and not back.stopped
                await back.wait_for(lambda: all(not nd.lobby.seats[seat].bot
                                                for nd in [back, *rest]), 30)
                return
            await wait_until(lambda: any("watch 1 follows it" in t for t in said(lobby)),
                             what=f"the refusal, got {said(lobby)[-4:]}")
            await wait_until(lambda: back.lobby is None, what="the game forgotten")
            assert said(lobby).count("Dee took your seat after you left for good: you may "
                                     "watch the game") == 1
            assert not lobby.yours and not unfinished_games(mine)
            assert not lobby.app.future.done()
            inp.send_text("\x03")
            assert await asyncio.wait_for(task, 30) == ("quit",)
        assert all(not nd.stopped for nd in [*rest, dee])  # the table plays on
    finally:
        await close_all([*nodes, dee, *([back] if back else [])])

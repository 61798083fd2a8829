"""The board server's door: only the page the player opened with the game's link gets
the game, and nothing else gets anything (console/web/door.py, server.py). Real HTTP and
WebSocket requests (aiohttp's client) against the real server in this test's loop, and
the page itself in a real browser."""

from __future__ import annotations

import asyncio
import json

import aiohttp
import pytest

from tests.web.conftest import serving
from tests.web.table import SoloTable
from tongiaki_lan.console.web import BoardServer, BoardServerError
from tongiaki_lan.console.web.door import (
    host_allowed,
    offered_token,
    origin_allowed,
    token_matches,
)


def base(server: BoardServer) -> str:
    return f"http://127.0.0.1:{server.port}"


def good_headers(server: BoardServer) -> dict[str, str]:
    return {"Origin": f"http://127.0.0.1:{server.port}"}


def protocols(token: str | None) -> tuple[str, ...]:
    return ("tongiaki",) if token is None else ("tongiaki", f"token.{token}")


async def next_message(ws, kind: str) -> dict:
    while True:
        msg = await asyncio.wait_for(ws.receive(), 10)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
        data = json.loads(msg.data)
        if data["type"] == kind:
            return data


async def refused(session, server, *, token=None, headers=None, status=403):
    """A WebSocket request the server must turn away: it is answered `status`, with no
    body of the game, and no state or command crosses."""
    with pytest.raises(aiohttp.WSServerHandshakeError) as err:
        await session.ws_connect(f"{base(server)}/ws", protocols=protocols(token),
                                 headers=headers if headers is not None else good_headers(server))
    assert err.value.status == status


# ------------------------------------------------------------------ with the token


async def test_a_page_with_the_token_gets_the_game_at_once_and_every_change():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        assert server.url == f"http://127.0.0.1:{server.port}/#{server.token}"
        ws = await session.ws_connect(f"{base(server)}/ws", protocols=protocols(server.token),
                                      headers=good_headers(server))
        assert ws.protocol == "tongiaki"
        first = await next_message(ws, "state")  # caught up at once
        assert first["move_index"] == 0 and first["decision"]["mine"]
        table.play("place Tonga 2")  # a move made elsewhere (the console)
        pushed = await next_message(ws, "state")
        assert pushed["move_index"] == len(table.game.moves) == 3
        await ws.send_json({"type": "command", "id": 7, "text": "place Tonga 5"})
        answer = await next_message(ws, "reply")
        assert (answer["id"], answer["style"]) == (7, "ok")
        assert table.commands == ["place Tonga 5"]
        assert (await next_message(ws, "state"))["move_index"] == 6
        await ws.close()


async def test_every_open_page_gets_each_state_and_a_late_one_catches_up():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        url = f"{base(server)}/ws"
        pages = [await session.ws_connect(url, protocols=protocols(server.token),
                                          headers=good_headers(server)) for _ in range(2)]
        for ws in pages:
            await next_message(ws, "state")
        table.play("place Tonga 1")
        for ws in pages:
            assert (await next_message(ws, "state"))["move_index"] == 3
        table.play("place Tonga 4")
        late = await session.ws_connect(url, protocols=protocols(server.token),
                                        headers=good_headers(server))
        assert (await next_message(late, "state"))["move_index"] == 6
        for ws in (*pages, late):
            await ws.close()


async def test_what_a_page_sends_that_is_not_a_command_changes_nothing():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        ws = await session.ws_connect(f"{base(server)}/ws", protocols=protocols(server.token),
                                      headers=good_headers(server))
        await next_message(ws, "state")
        for junk in ("not json", "[1, 2]", json.dumps({"type": "launch"}),
                     json.dumps({"type": "command", "text": 5}),
                     json.dumps({"type": "command", "text": "x" * 500}),
                     json.dumps({"type": "command", "text": "place\x00Tonga 1"})):
            await ws.send_str(junk)
        await ws.send_json({"type": "command", "id": 1, "text": "sail Tonga 1 S"})
        junk_answers = []
        answer = await next_message(ws, "reply")
        while answer["id"] != 1:  # three commands that were none: "not a command"
            junk_answers.append(answer["text"])
            answer = await next_message(ws, "reply")
        assert junk_answers == ["not a command"] * 3
        # a real move, refused by the rules with the reason, and the connection still open
        assert answer["id"] == 1 and answer["style"] == "error" and "S3" in answer["text"]
        assert len(table.game.moves) == 0
        assert table.commands == ["sail Tonga 1 S"]
        await ws.close()


async def test_a_command_that_fails_behind_the_page_is_answered_not_fatal():
    async def broken(text):
        raise RuntimeError("a bug")

    table = SoloTable()
    server = BoardServer(table.state, broken)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{base(server)}/ws",
                                          protocols=protocols(server.token),
                                          headers=good_headers(server))
            await next_message(ws, "state")
            await ws.send_json({"type": "command", "id": 3, "text": "undo"})
            assert (await next_message(ws, "reply"))["style"] == "error"
            assert not ws.closed
            await ws.close()
    finally:
        await server.close()


async def test_a_table_that_fails_to_give_its_state_does_not_break_the_page():
    table = SoloTable()

    def broken_state():
        raise RuntimeError("a bug")

    server = BoardServer(broken_state, table.on_command)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"{base(server)}/ws",
                                          protocols=protocols(server.token),
                                          headers=good_headers(server))
            server.publish(table.state())  # the next state comes through
            assert (await next_message(ws, "state"))["move_index"] == 0
            await ws.close()
    finally:
        await server.close()


# ------------------------------------------------------------------ refusals


async def test_a_wrong_token_is_refused_and_gets_nothing():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        await refused(session, server, token="not-" + server.token)
        await refused(session, server, token="")
        assert server.refusals["token"] == 2 and server.pages == 0


async def test_no_token_is_refused():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        await refused(session, server, token=None)
        assert server.refusals["no token"] == 1 and server.pages == 0


async def test_a_command_without_the_token_never_reaches_the_game():
    """Whoever cannot open the page's connection cannot send a move either: neither a
    WebSocket without the token nor a plain request carrying a command gets through."""
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        await refused(session, server, token=None)
        async with session.post(f"{base(server)}/ws", headers=good_headers(server),
                                json={"type": "command", "text": "place Tonga 1"}) as r:
            assert r.status in (403, 405)
            assert "Tonga" not in await r.text()
        async with session.get(f"{base(server)}/ws?token={server.token}",
                               headers=good_headers(server)) as r:
            assert r.status == 403  # (the token only counts where the page presents it)
        assert table.commands == [] and len(table.game.moves) == 0


async def test_a_foreign_host_is_refused_with_nothing_of_the_game():
    """DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends
    its own name as Host. The page itself, its files and its WebSocket all refuse it."""
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        for path in ("/", "/board.js", "/ws", "/nothing"):
            async with session.get(f"{base(server)}{path}",
                                   headers={"Host": f"evil.example:{server.port}"}) as r:
                assert r.status == 421
                body = await r.text()
                assert len(body) < 8 and "Tonga" not in body
        await refused(session, server, token=server.token, status=421,
                      headers={"Host": f"evil.example:{server.port}",
                               "Origin": f"http://evil.example:{server.port}"})
        # the right name on another port is another server
        async with session.get(f"{base(server)}/",
                               headers={"Host": f"localhost:{server.port + 1}"}) as r:
            assert r.status == 421
        assert server.refusals["host"] == 6


async def test_a_foreign_origin_is_refused():
    """Another site's page cannot open the game's WebSocket, even with the player's
    browser and the token."""
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        for origin in ("http://evil.example", f"http://evil.example:{server.port}",
                       f"https://127.0.0.1:{server.port}", "null"):
            await refused(session, server, token=server.token,
                          headers={"Origin": origin})
        await refused(session, server, token=server.token, headers={})  # no Origin at all
        assert server.refusals["origin"] == 5 and server.pages == 0


async def test_the_page_itself_is_served_to_this_machine_without_the_game():
    table = SoloTable()
    async with serving(table) as server, aiohttp.ClientSession() as session:
        for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}"):
            async with session.get(f"{base(server)}/", headers={"Host": host}) as r:
                assert r.status == 200
                page = await r.text()
                # nothing of the game or its token: those come over the WebSocket only
                assert server.token not in page and "Tonga" not in page
                assert "frame-ancestors 'none'" in r.headers["Content-Security-Policy"]
                assert r.headers["X-Frame-Options"] == "DENY"


async def test_a_named_host_is_let_in_under_its_name_only():
    """`--board-host NAME`: that name (and this machine's own) is let in, others not."""
    table = SoloTable()
    async with serving(table, host="localhost") as server, aiohttp.ClientSession() as s:
        assert server.url.startswith(f"http://localhost:{server.port}/#")
        async with s.get(f"{base(server)}/", headers={"Host": f"localhost:{server.port}"}) as r:
            assert r.status == 200
        async with s.get(f"{base(server)}/", headers={"Host": f"other:{server.port}"}) as r:
            assert r.status == 421


async def test_a_taken_port_says_which_and_why():
    table = SoloTable()
    async with serving(table) as server:
        with pytest.raises(BoardServerError, match=f"127.0.0.1:{server.port}"):
            await BoardServer(table.state, table.on_command, port=server.port).start()


def test_the_checks_one_by_one():
    # Host: this machine's names with the port, the bound host, IP addresses only when
    # bound to every address (a name there could be a rebound one)
    assert host_allowed("127.0.0.1:8000", "127.0.0.1", 8000)
    assert host_allowed("LOCALHOST:8000", "127.0.0.1", 8000)
    assert host_allowed("[::1]:8000", "::1", 8000)
    assert not host_allowed("127.0.0.1:8001", "127.0.0.1", 8000)
    assert not host_allowed("127.0.0.1", "127.0.0.1", 8000)
    assert not host_allowed("evil.example:8000", "127.0.0.1", 8000)
    assert not host_allowed("127.0.0.1:8000@evil", "127.0.0.1", 8000)
    assert not host_allowed(None, "127.0.0.1", 8000)
    assert not host_allowed("", "127.0.0.1", 8000)
    assert host_allowed("192.168.1.20:8000", "0.0.0.0", 8000)
    assert host_allowed("[fe80::1]:8000", "::", 8000)
    assert not host_allowed("laptop.local:8000", "0.0.0.0", 8000)
    assert host_allowed("laptop.local:8000", "laptop.local", 8000)
    assert not host_allowed("192.168.1.20:8000", "127.0.0.1", 8000)
    # Origin: exactly the page's own
    assert origin_allowed("http://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origin_allowed("http://127.0.0.1:8000", "localhost:8000")
    assert not origin_allowed("https://127.0.0.1:8000", "127.0.0.1:8000")
    assert not origin_allowed(None, "127.0.0.1:8000")
    # the token, among the subprotocols
    assert offered_token("tongiaki, token.abc") == "abc"
    assert offered_token("tongiaki") is None and offered_token(None) is None
    assert token_matches("abc", "abc") and not token_matches("abd", "abc")
    assert not token_matches(None, "abc")

"""The board page in a real browser (Chromium, driven by Playwright) beside the real
console: `run_game_screen` with its page served as `solo --board` and `replay --board`
serve it (tests/web/live.py), typed to through a pipe and drawn into a 120x40 terminal.
What a player sees on the page, what a click does, and that the console and the page
stay in step either way.

No sleeps: each step waits for what the page shows (`data-move-index` on the root
element, a selector, a text) or for the table to move."""

from __future__ import annotations

import contextlib
import os
import shutil
import struct
from collections import Counter
from pathlib import Path

from tests.web.conftest import serving
from tests.web.live import console, solo, wait_until
from tests.web.table import SoloTable
from tongiaki_lan import i18n
from tongiaki_lan.console.boardlink import BoardLink
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.palette import PLAYER_PAINT
from tongiaki_lan.records import read_record

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLUE = PLAYER_PAINT["blue"][0]


async def open_board(browser, url: str, index: int | None = None):
    page = await browser.new_page()
    await page.goto(url)
    if index is not None:
        await shows(page, index)
    return page


async def shows(page, index: int) -> None:
    """Wait until the page shows the board after `index` moves."""
    await page.wait_for_selector(f'html[data-move-index="{index}"]', state="attached")


async def our_turn(con) -> int:
    """Wait for our decision (the bots answer at once); the moves played by then."""
    s = con.session
    await wait_until(lambda: s.my_decision() or s.game.is_over, what="our decision")
    return len(s.game.moves)


async def test_the_page_shows_the_board_after_a_move_typed_in_the_console(browser,
                                                                         monkeypatch):
    async with console(monkeypatch, solo("typed")) as con:
        page = await open_board(browser, con.opened[0], await our_turn(con))
        assert con.opened == [con.url]  # (`--board` opened the page in "the browser")
        assert await page.locator("#board svg g.tile").count() == 1  # Tonga alone
        assert await page.locator('[data-target="beach:0:2"] circle.ship').count() == 0
        # the decision in words with nothing to type: the console says what to type
        assert await page.inner_text("#decision") == "Your decision: put a ship on Tonga"
        assert "place Tonga BEACH" in con.status()
        con.type("place Tonga 3")
        index = await wait_until_moved(con)  # (the bots' answers too)
        await shows(page, index)
        ship = page.locator('[data-target="beach:0:2"] circle.ship')
        assert await ship.count() == 1 and await ship.get_attribute("fill") == BLUE
        # the last move (Maui's) marked on the board, where it put its ship
        last = con.model.state.last_move
        assert last.text.startswith("Maui") and last.targets
        assert "last" in await page.get_attribute(f'[data-target="{last.targets[0]}"]',
                                                  "class")
        assert await page.locator("#seats li").count() == 3
        assert "Maui" in await page.inner_text("#story")
        assert await page.get_attribute("#board", "data-move-index") == str(index)


async def test_a_click_on_a_beach_plays_it_and_the_console_shows_it(browser, monkeypatch):
    async with console(monkeypatch, solo("click")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        # your decision: the beaches you may choose are marked
        assert await page.locator("#board .beach.legal").count() == 6
        await page.locator('[data-target="beach:0:3"] circle').first.click()
        await wait_until(lambda: len(con.session.game.moves) > 0, what="the move")
        assert 0 in con.session.game.ships_on(0)[3]
        index = await our_turn(con)
        await shows(page, index)
        ship = page.locator('[data-target="beach:0:3"] circle.ship').first
        assert await ship.get_attribute("fill") == BLUE
        # the console shows it: its log tells the move, as if it had been typed there
        await wait_until(lambda: "Ana (B) puts a ship on beach 4 of Tonga" in con.side(),
                         what="the console's log")


async def test_a_click_standing_for_several_moves_offers_them_to_choose(browser,
                                                                       monkeypatch):
    """A New Colony tile: a click on an empty place offers its six rotations."""
    async with console(monkeypatch, solo("chooser")) as con:
        await con.play_mine(lambda g: g.pending is not None and g.pending.kind == "colony_tile"
                            and g.pending.seat == 0,
                            pick=lambda texts: "colony" if "colony" in texts else texts[0])
        index = len(con.session.game.moves)
        page = await open_board(browser, con.url, index)
        places = page.locator("#board .place.legal")
        assert await places.count() == len(con.session.game.frontier())
        # the decision says what to do on the page, not what to type
        assert "tile Q,R DIR" not in await page.inner_text("#decision")
        assert "tile Q,R DIR" in con.status()
        place = con.model.state.decision.moves[0].targets[0]
        await page.locator(f'[data-target="{place}"]').click()
        choices = page.locator("#chooser-list button")
        await choices.first.wait_for()
        q, r = place.split(":")[1:]
        texts = [await b.get_attribute("data-move") for b in await choices.all()]
        assert texts == [f"tile {q},{r} {d}" for d in ("S", "SW", "NW", "N", "NE", "SE")]
        # the tile in hand is drawn in the decision, and each way it may lie in the
        # chooser, its red mark on the edge named (a letter alone said nothing)
        assert await page.is_visible("#tilebox svg")
        assert await page.locator("#chooser-list button .pic svg .redmark").count() == 6
        await choices.nth(3).click()
        await page.wait_for_selector("#chooser", state="hidden")
        await wait_until(lambda: len(con.session.game.moves) > index, what="the tile placed")
        assert con.session.game.tile_at((int(q), int(r))) is not None
        assert str(con.session.game.moves[index]) == f"tile {q},{r} N"
        await shows(page, await our_turn(con))


async def test_a_refused_click_says_why_with_its_rule(browser, monkeypatch):
    """The page shows a decision the game has left (the console played on while the
    page's states were held back on their way): the click is refused with the rule, on
    the notice line, as the console says it."""
    async with console(monkeypatch, solo("refused")) as con:
        await our_turn(con)
        con.type("place Tonga 1")
        index = await wait_until_moved(con)
        page = await browser.new_page()
        held: list = []
        hold = {"on": False}

        def to_page(ws, message) -> None:
            if hold["on"] and message.startswith('{"type":"state"'):
                held.append(message)
            else:  # (the answers to the page's commands come through)
                ws.send(message)

        async def route(ws):  # (between the page and the server: hold the states)
            server = ws.connect_to_server()
            ws.on_message(server.send)
            server.on_message(lambda m: to_page(ws, m))

        await page.route_web_socket("**/ws", route)
        await page.goto(con.url)
        await shows(page, index)
        hold["on"] = True
        con.type("place Tonga 2")  # the console plays on; the page does not know yet
        await wait_until(lambda: len(con.session.game.moves) > index, what="the move")
        await our_turn(con)  # (an action now: the setup is over)
        await page.locator('[data-target="beach:0:4"] circle').first.click()
        notice = page.locator("#notice")
        await notice.filter(has_text="X1").wait_for()
        text = await notice.inner_text()
        assert text.startswith("place Tonga 5: X1")
        assert 0 not in con.session.game.ships_on(0)[4]
        assert con.screen.message == ("error", text)  # (the console's message line too)


async def test_a_click_where_you_have_no_move_says_where_you_have(browser, monkeypatch):
    async with console(monkeypatch, solo("nothing")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        await page.locator("#board text.name").click(force=True)  # Tonga's name: no beach
        await page.locator("#notice").filter(has_text="marked").wait_for()
        assert len(con.session.game.moves) == 0


async def test_a_reload_catches_up(browser, monkeypatch):
    async with console(monkeypatch, solo("reload")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        for beach in (6, 2):
            before = len(con.session.game.moves)
            con.type(f"place Tonga {beach}")
            await wait_until(lambda b=before: len(con.session.game.moves) > b,
                             what="our move")
            index = await our_turn(con)
        await page.reload()
        await shows(page, index)
        other = await open_board(browser, con.url, index)  # a second page, opened late
        assert await other.locator("#board circle.ship").count() == 6


async def test_a_lost_connection_comes_back_and_catches_up(browser, monkeypatch):
    """The server goes away and comes back on the same address (a restarted page): the
    page tries again, and shows the board as it is then."""
    async with console(monkeypatch, solo("lost")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        port, token = con.link.server.port, con.link.server.token
        await con.link.close()
        # (closed by the game: the board stays as it was, and the page keeps trying)
        await page.locator("#status").filter(has_text="closed this page").wait_for()
        con.type("place Tonga 3")
        index = await wait_until_moved(con)
        again = BoardLink(port=port, token=token)
        await again.start()
        again.attach(con.model, con.screen.input)
        try:
            await shows(page, index)
            await page.wait_for_selector("#status", state="hidden")
        finally:
            await again.close()


async def wait_until_moved(con) -> int:
    await wait_until(lambda: len(con.session.game.moves) > 0, what="the move")
    return await our_turn(con)


async def test_the_board_comes_closer_and_stays_so_as_moves_come(browser, monkeypatch):
    async with console(monkeypatch, solo("zoom")) as con:
        await con.play_mine(lambda g: len(g.placed_tiles()) >= 4)
        index = await our_turn(con)
        page = await open_board(browser, con.url, index)
        svg = page.locator("#board svg")
        box = await svg.bounding_box()
        await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        await page.mouse.wheel(0, -300)
        await page.wait_for_function(
            "(s => s.getAttribute('viewBox') !== s.dataset.fit)"
            "(document.querySelector('#board svg'))")
        zoomed = await svg.get_attribute("viewBox")
        fit = await svg.get_attribute("data-fit")
        assert float(zoomed.split()[2]) < float(fit.split()[2])
        await con.play_mine(lambda g, n=index: len(g.moves) > n)  # a new board: as close
        await shows(page, await our_turn(con))
        assert await page.get_attribute("#board svg", "viewBox") == zoomed
        await page.click("#zoom-fit")
        assert await page.get_attribute("#board svg", "viewBox") == \
            await page.get_attribute("#board svg", "data-fit")


async def played_record(tmp_path: Path, seed: str = "replay") -> Path:
    """A whole solo game, recorded as `solo` records it (you typing the first legal move
    at each decision through the console's input path)."""
    from tests.web.live import table

    path = tmp_path / "game.tgrec"
    session, model, inp = table(seed)
    session.record_path = path
    await session.start()
    try:
        while not session.game.is_over:
            await wait_until(lambda: session.my_decision() or session.game.is_over,
                             what="our decision")
            if session.game.is_over:
                break
            text = model.state.decision.moves[0].text
            before = len(session.game.moves)
            await inp.submit(text)
            if len(session.game.moves) == before:  # (colony, asked first: confirmed)
                await inp.submit(text)
    finally:
        await session.close()
    return path


async def test_the_replay_steps_through_a_real_record_and_the_console_follows(
        browser, monkeypatch, tmp_path):
    record = read_record(await played_record(tmp_path))
    total = len(record.moves)
    replay = ReplaySession(record, "game.tgrec")
    replay.goto(total)
    async with console(monkeypatch, replay) as con:
        page = await open_board(browser, con.url, total)
        assert await page.is_visible("#replay")
        assert await page.inner_text("#r-where") == f"move {total} of {total}"
        assert await page.is_disabled("#r-forward")
        await page.click("#r-back")
        back = replay.index
        assert back < total
        await shows(page, back)
        assert f"move {back}/{total}" in con.status()  # (the console is there too)
        await page.click("#r-first")
        await shows(page, 0)
        assert await page.locator("#board g.tile").count() == 1
        await page.click("#r-forward")
        await wait_until(lambda: replay.index > 0, what="a step forwards")
        await shows(page, replay.index)
        # the slider: to move 20 (or the move a tile reveal there belongs to)
        await page.eval_on_selector("#r-slider", """(s) => {
            s.value = 20; s.dispatchEvent(new Event('change', {bubbles: true})); }""")
        await shows(page, 20)
        assert "move 20/" in con.status()
        await page.click("#r-last")
        await shows(page, total)
        # no legal moves in a replay: nothing marked to click; the console's PgUp steps
        # back, and the page follows it
        assert await page.locator("#board .legal").count() == 0
        con.inp.send_text("\x1b[5~")  # PgUp
        await wait_until(lambda: replay.index < total, what="PgUp's step")
        await shows(page, replay.index)


async def test_undo_from_the_page_takes_back_your_decision_and_the_bots_after_it(
        browser, monkeypatch):
    async with console(monkeypatch, solo("undo")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        assert await page.locator("[data-command=undo]").count() == 0  # nothing yet
        con.type("place Tonga 2")
        index = await wait_until_moved(con)
        await shows(page, index)
        await page.click("[data-command=undo]")
        await shows(page, 0)
        assert con.session.game.moves == ()
        assert await page.locator("#board circle.ship").count() == 0
        await wait_until(lambda: "Taken back: place Tonga 2" in con.side(),
                         what="the console's log")


async def test_the_story_tells_each_move_once_and_the_terminal_sums_them_up(browser,
                                                                           monkeypatch):
    # The page showed the terminal's "Since your last move:" under the moves it had just
    # told, in bold and in typed words ("Maui: expand Tonga, beaches 3 5, sail Tonga 5
    # NE, land 1:R 2:G 3:B"): half its box said every move a second time, in code.
    async with console(monkeypatch, solo("once")) as con:
        page = await open_board(browser, con.url, await our_turn(con))
        con.type("place Tonga 2")
        index = await wait_until_moved(con)
        await shows(page, index)
        await wait_until(lambda: "Since your last move" in con.side(), what="the summary")
        story = await page.inner_text("#story")
        assert "Maui (G) puts a ship on beach" in story
        assert "Since your last move" not in story and "place Tonga" not in story
        # taken back, the moves are struck out on the page; their summary, never shown
        # there, is not shown struck either
        await page.click("[data-command=undo]")
        await shows(page, 0)
        await wait_until(lambda: "Taken back: place Tonga 2" in con.side(),
                         what="the console's log")
        struck = await page.locator("#story .l-void").all_inner_texts()
        assert len(struck) == 3 and all("puts a ship on beach" in t for t in struck)
        assert "Since your last move" not in await page.inner_text("#story")


async def test_the_page_speaks_italian(browser, monkeypatch):
    i18n.use("it")
    async with console(monkeypatch, solo("italiano")) as con:
        con.type("place Tonga 1")
        index = await wait_until_moved(con)
        page = await open_board(browser, con.url, index)
        assert await page.get_attribute("html", "lang") == "it"
        assert await page.inner_text("#h-players") == "GIOCATORI"  # (set in capitals)
        assert await page.text_content("#h-players") == "Giocatori"
        assert await page.text_content("#h-decision") == "Tocca a te"
        assert await page.inner_text("#decision") == "Tua decisione: metti una barca su Tonga"
        assert "Annulla mossa" in await page.inner_text("[data-command=undo]")
        assert "punti" in await page.inner_text("#seats")
        assert "spiaggia" in await page.inner_text("#story")


async def test_a_wrong_key_shows_nothing_of_the_game(browser, monkeypatch):
    async with console(monkeypatch, solo("key")) as con:
        await our_turn(con)
        server = con.link.server
        wrong = con.url.split("#")[0] + "#not-the-token"
        page = await open_board(browser, wrong)
        await page.locator("#status").filter(has_text="does not answer").wait_for()
        assert await page.locator("#board svg").count() == 0
        assert await page.get_attribute("html", "data-move-index") == ""
        assert server.refusals["token"] >= 2 and server.pages == 0
        bare = await open_board(browser, con.url.split("#")[0])
        await bare.locator("#status").filter(has_text="no key").wait_for()


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


async def test_screenshots_at_a_landing_and_at_the_end(browser, monkeypatch, tmp_path):
    """The pictures in docs/ (board-landing.png, board-end.png), of a real game on the
    real console's page: taken here, kept in the test's directory, and copied into docs/
    when TONGIAKI_LAN_SCREENSHOTS=1."""
    async with console(monkeypatch, solo("e", bots=3)) as con:
        await con.play_mine(lambda g: g.pending is not None and g.pending.kind == "landing"
                            and g.pending.seat == 0 and len(g.moves) > 40)
        landing = len(con.session.game.moves)
        # the landing's offer is the hint's (asked by the input path itself)
        await wait_until(lambda: con.model.state.offer, what="the landing's offer")
        page = await open_board(browser, con.url, landing)
        await page.set_viewport_size({"width": 1400, "height": 860})
        await page.locator("button.primary").wait_for()
        # the landing island's beaches are marked; one of them offers its landings
        marked = Counter(t for m in con.model.state.decision.moves for t in m.targets)
        assert await page.locator("#board .beach.legal").count() == len(marked)
        assert "Enter" not in await page.inner_text("#decisionbox")
        shots = {"board-landing.png": tmp_path / "board-landing.png"}
        await page.screenshot(path=shots["board-landing.png"])
        await con.play_mine(lambda g: g.is_over)
        await shows(page, len(con.session.game.moves))
        assert await page.is_visible("#finalbox")
        assert await page.locator("#finaltables table.players").count() == 1
        shots["board-end.png"] = tmp_path / "board-end.png"
        await page.screenshot(path=shots["board-end.png"])
    for name, path in shots.items():
        assert png_size(path) == (1400, 860)
        if os.environ.get("TONGIAKI_LAN_SCREENSHOTS") == "1":
            shutil.copyfile(path, DOCS / name)


async def test_the_lobby_serves_one_page_that_follows_its_next_game(browser, monkeypatch,
                                                                   tmp_path):
    """`tongiaki-lan --board`: the lobby's solo game is on the page; back in the lobby
    the page keeps its last board and refuses a click; the next game comes to the same
    page by itself (the browser opened once). The real lobby loop (cli/lobby.py) with
    the system's browser a script noting the address ($BROWSER)."""
    import asyncio

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from tests.console.test_leaving import _lobby_loop
    from tongiaki_lan.cli import lobby as cli_lobby
    from tongiaki_lan.console.terminal import screen as screen_module

    noted = tmp_path / "opened"
    script = tmp_path / "browser.sh"
    script.write_text(f"#!/bin/sh\necho \"$1\" >> {noted}\n")
    script.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(script))
    lobbies, args, out = _lobby_loop(monkeypatch, tmp_path)
    args.board, args.board_host = True, "127.0.0.1"
    games = []
    real = screen_module.GameScreen

    def kept(session, **kw):
        games.append(real(session, **kw))
        return games[-1]

    monkeypatch.setattr(screen_module, "GameScreen", kept)
    with create_pipe_input() as inp, create_app_session(input=inp, output=out):
        main = asyncio.ensure_future(cli_lobby._main(args))
        await wait_until(lambda: lobbies and lobbies[0].app.is_running, what="the lobby")
        inp.send_text("solo 1 easy\r")
        await wait_until(lambda: games and games[0].session.my_decision(), what="a game")
        await wait_until(noted.exists, what="the browser opened")
        url = noted.read_text().split()[0]
        page = await open_board(browser, url, 0)
        inp.send_text("\x15place Tonga 2\r")
        await wait_until(lambda: games[0].session.game.moves, what="our move")
        index = len(games[0].session.game.moves)
        await page.wait_for_selector('html:not([data-move-index="0"])', state="attached")
        inp.send_text("\x15lobby\r")
        await wait_until(lambda: "Enter again" in games[0].message[1], what="the question")
        inp.send_text("\r")
        await wait_until(lambda: len(lobbies) == 2 and lobbies[1].app.is_running,
                         what="the lobby again")
        # the page keeps the last board, and a click says there is no game on it now
        assert int(await page.get_attribute("html", "data-move-index")) >= index
        await page.locator('[data-target="beach:0:0"] circle').first.click()
        await page.locator("#notice").filter(has_text="No game is on this page").wait_for()
        inp.send_text("solo 1 easy\r")
        await wait_until(lambda: len(games) == 2 and games[1].session.my_decision(),
                         what="the next game")
        await shows(page, len(games[1].session.game.moves))  # (a new game: back to 0)
        assert noted.read_text().split() == [url]  # (one page, opened once)
        assert games[1].message == ("info", f"The board page: {url}")  # (said, whole)
        inp.send_text("\x15quit\r")
        await wait_until(lambda: "Enter again to leave" in games[1].message[1])
        inp.send_text("\r")
        assert await asyncio.wait_for(main, 30) == 0
        await page.locator("#status").filter(has_text="closed this page").wait_for()


async def _story_at_its_end(page) -> None:
    """Wait until the story's last line is in sight (within a pixel)."""
    await page.wait_for_function(
        "() => { const s = document.getElementById('story');"
        " return s.scrollHeight > s.clientHeight"
        " && s.scrollHeight - s.scrollTop - s.clientHeight < 2; }")


async def _played_on(table: SoloTable, page, moves: int) -> None:
    """Our first legal move, `moves` times (the bots answer at once), each shown."""
    for _ in range(moves):
        table.play(table.state().decision.moves[0].text)
        await shows(page, len(table.game.moves))


@contextlib.asynccontextmanager
async def _story_told(browser):
    """A solo table's page 560 pixels high, four of our moves played, the story at its
    end: (table, page)."""
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server.url, len(table.game.moves))
        await page.set_viewport_size({"width": 1400, "height": 560})
        await _played_on(table, page, 4)
        await _story_at_its_end(page)
        yield table, page


async def test_the_story_keeps_its_end_in_sight_when_its_box_gets_smaller(browser):
    # (a hint shown above it made the box smaller and hid the move just told: "Since your
    # last move:" stood last, the moves it lists out of sight)
    async with _story_told(browser) as (table, page):
        await page.set_viewport_size({"width": 1400, "height": 420})
        await _story_at_its_end(page)


async def test_the_story_follows_moves_that_come_faster_than_its_scrolling(browser):
    # A scroll event read after the list had grown again (the next move came first, as a
    # LAN game's moves do) stopped the following for good: the story stood at turn 2
    # while the game was at turn 7. Here the list grows, then its scroll event comes.
    async with _story_told(browser) as (table, page):
        await page.evaluate(
            "() => { const s = document.getElementById('story');"
            " for (let i = 0; i < 20; i++) s.append(document.createElement('li'));"
            " for (const li of s.querySelectorAll('li:empty')) li.textContent = 'x';"
            " s.dispatchEvent(new Event('scroll')); }")
        await _played_on(table, page, 2)
        await _story_at_its_end(page)
        last = (await page.locator("#story li").last.inner_text()).strip()
        assert last == table.state().story[-1][1].strip()


_SERVED_CHILD = """
import asyncio
from tests.web.conftest import serving
from tests.web.table import SoloTable

async def main():
    table = SoloTable()
    async with serving(table) as server:
        print(server.url, flush=True)
        await asyncio.Event().wait()

asyncio.run(main())
"""


async def test_a_page_whose_game_died_says_so_instead_of_reconnecting_for_ever(browser):
    # a console killed (or crashed) left its page saying "Connection lost: reconnecting…"
    # for as long as it was open: the game's own program serves it, and will not come
    # back at that address
    import asyncio
    import sys

    repo = Path(__file__).resolve().parents[2]
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", _SERVED_CHILD, cwd=str(repo), stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(repo)})
    try:
        url = (await asyncio.wait_for(child.stdout.readline(), 30)).decode().strip()
        page = await open_board(browser, url, 0)
        child.kill()
        await child.wait()
        await page.locator("#status").filter(has_text="reconnecting").wait_for()
        await page.locator("#status").filter(has_text="does not answer any more").wait_for()
        assert await page.locator("#board svg").count() == 1  # (the board as it last was)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()


async def test_the_beach_numbers_of_an_island_just_expanded_show_and_take_clicks(browser):
    # The last move's outline was drawn over everything: after `expand Tonga` it hid
    # Tonga's beach numbers, just when the player chose beaches by them, and a click on
    # a number found the outline, which stands for no move.
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server.url, len(table.game.moves))
        while not any(m.text == "expand Tonga" for m in table.state().decision.moves):
            table.play(table.state().decision.moves[0].text)
        table.play("expand Tonga")
        await shows(page, len(table.game.moves))
        assert await page.locator("#board polygon.mark").count() == 1
        hidden = await page.evaluate(
            """() => [...document.querySelectorAll('[data-target="island:0"] text.num')]
                .filter((t) => { const r = t.getBoundingClientRect();
                  const hit = document.elementFromPoint(r.x + r.width / 2,
                                                        r.y + r.height / 2);
                  return hit !== t; })
                .map((t) => t.textContent)""")
        assert hidden == []
        # on top of the band, dark on black, they were still unreadable: each is drawn
        # on a light halo of its own, whatever lies beneath
        halos = await page.evaluate(
            """() => [...document.querySelectorAll('[data-target="island:0"] text.num')]
                .map((t) => { const s = getComputedStyle(t);
                  return [s.paintOrder, s.stroke, parseFloat(s.strokeWidth)]; })""")
        assert len(halos) == 6
        for order, stroke, width in halos:
            assert order.startswith("stroke") and width >= 2
            assert min(int(v) for v in stroke[4:-1].split(",")) >= 240, stroke  # light
        # and a click on a number chooses its beach: the moves that use it are offered
        beach = next(t for m in table.state().decision.moves for t in m.targets
                     if t.startswith("beach:0:"))
        number = str(int(beach.split(":")[2]) + 1)
        await page.locator(f'[data-target="{beach}"] text.num').click()
        chooser = page.locator("#chooser-list button")
        await chooser.first.wait_for()
        offered = [await b.get_attribute("data-move") for b in await chooser.all()]
        assert offered and all(number in m.split()[1:] for m in offered)


async def test_the_click_hint_says_choose_below_only_when_a_move_is_listed_there(browser):
    """The page said "Click a marked place on the board, or choose below." with nothing
    but Hint below: every move of the decision was a marked place. It says "or choose
    below" when a move is listed there (one with no place of its own on the board)."""
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server.url, len(table.game.moves))
        # the first ship: six beaches marked, nothing to choose below but Hint
        assert await page.locator("#board .beach.legal").count() == 6
        assert await page.inner_text("#clickhint") == "Click a marked place on the board."
        assert await page.locator("#buttons button.move").count() == 0
        assert await page.locator('#buttons [data-command="hint"]').count() == 1
        # a decision with a move that has no place on the board: it is listed below
        for _ in range(400):
            moves = table.state().decision.moves
            if any(not m.targets for m in moves) and any(m.targets for m in moves):
                break
            table.play(next((m for m in moves if m.targets), moves[0]).text)
        else:
            raise AssertionError("no decision with a move listed below came")
        await shows(page, len(table.game.moves))
        assert await page.locator("#buttons button.move").count() >= 1
        assert await page.inner_text("#clickhint") == ("Click a marked place on the board, "
                                                       "or choose below.")


async def test_the_final_scores_are_tables_in_whole_words_with_the_engines_numbers(
        browser, monkeypatch):
    """E4 at the end, as a page shows it: the terminal's text table ("pts isl brd s+k",
    made for 47 columns) stood on the page in a monospace box; now a table per part, its
    headings in whole words, each player's numbers the engine's (what E4 compares:
    points, islands, ships and kings), the winner marked, and a row for every island that
    scored, with the points each colour took from it."""
    async with console(monkeypatch, solo("final", bots=2)) as con:
        await con.play_mine(lambda g: g.is_over)
        g = con.session.game
        page = await open_board(browser, con.url, len(g.moves))
        await page.locator("#finaltables table.players").wait_for()
        heads = await page.locator("table.players thead th").all_inner_texts()
        assert heads == ["player", "points", "islands", "ships and kings"]
        rows = page.locator("table.players tbody tr")
        keys = g.ranking_keys()
        assert await rows.count() == len(g.colours)
        for s, colour in enumerate(g.colours):
            cells = rows.nth(s).locator("td")
            assert [int(c) for c in await cells.all_inner_texts()] == [
                keys[colour][0], keys[colour][1], -keys[colour][2]]
            # (the ships on beaches and the kings apart: where a pointer rests on the sum)
            assert await cells.nth(2).get_attribute("title") == (
                f"ships on beaches: {g.on_board(s)} · kings: {-keys[colour][2] - g.on_board(s)}")
            assert (await rows.nth(s).get_attribute("class") == "winner") == (
                colour in g.winners())
        scored = {t for c in range(len(g.colours)) for t in g.islands()
                  if any(c in beach for beach in g.ships_on(t)) or g.king_of(t) == c}
        assert await page.locator("table.islands tbody tr").count() == len(scored)
        assert "s+k" not in await page.inner_text("#finalbox")

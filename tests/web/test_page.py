"""The board page in a real browser (Chromium, driven by Playwright), served by the real
server, over a real game that moves under it: what a player sees and what a click does.

No sleeps: each step waits for what the page shows (`data-move-index` on the root
element, a selector, a text)."""

from __future__ import annotations

import shutil
import struct
from collections import Counter
from pathlib import Path

from tests.web.conftest import serving
from tests.web.table import ReplayTable, SoloTable
from tongiaki_lan import i18n
from tongiaki_lan.console.web import BoardServer
from tongiaki_lan.palette import PLAYER_PAINT

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLUE = PLAYER_PAINT["blue"][0]


async def open_board(browser, server, index: int | None = None, url: str | None = None):
    page = await browser.new_page()
    await page.goto(url or server.url)
    if index is not None:
        await shows(page, index)
    return page


async def shows(page, index: int) -> None:
    """Wait until the page shows the board after `index` moves."""
    await page.wait_for_selector(f'html[data-move-index="{index}"]', state="attached")


def ships_on(beach_selector: str) -> str:
    return f'{beach_selector} circle.ship'


async def test_the_page_shows_the_board_after_a_move_made_elsewhere(browser):
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server, 0)
        assert await page.locator("#board svg g.tile").count() == 1  # Tonga alone
        assert await page.locator('[data-target="beach:0:2"] circle.ship').count() == 0
        table.play("place Tonga 3")  # typed in the console: the page follows
        await shows(page, 3)
        ship = page.locator('[data-target="beach:0:2"] circle.ship')
        assert await ship.count() == 1 and await ship.get_attribute("fill") == BLUE
        # with its letter, and the last move (Maui's) marked on the board
        last = table.last.targets[0]
        assert "last" in (await page.get_attribute(f'[data-target="{last}"]', "class"))
        assert await page.locator("#board .last").count() == 1
        assert await page.locator("#seats li").count() == 3
        assert "Maui" in await page.inner_text("#story")
        assert await page.get_attribute("#board", "data-move-index") == "3"


async def test_a_click_on_a_beach_plays_it(browser):
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server, 0)
        # your decision: the beaches you may choose are marked
        assert await page.locator("#board .beach.legal").count() == 6
        await page.locator('[data-target="beach:0:3"] circle').first.click()
        await shows(page, 3)
        assert table.commands == ["place Tonga 4"]
        ship = page.locator('[data-target="beach:0:3"] circle.ship')
        assert await ship.get_attribute("fill") == BLUE
        assert table.game.ships_on(0)[3] == (0,)


async def test_a_click_standing_for_several_moves_offers_them_to_choose(browser):
    """A New Colony tile: a click on an empty place offers its six rotations."""
    table = SoloTable(seed="chooser")
    while table.game.pending.kind != "colony_tile":
        table.play(str(table.game.legal_moves()[-1]))  # (the last move of a turn: colony)
    index = len(table.game.moves)
    place = table.state().decision.moves[0].targets[0]
    async with serving(table) as server:
        page = await open_board(browser, server, index)
        places = page.locator("#board .place.legal")
        assert await places.count() == len(table.game.frontier())
        await page.locator(f'[data-target="{place}"]').click()
        choices = page.locator("#chooser-list button")
        await choices.first.wait_for()
        q, r = place.split(":")[1:]
        texts = [await b.get_attribute("data-move") for b in await choices.all()]
        assert texts == [f"tile {q},{r} {d}" for d in ("S", "SW", "NW", "N", "NE", "SE")]
        await choices.nth(3).click()
        await page.wait_for_selector("#chooser", state="hidden")
        await page.wait_for_function(f"document.documentElement.dataset.moveIndex != '{index}'")
        assert table.commands == [f"tile {q},{r} N"]
        assert table.game.tile_at((int(q), int(r))) is not None


async def test_a_refused_click_says_why(browser):
    """The page showed a decision the game had left (moves made meanwhile): the click
    is refused with the rule, on the notice line."""
    table = SoloTable()
    table.play("place Tonga 1")
    async with serving(table) as server:
        page = await open_board(browser, server, 3)
        with table.hold():  # the console plays on, the page does not know yet
            table.play("place Tonga 2")
            await page.locator('[data-target="beach:0:4"] circle').first.click()
            notice = page.locator("#notice")
            await notice.filter(has_text="X1").wait_for()
        text = await notice.inner_text()
        assert "place Tonga 5" in text and "X1" in text
        assert table.game.ships_on(0)[4] == ()


async def test_a_click_where_you_have_no_move_says_where_you_have(browser):
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server, 0)
        await page.locator("#board text.name").click(force=True)  # Tonga's name: no beach
        await page.locator("#notice").filter(has_text="marked").wait_for()
        assert table.commands == []


async def test_a_reload_catches_up(browser):
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server, 0)
        table.play("place Tonga 6")
        table.play("place Tonga 2")
        await page.reload()
        await shows(page, 6)
        other = await open_board(browser, server, 6)  # a second page, opened late
        assert await other.locator("#board circle.ship").count() == 6


async def test_a_lost_connection_comes_back_and_catches_up(browser):
    """The server goes away (a restarted node) and comes back on the same address: the
    page tries again, and shows the board as it is then."""
    table = SoloTable()
    server = BoardServer(table.state, table.on_command)
    table.server = server
    await server.start()
    page = await open_board(browser, server, 0)
    await server.close()
    await page.locator("#status").filter(has_text="reconnecting").wait_for()
    table.play("place Tonga 3")
    again = BoardServer(table.state, table.on_command, port=server.port, token=server.token)
    table.server = again
    await again.start()
    try:
        await shows(page, 3)
        await page.wait_for_selector("#status", state="hidden")
    finally:
        await again.close()


async def test_the_board_comes_closer_and_stays_so_as_moves_come(browser):
    table = SoloTable(seed="zoom")
    while len(table.game.placed_tiles()) < 4:
        table.play(str(table.game.legal_moves()[0]))
    index = len(table.game.moves)
    async with serving(table) as server:
        page = await open_board(browser, server, index)
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
        table.play(str(table.game.legal_moves()[0]))  # a new board: still as close
        await shows(page, len(table.game.moves))
        assert await page.get_attribute("#board svg", "viewBox") == zoomed
        await page.click("#zoom-fit")
        assert await page.get_attribute("#board svg", "viewBox") == \
            await page.get_attribute("#board svg", "data-fit")


async def test_the_replay_controls_step_through_the_game(browser):
    table = ReplayTable()
    total = len(table.moves)
    async with serving(table) as server:
        page = await open_board(browser, server, total)
        assert await page.is_visible("#replay")
        assert await page.inner_text("#r-where") == f"move {total} of {total}"
        assert await page.is_disabled("#r-forward")
        await page.click("#r-back")
        await shows(page, total - 1)
        await page.click("#r-first")
        await shows(page, 0)
        assert await page.locator("#board g.tile").count() == 1
        await page.click("#r-forward")
        await shows(page, 1)
        # the slider: to move 20
        await page.eval_on_selector("#r-slider", """(s) => {
            s.value = 20; s.dispatchEvent(new Event('change', {bubbles: true})); }""")
        await shows(page, 20)
        await page.click("#r-last")
        await shows(page, total)
        assert table.commands == ["back", "first", "forward", "goto 20", "last"]
        # no legal moves in a replay: nothing marked to click
        assert await page.locator("#board .legal").count() == 0


async def test_undo_takes_back_your_decision_and_the_bots_after_it(browser):
    table = SoloTable()
    async with serving(table) as server:
        page = await open_board(browser, server, 0)
        assert await page.locator("[data-command=undo]").count() == 0  # nothing yet
        table.play("place Tonga 2")
        await shows(page, 3)
        await page.click("[data-command=undo]")
        await shows(page, 0)
        assert table.commands == ["undo"] and table.game.moves == ()
        assert await page.locator("#board circle.ship").count() == 0


async def test_the_page_speaks_italian(browser):
    i18n.use("it")
    table = SoloTable()
    table.play("place Tonga 1")
    async with serving(table) as server:
        page = await open_board(browser, server, 3)
        assert await page.get_attribute("html", "lang") == "it"
        assert await page.inner_text("#h-players") == "GIOCATORI"  # (set in capitals)
        assert await page.text_content("#h-players") == "Giocatori"
        assert await page.text_content("#h-decision") == "Tocca a te"
        assert (await page.inner_text("#decision")).startswith("Tua decisione")
        assert "Annulla mossa" in await page.inner_text("[data-command=undo]")
        assert "punti" in await page.inner_text("#seats")
        assert "spiaggia" in await page.inner_text("#story")


async def test_a_wrong_key_shows_nothing_of_the_game(browser):
    table = SoloTable()
    table.play("place Tonga 1")
    async with serving(table) as server:
        wrong = server.url.split("#")[0] + "#not-the-token"
        page = await open_board(browser, server, url=wrong)
        await page.locator("#status").filter(has_text="does not answer").wait_for()
        assert await page.locator("#board svg").count() == 0
        assert await page.get_attribute("html", "data-move-index") == ""
        assert server.refusals["token"] >= 2 and server.pages == 0
        bare = await open_board(browser, server, url=server.url.split("#")[0])
        await bare.locator("#status").filter(has_text="no key").wait_for()


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


async def test_screenshots_at_a_landing_and_at_the_end(browser, tmp_path):
    """The pictures in docs/ (board-landing.png, board-end.png): taken here, kept in the
    test's directory, and copied into docs/ when TONGIAKI_LAN_SCREENSHOTS=1."""
    import os

    table = SoloTable(seed="d")
    while not (table.game.pending.kind == "landing" and table.game.pending.seat == 0
               and len(table.game.moves) > 20):
        table.play(str(table.game.legal_moves()[0]))
    landing = len(table.game.moves)
    async with serving(table) as server:
        page = await open_board(browser, server, landing)
        await page.set_viewport_size({"width": 1400, "height": 860})
        # the landing island's beaches are marked; one of them offers its landings
        marked = Counter(t for m in table.state().decision.moves for t in m.targets)
        assert await page.locator("#board .beach.legal").count() == len(marked)
        shots = {"board-landing.png": tmp_path / "board-landing.png"}
        await page.screenshot(path=shots["board-landing.png"])
        while not table.game.is_over:
            table.play(str(table.game.legal_moves()[0]))
        await shows(page, len(table.game.moves))
        assert await page.is_visible("#finalbox")
        assert "Final score" in await page.inner_text("#final")
        shots["board-end.png"] = tmp_path / "board-end.png"
        await page.screenshot(path=shots["board-end.png"])
    for name, path in shots.items():
        assert png_size(path) == (1400, 860)
        if os.environ.get("TONGIAKI_LAN_SCREENSHOTS") == "1":
            shutil.copyfile(path, DOCS / name)

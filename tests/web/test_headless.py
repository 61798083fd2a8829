"""The board page of nodes with no console, end to end: `play --headless --board` and
`watch --board` run as a user runs them (child processes on this machine's loopback,
without discovery: the second laptop joins by the invite the first prints), their page
opened in a real Chromium from the address they print. Waits are for events and for what
the page shows, never sleeps."""

from __future__ import annotations

import re
import sys

from tests.net.procs import Proc, kill_all

URL = re.compile(r"^http://127\.0\.0\.1:\d+/#[A-Za-z0-9_-]{20,}$")


def play(name: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--bot", "random",
            "--name", name, "--game", "porch", "--players", "2", "--host", "127.0.0.1",
            "--no-discovery", "--timeout", "300", *extra]


def event(proc: Proc, kind: str) -> dict:
    return next(e for e in proc.events if e.get("event") == kind)


async def index_of(page) -> int:
    value = await page.get_attribute("html", "data-move-index")
    return int(value) if value else -1


async def test_play_headless_board_prints_its_address_and_the_page_follows_the_game(
        browser, tmp_path):
    first = Proc(play("ana", "--board", "--bot-delay", "0.05",
                      "--records", str(tmp_path / "ana")), tmp_path)
    procs = [first]
    try:
        await first.start()
        await first.wait(lambda: first.count("board") == 1 and first.count("joined") == 1, 60)
        board = event(first, "board")
        assert URL.match(board["url"]) and set(board) <= {"event", "url", "at"}, board
        page = await browser.new_page()
        await page.goto(board["url"])
        # the game has not begun: the page says so
        await page.locator("#status").filter(has_text="Waiting for the game").wait_for()
        second = Proc(play("bo", "--join", event(first, "joined")["invite"],
                           "--bot-delay", "0.05", "--records", str(tmp_path / "bo")),
                      tmp_path)
        procs.append(second)
        await second.start()
        # the page follows the game as it is played: a position in the middle of it
        await page.wait_for_selector(
            'html:not([data-move-index=""]):not([data-move-index="0"])', state="attached")
        middle = await index_of(page)
        assert not await page.is_visible("#finalbox")
        # ... its seat played by its bot: nothing to click, the bot is said to play it
        assert await page.locator("#board .legal").count() == 0
        assert "ana — bot (random)" in await page.inner_text("#seats")
        # ... and marked as this laptop's, as a player's page marks theirs: it marked no
        # seat, as if the laptop were a watcher
        own = page.locator("#seats li.seat.me")
        assert await own.count() == 1
        row = await own.inner_text()
        assert "ana — bot (random)" in row and "this laptop" in row, row
        other = await page.locator("#seats li.seat:not(.me)").inner_text()
        assert "bo" in other and "this laptop" not in other, other
        codes = [await p.finish(180) for p in procs]
        assert codes == [0, 0], [p.stderr[-1500:] for p in procs]
        over = [event(p, "game_over") for p in procs]
        assert over[0]["digest"] == over[1]["digest"]
        # the end reached the page before the node closed it
        await page.locator("#finalbox").wait_for()
        final = await index_of(page)
        assert final > middle and await page.is_visible("#finalbox")
        assert await page.locator("#finaltables table.players").count() == 1
        await page.locator("#status").filter(has_text="closed this page").wait_for()
    finally:
        await kill_all(procs)


async def test_a_late_watchers_page_looks_back_while_the_game_goes_on(browser, tmp_path):
    """`watch --board`: the page's replay controls step back through the moves so far
    (the watcher's own table, not the game, goes back), while the game goes on; Live
    returns to the game as it is."""
    first = Proc(play("ana", "--bot-delay", "0.15", "--records", str(tmp_path / "ana")),
                 tmp_path)
    procs = [first]
    try:
        await first.start()
        await first.wait(lambda: first.count("joined") == 1, 60)
        invite = event(first, "joined")["invite"]
        second = Proc(play("bo", "--join", invite, "--bot-delay", "0.15",
                           "--records", str(tmp_path / "bo")), tmp_path)
        procs.append(second)
        await second.start()
        await first.wait(lambda: first.count("move") >= 10, 120)  # (it arrives late)
        watcher = Proc([sys.executable, "-m", "tongiaki_lan", "watch", "--join", invite,
                        "--name", "eve", "--json", "--board", "--host", "127.0.0.1",
                        "--timeout", "300", "--record", str(tmp_path / "eve.tgrec")],
                       tmp_path)
        procs.append(watcher)
        await watcher.start()
        await watcher.wait(lambda: watcher.count("board") == 1, 60)
        page = await browser.new_page()
        await page.goto(event(watcher, "board")["url"])
        await page.wait_for_selector("#replay:not([hidden])", state="attached")
        await page.wait_for_selector('html:not([data-move-index=""])', state="attached")
        live = await index_of(page)
        assert await page.inner_text("#r-where") == "the game as it goes on"
        # a page that types nothing is told nothing to type: it said "say TEXT chats,
        # follow NAME shows a player's side, help lists the rest"
        story = await page.inner_text("#story")
        assert "You are watching porch: no seat, no moves." in story
        assert "say TEXT" not in story and "help lists" not in story, story
        await page.click("#r-first")
        await page.wait_for_selector('html[data-move-index="0"]', state="attached")
        assert await page.locator("#board g.tile").count() == 1
        assert (await page.inner_text("#decision")).startswith("Looking back, move 0/")
        # the game goes on meanwhile: the end the slider reaches grows, the view stays
        await page.wait_for_selector(f'#r-slider:not([max="{live}"])', state="attached")
        assert await index_of(page) == 0
        await page.click("#r-forward")
        await page.wait_for_selector('html:not([data-move-index="0"])', state="attached")
        assert 0 < await index_of(page) < int(await page.get_attribute("#r-slider", "max"))
        await page.click("#r-last")  # Live: the game as it is again
        await page.locator("#r-where").filter(has_text="the game as it goes on").wait_for()
        assert await index_of(page) > live
        codes = [await p.finish(240) for p in procs]
        assert codes[:2] == [0, 0], [p.stderr[-1500:] for p in procs]
        assert event(watcher, "game_over")["digest"] == event(first, "game_over")["digest"]
    finally:
        await kill_all(procs)


async def test_a_bot_laptops_page_shows_its_table_as_it_forms(browser, tmp_path):
    """Before its game the page said only "Waiting for the game to start…": it shows the
    table as the console's lobby lists it — its name, each seat taken with its player,
    colour and readiness, this laptop's marked, the seats still open — as people sit
    down, then the game once it starts."""
    first = Proc(play("ana", "--players", "3", "--board", "--bot-delay", "0.05",
                      "--records", str(tmp_path / "ana")), tmp_path)
    procs = [first]
    try:
        await first.start()
        await first.wait(lambda: first.count("board") == 1 and first.count("joined") == 1, 60)
        invite = event(first, "joined")["invite"]
        page = await browser.new_page()
        await page.goto(event(first, "board")["url"])
        seats = page.locator("#seatsbox")
        await seats.filter(has_text="2 seats open").wait_for()
        assert await page.inner_text("#title") == "porch"
        assert "Waiting for the game to start" in await page.inner_text("#status")
        assert (await page.inner_text("#h-players")).casefold() == \
            "your table: porch (lobby, 1/3 seats)"
        own = page.locator("#seats li.seat.me")
        row = await own.inner_text()
        assert "ana" in row and "bot random" in row and "this laptop" in row, row
        assert "ready" in row and await own.locator(".chip").inner_text() == "B"
        assert not await page.is_visible("#decisionbox")  # (no game, no decision yet)
        second = Proc(play("bo", "--players", "3", "--join", invite, "--bot-delay", "0.05",
                           "--records", str(tmp_path / "bo")), tmp_path)
        procs.append(second)
        await second.start()
        # bo sits down: the page shows it as it happens
        await seats.filter(has_text="1 seat open").wait_for()
        assert await page.locator("#seats li.seat").count() == 2
        other = await page.locator("#seats li.seat:not(.me)").inner_text()
        assert "bo" in other and "this laptop" not in other, other
        assert await page.inner_text("#h-players") != ""
        third = Proc(play("cy", "--players", "3", "--join", invite, "--bot-delay", "0.05",
                          "--records", str(tmp_path / "cy")), tmp_path)
        procs.append(third)
        await third.start()
        # the table is full and ready: the game starts, and the page shows it
        await page.wait_for_selector(
            'html:not([data-move-index=""]):not([data-move-index="0"])', state="attached")
        assert await page.is_visible("#decisionbox") and await page.is_visible("#storybox")
        assert (await page.inner_text("#h-players")).casefold() == "players"
        assert await page.locator("#seats li.seat").count() == 3
        codes = [await p.finish(180) for p in procs]
        assert codes == [0, 0, 0], [p.stderr[-1500:] for p in procs]
    finally:
        await kill_all(procs)


async def test_an_expelled_bot_laptops_page_names_the_command_that_follows_the_game(
        browser, tmp_path):
    """A broken laptop the table expelled (issue 44): its page said "Type lobby, then
    watch N to follow the game", where nothing can be typed and no lobby runs. It names
    the command that follows the game instead; the typed way is the console's line."""
    broken = Proc(["env", "TONGIAKI_TEST_BROKEN=0.3:5",
                   *play("ana", "--players", "3", "--board", "--bot-delay", "0.05",
                         "--table-bot", "random", "--records", str(tmp_path / "ana"))],
                  tmp_path)
    procs = [broken]
    try:
        await broken.start()
        await broken.wait(lambda: broken.count("board") == 1 and broken.count("joined") == 1,
                          60)
        invite = event(broken, "joined")["invite"]
        page = await browser.new_page()
        await page.goto(event(broken, "board")["url"])
        await page.locator("#seatsbox").filter(has_text="2 seats open").wait_for()
        for name in ("bo", "cy"):
            procs.append(Proc(play(name, "--players", "3", "--join", invite, "--bot-delay",
                                   "0.05", "--table-bot", "random",
                                   "--records", str(tmp_path / name)), tmp_path))
            await procs[-1].start()
        await page.locator("#decision").filter(
            has_text="This laptop was expelled from the table. To follow the game, run: "
                     "tongiaki-lan watch --game porch").wait_for(timeout=120_000)
        # (said alone: not followed by whose decision it is, at a table it left)
        assert (await page.inner_text("#decision")).endswith("--game porch")
        story = await page.inner_text("#story")
        assert "This laptop was expelled from the table: the others hold proof" in story
        assert "Type lobby" not in story and "lobby" not in await page.inner_text("#decision")
        assert await broken.finish(60) != 0
        codes = [await p.finish(240) for p in procs[1:]]
        assert codes == [0, 0], [p.stderr[-1500:] for p in procs[1:]]
    finally:
        await kill_all(procs)

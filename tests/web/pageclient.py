"""A board page opened in a headless Chromium by a program of its own, so that it can run
where the page is served: `ip netns exec NS python -m tests.web.pageclient URL OUT`, on a
laptop of a namespace LAN whose node serves its page on that namespace's 127.0.0.1.

It writes to OUT (JSON) what the page was sent — each state's version, move index and
last move — and what it shows at the end: the move index on its root element, the board's
SVG and the final table. It ends when the game closes the page. Prints "ready" once the
page shows a state, so the test knows it is looking."""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile

from playwright.async_api import async_playwright

from tests.web.conftest import CHROMIUM_FLAGS, chromium_path


async def main(url: str, out: str) -> int:
    seen: list[dict] = []
    closed = asyncio.Event()

    def frame(payload) -> None:
        if not isinstance(payload, str):
            return
        message = json.loads(payload)
        if message.get("type") == "state":
            last = message.get("last_move") or {}
            seen.append({"version": message["version"], "move_index": message["move_index"],
                         "last": last.get("index"), "over": message["over"]})
        elif message.get("type") == "closed":
            closed.set()

    async with async_playwright() as p:
        with tempfile.TemporaryDirectory(prefix="tongiaki-page-") as profile:
            context = await p.chromium.launch_persistent_context(
                profile, executable_path=chromium_path(), headless=True, args=CHROMIUM_FLAGS)
            try:
                page = await context.new_page()
                page.on("websocket", lambda ws: ws.on("framereceived", frame))
                await page.goto(url)
                await page.wait_for_selector('html:not([data-move-index=""])',
                                             state="attached", timeout=120_000)
                print("ready", flush=True)
                await asyncio.wait_for(closed.wait(), 600)
                await page.locator("#status").filter(has_text="closed this page").wait_for(
                    timeout=30_000)
                shown = {
                    "move_index": int(await page.get_attribute("html", "data-move-index")),
                    "svg": await page.inner_html("#board"),
                    "final": await page.inner_text("#finalbox"),
                }
            finally:
                await context.close()
    with open(out, "w", encoding="utf-8") as f:
        json.dump({"seen": seen, "shown": shown}, f)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))

"""The board page's tests: a real server in the test's own event loop, real HTTP and
WebSocket clients (aiohttp's), and a real browser — Playwright for Python driving
Debian's Chromium, never a browser Playwright downloads (`playwright install` is not
needed and does not work here)."""

from __future__ import annotations

import contextlib
import os
import shutil

import pytest

from tongiaki_lan import i18n
from tongiaki_lan.console.web import BoardServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


def chromium_path() -> str | None:
    if os.access(CHROMIUM, os.X_OK):
        return CHROMIUM
    return shutil.which("chromium")


@pytest.fixture
async def browser(tmp_path):
    """A fresh headless Chromium (its own profile in the test's directory), closed after
    the test. Skips, saying why, where Chromium or Playwright is missing."""
    path = chromium_path()
    if path is None:
        pytest.skip("no chromium on this machine (apt-get install --no-install-recommends "
                    "chromium; .ci/run does)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install -e '.[test]')")
    async with async_playwright() as p:
        context = await p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=path, headless=True,
            args=CHROMIUM_FLAGS, viewport={"width": 1400, "height": 900})
        context.set_default_timeout(15_000)  # a step that does not come fails, not hangs
        try:
            yield context
        finally:
            await context.close()


@contextlib.asynccontextmanager
async def serving(table, **options):
    """`table` (tests/web/table.py) served by a real BoardServer, told of its changes."""
    server = BoardServer(table.state, table.on_command, **options)
    table.server = server
    await server.start()
    try:
        yield server
    finally:
        table.server = None
        await server.close()


@pytest.fixture(autouse=True)
def english_after():
    """A test that speaks another language gives English back."""
    yield
    i18n.use("en")

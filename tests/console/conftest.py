"""Helpers for console tests: waiting on conditions (never on fixed sleeps)."""

from __future__ import annotations

import asyncio
import time


async def wait_until(condition, timeout: float = 60.0, what: str = "condition") -> None:
    """Yield to the event loop until `condition()` holds; fail after a generous timeout."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)

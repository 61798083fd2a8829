"""The lobby on a laptop with no network at all (Wi-Fi off: a train, a cabin), in a
network namespace of its own with only a loopback that is down."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs Linux, root and unshare(1) for a namespace with no network")

PROBE = """
import asyncio
from tongiaki_lan.console.terminal.lobby import LobbyScreen

async def main():
    lobby = LobbyScreen("Tester", lan=True, colour_output=False)
    await lobby.start_network()
    print(lobby.lan_error)

asyncio.run(main())
"""


def test_a_laptop_on_no_network_is_told_so_plainly():
    """It read "LAN not available: zeroconf could not start (No interfaces to listen on,
    check that any interfaces have IP version IPVersion.V4Only)", cut at the header's
    edge: zeroconf's words, not the player's situation."""
    done = subprocess.run(["unshare", "-n", sys.executable, "-c", PROBE], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "LANGUAGE": "en"})
    said = done.stdout.strip()
    assert said.startswith("LAN not available: this laptop is on no network"), (said,
                                                                                done.stderr)
    assert "solo" in said and "zeroconf" not in said

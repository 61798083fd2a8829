"""Network namespaces as LAN hosts for the tests: one switch namespace with a bridge, one
namespace per host with a veth into it. Nothing is created in (or sent from) the root
namespace, and everything is torn down even when a test fails."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from dataclasses import dataclass, field


def netns_unavailable() -> str | None:
    """Why namespaces cannot be built here, or None."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if os.geteuid() != 0:
        return "network namespace tests need root (ip netns add)"
    if shutil.which("ip") is None:
        return "iproute2 ('ip') is not installed"
    return None


def needs_netns():
    """A mark that skips a test, saying why, where namespaces cannot be built."""
    import pytest

    why = netns_unavailable()
    return pytest.mark.skipif(why is not None, reason=why or "")


def iptables_unavailable() -> str | None:
    if shutil.which("iptables") is None:
        return "iptables is not installed (apt-get install -y iptables)"
    return None


def needs_netns_and_iptables():
    """A mark that skips a test, saying why, where namespaces or iptables are missing."""
    import pytest

    why = netns_unavailable() or iptables_unavailable()
    return pytest.mark.skipif(why is not None, reason=why or "")


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=20)


@dataclass
class Lan:
    hosts: int
    loss: float = 0.0
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:6])
    subnet: int = field(default_factory=lambda: 100 + int(uuid.uuid4().hex[:4], 16) % 150)
    names: list[str] = field(default_factory=list)
    ips: list[str] = field(default_factory=list)
    switch: str = ""

    def __enter__(self) -> Lan:
        try:
            self._build()
        except BaseException:
            self.teardown()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.teardown()

    def _build(self) -> None:
        self.switch = f"tks{self.tag}"
        _ip("netns", "add", self.switch)
        _ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        _ip("-n", self.switch, "link", "set", "br0", "up")
        for i in range(self.hosts):
            ns = f"tkh{self.tag}{i}"
            _ip("netns", "add", ns)
            self.names.append(ns)
            tmp = f"tk{self.tag}{i}"
            _ip("link", "add", tmp, "netns", ns, "type", "veth", "peer", "name", f"v{i}",
                "netns", self.switch)
            _ip("-n", ns, "link", "set", tmp, "name", "eth0")
            _ip("-n", self.switch, "link", "set", f"v{i}", "master", "br0")
            _ip("-n", self.switch, "link", "set", f"v{i}", "up")
            ip = f"10.213.{self.subnet}.{i + 1}"
            _ip("-n", ns, "addr", "add", f"{ip}/24", "dev", "eth0")
            _ip("-n", ns, "link", "set", "eth0", "up")
            _ip("-n", ns, "link", "set", "lo", "up")
            _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", "eth0")
            self.ips.append(ip)
            if self.loss:
                subprocess.run(
                    ["ip", "netns", "exec", ns, "iptables", "-A", "INPUT", "-i", "eth0", "-p",
                     "udp", "-m", "statistic", "--mode", "random", "--probability",
                     str(self.loss), "-j", "DROP"],
                    check=True, capture_output=True, timeout=20)

    def teardown(self) -> None:
        for ns in [*self.names, self.switch]:
            if ns:
                subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=20)
        self.names = []
        self.switch = ""

    def cmd(self, i: int, *argv: str) -> list[str]:
        """A command line that runs `argv` on host i."""
        return ["ip", "netns", "exec", self.names[i], *argv]

    def iptables(self, i: int, *rule: str) -> None:
        """Add (or delete, ...) an iptables rule on host i: a fault of that laptop's own."""
        subprocess.run(self.cmd(i, "iptables", *rule), check=True, capture_output=True,
                       timeout=20)


def handover_table_cmds(lan: Lan, tmp, game: str, bot_delay: str) -> list[list[str]]:
    """`play_cmd` on every host of `lan`, one table: a seat whose player is away goes to a
    random bot after 5 s (`--handover 5`), bots move every `bot_delay` seconds."""
    n = len(lan.names)
    return [play_cmd(lan, i, tmp, game, n, "--handover", "5", "--bot-delay", bot_delay,
                     "--table-bot", "random") for i in range(n)]


def play_cmd(lan: Lan, i: int, tmp, game: str, players: int, *extra: str,
             timeout: int = 150) -> list[str]:
    """`play --headless` for host i of `lan`, recording to `tmp/host{i}.tgrec`."""
    return lan.cmd(i, sys.executable, "-m", "tongiaki_lan", "play", "--headless",
                   "--name", f"host{i}", "--game", game, "--players", str(players),
                   "--record", str(tmp / f"host{i}.tgrec"), "--timeout", str(timeout),
                   "--quiet-refusals", *extra)

"""ICMP errors never stop a node hearing its peers (issue 17, sockets).

A datagram to a crashed peer's old port comes back as an ICMP port-unreachable. Linux tells
an unconnected UDP socket about it only with IP_RECVERR, so these tests turn that on: the
error then really reaches the pump's reader (the selector loop's `error_received`), as it
does on Windows, and the pump must go on receiving."""

from __future__ import annotations

import asyncio
import socket
import sys

import pytest

from tongiaki_lan.net.aio import pump as pump_mod
from tongiaki_lan.net.aio.pump import DatagramPump

IP_RECVERR = getattr(socket, "IP_RECVERR", 11)  # Linux's value where Python lacks the name


class Recorder:
    """The smallest machine a pump runs: keeps what it receives."""

    def __init__(self) -> None:
        self.got: list[bytes] = []

    def receive(self, data: bytes, addr, now: float) -> None:
        self.got.append(data)

    def handle_timer(self, now: float) -> None:
        pass

    def datagrams_to_send(self) -> list:
        return []

    def get_timer(self) -> float | None:
        return None


async def _until(cond, timeout: float = 10.0) -> None:
    async def poll():
        while not cond():
            await asyncio.sleep(0.005)
    await asyncio.wait_for(poll(), timeout)


def _dead_port() -> tuple[str, int]:
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    addr = s.getsockname()
    s.close()
    return addr


@pytest.mark.skipif(sys.platform != "linux", reason="IP_RECVERR (making ICMP errors reach "
                    "an unconnected UDP socket) is Linux's")
async def test_a_node_keeps_receiving_after_icmp_port_unreachable_for_a_dead_peer():
    machine = Recorder()
    pump = DatagramPump(machine)
    await pump.open("127.0.0.1", 0)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        pump.socket.transport.get_extra_info("socket").setsockopt(
            socket.IPPROTO_IP, IP_RECVERR, 1)
        dead = _dead_port()
        for round_ in range(3):
            errors = pump.socket_errors
            pump.send_raw(b"to the crashed peer", dead)
            await _until(lambda e=errors: pump.socket_errors > e)  # the ICMP error reached us
            for i in range(5):
                sender.sendto(b"move %d.%d" % (round_, i), pump.address)
            await _until(lambda n=5 * (round_ + 1): len(machine.got) == n)
        assert machine.got[-1] == b"move 2.4"
        assert pump.reopened == 0
    finally:
        sender.close()
        await pump.close()


async def test_a_socket_closed_under_the_pump_is_bound_again_on_the_same_port():
    machine = Recorder()
    pump = DatagramPump(machine)
    addr = await pump.open("127.0.0.1", 0)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        pump.socket.transport.abort()  # what a loop's fatal read error does
        await _until(lambda: pump.reopened == 1)
        assert pump.address == addr
        sender.sendto(b"still here?", addr)
        await _until(lambda: machine.got == [b"still here?"])
    finally:
        sender.close()
        await pump.close()


def test_on_windows_the_game_socket_is_told_not_to_report_icmp_resets(monkeypatch):
    """Windows emulated: where the platform has SIO_UDP_CONNRESET the socket gets
    ioctl(SIO_UDP_CONNRESET, False) before it is used."""
    calls = []

    class FakeSocket:
        def __init__(self, *a) -> None:
            pass

        def ioctl(self, option, value) -> None:
            calls.append((option, value))

        def setblocking(self, flag) -> None:
            pass

        def bind(self, addr) -> None:
            calls.append(("bind", addr))

    monkeypatch.setattr(socket, "SIO_UDP_CONNRESET", 0x9800000C, raising=False)
    monkeypatch.setattr(pump_mod.socket, "socket", FakeSocket)
    pump_mod.udp_socket("0.0.0.0", 4242)
    assert calls == [(0x9800000C, False), ("bind", ("0.0.0.0", 4242))]


def test_elsewhere_nothing_is_asked_of_the_socket(monkeypatch):
    monkeypatch.delattr(socket, "SIO_UDP_CONNRESET", raising=False)
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        assert pump_mod.no_connreset(s) is False
    finally:
        s.close()


def test_on_windows_asyncio_runs_the_selector_loop(monkeypatch):
    """The selector loop keeps a datagram reader alive after any OSError (zeroconf's
    sockets too, which we cannot configure); elsewhere the default loop is kept."""
    chosen = []

    class Policy:
        pass

    monkeypatch.setattr(asyncio, "WindowsSelectorEventLoopPolicy", Policy, raising=False)
    monkeypatch.setattr(asyncio, "set_event_loop_policy", chosen.append)
    monkeypatch.setattr(sys, "platform", "linux")
    pump_mod.choose_event_loop()
    assert chosen == []
    monkeypatch.setattr(sys, "platform", "win32")
    pump_mod.choose_event_loop()
    assert [type(p) for p in chosen] == [Policy]


@pytest.mark.skipif(sys.platform != "linux", reason="IP_RECVERR is Linux's")
async def test_a_peer_keeps_hearing_the_table_while_it_resends_to_a_crashed_peer():
    """The situation of the issue: one peer of the table crashed; our resends to its old
    port draw ICMP errors again and again, and every message of the live peer still
    arrives, once each and in order."""
    from tongiaki_lan.net.aio.transport import Transport
    from tongiaki_lan.net.protocol.codec import Chat

    game = bytes.fromhex("0102030405060708")
    got: list[str] = []
    me = Transport(b"A" * 8, 1, lambda peer, addr, msg: got.append(msg.text))
    live = Transport(b"C" * 8, 1, lambda peer, addr, msg: None)
    for t in (me, live):
        await t.open("127.0.0.1", 0)
        t.set_game(game, None)
    try:
        me._pump.socket.transport.get_extra_info("socket").setsockopt(
            socket.IPPROTO_IP, IP_RECVERR, 1)
        me.send(b"B" * 8, _dead_port(), Chat("are you there?"))  # resent until given up
        await _until(lambda: me._pump.socket_errors >= 3)
        for i in range(50):
            live.send(me.peer_id, me.address, Chat(f"move {i}"))
        await _until(lambda: len(got) == 50)
        assert got == [f"move {i}" for i in range(50)]
        assert me._pump.socket_errors >= 3 and me._pump.reopened == 0
    finally:
        await me.close()
        await live.close()

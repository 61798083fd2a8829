"""`doctor --json` between two laptops (network namespaces): it names the other laptop's
game and a working datagram exchange; with unicast between them dropped but multicast kept
it says the network isolates clients; with everything inbound dropped, that a firewall
blocks the program. Each verdict is its own test."""

from __future__ import annotations

import sys

import pytest

from .netns import Lan, needs_netns_and_iptables, play_cmd
from .procs import Proc, kill_all

pytestmark = [pytest.mark.netns, pytest.mark.slow, needs_netns_and_iptables()]


async def _doctor(lan: Lan, tmp_path, *rules_on_doctor: tuple[str, ...]) -> dict:
    """Host 0 sits at table 'lagoon'; host 1 runs `doctor --json` (after `rules`)."""
    host = Proc(play_cmd(lan, 0, tmp_path, "lagoon", 3, "--wait", "0"), tmp_path)
    try:
        await host.start()
        await host.wait(lambda: host.count("advertised") >= 1, 60)
        for rule in rules_on_doctor:
            lan.iptables(1, *rule)
        doctor = Proc(lan.cmd(1, sys.executable, "-m", "tongiaki_lan", "doctor", "--json"),
                      tmp_path)
        await doctor.start()
        assert await doctor.finish(60) == 0, doctor.stderr[-1500:]
        assert len(doctor.events) == 1, doctor.events
        return doctor.events[0]
    finally:
        await kill_all([host])


async def test_doctor_names_the_other_laptops_game_and_exchanges_a_datagram(tmp_path):
    with Lan(2) as lan:
        facts = await _doctor(lan, tmp_path)
    assert facts["own_advert_heard"] is True
    assert [g["game"] for g in facts["games"]] == ["lagoon"]
    [node] = [n for n in facts["nodes"] if n["kind"] == "game"]
    assert (node["name"], node["game"], node["hosts"]) == ("host0", "lagoon", [lan.ips[0]])
    assert node["answers"] is True and node["rtt_ms"] is not None
    assert abs(node["clock_offset_s"]) < 5  # same machine's clock (not a speed figure)
    assert facts["verdict"]["code"] == "ok"


async def test_doctor_says_the_network_isolates_clients_when_only_multicast_passes(tmp_path):
    with Lan(2) as lan:
        # guest Wi-Fi: datagrams between the laptops are dropped unless multicast
        facts = await _doctor(lan, tmp_path, ("-A", "INPUT", "-s", lan.ips[0], "-m", "pkttype",
                                              "--pkt-type", "unicast", "-j", "DROP"),
                              ("-A", "OUTPUT", "-d", lan.ips[0], "-j", "DROP"))
    assert [g["game"] for g in facts["games"]] == ["lagoon"]
    [node] = facts["nodes"]
    assert node["answers"] is False and node["probes"][0]["sent"] >= 3
    assert facts["verdict"]["code"] == "isolated"


async def test_doctor_says_a_firewall_blocks_the_program_when_nothing_gets_in(tmp_path):
    with Lan(2) as lan:
        facts = await _doctor(lan, tmp_path, ("-A", "INPUT", "-j", "DROP"))
    assert facts["own_advert_heard"] is False
    assert facts["nodes"] == [] and facts["games"] == []
    assert facts["verdict"]["code"] == "firewall"


async def test_a_short_wait_on_a_sound_network_does_not_blame_a_firewall(tmp_path):
    """`doctor --wait 1` said "a firewall blocks it" on a network with nothing wrong: its
    own advert comes back only after zeroconf's probes and first announcement, a second or
    so, and it had stopped listening by then."""
    with Lan(1) as lan:
        doctor = Proc(lan.cmd(0, sys.executable, "-m", "tongiaki_lan", "doctor", "--json",
                              "--wait", "0.5"), tmp_path)
        await doctor.start()
        assert await doctor.finish(60) == 0, doctor.stderr[-1500:]
    [facts] = doctor.events
    assert facts["own_advert_heard"] is True
    assert facts["verdict"]["code"] == "alone"

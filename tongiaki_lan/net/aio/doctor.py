"""`doctor`: why can't I see your game? The facts, gathered over the real network.

It looks at this laptop's interfaces, advertises a `doctor` instance over mDNS and listens
for a few seconds (does its own advert come back? which tongiaki nodes and games are
announced?), and probes every node it hears of with a signed PROBE (net.protocol.probe)
from one UDP socket. The facts are returned as a dict; `verdict` turns them into one plain
finding (net.protocol-free, so the console and the CLI word it alike).

Interface names come from `ifaddr`, the library zeroconf itself uses to list addresses (so
it is installed wherever zeroconf is; docs/network.md says why we name it): when it is
missing, addresses are listed without names.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from tongiaki_lan.net.aio.discovery import Discovery, local_ipv4
from tongiaki_lan.net.aio.pump import DatagramPump
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.probe import Prober

LISTEN_S = 3.0
OWN_ADVERT_S = 3.0  # how long a short --wait still waits for its own advert to come back
PROBE_GRACE_S = 2.0
# names of interfaces that are rarely the party's network: VPNs, containers, VMs
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vbox", "virtualbox", "vmware",
           "hyper-v", "vethernet", "wsl", "tun", "tap", "wg", "utun", "tailscale", "zt",
           "zerotier", "vpn", "npcap", "loopback pseudo", "awdl", "llw", "anpi", "bridge")


def _adapters() -> list[tuple[str, str, int]]:
    """(interface name, IPv4 address, prefix length) of this host."""
    try:
        import ifaddr
    except ImportError:  # pragma: no cover - zeroconf depends on it
        return [("?", a, 24) for a in local_ipv4()]
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                out.append((adapter.nice_name or adapter.name, ip.ip, ip.network_prefix))
    return out


def interfaces(chosen: list[str] | None) -> list[dict]:
    """Each IPv4 interface, whether discovery uses it and why (a `why` code the UI words:
    `chosen`, `not-chosen`, `loopback`, `link-local`, `virtual`, `lan`)."""
    rows = []
    for name, addr, prefix in _adapters():
        low = name.lower()
        if addr.startswith("127."):
            kind = "loopback"
        elif addr.startswith("169.254."):
            kind = "link-local"
        elif any(low.startswith(v) or v in low for v in VIRTUAL if len(v) > 3) or any(
                low.startswith(v) for v in VIRTUAL):
            kind = "virtual"
        else:
            kind = "lan"
        if chosen:
            used = addr in chosen
            why = "chosen" if used else "not-chosen"
        else:  # zeroconf's InterfaceChoice.All: every address but loopback
            used = kind != "loopback"
            why = kind
        rows.append({"name": name, "address": addr, "prefix": prefix, "kind": kind,
                     "used": used, "why": why})
    return rows


async def diagnose(chosen: list[str] | None = None, listen_s: float = LISTEN_S,
                   name: str = "doctor") -> dict:
    """Gather the facts (about `listen_s` + PROBE_GRACE_S seconds; up to OWN_ADVERT_S for
    its own advert to come back)."""
    facts: dict = {"interfaces": interfaces(chosen), "chosen": chosen or []}
    identity = Identity.generate()
    prober = Prober(identity, time.time_ns() // 1000 - int(time.monotonic() * 1e6))
    pump = DatagramPump(prober)
    disc = Discovery(chosen) if chosen else Discovery()
    started = time.monotonic()
    try:
        await pump.open("0.0.0.0", 0)
        facts["port"] = pump.address[1]
        try:
            await disc.start()
        except OSError as exc:
            facts["mdns_error"] = str(exc)
            facts.update(own_advert_heard=False, nodes=[], games=[], listened_s=0.0)
            return facts
        with contextlib.suppress(Exception):
            await disc.advertise_doctor(identity.peer_id, pump.address[1], name)
        end = started + listen_s
        probed: set[tuple[str, int]] = set()

        def probe_new() -> None:
            for peer, hosts, port in _targets(disc):
                if peer == identity.peer_id:
                    continue
                for host in hosts:
                    if (host, port) not in probed:
                        probed.add((host, port))
                        prober.probe((host, port), time.monotonic(), expect=peer)
            pump.step()

        # (its own advert comes back only after zeroconf's probes and first announcement,
        # about a second: `doctor --wait 1` on a sound network blamed a firewall)
        own_end = started + max(listen_s, OWN_ADVERT_S)
        while ((left := end - time.monotonic()) > 0
               or not disc.heard_own() and (left := own_end - time.monotonic()) > 0):
            await disc.wait_changed(min(left, 0.25))
            probe_new()
        grace = time.monotonic() + PROBE_GRACE_S
        while not prober.done() and time.monotonic() < grace:
            await asyncio.sleep(0.05)
        facts["listened_s"] = round(time.monotonic() - started, 2)
        facts["own_advert_heard"] = disc.heard_own()
        facts["nodes"] = _nodes(disc, prober, identity.peer_id)
        facts["games"] = [g.to_json() for g in disc.games()]
        facts["probes_answered_here"] = prober.responder.answered
        return facts
    finally:
        with contextlib.suppress(Exception):
            await disc.close()
        await pump.close()


def _targets(disc: Discovery):
    for a in disc.adverts.values():
        yield a.peer, a.hosts, a.port
    for o in disc.others.values():
        if o.peer is not None and o.port:
            yield o.peer, o.hosts, o.port


def _nodes(disc: Discovery, prober: Prober, me: bytes) -> list[dict]:
    rows: dict[bytes, dict] = {}
    for a in sorted(disc.adverts.values(), key=lambda a: a.instance):
        rows.setdefault(a.peer, {"peer": a.peer.hex(), "name": a.player, "kind": "game",
                                 "game": a.game_name, "phase": a.phase, "hosts": a.hosts,
                                 "port": a.port})
    for o in sorted(disc.others.values(), key=lambda o: o.instance):
        if o.peer == me:
            continue
        kind = "doctor" if o.version == "doctor" else "other-version"
        key = o.peer or o.instance.encode()
        rows.setdefault(key, {"peer": o.peer.hex() if o.peer else None, "name": o.player,
                              "kind": kind, "version": o.version, "hosts": o.hosts,
                              "port": o.port})
    out = []
    for row in rows.values():
        probes = [prober.results[(h, row["port"])] for h in row["hosts"]
                  if (h, row["port"]) in prober.results]
        answered = [p for p in probes if p.answered]
        best = min(answered, key=lambda p: p.rtt_s) if answered else None
        row["hosts"] = list(row["hosts"])
        row["probes"] = [p.to_json() for p in probes]
        row["answers"] = best is not None
        row["rtt_ms"] = best.to_json()["rtt_ms"] if best else None
        row["clock_offset_s"] = best.to_json()["clock_offset_s"] if best else None
        out.append(row)
    return out


# ---------------------------------------------------------------------------- verdict

VERDICTS = ("ok", "no-interface", "no-network", "firewall", "isolated", "some-silent",
            "alone")


def verdict(facts: dict) -> dict:
    """One finding from the facts: `code` (one of VERDICTS) and the details the UI words
    it with. Order matters: the most basic failure explains the rest."""
    used = [i for i in facts["interfaces"] if i["used"]]
    lan = [i for i in used if i["kind"] in ("lan", "virtual")]
    virtual = [i for i in used if i["kind"] == "virtual"]
    nodes = [n for n in facts.get("nodes", []) if n.get("port")]
    answering = [n for n in nodes if n["answers"]]
    out = {"interfaces_in_use": [i["address"] for i in used],
           "virtual_in_use": [f'{i["name"]} {i["address"]}' for i in virtual],
           "suggest_interface": [i["address"] for i in used if i["kind"] == "lan"][:1],
           "nodes": len(nodes), "answering": len(answering),
           "games": len(facts.get("games", []))}
    addresses = [i["address"] for i in facts["interfaces"]]
    missing = [a for a in facts.get("chosen") or () if a not in addresses]
    if missing:  # (a mistyped --interface, or a network gone: no firewall to blame)
        out["code"] = "no-interface"
        out["missing"], out["addresses"] = missing, addresses
    elif not lan and not facts.get("chosen"):
        out["code"] = "no-network"
    elif not facts.get("own_advert_heard") and not nodes:
        out["code"] = "firewall"
    elif not nodes:
        out["code"] = "alone"
    elif not answering:
        out["code"] = "isolated"
    elif len(answering) < len(nodes):
        out["code"] = "some-silent"
        out["silent"] = [n["name"] or n["peer"] for n in nodes if not n["answers"]]
    else:
        out["code"] = "ok"
    out["several_interfaces"] = len(lan) > 1
    return out

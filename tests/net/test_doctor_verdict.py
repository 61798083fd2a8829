"""`doctor`'s reading of the facts: which interfaces it uses and why, and the one verdict
it gives (the network cases themselves run between namespaces in test_netns_doctor.py)."""

from __future__ import annotations

import pytest

from tongiaki_lan.console.doctor import report_lines
from tongiaki_lan.i18n import use
from tongiaki_lan.net.aio import doctor as D

ADAPTERS = [("lo", "127.0.0.1", 8), ("wlan0", "192.168.1.20", 24),
            ("docker0", "172.17.0.1", 16), ("vEthernet (WSL)", "172.20.0.1", 20),
            ("eth1", "169.254.7.9", 16)]


def test_interfaces_say_which_are_used_and_why(monkeypatch):
    monkeypatch.setattr(D, "_adapters", lambda: ADAPTERS)
    rows = {r["name"]: (r["used"], r["why"]) for r in D.interfaces(None)}
    assert rows == {"lo": (False, "loopback"), "wlan0": (True, "lan"),
                    "docker0": (True, "virtual"), "vEthernet (WSL)": (True, "virtual"),
                    "eth1": (True, "link-local")}
    chosen = {r["name"]: (r["used"], r["why"]) for r in D.interfaces(["192.168.1.20"])}
    assert chosen["wlan0"] == (True, "chosen") and chosen["docker0"] == (False, "not-chosen")


def _node(name: str, answers: bool) -> dict:
    return {"peer": "00" * 8, "name": name, "kind": "game", "game": "lagoon",
            "phase": "lobby", "hosts": ["192.168.1.30"], "port": 4000,
            "probes": [{"sent": 1 if answers else 6}], "answers": answers,
            "rtt_ms": 1.5 if answers else None, "clock_offset_s": 0.2 if answers else None}


def _facts(adapters=ADAPTERS[:2], heard=True, nodes=(), chosen=None) -> dict:
    rows = [{"name": n, "address": a, "prefix": p, **_kind(a)} for n, a, p in adapters]
    return {"interfaces": rows, "chosen": chosen or [], "own_advert_heard": heard,
            "nodes": list(nodes), "games": []}


def _kind(addr: str) -> dict:
    if addr.startswith("127."):
        return {"kind": "loopback", "used": False, "why": "loopback"}
    return {"kind": "lan", "used": True, "why": "lan"}


@pytest.mark.parametrize("facts, code", [
    (_facts(nodes=[_node("Ana", True)]), "ok"),
    (_facts(adapters=ADAPTERS[:1]), "no-network"),
    (_facts(heard=False), "firewall"),
    (_facts(), "alone"),
    (_facts(nodes=[_node("Ana", False), _node("Ben", False)]), "isolated"),
    (_facts(nodes=[_node("Ana", True), _node("Ben", False)]), "some-silent"),
])
def test_the_verdict(facts, code):
    assert D.verdict(facts)["code"] == code


def test_the_report_names_the_silent_laptops_and_suggests_an_interface():
    facts = _facts(adapters=ADAPTERS[:3], nodes=[_node("Ana", True), _node("Ben", False)])
    facts["interfaces"][2].update(kind="virtual", why="virtual")
    v = D.verdict(facts)
    text = "\n".join(t for _s, t in report_lines(facts, v))
    assert "Some laptops do not answer: Ben." in text
    assert "--interface 192.168.1.20" in text
    assert "answers in 1.5 ms; clock +0.2 s from ours" in text


def test_the_report_speaks_german():
    use("de")
    try:
        facts = _facts(heard=False)
        text = "\n".join(t for _s, t in report_lines(facts, D.verdict(facts)))
    finally:
        use("en")
    assert "Firewall" in text and "blockiert" in text


def test_a_clock_hours_off_is_called_harmless_in_words():
    """A laptop 5 h ahead read "clock -18000.0 s from ours", then "Everything works":
    the player wondered whether it mattered."""
    behind = {**_node("Ana", True), "clock_offset_s": -18000.4}
    ahead = {**_node("Ben", True), "clock_offset_s": 95.0}
    facts = _facts(nodes=[behind, ahead, _node("Cy", True)])
    text = "\n".join(t for _s, t in report_lines(facts, D.verdict(facts)))
    assert "Ana's clock is 5.0 h behind ours: harmless" in text
    assert "Ben's clock is 2 min ahead of ours: harmless" in text
    assert "Cy's clock" not in text  # 0.2 s: nothing to say


def test_a_german_report_writes_its_decimals_with_a_comma():
    """A German player read "Uhr +18000.0 s", "5.0 h" and "10.9 ms" (a playtest)."""
    behind = {**_node("Ana", True), "clock_offset_s": -18000.4}
    facts = _facts(nodes=[behind])
    use("de")
    try:
        text = "\n".join(t for _s, t in report_lines(facts, D.verdict(facts)))
    finally:
        use("en")
    assert "1,5 ms" in text and "-18000,4 s" in text and "5,0 h" in text, text
    assert "1.5 ms" not in text and "5.0 h" not in text


def test_an_address_this_computer_lacks_is_named_not_blamed_on_a_firewall():
    """`--interface 10.99.99.99` (mistyped, or a network gone since the lobby opened):
    nothing is heard, and the verdict blamed a firewall. It names the address and lists
    this computer's own."""
    facts = _facts(heard=False, chosen=["10.99.99.99"])
    v = D.verdict(facts)
    assert v["code"] == "no-interface" and v["missing"] == ["10.99.99.99"]
    text = "\n".join(t for _s, t in report_lines(facts, v))
    assert "no network interface with the address 10.99.99.99" in text
    assert "(127.0.0.1, 192.168.1.20)" in text and "firewall" not in text.lower()
    use("de")
    try:
        text = "\n".join(t for _s, t in report_lines(facts, D.verdict(facts)))
    finally:
        use("en")
    assert "10.99.99.99" in text and "127.0.0.1, 192.168.1.20" in text

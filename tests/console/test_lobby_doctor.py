"""`doctor` in the lobby: its findings appear in the lobby's messages, in the player's
language; and the lobby suggests it when it has heard no game for a while."""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input

from tongiaki_lan.console import lobbynet as lobby_mod
from tongiaki_lan.i18n import use
from tongiaki_lan.net.aio import doctor as doctor_mod

from .conftest import FakeLan, wait_until
from .test_lobby_texts import _lobby, _output

FIREWALLED = {
    "interfaces": [{"name": "wlan0", "address": "192.168.1.20", "prefix": 24, "kind": "lan",
                    "used": True, "why": "lan"}],
    "chosen": [], "port": 40000, "listened_s": 3.0, "own_advert_heard": False,
    "nodes": [], "games": [],
}


async def test_doctor_in_the_lobby_shows_the_verdict_and_what_to_do(monkeypatch):
    asked = []

    async def diagnose(chosen=None, listen_s=3.0, name="doctor"):
        asked.append(name)
        return FIREWALLED

    monkeypatch.setattr(doctor_mod, "diagnose", diagnose)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        inp.send_text("doctor\r")
        await wait_until(lambda: any("a firewall blocks it" in t for _s, t in lobby.lines),
                         what="the verdict")
        texts = [t for _s, t in lobby.lines]
        assert any("Allow tongiaki-lan (or Python)" in t for t in texts)
        assert any("wlan0 192.168.1.20" in t for t in texts)
        assert asked == ["Tester"]
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_doctor_speaks_the_players_language(monkeypatch):
    async def diagnose(chosen=None, listen_s=3.0, name="doctor"):
        return FIREWALLED

    monkeypatch.setattr(doctor_mod, "diagnose", diagnose)
    use("fr")
    try:
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby, task = await _lobby(inp, FakeLan())
            inp.send_text("doctor\r")
            await wait_until(lambda: len(lobby.lines) > 8, what="the report")
            texts = " ".join(t for _s, t in lobby.lines)
            assert "pare-feu" in texts and "firewall blocks" not in texts
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        use("en")


async def test_the_lobby_suggests_doctor_when_it_hears_no_game(monkeypatch):
    monkeypatch.setattr(lobby_mod, "SUGGEST_DOCTOR_AFTER_S", 0.0)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        await wait_until(lambda: any("doctor finds out why" in t for _s, t in lobby.lines),
                         what="the suggestion")
        # (friends who have not created a table yet are not heard: not the network's
        # fault, and doctor then blamed it, in a playtest)
        assert any("Nobody has created one yet? create NAME opens one." in t
                   for _s, t in lobby.lines)
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_no_suggestion_while_the_player_creates_a_table(monkeypatch):
    """A command under way (a join waits up to 4 s for the table's answer; here a create
    held by a fake node) is activity: "No game heard on the network: type doctor" must
    not come in the middle of it, right before "You are at the table"."""
    monkeypatch.setattr(lobby_mod, "SUGGEST_DOCTOR_AFTER_S", 1.0)
    going_on = asyncio.Event()

    async def create_game(*args, **kwargs):
        await going_on.wait()

    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        lobby.node.create_game = create_game
        inp.send_text("create Reef 3\r")
        await wait_until(lambda: lobby._busy == 1, what="the create under way")
        await asyncio.sleep(2.5)
        assert not any("doctor finds out why" in t for _s, t in lobby.lines)
        going_on.set()  # it failed to seat us after all (a fake node): idle again
        await wait_until(lambda: any("doctor finds out why" in t for _s, t in lobby.lines),
                         what="the suggestion once idle")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_alone_at_our_own_table_is_not_everything_works(monkeypatch):
    """Dan opened a table nobody sees and asked `doctor`: the lobby's own node (advertised
    for the table) was counted as a laptop that answers, and the verdict read "Everything
    works: every tongiaki-lan heard here answers"."""
    own = {"peer": b"me".hex(), "name": "Dan", "kind": "game", "game": "Lonely",
           "phase": "lobby", "hosts": ["10.77.0.6"], "port": 46280, "probes": [],
           "answers": True, "rtt_ms": 0.9, "clock_offset_s": 0.0}
    alone = {**FIREWALLED, "own_advert_heard": True, "nodes": [own]}

    async def diagnose(chosen=None, listen_s=3.0, name="doctor"):
        return alone

    monkeypatch.setattr(doctor_mod, "diagnose", diagnose)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        inp.send_text("doctor\r")
        await wait_until(lambda: any("No other tongiaki-lan" in t for _s, t in lobby.lines),
                         what="the verdict 'alone'")
        assert not any("Everything works" in t for _s, t in lobby.lines)
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


def test_the_report_names_a_games_phase_in_the_players_language():
    """`doctor --lang fr` listed `Parties vues : 1 / X (lobby, 1/4)`: the phase stayed
    English where the lobby's list says `salon`."""
    from tongiaki_lan.console.doctor import report_lines
    from tongiaki_lan.net.aio.doctor import verdict

    node = {"peer": "aa", "name": "Ana", "kind": "game", "game": "Reef", "phase": "playing",
            "hosts": ["10.0.0.2"], "port": 4000, "probes": [], "answers": True,
            "rtt_ms": 1.0, "clock_offset_s": 0.0}
    facts = {**FIREWALLED, "own_advert_heard": True, "nodes": [node],
             "games": [{"game": "Reef", "phase": "lobby", "seats_taken": 1,
                        "seats_total": 4}]}
    use("fr")
    try:
        text = "\n".join(t for _s, t in report_lines(facts, verdict(facts)))
    finally:
        use("en")
    assert "Reef (salon, 1/4)" in text and "(lobby" not in text
    assert "in game Reef (en cours)" in text or "(en cours)" in text

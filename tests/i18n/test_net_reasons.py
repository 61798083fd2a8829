"""Reasons from the network layer in the player's language.

The net layer sends its refusals as English text (net.lobby.REFUSALS, marked for
translation); the console matches them and shows them translated. The refusals here are
the real ones the lobby rules give (sans-I/O), as a player triggers them.
"""

from __future__ import annotations

import asyncio
import io
import re

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan import i18n
from tongiaki_lan.console.networds import net_reason
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.engine import COLOURS
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import AddBot, Join, Ready, RemoveBot, SetSeat, Start

from ..console.conftest import wait_until

A, B, C, D = (bytes([i]) * 8 for i in range(1, 5))
ADDR = ("10.0.0.9", 4000)
LANGS = ["it", "fi", "fr", "de"]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\r")


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


def _refusals() -> dict[str, tuple[str, list[str]]]:
    """What a player can run into at a LAN table: (English reason, values it must keep)."""
    lb = L.new_lobby("Reef", 3, False, A, "Ana", "", 1)
    lb = L.apply_request(lb, B, ADDR, Join("Bo", ""))
    alone = L.new_lobby("Reef", 3, False, A, "Ana", "", 1)
    full = L.apply_request(lb, C, ADDR, Join("Cy", ""))
    ready = full
    for p in (A, B, C):
        ready = L.apply_request(ready, p, ADDR, Ready(True))
    started = L.apply_request(ready, A, ADDR, Start())
    out = {
        "full": (L.apply_request(full, D, ADDR, Join("Di", "")), ["'Reef'"]),
        "started": (L.apply_request(started, D, ADDR, Join("Di", "")), ["'Reef'"]),
        "not the host": (L.apply_request(ready, B, ADDR, Start()), ["Ana"]),
        "not ready": (L.apply_request(full, A, ADDR, Start()), ["Ana, Bo, Cy"]),
        "alone": (L.apply_request(alone, A, ADDR, Start()), ["2"]),
        "colour taken": (L.apply_request(lb, B, ADDR, SetSeat("Bo", "blue")), ["blue"]),
        "unknown colour": (L.apply_request(lb, B, ADDR, SetSeat("Bo", "teal")), ["'teal'"]),
        "no bot": (L.apply_request(lb, A, ADDR, RemoveBot("green")), ["green"]),
        "no seat for a bot": (L.apply_request(full, A, ADDR, AddBot("random", "")), []),
        "ready after the start": (L.apply_request(started, B, ADDR, Ready(False)), []),
        "wrong passphrase": (L.NO_ANSWER_WITHIN_PASSPHRASE.format(seconds="4"), ["4"]),
        "no answer": (L.NO_ANSWER_WITHIN.format(seconds="4"), ["4"]),
    }
    for what, (reason, _values) in out.items():
        assert isinstance(reason, str), what  # every scenario is a refusal
    return out


def test_english_reasons_are_shown_as_they_came():
    for reason, _values in _refusals().values():
        assert net_reason(reason) == reason


@pytest.mark.parametrize("lang", LANGS)
def test_every_lobby_refusal_a_player_can_meet_reads_in_their_language(lang):
    english = _refusals()
    i18n.use(lang)
    for what, (reason, values) in english.items():
        shown = net_reason(reason)
        assert shown != reason, f"{lang}: {what!r} stays English: {reason}"
        for value in values:  # names and numbers are kept as they came; a colour is
            # a word of ours, shown as the table shows it ("il colore blu è già preso")
            if value in COLOURS:
                value = i18n._(value)
            assert value in shown, (lang, what, shown)
    # the phase word inside a reason is translated too
    assert "starting" not in net_reason(english["ready after the start"][0])
    # a reason the console does not know (another peer's wording) stays as it came
    assert net_reason("a reason from a newer peer") == "a reason from a newer peer"


async def test_a_refusal_from_the_host_is_drawn_in_italian():
    i18n.use("it")
    reason = _refusals()["full"][0]
    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")
    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        task = asyncio.ensure_future(lobby.run())
        await wait_until(lambda: lobby.app.is_running)
        lobby._on_node_event(E.RequestRefused(A.hex(), reason))  # as the node reports it
        await wait_until(lambda: "la partita 'Reef' è al completo" in ANSI.sub("", sink.getvalue()),
                         what="the refusal drawn in Italian")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)
    assert "is full" not in ANSI.sub("", sink.getvalue())


@pytest.mark.parametrize("lang", LANGS)
def test_replace_refusals_in_a_game_read_in_the_players_language(lang):
    """`replace NAME` during a LAN game (on a simulated LAN, no sockets): the reasons the
    node gives a player who asks too early or for the wrong seat."""
    from tongiaki_lan.net.lab.simnet import SimNet

    net = SimNet(seed=5)
    nodes = net.table(3)
    net.run_until(lambda: nodes[0].game is not None and len(nodes[0].game.moves) > 3)
    core = nodes[0].core
    reasons = []
    for who in ("p1", "p0", "Zed"):  # present, our own seat, nobody of that name
        with pytest.raises(ValueError) as refused:
            core.replace(who, net.now)
        reasons.append(str(refused.value))
    i18n.use(lang)
    for reason, keep in zip(reasons, ["p1", "", "'Zed'"], strict=True):
        shown = net_reason(reason)
        assert shown != reason and keep in shown, (lang, reason, shown)

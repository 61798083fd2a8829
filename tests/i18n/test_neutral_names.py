"""Lines about a player say nothing of their gender: the console cannot know it, and a
player should not read themselves as "allontanato" or "revenu" when they are not.

Italian and French make a past participle or an adjective agree with its subject
("si è allontanato/allontanata", "est revenu/revenue"); German may refer back with "er".
So the lines that have a player (or the reader) as their subject are worded so that
nothing agrees with them: "X non risponde più", "X a quitté la table".
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.output import DummyOutput

from tongiaki_lan import i18n
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.engine import Game
from tongiaki_lan.i18n.catalog import po_path, read_po
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import Join

A, B = bytes([1]) * 8, bytes([2]) * 8
PLAYER = r"(?:^|[.;:!?] )\{(?:name|who)\}"  # a player who begins a sentence: its subject
GENDERED = {  # a player, or the reader, as the subject of something that agrees with them
    "it": [rf"{PLAYER} (?:si |se n')?è \w+(?:at|ut|it)[oa]\b",
           r"\b(?:[Ss]ei|[Ee]ri) \w+(?:at|ut|it)[oa]\b", r"\bgiocare da sol[oa]\b"],
    "fr": [rf"{PLAYER} (?:s'est|est) \w+(?:é|i|u)e?s?\b",
           rf"{PLAYER} (?:est|était) (?:absente?|présente?|prête?)\b", r", présents? sur\b",
           r"\b(?:[Tt]u es|[Tt]u étais|[Vv]ous êtes|[Vv]ous étiez) \w+(?:é|i|u)e?s?\b",
           r"\bjouer seule?\b", r"\bd'un absent\b"],
    "de": [r"\bbis er zurück\b", rf"{PLAYER} hat seinen\b"],
    "fi": [],  # Finnish has no grammatical gender ("hän" is anyone)
}


@pytest.fixture(autouse=True)
def english_afterwards():
    yield
    i18n.use("en")


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_no_translation_guesses_a_players_gender(lang):
    entries = read_po(po_path(lang))[1].values()
    found = [(e.msgid, text) for e in entries for text in e.msgstr
             for pattern in GENDERED[lang] if re.search(pattern, text)]
    assert not found, "\n".join(f"{m!r}: {t!r}" for m, t in found)


def _node():
    lb = L.new_lobby("Reef", 4, False, A, "Ana", "", 1)
    lb = L.apply_request(lb, B, ("10.0.0.9", 4000), Join("Bea", ""))
    return SimpleNamespace(lobby=lb, peer_id=A, game=Game(["blue", "red"]),
                           present=lambda: {A}, hears_nobody=lambda: False,
                           add_listener=lambda fn: None)


@pytest.mark.parametrize("lang, away, back, rejoined, reclaimed, left", [
    ("it", "Bea non risponde più.", "Bea è di nuovo al tavolo.",
     "Bea ha raggiunto di nuovo il tavolo.", "Bea è di nuovo al tavolo e gioca il suo posto.",
     "Bea ha lasciato il tavolo."),
    ("fr", "Bea ne répond plus.", "Bea est de retour.", "Bea a rejoint la table à nouveau.",
     "Bea est de retour et rejoue sa place.", "Bea a quitté la table."),
])
def test_a_player_going_and_coming_back_is_told_without_a_gender(lang, away, back, rejoined,
                                                                  reclaimed, left):
    i18n.use(lang)
    node = _node()
    with create_app_session(output=DummyOutput()):
        session = LanSession(node)
        for ev in (E.Away(B.hex(), "Bea", False), E.Back(B.hex(), "Bea"),
                   E.Away(B.hex(), "Bea", False), E.Restarted(B.hex(), "Bea"),
                   E.SeatReclaimed(1, "Bea")):
            session._on_node_event(ev)
        lobby = LobbyScreen("Ana", lan=False, colour_output=False)
        lobby.node = node
        lobby._on_node_event(E.Away(B.hex(), "Bea", True))
    assert [t for _s, t in session.lines[-5:]] == [away, back, away, rejoined, reclaimed]
    assert lobby.lines[-1][1] == left

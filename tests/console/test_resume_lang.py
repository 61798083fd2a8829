"""`solo --resume` speaks the language the game was started in (a newcomer's playtest:
a game started with `solo --lang it` came back in the system's language), unless `--lang`
is given again; a record that does not say (an older one, or a damaged word) still loads.

End to end: `tongiaki-lan solo` in tmux, on a tmux server of this test's own."""

from __future__ import annotations

import os
import sys

import msgpack
import pytest

from tongiaki_lan.records import read_record

from .test_tmux import REPO, TMUX, Pane, _log, _status

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (apt-get install tmux)"),
]


@pytest.fixture
def run(tmp_path):
    panes = []
    # English by the environment: the language comes from the record or --lang only
    env = dict(os.environ, TERM="xterm-256color", HOME=str(tmp_path), PYTHONPATH=str(REPO),
               LANG="C.UTF-8", LANGUAGE="", LC_ALL="", LC_MESSAGES="")

    def start(args: str) -> Pane:
        cmd = (f"{sys.executable} -m tongiaki_lan solo --bots 1 --bot random --pace 0 "
               f"--name Tester {args}")
        pane = Pane(f"tgk-lang-{os.getpid()}-{len(panes)}", cmd, 100, 30, env)
        panes.append(pane)
        return pane

    yield start
    for pane in panes:
        pane.kill()


def _leave(pane: Pane) -> None:
    pane.send("C-u", "quit", "Enter", "Enter")  # mid-game: Enter again
    pane.wait_for(lambda s: not pane.alive(), what="leaving")


def _rewrite_header(record, change) -> None:
    """The record with its header changed by `change(dict)`, every move kept as it was
    (an older record has no `lang`; a damaged one holds anything there)."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(record.read_bytes())
    header, *entries = list(unpacker)
    change(header)
    record.write_bytes(b"".join(msgpack.packb(o, use_bin_type=True) for o in [header, *entries]))


def test_resume_speaks_the_language_the_game_was_started_in(run, tmp_path):
    record = tmp_path / "game.tgrec"
    pane = run(f"--lang it --seed lang --record {record}")
    pane.wait_for(lambda s: "Tua decisione" in s, what="the Italian game")
    pane.send("place Tonga 3", "Enter")
    pane.wait_for(lambda s: "Tua decisione" in s and "Tester" in s and " 14 " in s,
                  what="our move played")
    _leave(pane)
    assert read_record(record).header.lang == "it"

    pane = run(f"--resume {record}")  # no --lang: the record's language, not the system's
    screen = pane.wait_for(lambda s: "Tua decisione" in s or "Your decision" in s,
                           what="the resumed game")
    assert "Tua decisione" in screen, screen
    # the story so far, told again, is Italian too (it was told before the language
    # changed: "Tester (B) puts a ship on beach 3 of Tonga.")
    assert "a ship on beach" not in _log(screen) and "Tonga" in _log(screen), _log(screen)
    _leave(pane)

    pane = run(f"--resume {record} --lang fr")  # given again, --lang wins
    screen = pane.wait_for(lambda s: "Ta décision" in s or "Tua decisione" in s,
                           what="the resumed game")
    assert "Ta décision" in screen, screen
    _leave(pane)
    assert read_record(record).header.lang == "it"  # (the language it was started in)


@pytest.mark.parametrize("damage", ["older", "bytes", "unknown"])
def test_a_record_that_does_not_say_its_language_still_loads_and_says_so(run, tmp_path,
                                                                       damage):
    record = tmp_path / "game.tgrec"
    pane = run(f"--lang de --seed lang-{damage} --record {record}")
    pane.wait_for(lambda s: "Deine Entscheidung" in s, what="the German game")
    pane.send("place Tonga 3", "Enter")
    pane.wait_for(lambda s: " 14 " in s, what="our move played")
    _leave(pane)
    _rewrite_header(record, {
        "older": lambda h: h.pop("lang"),
        "bytes": lambda h: h.update(lang=b"\xff\x00de"),
        "unknown": lambda h: h.update(lang="xx"),
    }[damage])

    pane = run(f"--resume {record}")
    screen = pane.wait_for(lambda s: "Your decision" in _status(s), what="the resumed game")
    text = _log(screen)
    assert "Game resumed after move 2" in text  # nothing lost
    assert "This record does not say which language its game was started in" in text, text
    _leave(pane)

"""The player's name: asked once on the first run (the OS user's name offered), kept in the
profile, overridden by --name, changed for good by the lobby's `name NEW`."""

from __future__ import annotations

import os
import stat

import pytest

from tongiaki_lan.profile import (
    load_profile,
    os_user_name,
    player_name,
    save_profile,
)


def test_the_first_run_asks_once_offering_the_os_name_and_remembers(tmp_path, monkeypatch):
    monkeypatch.setattr("tongiaki_lan.profile.os_user_name", lambda: "Ana Åström")
    path = tmp_path / "conf" / "profile.json"
    asked = []

    def ask(prompt):
        asked.append(prompt)
        return ""  # Enter takes the suggestion

    assert player_name(path, None, interactive=True, ask=ask) == "Ana Åström"
    assert asked == ["Your name for the other players [Ana Åström]: "]
    assert player_name(path, None, interactive=True, ask=ask) == "Ana Åström"
    assert len(asked) == 1  # never again
    if os.name == "posix":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert player_name(path, "Bo", interactive=True, ask=ask) == "Bo"  # --name, this run
    # as the answer to the question is: one line, no spaces around (seen at the table as
    # "the name 'ana ' is already taken")
    assert player_name(path, " Bo  Li ", interactive=True, ask=ask) == "Bo Li"
    assert load_profile(path).name == "Ana Åström"


def test_an_answer_is_one_line_of_at_most_sixteen_characters(tmp_path):
    path = tmp_path / "profile.json"
    name = player_name(path, None, interactive=True,
                       ask=lambda _p: "  Maria   Magdalena von Tonga  ")
    # (cut at sixteen, without the space the cut left at its end: "Maria Magdalena ")
    assert name == "Maria Magdalena" and load_profile(path).name == name


def test_a_name_of_emoji_is_cut_to_what_every_other_laptop_takes(tmp_path):
    """Sixteen emoji are sixteen characters, and 64 bytes where the wire holds 48 for a
    name (protocol/wire.md, Text): the other laptops refused every word of that player's
    table, and a friend's `join` waited in silence for ever."""
    from tongiaki_lan.net.protocol.codec import Join, parse_message

    path = tmp_path / "profile.json"
    name = player_name(path, None, interactive=True, ask=lambda _p: "🌴" * 16)
    assert name == "🌴" * 12 and load_profile(path).name == name
    assert parse_message(Join(name, "", "").to_wire()).name == name
    assert player_name(path, "Ana 🌊" * 4, interactive=True) == "Ana 🌊Ana 🌊Ana 🌊A"
    save_profile(path, name="🌺" * 16)  # (saved by a version before this one)
    assert load_profile(path).name == "🌺" * 12


def test_without_a_terminal_nothing_is_asked_or_saved(tmp_path):
    path = tmp_path / "profile.json"

    def ask(_prompt):
        raise AssertionError("asked without a terminal")

    assert player_name(path, None, interactive=False, ask=ask) == os_user_name()
    assert not path.exists()


def test_a_damaged_profile_is_named_and_asked_again(tmp_path):
    path = tmp_path / "profile.json"
    path.write_bytes(b"\x00not json")
    said = []
    assert player_name(path, None, interactive=True, ask=lambda _p: "Cy",
                       say=said.append) == "Cy"
    assert said == [f"tongiaki-lan: {path} is damaged; it will be written again when you "
                    "give your name"]
    assert load_profile(path).name == "Cy"


@pytest.mark.skipif(os.name != "posix", reason="the passwd database is POSIX's")
def test_the_os_name_is_the_full_name_when_the_system_has_one(monkeypatch):
    import pwd

    class Entry:
        pw_gecos = "Ana Maria Åström,,,"

    monkeypatch.setattr(pwd, "getpwuid", lambda uid: Entry)
    assert os_user_name() == "Ana Maria Åström"
    Entry.pw_gecos = ""
    monkeypatch.setattr("getpass.getuser", lambda: "ana")
    assert os_user_name() == "Ana"


async def test_the_lobby_name_command_changes_the_saved_name(tmp_path):
    from tongiaki_lan.console.terminal.lobby import LobbyScreen

    path = tmp_path / "profile.json"
    save_profile(path, name="Ana")
    lobby = LobbyScreen("Ana", lan=False)
    lobby.on_name = lambda new: save_profile(path, name=new)
    await lobby._command("name Captain Cook")  # what the input line runs on Enter
    assert lobby.name == "Captain Cook"
    assert load_profile(path).name == "Captain Cook"


def test_a_name_given_on_the_first_run_at_a_terminal_is_kept(tmp_path):
    """`tongiaki-lan --name Finn` on the first run, then `tongiaki-lan`: the second start
    asked the question all the same (a playtest typed `watch motu` into it)."""
    path = tmp_path / "profile.json"

    def ask(_prompt):
        raise AssertionError("asked again")

    assert player_name(path, "Finn", interactive=True, ask=ask) == "Finn"
    assert player_name(path, None, interactive=True, ask=ask) == "Finn"
    assert player_name(path, "Bo", interactive=True, ask=ask) == "Bo"  # this run only
    assert load_profile(path).name == "Finn"
    elsewhere = tmp_path / "other.json"
    assert player_name(elsewhere, "Finn", interactive=False, ask=ask) == "Finn"
    assert not elsewhere.exists()  # (no terminal: nothing saved, as before)


def test_a_command_typed_into_the_question_is_asked_about_once(tmp_path, monkeypatch):
    monkeypatch.setattr("tongiaki_lan.profile.os_user_name", lambda: "Eve")
    path = tmp_path / "profile.json"
    answers = iter(["watch motu", "Eve Lind"])
    asked = []

    def ask(prompt):
        asked.append(prompt)
        return next(answers)

    assert player_name(path, None, interactive=True, ask=ask) == "Eve Lind"
    assert asked[1].startswith("'watch motu' looks like a command")
    answers = iter(["join", "join"])  # typed twice: that is the name
    assert player_name(tmp_path / "p2.json", None, interactive=True, ask=ask) == "join"

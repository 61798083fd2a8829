"""The command line as a new player types it: a mistyped command is called a command,
the numbers `records` prints work wherever a record is read, and a picture is never put
in a directory made up on the way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tongiaki_lan.cli import SUBCOMMANDS
from tongiaki_lan.selfplay import game_seed, play_game

REPO = Path(__file__).resolve().parents[2]


def cli(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TONGIAKI_LAN_HOME": str(home), "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args], capture_output=True,
                          text=True, env=env, stdin=subprocess.DEVNULL, timeout=120)


def test_an_unknown_command_is_called_a_command_and_the_commands_are_listed(tmp_path):
    done = cli("frob", home=tmp_path)
    assert done.returncode == 2 and not done.stdout
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("tongiaki-lan: unknown command 'frob'")
    assert "unrecognized" not in line and all(name in line for name in SUBCOMMANDS)
    slip = cli("slo", "--bots", "2", home=tmp_path)  # (a slip of the finger)
    assert slip.returncode == 2 and "did you mean 'solo'?" in slip.stderr


def test_help_is_the_help_as_git_and_pip_take_it(tmp_path):
    # (`tongiaki-lan help` said "unknown command 'help'")
    done = cli("help", home=tmp_path)
    assert done.returncode == 0 and not done.stderr
    assert done.stdout == cli("--help", home=tmp_path).stdout
    assert all(name in done.stdout for name in SUBCOMMANDS)
    solo = cli("help", "solo", home=tmp_path)
    assert solo.returncode == 0 and solo.stdout == cli("solo", "--help", home=tmp_path).stdout
    assert "--bots" in solo.stdout


def test_an_unknown_option_names_the_command_and_its_help(tmp_path):
    done = cli("solo", "--thinks", "2", home=tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("tongiaki-lan solo: unrecognized arguments: --thinks 2")
    assert "tongiaki-lan solo --help" in line


def test_names_the_other_laptops_would_refuse_are_refused_here_with_the_limit(tmp_path):
    """Sixteen emoji fit the sixteen characters of a player's name but not the wire's 48
    bytes: every other laptop refused that player's table, in silence."""
    for args, what in [(("--name", "🌴" * 16), "a player's name (at most 16 characters, "
                                                "fewer with emoji)"),
                       (("--name", "x" * 17), "a player's name (at most 16 characters)"),
                       (("--game", "🌺" * 13), "a game's name (at most 24 characters, fewer "
                                               "with emoji)")]:
        argv = {"--name": "Ana", "--game": "reef", **dict([args])}
        done = cli("play", "--headless", "--name", argv["--name"], "--game", argv["--game"],
                   "--no-discovery", "--timeout", "1", home=tmp_path)
        assert done.returncode == 2 and f"is too long for {what}" in done.stderr, done.stderr


def test_no_help_points_at_docs_an_installed_copy_lacks(capsys):
    """An installed copy has the program, not our docs/ folder: `solo --help` sent a
    player to docs/bots.md for the levels and docs/rules.md for the two-colour variant."""
    from tongiaki_lan.cli import main

    for name in ("", *SUBCOMMANDS):
        assert main([name, "--help"] if name else ["--help"]) == 0
        text = capsys.readouterr().out
        assert "docs/" not in text and ".md" not in text, (name, text)


def test_doctor_names_an_interface_this_computer_lacks_and_lists_its_own(tmp_path):
    """`doctor --interface 10.99.99.99` blamed a firewall."""
    from tongiaki_lan.cli.optiontypes import local_addresses

    done = cli("doctor", "--interface", "10.99.99.99", home=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "10.99.99.99 is not an address of this computer; its addresses are" in line
    assert all(address in line for _name, address in local_addresses())
    assert "firewall" not in line.lower()


@pytest.fixture
def records(tmp_path) -> list[Path]:
    """Two finished games in the player's records place, the newer one second."""
    where = tmp_path / "records"
    where.mkdir()
    paths = [Path(play_game(game_seed("numbers", i), 2 + i, ["random"], where).record)
             for i in range(2)]
    os.utime(paths[0], (1_700_000_000, 1_700_000_000))  # (older: game 2 in the list)
    return paths


def test_verify_export_and_position_take_the_numbers_records_lists(tmp_path, records):
    listed = [json.loads(line) for line in
              cli("records", "--json", home=tmp_path).stdout.splitlines()]
    assert [e["path"] for e in listed] == [str(records[1]), str(records[0])]
    verified = cli("verify", "2", "--json", home=tmp_path)
    assert verified.returncode == 0, verified.stderr
    assert json.loads(verified.stdout)["moves"] == listed[1]["moves"]
    assert cli("verify", "1", home=tmp_path).stdout.startswith(f"{records[1]}: ")
    svg = tmp_path / "one.svg"
    exported = cli("export", "1", "--svg", str(svg), home=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert "<svg" in svg.read_text()
    assert cli("position", "2", home=tmp_path).stdout == cli(
        "position", str(records[0]), home=tmp_path).stdout
    for command in ("verify", "position"):
        missing = cli(command, "7", home=tmp_path)
        assert missing.returncode == 2 and "there is no game 7" in missing.stdout
    missing = cli("export", "7", "--svg", "-", home=tmp_path)
    assert missing.returncode == 2 and "there is no game 7" in missing.stderr


def test_export_refuses_a_directory_that_is_not_there_instead_of_making_it(tmp_path, records):
    target = tmp_path / "missing" / "dir" / "x.svg"
    done = cli("export", str(records[0]), "--svg", str(target), home=tmp_path)
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert "argument --svg" in line and f"{target.parent}' does not exist" in line
    assert not (tmp_path / "missing").exists()


def test_position_lists_the_tiles_left_as_a_set_never_in_the_order_they_come(tmp_path,
                                                                            records):
    """`position --at N` of a game in progress must not give away the tiles to come (a
    player could read the next tile and cheat). Its `stack=` lists the tiles not yet
    revealed in the catalogue's order — what a player at the table can count from the
    tiles on the board — never the seed's order. (A playtest read `stack=Muroroa,Nauru,…`
    as the stack to come; docs/rules.md, *Positions as text*.)"""
    from tongiaki_lan.engine import Reveal
    from tongiaki_lan.engine.tiles import STACK_IDS, token_name
    from tongiaki_lan.records import read_record

    record = read_record(records[0])
    reveals = [i for i, m in enumerate(record.moves) if isinstance(m, Reveal)]
    at = reveals[2] + 1  # (after three tiles were revealed, mid-game)
    shown = {m.tile for m in record.moves[:at] if isinstance(m, Reveal)}
    done = cli("position", str(records[0]), "--at", str(at), home=tmp_path)
    assert done.returncode == 0, done.stderr
    (stack,) = [f[len("stack="):] for f in done.stdout.split() if f.startswith("stack=")]
    assert stack.split(",") == [token_name(t) for t in STACK_IDS if t not in shown]
    to_come = [t for t in record.header.dealer().order if t not in shown]
    assert stack.split(",") != [token_name(t) for t in to_come]

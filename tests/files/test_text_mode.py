"""Every file the program writes survives Windows' text mode (emulated here, on any OS:
tests/files/windows_text.py): a player's identity, a game's resume data (the `.net`
sidecar), its record, the profile and an exported picture read back exactly as written.
The first test shows the emulation breaks a writer that is not binary-safe, as Windows did
to one identity in eight."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tongiaki_lan.files import write_atomic
from tongiaki_lan.net.aio.identity_file import load_identity, save_identity
from tongiaki_lan.net.aio.sidecar import read_sidecar, sidecar_path
from tongiaki_lan.net.lab.loopback import close_all, make_table
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.records import read_record, replay_record

from .windows_text import windows_text_mode

REPO = Path(__file__).resolve().parents[2]
KEY = bytes(range(32))  # holds \n (10) and \r (13), as about one real key in eight does


def test_the_emulation_breaks_a_writer_that_is_not_binary_safe(tmp_path):
    with windows_text_mode():
        fd = os.open(tmp_path / "naive", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, KEY)  # what identity.py did before files.py
        os.close(fd)
        with open(tmp_path / "text.txt", "w", encoding="utf-8") as fh:
            fh.write("a\nb\n")
        write_atomic(tmp_path / "safe", KEY, private=True)
    assert (tmp_path / "naive").read_bytes() == KEY.replace(b"\n", b"\r\n") != KEY
    assert (tmp_path / "text.txt").read_bytes() == b"a\r\nb\r\n"
    assert (tmp_path / "safe").read_bytes() == KEY


async def test_identity_resume_data_and_record_of_a_game_round_trip(tmp_path):
    with windows_text_mode():
        for i in range(2):  # both players' keys hold \n bytes
            save_identity(Identity.from_seed(bytes([10, 13, i]) + KEY[3:]),
                          tmp_path / f"p{i}.identity")
        nodes = await make_table(2, tmp_path)
        try:
            await nodes[0].wait_for(lambda: all(
                n.game is not None and len(n.game.moves) > 8 for n in nodes), 30)
            for n in nodes:
                await n.flush_record()
        finally:
            await close_all(nodes)
    for i, node in enumerate(nodes):
        key = bytes([10, 13, i]) + KEY[3:]
        assert (tmp_path / f"p{i}.identity").read_bytes() == key
        assert load_identity(tmp_path / f"p{i}.identity").peer_id == node.peer_id
        side = read_sidecar(node.record_path)
        assert side["peer"] == node.peer_id and side["game_id"] == node.game_id
        assert side["chain_secret"] == node.core.chain_secret
        assert sidecar_path(node.record_path).exists()
        record = read_record(node.record_path)
        assert not record.truncated and len(record.moves) > 8
        replayed = replay_record(record)
        assert replayed.digest() == record.digests[-1]


def test_an_exported_picture_and_the_profile_are_the_bytes_written(tmp_path):
    from tongiaki_lan.cli import main
    from tongiaki_lan.profile import load_profile, save_profile

    made = subprocess.run([sys.executable, "-m", "tongiaki_lan", "selfplay", "--players", "2",
                           "--games", "1", "--seed", "crlf", "--records", str(tmp_path)],
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert made.returncode == 0, made.stderr
    (record,) = tmp_path.glob("*.tgrec")
    with windows_text_mode():
        assert main(["export", str(record), "--svg", str(tmp_path / "b.svg")]) == 0
        save_profile(tmp_path / "profile.json", name="Ana\nMaria Åström")
        name = load_profile(tmp_path / "profile.json").name
    svg = (tmp_path / "b.svg").read_bytes()
    assert b"\n" in svg and b"\r\n" not in svg and b"</svg>" in svg
    # (one line: a name is read as a seat shows it; the file is the bytes written)
    assert name == "Ana Maria Åström"
    assert b"\r" not in (tmp_path / "profile.json").read_bytes()

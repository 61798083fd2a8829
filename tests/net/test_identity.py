"""A player's identity lives in their profile, readable by them only, and only that
identity can take their seat back after a restart."""

from __future__ import annotations

import os
import stat

import pytest

from tongiaki_lan.draws import Chain
from tongiaki_lan.net import Node
from tongiaki_lan.net.aio.identity_file import load_or_create_identity
from tongiaki_lan.net.aio.sidecar import read_sidecar, sidecar_path
from tongiaki_lan.net.lab.loopback import close_all, make_table
from tongiaki_lan.net.protocol.identity import peer_id_of
from tongiaki_lan.records import read_record

# POSIX modes exist only there; on Windows the profile directory's ACL keeps files private
POSIX = os.name == "posix"


def private(path) -> bool:
    return not POSIX or stat.S_IMODE(path.stat().st_mode) == 0o600


def test_identity_file_is_private_and_gives_the_same_peer_every_run(tmp_path):
    path = tmp_path / "prof" / "Ana.identity"
    first = load_or_create_identity(path)
    assert private(path)
    again = load_or_create_identity(path)
    assert again.peer_id == first.peer_id == peer_id_of(first.public)
    assert "seed" not in repr(first) and first.seed().hex() not in repr(first)


async def test_a_record_can_only_be_resumed_with_the_identity_that_played_it(tmp_path):
    nodes = await make_table(2, tmp_path)
    try:
        await nodes[0].wait_for(lambda: nodes[0].game is not None
                                and len(nodes[0].game.moves) > 5, 30)
        record = nodes[0].record_path
        profile = nodes[0].profile
        assert private(profile)
        # the fair draws' chain secret decides tiles yet to come: private too, and the
        # secret whose chain the record's header committed to for this node
        side = sidecar_path(record)
        assert private(side)
        secret = read_sidecar(record)["chain_secret"]
        mine = nodes[0].core.contributors.index(nodes[0].peer_id)
        assert Chain(secret).commitment == read_record(record).header.commitments[mine]
    finally:
        await close_all(nodes)
    other = Node("Mallory", host="127.0.0.1", record_dir=tmp_path)  # another profile
    same = Node("p0", host="127.0.0.1", record_dir=tmp_path)  # p0's profile again
    try:
        await other.start()
        with pytest.raises(ValueError) as refused:
            await other.resume(record)
        # what the player can do, not only that the identities differ
        said = str(refused.value)
        colour = nodes[0].lobby.seats[0].colour if nodes[0].lobby else "blue"
        assert "another identity than this laptop's" in said and str(other.profile) in said
        assert "copy of the old identity file, put it back as" in said
        assert f"take {colour}" in said and "watch the game" in said
        assert same.peer_id == nodes[0].peer_id
    finally:
        await other.close()
        await same.close()


async def test_a_player_renamed_after_the_first_run_resumes_their_game_after_a_crash(tmp_path):
    """A typo fixed with `name`, then a crash: the console's next run, under the new name,
    still holds the key that played the game (it used to look for `<new name>.identity` and
    came back a stranger to its own seat)."""
    from tongiaki_lan.net.aio.identity_file import (
        PLAYER_IDENTITY,
        load_identity,
        player_identity_path,
    )
    from tongiaki_lan.net.aio.node import GameRef, Node
    from tongiaki_lan.net.aio.resumable import unfinished_games

    gus_dir, ana_dir = tmp_path / "gus", tmp_path / "ana"
    gus = Node("Gus", host="127.0.0.1", record_dir=gus_dir, autoplay="random")  # as before
    ana = Node("Ana", host="127.0.0.1", record_dir=ana_dir, autoplay="random")
    try:
        for nd in (gus, ana):
            await nd.start()
        await gus.create_game("rename", 2)
        await ana.join_game(GameRef(gus.game_id, gus.peer_id, "127.0.0.1", gus.address[1]))
        for nd in (gus, ana):
            nd.set_ready(True)
        await gus.wait_for(lambda: gus.game is not None and len(gus.game.moves) >= 6, 30)
        played_by = gus.peer_id
    finally:
        await gus.close()  # the crash: nothing said, the record unfinished
        await ana.close()
    assert (gus_dir / "Gus.identity").exists() and not (gus_dir / PLAYER_IDENTITY).exists()
    # the next run is "Gustavo": the key that played the unfinished game is kept for him
    path = player_identity_path(gus_dir, "Gustavo")
    assert path == gus_dir / PLAYER_IDENTITY and load_identity(path).peer_id == played_by
    (game,) = unfinished_games(gus_dir).values()
    assert not game.left  # (a crash: the lobby opens it at once, asking nobody first)
    again = Node("Gustavo", host="127.0.0.1", record_dir=gus_dir, profile=path)
    try:
        await again.start()
        await again.resume(game.record)  # refused before: "played by peer …, but this profile…"
        assert again.peer_id == played_by and again.game is not None
    finally:
        await again.close()
    # and from now on the same file, whatever the name
    assert player_identity_path(gus_dir, "G") == path


def _damaged(path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x00" * 5)  # (cut short: a full disk, a copy that stopped)


async def test_a_damaged_identity_is_named_as_such_in_the_lobby_with_the_way_back(tmp_path):
    """It read "LAN not available: cannot open a UDP socket (…)": the player looked for a
    network fault, not for a damaged file and the seat it holds."""
    from tongiaki_lan.console.terminal.lobby import LobbyScreen
    from tongiaki_lan.net.aio.identity_file import PLAYER_IDENTITY

    key = tmp_path / PLAYER_IDENTITY
    _damaged(key)
    lobby = LobbyScreen("Ana", record_dir=tmp_path, host="127.0.0.1",
                        interfaces=["127.0.0.1"], colour_output=False)
    try:
        await lobby.start_network()
    finally:
        await lobby.close_network()
    said = lobby.lan_error or ""
    assert "UDP socket" not in said
    assert f"your identity file {key} is damaged (5 bytes; a key has 32)" in said
    assert "put it back there" in said and "`watch` the game and `take` your colour" in said


def test_a_damaged_identity_stops_a_headless_node_in_one_line(tmp_path):
    """`play --headless` ended in a traceback (IdentityFileError) on a damaged key."""
    import subprocess
    import sys

    _damaged(tmp_path / "Ana.identity")
    done = subprocess.run(
        [sys.executable, "-m", "tongiaki_lan", "play", "--headless", "--name", "Ana",
         "--game", "porch", "--no-discovery", "--host", "127.0.0.1", "--timeout", "20",
         "--record", str(tmp_path / "porch.tgrec")],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr[-2000:]
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"tongiaki-lan: your identity file {tmp_path / 'Ana.identity'} "
                           "is damaged")

"""A laptop whose record ends right after a move that calls for a tile — a crash between
two saves, or inside the next one — is started again from that file and the game ends
with one digest (issue 45). Real nodes on 127.0.0.1, a real record file cut on disk;
the simulated LAN's test (test_resume_anywhere_sim.py) covers every kind of decision."""

from __future__ import annotations

import pytest

from tests.console.test_resume_anywhere import entry_ends
from tongiaki_lan.engine import Reveal
from tongiaki_lan.net.aio.node import Node
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.records import encode_entry, read_record, replay_record

from .helpers import clean_replay_digest, verify_record


@pytest.mark.parametrize("torn", [False, True])
async def test_a_laptop_back_from_a_record_that_ends_before_a_reveal_plays_on(tmp_path, torn):
    nodes = await make_table(3, tmp_path)
    victim = nodes[1]
    crash: dict[str, int] = {}

    def crash_after_a_move_that_reveals(ev):
        g = victim.game
        if (ev.kind == "move" and not victim._closing and len(g.moves) >= 10
                and g.awaiting_reveal):
            crash["at"] = len(g.moves)  # (in its record; its datagrams have not left)
            victim._closing = True  # from here on the node neither reads nor acts
            victim.transport._sock.close()

    victim.add_listener(crash_after_a_move_that_reveals)
    restarted = None
    try:
        await nodes[0].wait_for(lambda: "at" in crash, 60)
        await victim.close()
        k = crash["at"]
        path = victim.record_path
        data = path.read_bytes()
        cut = data[:entry_ends(data)[k]]  # (the move; nothing after it)
        if torn:  # and the first bytes of the reveal's entry
            cut += encode_entry(k, Reveal(1), bytes(32))[:7]
        path.write_bytes(cut)
        left = read_record(path)
        assert len(left.moves) == k and left.truncated == torn
        assert replay_record(left).awaiting_reveal  # (it verifies: an unfinished game)

        restarted = Node("p1", host="127.0.0.1", record_dir=tmp_path, autoplay="random")
        await restarted.start()
        await restarted.resume(path)
        assert restarted.peer_id == victim.peer_id and len(restarted.game.moves) == k
        everyone = [nodes[0], restarted, nodes[2]]
        await play_to_end(everyone)
        assert len({nd.game.digest() for nd in everyone}) == 1
        assert all(nd.game.is_over and nd.stopped is None for nd in everyone)
        assert clean_replay_digest(nodes[0]) == restarted.game.digest()
        assert verify_record(path) == restarted.game.digest()  # (the torn bytes cut off)
        assert not read_record(path).truncated
    finally:
        await close_all(nodes + ([restarted] if restarted else []))

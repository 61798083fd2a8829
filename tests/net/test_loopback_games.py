"""Whole bot games between real nodes on 127.0.0.1, each with its own socket and engine."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tongiaki_lan.net.aio.node import Node
from tongiaki_lan.net.aio.resumable import unfinished_games
from tongiaki_lan.net.aio.sidecar import sidecar_path
from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol.invite import GameRef, JoinRefused

from .helpers import clean_replay_digest, verify_record


@pytest.mark.parametrize("players", [2, 4, 6])
async def test_full_bot_game_every_node_same_digest_and_records_verify(players, tmp_path):
    nodes = await make_table(players, tmp_path)
    try:
        await play_to_end(nodes)
        digests = {nd.game.digest() for nd in nodes}
        assert len(digests) == 1
        assert all(nd.game.is_over and nd.stopped is None for nd in nodes)
        assert {verify_record(nd.record_path) for nd in nodes} == digests
        assert clean_replay_digest(nodes[0]) in digests
        assert all(nd.refusals == 0 for nd in nodes)
    finally:
        await close_all(nodes)


async def _faulty_table(tmp_path) -> tuple[list[Node], dict[int, FaultRule]]:
    """Three nodes on loopback, each socket behind a fault rule of its own (clean until
    the test sets `drop` or `cut`)."""
    rules: dict[int, FaultRule] = {}

    def wrap(i):
        rules[i] = FaultRule(seed=i)
        return lambda s: FaultySocket(s, rules[i])

    return await make_table(3, tmp_path, wrap_socket=wrap), rules


async def test_game_with_bot_seats_and_passphrase_through_lossy_sockets(tmp_path):
    def wrap(i):
        rule = FaultRule(drop=0.15, duplicate=0.1, reorder=0.1, delay_s=0.01, seed=40 + i)
        return lambda s: FaultySocket(s, rule)

    nodes = await make_table(3, tmp_path, passphrase="kava", bots=2, wrap_socket=wrap)
    try:
        await play_to_end(nodes)
        seats = nodes[0].lobby.seats
        assert [s.kind for s in seats].count("bot") == 2
        assert len({nd.game.digest() for nd in nodes}) == 1
        assert clean_replay_digest(nodes[0]) == nodes[1].game.digest()
        assert sum(nd.transport._sock.dropped for nd in nodes) > 0
    finally:
        await close_all(nodes)


@pytest.mark.parametrize("passphrase", [None, "reef at night"])
async def test_crashed_node_bot_seat_taken_over_and_node_rejoins_from_its_record(
        tmp_path, passphrase):
    """The node that added a bot crashes (no goodbye): another node drives the bot while
    the crashed node is away, the game waits at the crashed player's own seat, and the
    restarted node (same profile: its record) catches up from the peers and plays on.
    A locked game's key is kept in the resume data: the restarted node is not asked for
    the passphrase (typing it cost a player the table's draw wait, in a playtest)."""
    from tongiaki_lan.net.aio.sidecar import read_sidecar

    nodes = await make_table(3, tmp_path, bots=1, passphrase=passphrase)
    victim = nodes[0]
    bot_seat = next(i for i, s in enumerate(victim.lobby.seats) if s.kind == "bot")
    assert bot_seat == 3
    restarted = None

    def crash_when_seat_1_is_pending(ev):
        g = victim.game
        if (ev.kind == "move" and ev.data["by"] != victim.peer_id.hex() and len(g.moves) >= 8
                and g.pending.seat == 1 and not victim._closing):
            victim._closing = True  # from here on the node neither reads nor acts
            victim.transport._sock.close()

    victim.add_listener(crash_when_seat_1_is_pending)
    try:
        survivor = nodes[1]
        await survivor.wait_for(lambda: victim._closing, 60)
        crashed_at = len(victim.game.moves)
        await victim.close()

        seen = []
        survivor.add_listener(lambda ev: seen.append((ev.kind, ev.data.get("peer")))
                              if ev.kind in ("away", "back", "restarted", "waiting") else None)
        bot_moves_by = []
        survivor.add_listener(lambda ev: bot_moves_by.append(ev.data["by"])
                              if ev.kind == "move" and ev.data["seat"] == bot_seat else None)

        def stalled_without_the_victim() -> bool:
            """At the victim's own seat, or at a tile whose draw needs the victim's value."""
            g = survivor.game
            return (len(g.moves) > crashed_at and (g.awaiting_reveal or g.pending.seat == 0)
                    and any(k == "away" for k, _ in seen))

        await survivor.wait_for(stalled_without_the_victim, 60)
        # the bot's own driver was down: a survivor played the bot's moves meanwhile
        assert set(bot_moves_by) <= {n.peer_id.hex() for n in nodes[1:]}
        assert bot_moves_by or survivor.game.awaiting_reveal

        restarted = Node("p0", host="127.0.0.1", record_dir=tmp_path, autoplay="random")
        await restarted.start()
        side = read_sidecar(victim.record_path)
        assert (side["key"] is not None) == side["passphrase"] == bool(passphrase)
        await restarted.resume(victim.record_path)  # no passphrase given, none needed
        assert restarted.peer_id == victim.peer_id
        assert len(restarted.game.moves) == crashed_at
        everyone = [restarted, *nodes[1:]]
        await play_to_end(everyone)
        assert len({nd.game.digest() for nd in everyone}) == 1
        assert clean_replay_digest(survivor) == restarted.game.digest()
        assert verify_record(restarted.record_path) == restarted.game.digest()
        victim_id = victim.peer_id.hex()
        kinds = [k for k, p in seen if p in (victim_id, None)]
        assert kinds.index("away") < kinds.index("restarted")
        if "waiting" in kinds:  # (else the game waited at a draw that needs the victim's value)
            assert kinds.index("away") < kinds.index("waiting") < kinds.index("restarted")
    finally:
        await close_all(nodes + ([restarted] if restarted else []))


async def test_silent_player_is_shown_away_the_game_waits_and_resumes_when_they_are_back(
        tmp_path):
    nodes, rules = await _faulty_table(tmp_path)
    quiet = nodes[1]
    watcher = nodes[0]
    seen = []
    watcher.add_listener(lambda ev: seen.append((ev.kind, ev.data.get("peer"), ev.data.get("seat")))
                         if ev.kind in ("away", "back", "waiting") else None)
    try:
        await watcher.wait_for(lambda: watcher.game is not None and len(watcher.game.moves) > 10,
                               30)
        rules[1].drop = 1.0  # everything the quiet player sends is lost from now on
        await watcher.wait_for(lambda: ("away", quiet.peer_id.hex(), None) in seen, 30)
        # the game waits: at the quiet player's decision, or at a tile whose fair draw
        # needs the quiet node's value
        await watcher.wait_for(lambda: any(k == "waiting" and s == 1 for k, _, s in seen)
                               or watcher.game.awaiting_reveal, 60)
        stalled_at = len(watcher.game.moves)
        rules[1].drop = 0.0  # the network comes back
        await play_to_end(nodes)
        assert ("back", quiet.peer_id.hex(), None) in seen
        assert len(watcher.game.moves) > stalled_at
        assert len({nd.game.digest() for nd in nodes}) == 1
        assert clean_replay_digest(watcher) == watcher.game.digest()
    finally:
        await close_all(nodes)


async def test_a_lan_record_proves_every_draw_and_a_tampered_value_is_named(tmp_path):
    """`verify --json` re-checks every draw of a real LAN game against the three chain
    commitments, with no secret; one value changed in the record is refused, naming the
    contributor and the draw."""
    import json
    import subprocess
    import sys

    import msgpack

    nodes = await make_table(3, tmp_path)
    try:
        await play_to_end(nodes)
    finally:
        await close_all(nodes)
    path = nodes[1].record_path
    run = [sys.executable, "-m", "tongiaki_lan", "verify", "--json"]
    out = json.loads(subprocess.run([*run, str(path)], capture_output=True, text=True,
                                    check=True).stdout)
    assert out["ok"] and out["draw_check"] == "chains"
    assert out["draws"] == nodes[1].game.draws() > 0
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(path.read_bytes())
    header, *entries = list(unpacker)
    assert len(header["draws"]) == 3
    k, entry = next((k, e) for k, e in enumerate(e for e in entries if len(e) == 4) if k == 2)
    entry[3][1][1] = bytes(32)  # contributor 1's value for draw 2, made up
    bad = tmp_path / "tampered.tgrec"
    bad.write_bytes(b"".join(msgpack.packb(x, use_bin_type=True) for x in [header, *entries]))
    res = subprocess.run([*run, str(bad)], capture_output=True, text=True)
    assert res.returncode == 1
    assert "contributor 1's value for draw 2 does not hash" in json.loads(res.stdout)["error"]


async def test_a_newcomer_asking_for_a_seat_when_the_game_has_ended_is_told_so(tmp_path):
    """The table's nodes may be gone once the game ends (headless ones leave): a watcher
    asking then for the seat a bot played hears at once that the game ended, not, after
    35 s, that nobody answered (CI saw a fast table end while a newcomer asked)."""
    nodes = await make_table(2, tmp_path, bots=1)
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan")
    try:
        await dan.start()
        host = nodes[0]
        await host.wait_for(lambda: host.game is not None, 30)
        await dan.watch_game(GameRef(host.game_id, host.peer_id, "127.0.0.1", host.address[1],
                                     False))
        await play_to_end(nodes)
        await dan.wait_for(lambda: dan.game is not None and dan.game.is_over, 30)
        await close_all(nodes)
        (bot_seat,) = [i for i, s in enumerate(dan.lobby.seats) if s.kind != "human"]
        with pytest.raises(JoinRefused, match="the game ended before the seat was yours"):
            await dan.take_seat(bot_seat)
    finally:
        await close_all([*nodes, dan])


async def test_a_record_names_the_newcomer_who_took_a_seat_not_the_bot_it_replaced(tmp_path):
    """A newcomer took a bot's seat and won, and every record still named the bot:
    `verify` and `replay` credited the game to the names of its start (a LAN-party
    playtest). The record now says when a seat changes hands, and who plays it."""
    from tongiaki_lan.records import read_record

    nodes = await make_table(2, tmp_path, bots=1)
    for nd in nodes:
        nd.bot_delay = 0.05  # (time for the newcomer to sit down before the end)
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan", autoplay="random")
    try:
        await dan.start()
        host = nodes[0]
        await host.wait_for(lambda: host.game is not None, 30)
        (bot_seat,) = [i for i, s in enumerate(host.lobby.seats) if s.kind != "human"]
        bot_name = host.lobby.seats[bot_seat].name
        await dan.watch_game(GameRef(host.game_id, host.peer_id, "127.0.0.1",
                                     host.address[1], False))
        await dan.wait_for(lambda: dan.game is not None, 30)
        await dan.take_seat(bot_seat)
        taken_at = len(host.game.moves)
        await play_to_end([*nodes, dan])
        for nd in (*nodes, dan):
            record = read_record(nd.record_path)
            assert record.header.seats[bot_seat].name == bot_name  # (as the game began)
            assert record.seat_names()[bot_seat] == "Dan"
            at = next(i for i, names in record.names if names[bot_seat] == "Dan")
            assert at <= taken_at + 5 and record.seat_names(at)[bot_seat] == bot_name
            assert verify_record(nd.record_path) == host.game.digest()
        colour = host.lobby.seats[bot_seat].colour
        said = subprocess.run([sys.executable, "-m", "tongiaki_lan", "verify",
                               str(host.record_path)], capture_output=True, text=True,
                              timeout=60).stdout
        assert f"Dan ({colour})" in said and bot_name not in said, said
    finally:
        await close_all([*nodes, dan])


async def test_a_record_tells_the_moves_a_bot_played_for_an_away_player(tmp_path):
    """A player away, their seat given to a bot (`--handover`): the record says from
    which move a bot played the seat (its first move there), so replay does not tell the
    bot's moves as the player's (a playtest: "turn 22: Ben founds…", played by the bot),
    and the record still verifies. Then the player is back: the table gives the seat back
    and everyone finishes one game (a laptop back just as the table drew without it
    once stalled this about one run in fifteen: tests/net/test_draw_race_sim.py)."""
    from tongiaki_lan.records import read_record, replay_record

    nodes, rules = await _faulty_table(tmp_path)
    host, quiet = nodes[0], nodes[1]
    try:
        await host.wait_for(lambda: host.game is not None and len(host.game.moves) > 10, 30)
        seat = quiet.core.my_seats()[0]
        host.core.handover_after = 1.0
        # a player gone from the keyboard and their laptop from the network, both ways
        quiet.core.autoplay = None
        rules[1].drop = 1.0
        to_quiet = ("127.0.0.1", quiet.address[1])
        for i in (0, 2):
            rules[i].cut.add(to_quiet)
        await host.wait_for(lambda: host.lobby.seats[seat].bot, 30)  # (by itself, as a
        # headless table does after `--handover`; `replace` asks for the same)
        handed_at = len(host.game.moves)
        bot_moves: list[int] = []

        def seat_moves() -> bool:  # (the bot's moves for the seat, or the game's end)
            game = read_record(host.record_path).header.new_game()
            bot_moves.clear()
            for i, move in enumerate(host.game.moves):
                if game.pending.seat == seat and i >= handed_at:
                    bot_moves.append(i)
                game.apply(move)
            return len(bot_moves) >= 2 or host.game.is_over

        await host.wait_for(seat_moves, 60)
        await host.wait_for(lambda: len(read_record(host.record_path).moves)
                            >= len(host.game.moves), 10)
        record = read_record(host.record_path)
        assert bot_moves, "the game ended before the bot played the seat"
        (away, bot), *rest = record.bots
        assert bot[seat] and not any(b for i, b in enumerate(bot) if i != seat)
        assert away == bot_moves[0] and not rest  # from the bot's first move, still on
        assert record.seat_bots(away) == ("",) * 3 and record.seat_bots() == bot
        assert record.seat_names() == tuple(s.name for s in record.header.seats)
        assert replay_record(record).digest() == record.digests[-1]
        # the way back
        quiet.core.autoplay = "random"
        rules[1].drop = 0.0
        for i in (0, 2):
            rules[i].cut.clear()
        await host.wait_for(lambda: not host.lobby.seats[seat].bot or host.game.is_over, 60)
        await play_to_end(nodes)
        assert all(nd.core.stopped is None for nd in nodes), [nd.core.stopped for nd in nodes]
        assert len({nd.game.digest() for nd in nodes}) == 1
        for nd in nodes:
            assert verify_record(nd.record_path) == nd.game.digest()
    finally:
        await close_all(nodes)


async def test_a_laptop_nobody_hears_takes_its_moves_back_and_the_table_plays_on(tmp_path):
    """Everything one laptop sends is lost (its firewall blocks what goes out), over real
    UDP: it hears the table, which gives its seat to a bot and draws without it. Before,
    once it was heard again every laptop stopped with "the game forked". Now it says it is
    unheard, then takes back what it played alone and follows the table."""
    nodes, rules = await _faulty_table(tmp_path)
    host, mute = nodes[0], nodes[1]
    said: list[bool] = []
    mute.add_listener(lambda ev: said.append(ev.data["unheard"])
                      if ev.kind == "unheard" else None)
    try:
        await host.wait_for(lambda: host.game is not None and len(host.game.moves) > 10, 30)
        for nd in nodes:
            nd.core.handover_after = 2.0
        seat = mute.core.my_seats()[0]
        rules[1].drop = 1.0
        await host.wait_for(lambda: said == [True] and host.lobby.seats[seat].bot, 60)
        at = len(host.game.moves)
        await host.wait_for(lambda: len(host.game.moves) > at + 6 or host.game.is_over, 60)
        rules[1].drop = 0.0
        await play_to_end(nodes)
        assert said == [True, False]
        assert all(nd.core.stopped is None for nd in nodes), [nd.core.stopped for nd in nodes]
        assert len({nd.game.digest() for nd in nodes}) == 1
        for nd in nodes:
            assert verify_record(nd.record_path) == nd.game.digest()
    finally:
        await close_all(nodes)


@pytest.mark.parametrize("who", [2, 0])  # another player, or the table's creator
async def test_a_player_back_in_a_new_run_after_a_goodbye_for_good_plays_their_seat_again(
        tmp_path, who):
    """The real glue of the docs' row "the player whose seat a bot plays comes back (… a
    new run after a goodbye for good)": `leave(for_good=True)` (the FAREWELL, the wait
    until it is heard, the resume data marked as left), the table's bot in the seat, then
    a new node of the same profile resuming that record, at once (well within the 10 s in
    which the leaver's late datagrams do not count): the seat is the player's again, its
    game catches up with the table's, and the game ends with one digest. A playtest read a
    frozen screen and "Someone else plays your seat now" there; the simulated LAN never
    showed it, and neither does this."""
    nodes = await make_table(3, tmp_path, autoplay="random")
    back = None
    try:
        for nd in nodes:
            nd.bot_delay = 0.05  # (pacing: the game must still be on when the player is back)
            nd.core.handover_bot = "random"
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        leaver = nodes[who]
        rest = [nd for nd in nodes if nd is not leaver]
        await leaver.wait_for(lambda: len(leaver.game.moves) >= 10, 60)
        seat = leaver.core.my_seats()[0]
        await leaver.leave(for_good=True)
        await rest[0].wait_for(lambda: all(nd.lobby.seats[seat].bot for nd in rest), 10)
        # the lobby's "yours" knows it was left for good (it asks the table before it
        # opens the game screen: docs/console.md)
        alone = tmp_path / "leaver"
        alone.mkdir()
        for path in (leaver.record_path, sidecar_path(leaver.record_path)):
            shutil.copy(path, alone / path.name)
        assert unfinished_games(alone)[leaver.game_id].left
        back = Node(leaver.name, host="127.0.0.1", record_dir=tmp_path, autoplay="random")
        await back.start()
        await back.resume(leaver.record_path)
        assert back.peer_id == leaver.peer_id
        # the table's word that the seat is the player's again, which the lobby waits for
        await back.wait_for(back.heard_as_member, 10)
        everyone = [back, *rest]
        await back.wait_for(lambda: all(not nd.lobby.seats[seat].bot for nd in everyone)
                            and back.core.caught_up_with_table(), 30)
        await play_to_end(everyone, 300)
        assert len({nd.game.digest() for nd in everyone}) == 1
        assert not back.stopped and not any(nd.stopped for nd in rest)
        assert verify_record(back.record_path) == back.game.digest()
    finally:
        await close_all(nodes + ([back] if back else []))

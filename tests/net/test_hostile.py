"""Hostile input during a game: nothing crashes, nothing changes the game, every refusal
is reported with the sender and the reason."""

from __future__ import annotations

import collections
from pathlib import Path

import asyncio_dgram
import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Expand
from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node, bot_seed
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol.codec import MoveMsg

from .helpers import clean_replay_digest
from .hostile import HostileDatagrams

N_HOSTILE = 10_000


class Recorder:
    """Wraps a node's socket and keeps a copy of what it sends (for replays)."""

    def __init__(self, stream, sink):
        self._s = stream
        self.sink = sink
        self.sockname = stream.sockname

    async def send(self, data, addr):
        if len(self.sink) < 2000:
            self.sink.append((data, addr))
        await self._s.send(data, addr)

    async def recv(self):
        return await self._s.recv()

    def close(self):
        self._s.close()


def in_step(nodes) -> bool:
    """Every node at the same move, and no tile waiting for its draw values."""
    return (len({len(nd.game.moves) for nd in nodes}) == 1
            and not any(nd.game.awaiting_reveal for nd in nodes))


def play_one(nodes) -> None:
    """Make the next move of the game by hand, the way the seat's bot would."""
    g = nodes[0].game
    d = g.pending
    if d is None:
        return
    owner = next(nd for nd in nodes if nd.lobby.seats[d.seat].owner == nd.peer_id)
    bot = make_bot("random", seed=bot_seed(owner.seed, d.seat, len(g.moves)))
    owner.send_move(bot.choose(owner.game.copy()))


async def test_ten_thousand_hostile_datagrams_and_a_cheating_member(tmp_path):
    captured: list = []
    nodes = await make_table(
        4, tmp_path, autoplay=None,
        wrap_socket=lambda i: (lambda s: Recorder(s, captured)) if i == 1 else None)
    honest, cheat = nodes[:3], nodes[3]
    reasons: collections.Counter = collections.Counter()
    for nd in honest:
        nd.add_listener(lambda ev: reasons.update([ev.data["reason"]])
                        if ev.kind == "refused" else None)
    raw = await asyncio_dgram.bind(("127.0.0.1", 0))
    try:
        await honest[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        gen = HostileDatagrams(7, honest[0].game_id, [nd.peer_id for nd in nodes])
        kinds: collections.Counter = collections.Counter()
        cheats = 0

        def cheat_once() -> None:
            """The cheating member (a real seat) sends moves for others and illegal moves."""
            nonlocal cheats
            g = cheat.game
            if g.is_over or g.awaiting_reveal:
                return
            d = g.pending
            n = len(g.moves)
            if cheat.lobby.seats[d.seat].owner != cheat.peer_id:
                move = g.legal_moves()[0]  # legal, but not the cheat's decision
            else:
                move = next((Expand(i) for i in range(40) if not g.is_legal(Expand(i))), None)
                if move is None:
                    return
            for m in cheat.lobby.members:
                if m.peer != cheat.peer_id:
                    cheat.transport.send(m.peer, None, MoveMsg(n, move.to_wire(), bytes(32)))
            cheats += 1

        def refused() -> int:
            return sum(nd.refusals for nd in honest)

        sent = 0
        moves_during_flood = 0
        while sent < N_HOSTILE:
            for _ in range(100):
                target = honest[sent % 3]
                kind, data = gen.one(target.peer_id)
                kinds[kind] += 1
                await raw.send(data, target.address)
                sent += 1
            if captured:
                honest_addrs = {nd.address for nd in honest}
                for data, addr in [c for c in captured if c[1] in honest_addrs][-10:]:
                    await raw.send(data, addr)
                    sent += 1
                kinds["replay"] += 10
            cheat_once()
            # every hostile datagram is refused, and logged, before the game moves on
            if not await honest[0].wait_for(lambda n=sent: refused() >= n, 10,
                                            raise_on_timeout=False):
                raise AssertionError(f"{sent} hostile datagrams, {refused()} refusals: "
                                     f"{kinds}, {reasons.most_common()}")
            await honest[0].wait_for(lambda: in_step(nodes), 30)
            if not nodes[0].game.is_over:
                play_one(nodes)
                moves_during_flood += 1
        while not nodes[0].game.is_over:
            await honest[0].wait_for(lambda: in_step(nodes), 30)
            play_one(nodes)
        await play_to_end(nodes, timeout=60)
        final = {nd.game.digest() for nd in nodes}
        assert len(final) == 1
        assert final == {clean_replay_digest(honest[0])}
        assert all(nd.stopped is None for nd in nodes)
        assert cheats > 0 and moves_during_flood > 50
        text = "\n".join(reasons)
        for expected in ("bad magic", "runt datagram", "oversized datagram", "malformed msgpack",
                         "unknown node", "datagram for another game", "unsigned datagram",
                         "does not belong to the signing key",
                         "replayed or duplicated datagram", "move.index", "it is ",
                         "illegal move"):
            assert expected in text, (expected, reasons.most_common(30))
        print(f"\nhostile datagrams sent: {sent} ({dict(kinds)}), "
              f"cheating moves: {cheats}, refusals logged: {refused()}")
    finally:
        raw.close()
        await close_all(nodes)


async def test_without_the_passphrase_a_node_can_neither_join_nor_inject(tmp_path):
    nodes = await make_table(2, tmp_path, passphrase="tapa cloth")
    intruder = Node("intruder", host="127.0.0.1", record_dir=tmp_path)
    await intruder.start()
    raw = await asyncio_dgram.bind(("127.0.0.1", 0))
    refusals: list[str] = []
    nodes[0].add_listener(lambda ev: refusals.append(ev.data["reason"])
                          if ev.kind == "refused" else None)
    try:
        await nodes[0].wait_for(lambda: nodes[0].game is not None and len(nodes[0].game.moves) > 2,
                                30)
        ref = GameRef(nodes[0].game_id, nodes[0].peer_id, "127.0.0.1", nodes[0].address[1], True)
        for guess in (None, "tapa"):
            try:
                await intruder.join_game(ref, passphrase=guess, timeout=1.5)
                raise AssertionError("joined without the passphrase")
            except JoinRefused as exc:
                assert "passphrase" in str(exc)
                assert exc.silent_lock  # (the lobby asks for the passphrase again)
        gen = HostileDatagrams(3, nodes[0].game_id, [nd.peer_id for nd in nodes])
        for _ in range(300):
            _, data = gen.one(nodes[0].peer_id)
            await raw.send(data, nodes[0].address)
        await play_to_end(nodes)
        assert len({nd.game.digest() for nd in nodes}) == 1
        assert nodes[0].game.digest() == clean_replay_digest(nodes[0])
        assert any("bad MAC" in r for r in refusals)
        assert any("unauthenticated datagram" in r for r in refusals)
        assert not any(m.peer == intruder.peer_id for m in nodes[0].lobby.members)
    finally:
        raw.close()
        await intruder.close()
        await close_all(nodes)


async def test_digest_mismatch_stops_the_game_with_a_message_and_a_dump(tmp_path):
    nodes = await make_table(3, tmp_path, autoplay=None)
    liar = nodes[2]
    stops = []
    for nd in nodes[:2]:
        nd.add_listener(lambda ev: stops.append(ev.data) if ev.kind == "mismatch" else None)
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        while True:  # play honestly until it is the liar's turn
            await nodes[0].wait_for(lambda: in_step(nodes), 30)
            if nodes[0].game.pending.seat == 2 and len(nodes[0].game.moves) > 6:
                break
            play_one(nodes)
        g = liar.game
        idx = len(g.moves)
        move = make_bot("random", seed=1).choose(g.copy())
        g.apply(move)  # a legal move, announced with a digest that is not the real one
        for m in liar.lobby.members:
            if m.peer != liar.peer_id:
                liar.transport.send(m.peer, None, MoveMsg(idx, move.to_wire(), bytes(32)))
        await nodes[0].wait_for(lambda: len(stops) == 2, 30)
        for nd, stop in zip(nodes[:2], stops, strict=True):
            assert nd.stopped and "digest mismatch after move" in stop["reason"]
            assert "p2" in stop["reason"]
            dump = Path(stop["dump"]).read_text()
            assert nd.game_id.hex() in dump and str(move) in dump
        with pytest.raises(ValueError, match="game stopped"):
            nodes[0].send_move(nodes[0].game.legal_moves()[0])
    finally:
        await close_all(nodes)

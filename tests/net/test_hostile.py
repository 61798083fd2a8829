"""Hostile input during a game: nothing crashes, nothing changes the game, every refusal
is reported with the sender and the reason."""

from __future__ import annotations

import collections

import asyncio_dgram
import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.cli.verify import check_expulsions as verify_expulsions
from tongiaki_lan.engine import Expand
from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node, bot_seed
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end
from tongiaki_lan.net.protocol.codec import MoveMsg
from tongiaki_lan.net.protocol.proofs import sign_move
from tongiaki_lan.records import read_record

from .helpers import clean_replay_digest, verify_record
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
    """Every node still playing at the same move, and no tile waiting for its draw
    values (a node expelled from the table stopped where it was told)."""
    nodes = [nd for nd in nodes if nd.stopped is None]
    return (len({len(nd.game.moves) for nd in nodes}) == 1
            and not any(nd.game.awaiting_reveal for nd in nodes))


async def play_one(nodes) -> None:
    """Make the next move of the game by hand, the way the seat's bot would (a seat the
    table's bot plays, an expelled member's, goes by itself: then wait for its move)."""
    nodes = [nd for nd in nodes if nd.stopped is None]
    g = nodes[0].game
    d = g.pending
    if d is None or g.is_over:
        return
    owner = next((nd for nd in nodes if nd.lobby.seats[d.seat].owner == nd.peer_id
                  and not nd.lobby.seats[d.seat].bot), None)
    if owner is None:
        n = len(g.moves)
        await nodes[0].wait_for(lambda: len(nodes[0].game.moves) > n, 30)
        return
    bot = make_bot("random", seed=bot_seed(owner.seed, d.seat, len(g.moves)))
    owner.send_move(bot.choose(owner.game.copy()))


def signed_move(node: Node, index: int, move, after: bytes) -> MoveMsg:
    """A MOVE as a modified client sends it: whatever it likes, signed with its key (so a
    move the rules refuse is a proof against it: protocol/security.md)."""
    core = node.core
    before = core.digest_before(index)
    wire = move.to_wire()
    return MoveMsg(index, wire, after, (), before, sign_move(
        core.identity, core.game_id, core.links.incarnation, index, before, after, wire))


async def test_ten_thousand_hostile_datagrams_and_a_cheating_member(tmp_path):
    captured: list = []
    nodes = await make_table(
        4, tmp_path, autoplay=None,
        wrap_socket=lambda i: (lambda s: Recorder(s, captured)) if i == 1 else None)
    honest, cheat = nodes[:3], nodes[3]
    reasons: collections.Counter = collections.Counter()
    expelled: dict = {id(nd): [] for nd in honest}
    for nd in honest:
        nd.add_listener(lambda ev: reasons.update([ev.data["reason"]])
                        if ev.kind == "refused" else None)
        nd.add_listener(lambda ev, nd=nd: expelled[id(nd)].append(ev)
                        if ev.kind == "expelled" else None)
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
            if cheat.stopped:
                return  # (expelled: it is no member any more)
            if cheat.lobby.seats[d.seat].owner != cheat.peer_id:
                move = g.legal_moves()[0]  # legal, but not the cheat's decision
                after = g.copy()
                after.apply(move)
                msg = signed_move(cheat, n, move, after.digest())
            else:  # a move the rules refuse, signed: a proof, and the table expels it
                move = next((Expand(i) for i in range(40) if not g.is_legal(Expand(i))), None)
                if move is None:
                    return
                msg = signed_move(cheat, n, move, bytes(32))
            for m in cheat.lobby.members:
                if m.peer != cheat.peer_id:
                    cheat.transport.send(m.peer, None, msg)
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
                await play_one(nodes)
                moves_during_flood += 1
        while not honest[0].game.is_over:
            await honest[0].wait_for(lambda: in_step(nodes), 30)
            await play_one(nodes)
        await play_to_end(honest, timeout=60)
        final = {nd.game.digest() for nd in honest}
        assert len(final) == 1
        for nd in honest:
            assert verify_record(nd.record_path) in final
        assert all(nd.stopped is None for nd in honest)
        assert cheats > 0 and moves_during_flood > 50
        # its first signed move the rules refuse was a proof: the three expelled it, a
        # bot plays its seat, and the game went on to its end
        assert "expelled" in (cheat.stopped or "")
        for nd in honest:
            assert any(ev.data["peer"] == cheat.peer_id.hex() for ev in expelled[id(nd)])
        text = "\n".join(reasons)
        for expected in ("bad magic", "runt datagram", "oversized datagram", "malformed msgpack",
                         "unknown node", "datagram for another game", "unsigned datagram",
                         "does not belong to the signing key",
                         "replayed or duplicated datagram", "move.index"):
            assert expected in text, (expected, reasons.most_common(30))
        # the cheat's first moves are refused by name ("it is NAME's decision", "illegal
        # move"); what it signed soon contradicts itself or the rules: expelled (above)
        assert "it is " in text or "illegal move" in text, reasons.most_common(30)
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


async def test_a_signed_false_digest_gets_its_laptop_expelled_and_the_others_play_on(tmp_path):
    """On real sockets: a member announces a legal move, signed, with a state digest that
    is not the state after it. Before, the others stopped the game ("digest mismatch");
    now the signed statement is a proof against its sender: the two others expel it, the
    table's bot plays its seat, and they finish the game; the liar's laptop is told."""
    nodes = await make_table(3, tmp_path, autoplay=None)
    liar, honest = nodes[2], nodes[:2]
    seen: dict = {id(nd): [] for nd in nodes}
    for nd in nodes:
        nd.add_listener(lambda ev, nd=nd: seen[id(nd)].append(ev.data | {"kind": ev.kind})
                        if ev.kind in ("expelled", "proof", "mismatch") else None)
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        while True:  # play honestly until it is the liar's turn
            await nodes[0].wait_for(lambda: in_step(nodes), 30)
            if nodes[0].game.pending.seat == 2 and len(nodes[0].game.moves) > 6:
                break
            await play_one(nodes)
        g = liar.game
        idx = len(g.moves)
        move = make_bot("random", seed=1).choose(g.copy())
        msg = signed_move(liar, idx, move, bytes(32))  # legal, with a false state after it
        for m in liar.lobby.members:
            if m.peer != liar.peer_id:
                liar.transport.send(m.peer, None, msg)
        await nodes[0].wait_for(lambda: liar.stopped is not None, 30)
        while not honest[0].game.is_over:
            await honest[0].wait_for(lambda: in_step(nodes), 30)
            await play_one(nodes)
        await play_to_end(honest, timeout=60)
        assert len({nd.game.digest() for nd in honest}) == 1
        for nd in honest:
            assert nd.stopped is None and verify_record(nd.record_path) == nd.game.digest()
            kinds = [e["kind"] for e in seen[id(nd)]]
            assert "mismatch" not in kinds and "proof" in kinds
            (ex,) = [e for e in seen[id(nd)] if e["kind"] == "expelled"]
            assert ex["peer"] == liar.peer_id.hex() and ex["proof_kind"] == "refused-move"
        (mine,) = [e for e in seen[id(liar)] if e["kind"] == "expelled"]
        assert mine["you"] and "expelled" in liar.stopped
        with pytest.raises(ValueError, match="game stopped"):
            liar.send_move(liar.game.legal_moves()[0])
        # its record holds the table's game up to its expulsion, and verifies; the
        # others' records say who was expelled, with the proof, which `verify` checks
        verify_record(liar.record_path)
        for nd in honest:
            expelled, wrong = verify_expulsions(read_record(nd.record_path))
            assert wrong is None and [x["name"] for x in expelled] == ["p2"]
            assert expelled[0]["proof"] == "refused-move" and expelled[0]["seats"] == [2]
    finally:
        await close_all(nodes)

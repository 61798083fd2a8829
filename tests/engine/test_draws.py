"""Fair draws (protocol/draws.md): hash chains decide each tile, nobody alone can know or
steer it, and every draw can be re-checked from what the peers revealed."""

import json
from pathlib import Path

from tongiaki_lan.bots import make_bot
from tongiaki_lan.draws import Chain, ChainDealer, DrawBook, chain_step, draw_tile, preimage_ok
from tongiaki_lan.engine import COLOURS, Game

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "draws.json"
SEED = bytes(range(32))


def _secret(n: int) -> bytes:
    return bytes([n]) * 32


def test_a_chain_reveals_backwards_and_each_value_proves_itself():
    chain = Chain(_secret(1))
    assert chain_step(chain.preimage(0)) == chain.commitment
    for k in range(1, 31):
        assert chain_step(chain.preimage(k)) == chain.preimage(k - 1)
    assert preimage_ok(chain.commitment, -1, chain.preimage(0), 0)
    assert preimage_ok(chain.commitment, -1, chain.preimage(4), 4)  # a gap: five steps
    assert not preimage_ok(chain.commitment, -1, chain.preimage(4), 3)
    assert not preimage_ok(chain.commitment, -1, _secret(9), 0)


def test_the_next_tile_is_undetermined_for_a_node_that_knows_everything_of_its_own():
    """Node A knows its secret, the seed and every value revealed so far; node B's next
    value is the only thing it lacks, and that alone moves the tile over the whole stack."""
    mine = Chain(_secret(1))
    unrevealed = list(range(1, 32))
    tiles = {draw_tile(SEED, 0, [mine.preimage(0), Chain(_secret(b)).preimage(0)], unrevealed)
             for b in range(2, 200)}
    assert len(tiles) > 20


def test_two_games_differing_only_in_another_nodes_secret_draw_different_tiles():
    def play(secret_b: bytes) -> list:
        game = Game(COLOURS[:3])
        dealer = ChainDealer(SEED, [Chain(_secret(1)), Chain(secret_b), Chain(_secret(3))])
        bot = make_bot("random", seed=4)
        while not game.is_over and game.draws() < 6:
            dealer.apply(game, bot.choose(game))
        return [str(m) for m in game.moves if str(m).startswith("reveal")]

    assert play(_secret(2)) != play(_secret(7))
    assert play(_secret(2)) == play(_secret(2))


def test_a_value_that_does_not_hash_to_the_commitment_is_refused_naming_the_contributor():
    chains = [Chain(_secret(i)) for i in (1, 2, 3)]
    book = DrawBook(SEED, tuple(c.commitment for c in chains))
    unrevealed = list(range(1, 32))
    bad = [(0, chains[0].preimage(0)), (1, _secret(66)), (2, chains[2].preimage(0))]
    why = book.check(0, bad, unrevealed)
    assert why is not None and "contributor 1" in why
    good = [(i, c.preimage(0)) for i, c in enumerate(chains)]
    assert book.check(0, good, unrevealed, tile=draw_tile(SEED, 0, [v for _, v in good],
                                                          unrevealed)) is None
    # contributor 2 stops revealing: draw 1 goes on with the other two
    assert book.check(1, [(0, chains[0].preimage(1)), (1, chains[1].preimage(1))],
                      unrevealed) is None
    # a wrong tile for honest values is refused too
    vals = [(0, chains[0].preimage(2)), (1, chains[1].preimage(2))]
    right = draw_tile(SEED, 2, [v for _, v in vals], unrevealed)
    wrong = next(t for t in unrevealed if t != right)
    assert "choose tile" in book.check(2, vals, unrevealed, tile=wrong)


def test_draw_vectors():
    v = json.loads(VECTORS.read_text())
    chains = [Chain(bytes.fromhex(s)) for s in v["secrets"]]
    assert [c.commitment.hex() for c in chains] == v["commitments"]
    seed = bytes.fromhex(v["seed"])
    for d in v["draws"]:
        values = [bytes.fromhex(x) for x in d["values"]]
        assert values == [c.preimage(d["draw"]) for c in chains]
        assert draw_tile(seed, d["draw"], values, d["unrevealed"]) == d["tile"]


def _chain_record(path):
    from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo

    chains = [Chain(_secret(i)) for i in (1, 2, 3)]
    header = RecordHeader(SEED, tuple(SeatInfo(n, c, "random") for n, c in
                                      zip("ABC", COLOURS[:3], strict=True)),
                          commitments=tuple(c.commitment for c in chains))
    dealer = ChainDealer(SEED, chains)
    game = Game(COLOURS[:3])
    bot = make_bot("random", seed=9)
    with RecordWriter.create(path, header) as writer:
        def write(move):
            proof = dealer.values(game.draws() - 1) if str(move).startswith("reveal") else None
            writer.append(move, game.digest(), proof)

        while not game.is_over:
            dealer.apply(game, bot.choose(game), write)
    return game


def test_verify_rechecks_every_draw_and_refuses_a_tampered_value(tmp_path):
    import msgpack

    from tests.engine.test_records import cli

    path = tmp_path / "fair.tgrec"
    game = _chain_record(path)
    out = cli("verify", str(path), "--json")
    verdict = json.loads(out.stdout)
    assert verdict["ok"] and verdict["draw_check"] == "chains"
    assert verdict["draws"] == game.draws() and verdict["digest"] == game.digest().hex()
    # tamper with contributor 1's value of the third draw
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(path.read_bytes())
    objects = list(unpacker)
    reveals = [o for o in objects[1:] if len(o) == 4]
    reveals[2][3][1][1] = bytes(32)
    path.write_bytes(b"".join(msgpack.packb(o, use_bin_type=True) for o in objects))
    out = cli("verify", str(path))
    assert out.returncode == 1
    assert "contributor 1's value for draw 2 does not hash" in out.stdout

"""Resume anywhere (issue 45): a solo record cut at any move boundary — or inside its last
entry, as a crash mid-write leaves it — is played on by `solo --resume` to the same end
as the game that was never cut.

A record that ended right after a departure that revealed a tile (a crash between two
saves) verified, the lobby offered it, and `solo --resume` then said "A tile is being
revealed…" for ever: nobody dealt the tile. Here real records (solo games played by bots
from a seed, the two-colour variant too) are cut everywhere and resumed through
`SoloSession.resume`, the one way in of `solo --resume` and the lobby's `solo resume`.
Every seat is played by a bot whose choice depends on the position alone (the player's
seat by the hint, which is so already), so the game played on after a resume must be the
uncut game, move for move: the resumed record ends byte for byte as the uncut one.
"""

from __future__ import annotations

import msgpack
import pytest

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.base import bot_seed
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.variant import STANDARD, TWO_COLOURS
from tongiaki_lan.records import RecordError, read_record

# (seed, two colours): seeds chosen because their bots meet every kind of decision, the
# rare T1a one ("which of your ships moves over") included
GAMES = [("resume-anywhere-58", False), ("resume-anywhere-49", True)]
# which boundaries are cut: one in STRIDE, the first of each kind of decision pending
# (the player's and a bot's apart), and one in two of the bug's own (a reveal pending
# right after the move that called for it); one in two of those also inside the entry
# that follows (a crash while writing it), and the first of each kind. About 100 resumes
# a game (of some 150 moves), each played to its end: seconds (CI: the suite's budget is
# minutes for all)
STRIDE = 5


class PositionBot:
    """A seat's bot whose choice depends on the position alone, not on how many times it
    was asked before (a resumed session's bots start afresh)."""

    def __init__(self, seat: int):
        self.seat = seat

    def choose(self, game):
        return make_bot("random", seed=bot_seed(game.digest(), self.seat)).choose(game)


async def play_out(session: SoloSession) -> None:
    """Start the session and play it to its end: our decisions by the hint, the others by
    the session's own driver (bots and the dealer). Fails where the game waits for
    nobody, as the resumed game at a pending reveal did."""
    session._bots = {i: PositionBot(i) for i in session._bots}  # (before the driver runs)
    await session.start()
    while not session.game.is_over:
        if session.my_decision():
            await session.submit(await session.hint())
            continue
        driver = session._driver
        assert driver is not None and not driver.done(), (
            f"after {len(session.game.moves)} moves the game waits for nobody (pending: "
            f"{session.game.pending.kind})")
        await driver
    await session.close()


def entry_ends(data: bytes) -> list[int]:
    """Where the header and each entry of a record end, in bytes."""
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False)
    unpacker.feed(data)
    ends = []
    for _obj in unpacker:
        ends.append(unpacker.tell())
    return ends


async def uncut_game(path, seed: str, two_colours: bool) -> bytes:
    seats = solo_seats(1 if two_colours else 3, "Tester", "random", two_colours=two_colours)
    session = SoloSession(seed_from_text(seed), seats, record_path=path, pace=0,
                          hint_kind="random", variant=TWO_COLOURS if two_colours else STANDARD)
    await play_out(session)
    return path.read_bytes()


def pending_kinds(record) -> list[tuple[str, bool]]:
    """Per move boundary k (k moves kept): the kind of decision pending, and whether it
    is the player's (a human seat's) or not."""
    game = record.header.new_game()
    human = {i for i, s in enumerate(record.header.seats) if s.kind == "human"}
    out = []
    for move in record.moves:
        p = game.pending
        out.append((p.kind, p.seat in human))
        game.apply(move)
    return out


@pytest.fixture
def no_disk_flush(monkeypatch):
    """Records written without forcing them to disk: a few hundred games' worth of moves
    are written here, and each fsync waits for the disk (tens of seconds on a busy CI
    machine). What is under test is what a record holds and how it is read back, which
    the flush does not change (tests/engine/test_records.py covers the writer)."""
    import os

    monkeypatch.setattr(os, "fsync", lambda fd: None)


@pytest.mark.parametrize(("seed", "two_colours"), GAMES)
async def test_a_solo_record_cut_anywhere_resumes_and_ends_as_the_uncut_game(
        tmp_path, no_disk_flush, seed, two_colours):
    whole = await uncut_game(tmp_path / "uncut.tgrec", seed, two_colours)
    record = read_record(tmp_path / "uncut.tgrec")
    ends = entry_ends(whole)
    kinds = pending_kinds(record)
    n = len(record.moves)
    assert len(ends) == n + 1
    covered: dict[str, set] = {"clean": set(), "torn": set()}
    for k in range(n):  # (k = n: the game is over; resuming it is refused, below)
        kind, ours = kinds[k]
        after_move = kind == D.REVEAL and kinds[k - 1][0] != D.REVEAL
        if k % STRIDE and (kind, ours) in covered["clean"] and not (after_move and k % 2):
            continue
        cuts = [("clean", ends[k])]
        if k % 2 or (kind, ours) not in covered["torn"]:  # inside entry k: a crash while
            size = ends[k + 1] - ends[k]  # writing it (somewhere past its first byte)
            cuts.append(("torn", ends[k] + 1 + (k * 7) % (size - 1)))
        for how, at in cuts:
            path = tmp_path / f"solo-cut-{k}-{how}.tgrec"
            path.write_bytes(whole[:at])
            session = SoloSession.resume(path, pace=0, hint_kind="random")
            assert len(session.game.moves) == k
            await play_out(session)
            assert session.game.digest() == record.digests[-1], (k, how, kind)
            # the same game to its end, and the record continued where it was cut (a torn
            # entry cut off first): byte for byte the uncut game's record
            assert path.read_bytes() == whole, (k, how, kind)
            covered[how].add((kind, ours))
            path.unlink()
    # every kind of decision pending, the player's and the bots' (chance is nobody's)
    assert {kind for kind, _ours in covered["clean"]} == set(D.KINDS)
    assert covered["clean"] == covered["torn"] == set(kinds)
    assert {ours for _kind, ours in kinds} == {True, False}

    over = tmp_path / "solo-over.tgrec"
    over.write_bytes(whole)
    with pytest.raises(RecordError, match="that game is over"):
        SoloSession.resume(over, pace=0)

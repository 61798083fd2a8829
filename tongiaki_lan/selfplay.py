"""Bot-only games, shared by `selfplay`, `bench engine` and the tests.

Seeds are derived, never drawn: game i of a run with base seed S always has the same
stack and the same bot seeds, so any reported game can be reproduced on its own.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import COLOURS, TILES, Dealer, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo


def game_seed(base: int | str, index: int, domain: str = "selfplay") -> bytes:
    """Seed of game `index` of a run; `domain` keeps selfplay and tournament runs with the
    same base seed from playing the same stacks."""
    return hashlib.blake2b(f"tongiaki-{domain}/{base}/{index}".encode(), digest_size=32).digest()


def bot_seed(seed: bytes, seat: int) -> int:
    return int.from_bytes(hashlib.blake2b(seed + bytes([seat]), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class GameResult:
    seed: bytes
    digest: bytes
    scores: dict[str, int]
    winners: list[str]  # colours; under a variant a player's colours joined: "blue+green"
    turns: int
    moves: int
    end_reason: str
    record: str | None
    removed: tuple[tuple[str, str], ...] = ()  # islands removed (X2b), with the clause
    endless: int = 0  # X2d endings (a chain with no option left in a repeated position)
    variant: str = V.STANDARD
    players: tuple[dict, ...] = ()  # under a variant: each player's colours and score (V1)

    def to_json(self) -> dict:
        return {
            "seed": self.seed.hex(),
            "digest": self.digest.hex(),
            "scores": self.scores,
            "winners": self.winners,
            "turns": self.turns,
            "moves": self.moves,
            "end": self.end_reason,
            "removed": [{"island": name, "clause": clause} for name, clause in self.removed],
            "endless": self.endless,
            **({"record": self.record} if self.record else {}),
            **({"variant": self.variant, "players": list(self.players)}
               if self.variant != V.STANDARD else {}),
        }


def play_game(
    seed: bytes,
    players: int,
    bots: list[str],
    record_dir: Path | None = None,
    bot_options: dict | None = None,
    variant: str = V.STANDARD,
) -> GameResult:
    """`players` players; under two colours each (V1) they hold four seats, a player's bot
    kind playing both their colours."""
    n_seats = V.TWO_COLOURS_SEATS if variant == V.TWO_COLOURS else players
    if variant == V.TWO_COLOURS and players != 2:
        raise ValueError("two colours each is a variant for 2 players")
    colours = COLOURS[:n_seats]
    game = V.with_variant(Game(colours, undo=False), variant)
    owner = V.owners(game)
    kinds = [bots[owner[s] % len(bots)] for s in range(n_seats)]
    seats = [make_bot(kinds[s], seed=bot_seed(seed, s), **(bot_options or {}))
             for s in range(n_seats)]
    dealer = Dealer(seed)
    writer = None
    if record_dir is not None:
        header = RecordHeader(
            seed, tuple(SeatInfo(f"{kinds[s]}-{owner[s]}", colours[s], kinds[s])
                        for s in range(n_seats)),
            variant=variant,
        )
        writer = RecordWriter.create(Path(record_dir) / f"{seed.hex()[:16]}.tgrec", header)
    try:
        record = None if writer is None else (lambda m: writer.append(m, game.digest()))
        while not game.is_over:
            dealer.apply(game, seats[game.pending_seat].choose(game), record)
    finally:
        if writer is not None:
            writer.close()
    removed, endless = removals(game.events)
    return GameResult(
        seed, game.digest(), game.scores(),
        game.winners() if variant == V.STANDARD else V.winner_labels(game),
        game.turn, len(game.moves),
        game.end_reason, str(writer.path) if writer else None, removed, endless,
        variant, tuple(V.players_json(game)) if variant != V.STANDARD else (),
    )


def removals(events) -> tuple[tuple[tuple[str, str], ...], int]:
    """Islands X2b removed (name, clause) and X2d endings, from a game's events."""
    found = [e.kind for e in events if e.kind == "removed" or e.kind == "endless"]
    removed = tuple((TILES[e.data[0]].name, "X2b") for e in events if e.kind == "removed") \
        if "removed" in found else ()
    return removed, found.count("endless")

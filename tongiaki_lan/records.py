"""Game records on disk: a header and then one entry per move, appended as it happens.

The format (protocol/record.md) is a plain msgpack stream, so a record whose
writer died mid-entry is still readable up to its last complete move: each entry is
flushed and fsynced before the move counts as played, and nothing is ever rewritten.
This module is the only place that does file I/O for records; the engine stays pure.
"""

from __future__ import annotations

import dataclasses
import os
import re
import threading
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import msgpack

from tongiaki_lan.draws import MAX_CONTRIBUTORS, DrawBook
from tongiaki_lan.engine import COLOURS, RULES_VERSION, Dealer, Game, Move, Reveal, move_from_wire
from tongiaki_lan.engine.variant import STANDARD, VARIANTS, owners_for, with_variant
from tongiaki_lan.files import create_binary, open_binary_rw
from tongiaki_lan.takeback import pop_back

MAGIC = "tongiaki-lan record"
FORMAT_VERSION = 1
MAX_RECORD_BYTES = 16 * 1024 * 1024
MAX_NAME = 64  # a player's name in a seat-change entry (the wire allows 24)
SUFFIX = ".tgrec"  # every record this program writes; any path is read


def default_record_dir() -> Path:
    """Where games are recorded unless told otherwise: one per-user place for solo, console
    LAN and headless games alike, the platform's data directory (places.py,
    docs/files.md)."""
    from tongiaki_lan.places import places

    return places().records


def solo_record_path(directory: Path, seed: bytes) -> Path:
    """A new solo game's record: the local time it started and the start of its seed."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return directory / f"solo-{stamp}-{seed.hex()[:8]}{SUFFIX}"


def newest_records(directory: Path, prefix: str = "") -> list[Path]:
    """The records in `directory` whose names start with `prefix`, the one written to last
    first; none where the directory cannot be read."""
    try:
        files = [p for p in directory.glob(f"{prefix}*{SUFFIX}") if p.is_file()]
        files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return []
    return files


def iter_unfinished_solo_records(directory: Path, newest: int = 20):
    """(path, moves played) of each solo game in `directory` left before its end, newest
    first, among its `newest` latest solo records, replayed one at a time as asked for
    (a caller wanting the latest stops there); damaged or unreadable ones are left out
    (`solo --resume FILE` says what is wrong with one)."""
    for path in newest_records(directory, "solo-")[:newest]:
        try:
            record = read_record(path)
            if record.moves and not replay_record(record).is_over:
                yield path, len(record.moves)
        except (OSError, ValueError):
            continue


def unfinished_solo_records(directory: Path, newest: int = 20) -> list[tuple[Path, int]]:
    """Every one of `iter_unfinished_solo_records`."""
    return list(iter_unfinished_solo_records(directory, newest))


def record_file_name(*parts: str) -> str:
    """A file name from free text (game and player names): safe on every file system."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", "-".join(parts)) + SUFFIX


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names where and why."""


def _plain_word(value: object) -> str:
    """An optional header word as read: a short text of letters, else "" (absent, or
    damaged: bytes, a number, a long run of anything). Never a reason to refuse the
    record: it only chooses a language."""
    if isinstance(value, str) and 0 < len(value) <= 16 and value.replace("_", "").isalpha():
        return value
    return ""


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    colour: str
    kind: str = "human"  # "human" or a bot kind such as "random"


@dataclass(frozen=True, slots=True)
class RecordHeader:
    seed: bytes
    seats: tuple[SeatInfo, ...]
    rules_version: int = RULES_VERSION
    format_version: int = FORMAT_VERSION
    created: str = ""
    game_name: str = ""
    # fair draws (protocol/draws.md): every contributor's chain commitment, in order; empty
    # when the seed's stack dealt the tiles
    commitments: tuple[bytes, ...] = ()
    # the table variant (engine/variant.py): "standard" or "two-colours" (V1)
    variant: str = STANDARD
    # this laptop watched the game (protocol/watching.md); it may have taken a seat later
    watched: bool = False
    # a solo game: the console's language when it started (`solo --resume` speaks it
    # again); "" when not said (older records, LAN games) or not a plain short text
    lang: str = ""

    @property
    def colours(self) -> tuple[str, ...]:
        return tuple(s.colour for s in self.seats)

    def to_wire(self) -> dict:
        return {
            "magic": MAGIC,
            "format": self.format_version,
            "rules": self.rules_version,
            "seed": self.seed,
            "seats": [[s.name, s.colour, s.kind] for s in self.seats],
            "created": self.created,
            "game": self.game_name,
            **({"draws": list(self.commitments)} if self.commitments else {}),
            **({"variant": self.variant} if self.variant != STANDARD else {}),
            **({"watched": True} if self.watched else {}),
            **({"lang": self.lang} if self.lang else {}),
        }

    @classmethod
    def from_wire(cls, obj: object) -> RecordHeader:
        if not isinstance(obj, dict) or obj.get("magic") != MAGIC:
            raise RecordError("not a tongiaki-lan record (header missing)")
        if obj.get("rules") != RULES_VERSION:
            raise RecordError(
                f"this record was played under rules version {obj.get('rules')!r}; this "
                f"tongiaki-lan plays rules version {RULES_VERSION} only, so the record "
                "cannot be replayed here: the version of tongiaki-lan that played it can")
        if obj.get("format") != FORMAT_VERSION:
            raise RecordError(f"record format {obj.get('format')!r} is not supported")
        seed = obj.get("seed")
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise RecordError("header: seed must be 32 bytes")
        seats_raw = obj.get("seats")
        if not isinstance(seats_raw, list) or not 2 <= len(seats_raw) <= 6:
            raise RecordError("header: 2 to 6 seats expected")
        seats = []
        for s in seats_raw:
            ok = isinstance(s, list) and len(s) == 3 and all(isinstance(x, str) for x in s)
            if not ok or s[1] not in COLOURS:
                raise RecordError(f"header: bad seat {s!r}")
            seats.append(SeatInfo(s[0], s[1], s[2]))
        created = obj.get("created", "")
        game = obj.get("game", "")
        commitments = obj.get("draws", [])
        if not isinstance(commitments, list) or len(commitments) > 6 or not all(
                isinstance(c, bytes) and len(c) == 32 for c in commitments):
            raise RecordError("header: draws must list up to 6 commitments of 32 bytes")
        variant = obj.get("variant", STANDARD)
        if variant not in VARIANTS:
            raise RecordError(f"header: unknown variant {variant!r} (this tongiaki-lan knows "
                              f"{', '.join(VARIANTS)})")
        try:
            owners_for(variant, len(seats))
        except ValueError as exc:
            raise RecordError(f"header: {exc}") from None
        return cls(
            seed, tuple(seats), obj["rules"], obj["format"],
            created if isinstance(created, str) else "",
            game if isinstance(game, str) else "",
            tuple(commitments), variant, obj.get("watched") is True,
            _plain_word(obj.get("lang")),
        )

    def new_game(self) -> Game:
        return with_variant(Game(self.colours), self.variant)

    def dealer(self) -> Dealer:
        """The local dealer of this game's seed (protocol/shuffle.md)."""
        return Dealer(self.seed)


@dataclass(frozen=True, slots=True)
class Undo:
    """An undo in a solo game's record (protocol/record.md, Taking moves back): the moves
    from `back_to` on were taken back; the game went on from its first `back_to`."""

    back_to: int
    digest: bytes  # the state digest after the first `back_to` moves
    moves: tuple[Move, ...]  # the moves it took back, oldest first (checked by `verify`)
    # how many moves of the game as it ends stand before it: where `replay` tells it
    # (`back_to`, or less when a later undo went further back)
    at: int = 0


@dataclass
class Record:
    """A record as read: `moves`, `digests` and `proofs` are the game's moves that stand,
    the ones no undo took back (every record without undos: all of them); `played`
    keeps the file's entries in order, the moves taken back and the undos included."""

    header: RecordHeader
    moves: list[Move] = field(default_factory=list)
    digests: list[bytes] = field(default_factory=list)
    truncated: bool = False  # a partial last entry was dropped (writer died mid-write)
    # per entry: the contributors' values of a fair draw, [(contributor, value)], or None
    proofs: list[list[tuple[int, bytes]] | None] = field(default_factory=list)
    # (move index, every seat's player from that move on): a LAN seat that changed hands
    # (a newcomer in a bot's seat or in the seat of one who left for good)
    names: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    # (move index, per seat the bot that plays it for its away player, or ""): a seat
    # handed to a bot (`replace`, `--handover`) and given back
    bots: list[tuple[int, tuple[str, ...]]] = field(default_factory=list)
    # a solo game's undos, in the order they were written
    undos: list[Undo] = field(default_factory=list)
    # every entry in file order: (move, digest, proof) or an Undo
    played: list[tuple[Move, bytes, list | None] | Undo] = field(default_factory=list)

    @property
    def taken_back(self) -> int:
        """How many moves the game's undos took back in all."""
        return sum(len(u.moves) for u in self.undos)

    # (move index, name, seats, game id, the PROOF as it travelled): a member the LAN
    # table expelled on a proof of misbehaviour (protocol/record.md, `expelled`)
    expulsions: list[tuple[int, str, tuple[int, ...], bytes, bytes]] = field(
        default_factory=list)

    def seat_names(self, upto: int | None = None) -> tuple[str, ...]:
        """Who played each seat after the first `upto` moves (default: at the end): the
        header's names, as changed by the entries that say so."""
        return _as_of(self.names, tuple(s.name for s in self.header.seats), upto)

    def seat_bots(self, upto: int | None = None) -> tuple[str, ...]:
        """Per seat, the bot that played it for its away player after the first `upto`
        moves ("": the player did)."""
        return _as_of(self.bots, ("",) * len(self.header.seats), upto)


def _as_of(changes: list[tuple[int, tuple[str, ...]]], start: tuple[str, ...],
           upto: int | None) -> tuple[str, ...]:
    out = start
    for index, changed in changes:
        if upto is not None and index >= upto:
            break
        out = changed
    return out


def encode_entry(index: int, move: Move, digest: bytes,
                 proof: list[tuple[int, bytes]] | None = None,
                 names: tuple[str, ...] | None = None,
                 bots: tuple[str, ...] | None = None,
                 expelled: list | None = None) -> bytes:
    """`expelled` (with `names` and `bots`): `[[name, [seat, ...], game id, proof], ...]`,
    members the table expelled since the entry before (protocol/record.md)."""
    entry = [index, move.to_wire(), digest]
    values = None if proof is None else [list(pair) for pair in proof]
    if expelled:
        entry += [values, list(names), list(bots), [list(x) for x in expelled]]
    elif bots is not None:  # and which seats a bot plays for an away player
        entry += [values, list(names), list(bots)]
    elif names is not None:  # every seat's player from this move on (protocol/record.md)
        entry += [values, list(names)]
    elif values is not None:
        entry.append(values)
    return msgpack.packb(entry, use_bin_type=True)


def encode_undo(back_to: int, digest: bytes) -> bytes:
    """An undo entry: the moves from `back_to` on are taken back (protocol/record.md)."""
    return msgpack.packb({"back_to": back_to, "digest": digest}, use_bin_type=True)


class RecordWriter:
    """Appends moves to a record file, one entry per call.

    Every entry is handed to the operating system before `append` returns, so killing
    the process loses nothing. With `fsync=True` (the default) it is also forced to
    disk, which survives a power cut. A caller that cannot afford a disk flush on its
    hot path — the network node's event loop — passes `fsync=False` and calls `sync()`
    from a worker thread; the lock makes that safe.
    """

    def __init__(self, path: Path, fh, next_index: int, fsync: bool = True):
        self.path = path
        self._fh = fh
        self.next_index = next_index
        self._fsync = fsync
        self._lock = threading.Lock()

    @classmethod
    def create(cls, path: str | os.PathLike, header: RecordHeader,
               fsync: bool = True) -> RecordWriter:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fh = create_binary(path)  # never clobber an existing record (read back by `rewind`)
        writer = cls(path, fh, 0, fsync)
        writer._write(msgpack.packb(header.to_wire(), use_bin_type=True))
        return writer

    @classmethod
    def open_append(cls, path: str | os.PathLike, fsync: bool = True) -> RecordWriter:
        """Continue a record (after a crash): a torn last entry is cut off first."""
        path = Path(path)
        record, good_bytes = _read(path)
        fh = open_binary_rw(path)
        fh.truncate(good_bytes)
        fh.seek(good_bytes)
        return cls(path, fh, len(record.moves), fsync)

    def append(self, move: Move, digest: bytes,
               proof: list[tuple[int, bytes]] | None = None,
               names: tuple[str, ...] | None = None,
               bots: tuple[str, ...] | None = None,
               expelled: list | None = None) -> None:
        """`names`: every seat's player from this move on, when a seat changed hands;
        `bots` (with `names`): per seat, the bot that plays it for its away player, or "";
        `expelled` (with both): members expelled on a proof since the last entry."""
        self._write(encode_entry(self.next_index, move, digest, proof, names, bots, expelled))
        self.next_index += 1

    def undo(self, back_to: int, digest: bytes) -> None:
        """A solo player's undo: the moves from `back_to` on are taken back, and the next
        move is numbered `back_to`. Appended like a move, so the record keeps the moves
        taken back (`verify` checks them); `digest` is the state's after `back_to` moves."""
        self._write(encode_undo(back_to, digest))
        self.next_index = back_to

    def rewind(self, keep: int) -> None:
        """Cut the record to its first `keep` moves: the only time a record shrinks, when
        a node that was cut off finds the table went on without moves it had played
        (protocol/draws.md, A node that stops revealing). (A LAN game's record: it has
        no undo entries, which would count as entries here.)"""
        with self._lock:
            self._fh.flush()
            self._fh.seek(0)
            unpacker = msgpack.Unpacker(raw=False, strict_map_key=False,
                                        max_buffer_size=MAX_RECORD_BYTES)
            unpacker.feed(self._fh.read())
            for _ in range(keep + 1):  # the header, then `keep` entries
                unpacker.unpack()
            end = unpacker.tell()
            self._fh.truncate(end)
            self._fh.seek(end)
            self.next_index = keep
        if self._fsync:
            self.sync()

    def _write(self, data: bytes) -> None:
        with self._lock:
            self._fh.write(data)
            self._fh.flush()
        if self._fsync:
            self.sync()

    def sync(self) -> None:
        """Force what was written to disk (safe from another thread)."""
        with self._lock:
            if self._fh.closed:
                return
            fd = self._fh.fileno()
        os.fsync(fd)  # outside the lock: writers are not held up by the disk

    def close(self) -> None:
        self.sync()
        with self._lock:
            if not self._fh.closed:
                self._fh.close()

    def __enter__(self) -> RecordWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _read(path: Path) -> tuple[Record, int]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{path} is larger than any real record")
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data)
    try:
        header = RecordHeader.from_wire(unpacker.unpack())
    except msgpack.OutOfData:
        raise RecordError("record is empty or its header is incomplete") from None
    except (ValueError, TypeError, msgpack.UnpackException) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"record header is not valid msgpack: {exc}") from None
    record = Record(header)
    good = unpacker.tell()
    while True:
        try:
            entry = unpacker.unpack()
        except msgpack.OutOfData:
            record.truncated = good < len(data)
            break
        except (ValueError, TypeError, msgpack.UnpackException) as exc:
            raise RecordError(f"move {len(record.moves)}: not valid msgpack ({exc})") from None
        i = len(record.moves)
        if isinstance(entry, dict):  # an undo (protocol/record.md, Taking moves back)
            _read_undo(record, entry)
            good = unpacker.tell()
            continue
        if not isinstance(entry, list) or len(entry) not in (3, 4, 5, 6, 7):
            raise RecordError(f"move {i}: an entry is [index, move, digest], got {entry!r:.60}")
        if len(entry) == 7:
            for x in entry[6] if isinstance(entry[6], list) else [None]:
                if not (isinstance(x, list) and len(x) == 4 and isinstance(x[0], str)
                        and isinstance(x[1], list) and all(isinstance(j, int) for j in x[1])
                        and isinstance(x[2], bytes) and len(x[2]) == 8
                        and isinstance(x[3], bytes) and len(x[3]) <= 2048):
                    raise RecordError(f"move {i}: an expulsion is [name, [seats], game id, "
                                      "proof]")
                record.expulsions.append((i, x[0], tuple(x[1]), x[2], x[3]))
        proof = None
        if len(entry) >= 5:
            names = entry[4]
            if not (isinstance(names, list) and len(names) == len(header.seats) and all(
                    isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names)):
                raise RecordError(f"move {i}: the players' names are one short string a seat")
            record.names.append((i, tuple(names)))
        if len(entry) >= 6:
            bots = entry[5]
            if not (isinstance(bots, list) and len(bots) == len(header.seats) and all(
                    isinstance(b, str) and len(b) <= MAX_NAME for b in bots)):
                raise RecordError(f"move {i}: the seats' bots are one short string a seat")
            record.bots.append((i, tuple(bots)))
        if len(entry) >= 4 and entry[3] is not None:
            raw = entry[3]
            ok = isinstance(raw, list) and len(raw) <= MAX_CONTRIBUTORS and all(
                isinstance(x, list) and len(x) in (2, 3) and isinstance(x[0], int)
                and all(isinstance(b, bytes) and len(b) == 32 for b in x[1:]) for x in raw)
            if not ok:
                raise RecordError(f"move {i}: a draw's values are [[contributor, 32 bytes]]"
                                  " (and a chain's head beside its first value)")
            proof = [tuple(x) for x in raw]
        if entry[0] != i:
            raise RecordError(f"move {i}: entry is numbered {entry[0]!r}, expected {i}")
        try:
            move = move_from_wire(entry[1])
        except ValueError as exc:
            raise RecordError(f"move {i}: {exc}") from None
        if not isinstance(entry[2], bytes) or len(entry[2]) != 32:
            raise RecordError(f"move {i}: digest must be 32 bytes")
        record.moves.append(move)
        record.digests.append(entry[2])
        record.proofs.append(proof)
        record.played.append((move, entry[2], proof))
        good = unpacker.tell()
    at = None  # where each undo stands in the game as it ends (a later one may go further)
    for k in range(len(record.undos) - 1, -1, -1):
        undo = record.undos[k]
        at = undo.back_to if at is None else min(at, undo.back_to)
        record.undos[k] = dataclasses.replace(undo, at=at)
    if record.undos:
        undos = iter(record.undos)
        record.played = [next(undos) if isinstance(x, Undo) else x for x in record.played]
    return record, good


def _read_undo(record: Record, entry: dict) -> None:
    """An undo entry, read: the moves it takes back leave the game that stands (they stay
    in `played`). Refused where our program never writes one, and when it would take
    back a tile reveal."""
    n = len(record.moves)
    back_to, digest = entry.get("back_to"), entry.get("digest")
    where = f"the undo after move {n - 1}" if n else "an undo before any move"
    if not isinstance(back_to, int) or isinstance(back_to, bool) or not (
            isinstance(digest, bytes) and len(digest) == 32):
        raise RecordError(f"{where}: an undo is {{back_to: N, digest: 32 bytes}}, got "
                          f"{entry!r:.60}")
    where = f"{where} (back to move {back_to})"
    header = record.header
    if header.game_name != "solo" or header.commitments:
        raise RecordError(f"{where}: only a solo game takes moves back; at a LAN table "
                          "every laptop has played them")
    if not 0 <= back_to < n:
        raise RecordError(f"{where}: the game has {n} moves, so it takes back nothing")
    taken = record.moves[back_to:]
    revealed = next((m for m in taken if isinstance(m, Reveal)), None)
    if revealed is not None:
        raise RecordError(f"{where}: it would take back a tile reveal ({revealed}); what "
                          "was revealed stays revealed")
    record.undos.append(Undo(back_to, digest, tuple(taken)))
    record.played.append(record.undos[-1])
    del record.moves[back_to:], record.digests[back_to:], record.proofs[back_to:]
    record.names[:] = [(i, x) for i, x in record.names if i < back_to]
    record.bots[:] = [(i, x) for i, x in record.bots if i < back_to]


def read_record(path: str | os.PathLike) -> Record:
    """Read a record without replaying it (see `replay_record` for checking)."""
    return _read(Path(path))[0]


def _take_late_chains(book: DrawBook, draw: int, proof: list) -> str | None:
    """A chain taken mid-game (protocol/draws.md, "Taking part again") comes with its
    head beside its first value: it is the next contributor, from this draw on."""
    for x in proof:
        if len(x) == 3:
            if x[0] != len(book.commitments):
                return (f"a chain taken mid-game must be contributor {len(book.commitments)},"
                        f" not {x[0]}")
            if x[2] in book.commitments:
                return "a chain taken mid-game repeats a chain head"
            book.add(x[2], draw)
    return None


@dataclass(frozen=True, slots=True)
class UndoNote:
    """An undo as a replay tells it: where it stands in the game as it ends, and the
    moves it took back with the seat that decided each (the first: the player's)."""

    at: int
    back_to: int
    moves: tuple[tuple[int | None, Move], ...]


def replay_record(record: Record, upto: int | None = None) -> Game:
    """Replay every move (or the first `upto` of the game as it ends), checking legality,
    each reveal against the seed's stack, and the digest after each one; a solo game's
    undos are replayed where they were written, so the moves they took back are checked
    too (`upto`: the moves that stand only)."""
    return replay_with_undos(record, upto)[0]


def replay_with_undos(record: Record, upto: int | None = None
                      ) -> tuple[Game, list[UndoNote]]:
    """`replay_record`, and what each undo took back, with who made each move."""
    game = record.header.new_game()
    state = _Checks(record)
    notes: list[UndoNote] = []
    if upto is not None or not record.undos:
        proofs = [*record.proofs, *[None] * (len(record.moves) - len(record.proofs))]
        items = list(zip(record.moves, record.digests, proofs, strict=False))[:upto]
        if len(record.moves) != len(record.digests):  # (a record put together by hand)
            raise RecordError("a move without its digest")
    else:
        items = record.played
    i = 0  # the index of the next move (numbered as the record numbers its entries)
    for item in items:
        if isinstance(item, Undo):
            notes.append(_replay_undo(record, game, item))
            i = item.back_to
            continue
        move, digest, proof = item
        state.apply(game, i, move, digest, proof)
        i += 1
    return game, notes


def _replay_undo(record: Record, game: Game, undo: Undo) -> UndoNote:
    where = f"the undo back to move {undo.back_to}"
    taken = pop_back(game, undo.back_to)
    seat = taken[0][0]
    if seat is None or record.header.seats[seat].kind != "human":
        raise RecordError(f"{where}: its first move taken back ({taken[0][1]}) is not a "
                          "player's decision: an undo takes back the player's own decision "
                          "and the bots' after it")
    if game.digest() != undo.digest:
        ours, theirs = _differing(game.digest().hex(), undo.digest.hex())
        raise RecordError(f"{where}: the state digest differs from the record's (record "
                          f"{theirs}, replay {ours})")
    return UndoNote(undo.at, undo.back_to, tuple(taken))


class _Checks:
    """What every move of a record is checked against: the rules, the draws (the
    contributors' chains, or the seed's stack) and the digest written after it."""

    def __init__(self, record: Record):
        self.dealer = record.header.dealer()
        self.book = DrawBook(record.header.seed, record.header.commitments)

    def apply(self, game: Game, i: int, move: Move, digest: bytes, proof) -> None:
        book = self.book
        if book.commitments and game.awaiting_reveal:  # a fair draw: check its values
            if proof is None or not isinstance(move, Reveal):
                raise RecordError(f"move {i} ({move}): a draw without its contributors' values")
            wrong = _take_late_chains(book, game.draws(), proof)
            wrong = wrong or book.check(game.draws(), [(x[0], x[1]) for x in proof],
                                        game.unrevealed_tiles(), move.tile)
        else:
            wrong = self.dealer.check(game, move)
        if wrong is not None:
            raise RecordError(f"move {i} ({move}): {wrong}")
        try:
            game.apply(move)
        except ValueError as exc:
            raise RecordError(f"move {i} ({move}): refused by the rules: {exc}") from None
        if game.digest() != digest:
            ours, theirs = _differing(game.digest().hex(), digest.hex())
            raise RecordError(f"move {i} ({move}): state digest differs from the record "
                              f"(record {theirs}, replay {ours})")


def _differing(a: str, b: str, shown: int = 16) -> tuple[str, str]:
    """Two hex digests cut where a reader sees them differ: `shown` digits, or up to four
    past the first differing one. A flipped bit past the 16th digit printed two identical
    prefixes as "differs"."""
    first = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
    keep = max(shown, first + 4)
    cut = "…" if keep < len(a) else ""
    return a[:keep] + cut, b[:keep] + cut

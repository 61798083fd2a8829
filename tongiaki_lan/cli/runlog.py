"""A tournament's games as they end, one JSON line each, so a long run survives its stop.

A 200-game head to head at 1 s a decision takes hours on a laptop; a run that reported
only at its end lost everything to a closed lid, a Ctrl-C or the end of a session. With
`--log FILE` every finished game is appended and flushed to disk at once, and the same
command run again plays only the games the file lacks, then reports on all of them.

The file's first line says which run it belongs to (seats, seed and budgets); a file of
another run is refused rather than mixed in, since its games would not be the ones the
seed names. A last line cut short by a crash is dropped (that game is played again);
damage anywhere else is reported with its line number and the file is left as it is.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, fields
from pathlib import Path

from tongiaki_lan.cli.tournament import GameOutcome

FORMAT = "tongiaki-lan tournament log 1"


class LogError(Exception):
    """The log cannot be used for this run; the message says why and what to do."""


class RunLog:
    """Append-only log of one run's finished games (game number → outcome)."""

    def __init__(self, path: Path, run: dict) -> None:
        self.path = Path(path)
        self.run = {"format": FORMAT, **run}
        self.games: dict[int, GameOutcome] = {}
        self.dropped_tail = False

    def open(self) -> None:
        """Read what an earlier run of the same command left; a missing or empty file
        (or one whose header line never reached the disk) starts with the run's header."""
        data = self.path.read_bytes() if self.path.exists() else b""
        whole = data[: data.rfind(b"\n") + 1]  # a last line without its newline was cut short
        if not whole.strip():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._write("wb", self.run)
            return
        self._read(whole.split(b"\n")[:-1])
        if len(whole) < len(data):  # keep what came before the cut
            with open(self.path, "r+b") as f:
                f.truncate(len(whole))
            self.dropped_tail = True

    def _read(self, lines: list[bytes]) -> None:
        names = {f.name for f in fields(GameOutcome)}
        for number, raw in enumerate(lines, start=1):
            try:
                item = json.loads(raw.decode("utf-8"))
                if not isinstance(item, dict):
                    raise ValueError("not an object")
            except (UnicodeDecodeError, ValueError) as exc:
                raise LogError(f"{self.path}: line {number} is not a line of a tournament "
                               f"log ({exc}); move the file away or give another --log"
                               ) from None
            if number == 1:
                if item != self.run:
                    raise LogError(f"{self.path} holds the games of another run "
                                   f"({_describe(item)}); give this run another --log, "
                                   "or the first run's --seats, --seed and budgets")
            elif set(item) != names:
                raise LogError(f"{self.path}: line {number} is not a game of this "
                               "run; move the file away or give another --log")
            else:
                out = GameOutcome(**item)
                self.games.setdefault(out.index, out)

    def append(self, out: GameOutcome) -> None:
        """One finished game, on disk before the next one is reported."""
        self._write("ab", asdict(out))
        self.games[out.index] = out

    def _write(self, mode: str, item: dict) -> None:
        with open(self.path, mode) as f:
            f.write((json.dumps(item, separators=(",", ":")) + "\n").encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())


def _describe(header: object) -> str:
    """The options that made the file, as they would be typed."""
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        return "its first line is not a tournament log's"
    words = [f"--seats {','.join(map(str, header.get('seats') or []))}",
             f"--seed {header.get('seed')}"]
    if header.get("think") is not None:
        words.append(f"--think {header['think']}")
    if header.get("iterations") is not None:
        words.append(f"--iterations {header['iterations']}")
    if header.get("fixed"):
        words.append("--fixed")
    return " ".join(words)

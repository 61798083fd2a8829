"""What every command-line option accepts, checked once, where the command line is read.

A value an option cannot use is refused by argparse before the command starts: one line
(`tongiaki-lan solo: argument --think: '0' is not ...`) and exit status 2. Before these
types, `solo --think 0` died in a bot's constructor with a traceback, `bench engine
--games 0` divided by zero, `tournament --jobs -1` sat silent, and `solo --think nan`
thought for ever (a walk through every option with hostile values, issue 45).

Each function returns the converter argparse calls (`type=`). They refuse what is not
finite (nan, inf), out of range, empty, or not what the option names (a file that is not
there, an address this computer lacks, a bot kind that does not exist), and say in the
message what would be accepted. Upper bounds are generous but real: a value past them is
a typing slip (an hour a decision, a billion games), not a plan.
"""

from __future__ import annotations

import argparse
import ipaddress
import math
from collections.abc import Callable
from pathlib import Path

from tongiaki_lan.bots.entries import ITERATIONS_MAX, THINK_MAX  # noqa: F401 - (T.THINK_MAX)

# the bounds the options share (seconds unless said); a searching bot's THINK_MAX seconds
# or ITERATIONS_MAX iterations a decision come from bots/entries.py, as `search@0.3s` does
GAMES_MAX = 1_000_000  # games of a selfplay, bench, tournament or ladder
JOBS_MAX = 64  # worker processes of a tournament or ladder
PACE_MAX = 60.0  # between two bot moves on a console
WAIT_MAX = 3600.0  # looking for a game, listening on the LAN
TIMEOUT_MAX = 7 * 86400.0  # a headless node's whole run
LINGER_MAX = 86400.0
MOVES_MAX = 1_000_000
NAME_MAX = 16  # a player's name: what a seat shows (profile.MAX_NAME)
GAME_NAME_MAX = 24  # a game's name: what its lobby message carries (codec.MAX_NAME)


def _fail(text: str, what: str) -> argparse.ArgumentTypeError:
    return argparse.ArgumentTypeError(f"{text!r} is not {what}")


def _named(convert: Callable, name: str) -> Callable:
    convert.__name__ = name  # (argparse names the converter in some of its messages)
    return convert


def whole(lo: int, hi: int, what: str = "a whole number") -> Callable[[str], int]:
    """A whole number from `lo` to `hi`."""
    allowed = f"{what} from {lo} to {hi}"

    def convert(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise _fail(text, allowed) from None
        if not lo <= value <= hi:
            raise _fail(text, allowed)
        return value

    return _named(convert, "whole number")


def number(lo: float, hi: float, *, above: bool = False,
           what: str = "a number of seconds") -> Callable[[str], float]:
    """A finite number from `lo` (or above it, with `above`) to `hi`: never nan or inf,
    which compare false with everything and so slipped through every range check."""
    top = f"{hi:g}"
    if "seconds" in what and hi >= 3600:  # (604800 said as 7 days)
        top += f" ({hi / 86400:g} days)" if hi >= 86400 * 2 else f" ({hi / 3600:g} h)"
    allowed = (f"{what} above {lo:g} and at most {top}" if above
               else f"{what} from {lo:g} to {top}")

    def convert(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise _fail(text, allowed) from None
        if not math.isfinite(value) or value > hi or value < lo or above and value == lo:
            raise _fail(text, allowed)
        return value

    return _named(convert, "number")


def seconds(hi: float, *, zero: bool = False) -> Callable[[str], float]:
    """A time in seconds: above 0 (or from 0, with `zero`) up to `hi`."""
    return number(0.0, hi, above=not zero)


def text(what: str, longest: int | None = None, *, wire: bool = False) -> Callable[[str], str]:
    """Any text but an empty one (or one of spaces only), on one line, at most `longest`
    characters; returned without surrounding spaces. `wire`: a name the other laptops
    read, which must also fit the wire's bytes (profile.fits_the_wire: fewer emoji)."""
    from tongiaki_lan.profile import fits_the_wire

    def convert(value: str) -> str:
        clean = value.strip()
        if not clean or any(ord(c) < 32 or ord(c) == 127 for c in clean):
            raise _fail(value, what)
        if longest is not None and (len(clean) > longest
                                    or wire and not fits_the_wire(clean, longest)):
            fewer = ", fewer with emoji" if wire and len(clean) <= longest else ""
            raise argparse.ArgumentTypeError(
                f"{value!r} is too long for {what} (at most {longest} characters{fewer})")
        return clean

    return _named(convert, "text")


def player_name() -> Callable[[str], str]:
    return text("a player's name", NAME_MAX, wire=True)


def game_name() -> Callable[[str], str]:
    return text("a game's name", GAME_NAME_MAX, wire=True)


def choice(options: Callable[[], list[str]] | list[str] | tuple[str, ...],
           what: str, *, empty: bool = False) -> Callable[[str], str]:
    """One of `options` (a function for a list known only when asked, like the bot kinds);
    with `empty`, '' too (no preference)."""

    def convert(value: str) -> str:
        known = list(options() if callable(options) else options)
        clean = value.strip()
        if empty and not clean:
            return ""
        if clean not in known:
            raise _fail(value, f"{what}: one of {', '.join(known)}")
        return clean

    return _named(convert, "choice")


def _bot_kinds() -> list[str]:
    from tongiaki_lan.bots import bot_kinds

    return bot_kinds()


def bot_kind() -> Callable[[str], str]:
    """A bot kind or level (random, greedy, search, easy, normal, hard …)."""
    return choice(_bot_kinds, "a bot kind or level")


def colour() -> Callable[[str], str]:
    """A seat colour, or '' for no preference."""
    from tongiaki_lan.engine.colours import COLOURS

    return choice(COLOURS, "a colour", empty=True)


def language() -> Callable[[str], str]:
    """A language the console speaks: a code or a locale name (it, fr_FR.UTF-8)."""
    from tongiaki_lan.i18n import LANGUAGES, normalise

    def convert(value: str) -> str:
        if normalise(value.strip()) not in LANGUAGES:
            raise _fail(value, "a language of the console: one of " + ", ".join(
                f"{c} ({n})" for c, n in LANGUAGES.items()))
        return value.strip()

    return _named(convert, "language")


def bot_list(least: int = 1, most: int = 6, *, distinct: bool = False,
             budgets: bool = True, what: str = "bots") -> Callable[[str], str]:
    """A comma list of `least` to `most` bots, each a kind or a level, with `budgets` a
    searching kind with its own budget (search@0.3s, search@800i); returned as a clean
    comma list. Each entry is tried on a bot once, so a bad one is refused here, not in a
    worker halfway through a run."""

    def convert(value: str) -> str:
        from tongiaki_lan.bots.entries import checked_entry

        specs = [s.strip() for s in value.split(",") if s.strip()]
        count = f"{least} to {most}" if least != most else f"{least}"
        if not least <= len(specs) <= most:
            raise _fail(value, f"a comma list of {count} {what}")
        if distinct and len(set(specs)) != len(specs):
            raise _fail(value, f"a comma list of {count} distinct {what}")
        for spec in specs:
            try:
                if not budgets and "@" in spec:
                    raise ValueError(f"{spec!r}: a budget after @ is for tournament and "
                                     "ladder entries")
                checked_entry(spec)
            except ValueError as exc:
                raise argparse.ArgumentTypeError(str(exc)) from None
        return ",".join(specs)

    return _named(convert, "bots")


# ------------------------------------------------------------------------------ files


def existing_file(what: str = "a file") -> Callable[[str], Path]:
    """A file that is there to be read."""

    def convert(value: str) -> Path:
        if not value.strip():
            raise _fail(value, what)
        path = Path(value)
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{value!r} is a directory, not {what}")
        if not path.is_file():
            raise argparse.ArgumentTypeError(f"{value!r}: no such file ({what})")
        return path

    return _named(convert, "file")


def record_or_number() -> Callable[[str], Path | int]:
    """A record's path, or N: the Nth game `tongiaki-lan records` lists (resolved by the
    command against its records directory, `record_by_number`). A file named like a
    number wins over the number."""
    as_file = existing_file("a game record")

    def convert(value: str) -> Path | int:
        clean = value.strip()
        if clean.isdigit() and not Path(value).is_file():
            number = int(clean)
            if number < 1:
                raise _fail(value, "a game record or a game's number in `tongiaki-lan "
                                   "records` (from 1)")
            return number
        return as_file(value)

    return _named(convert, "record")


def new_file(what: str = "a file to write", *, dash: bool = False) -> Callable[[str], str]:
    """A file to write, in a directory that exists ('-' for standard output with `dash`):
    a missing directory is a typing slip more often than a wish, and creating it put the
    file where nobody looked."""

    def convert(value: str) -> str:
        if dash and value == "-":
            return value
        if not value.strip():
            raise _fail(value, what)
        path = Path(value)
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{value!r} is a directory, not {what}")
        parent = path.parent
        if not parent.is_dir():
            raise argparse.ArgumentTypeError(
                f"{value!r}: the directory {str(parent)!r} does not exist (create it first, "
                "or choose another place)")
        return value

    return _named(convert, "file")


def file_to_write(what: str = "a file to write") -> Callable[[str], Path]:
    """A file this command creates or continues, directories made as needed (a record,
    a log): not empty, not a directory, and not inside a file."""

    def convert(value: str) -> Path:
        if not value.strip():
            raise _fail(value, what)
        path = Path(value)
        if path.is_dir():
            raise argparse.ArgumentTypeError(f"{value!r} is a directory, not {what}")
        _not_inside_a_file(value, path)
        return path

    return _named(convert, "file")


def _not_inside_a_file(value: str, path: Path) -> None:
    """Refuse a path whose nearest existing parent is a file (`record.tgrec/x.svg`): it
    could never be made, and the OS's error would come only after the work is done."""
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise argparse.ArgumentTypeError(
                    f"{value!r}: {str(parent)!r} is a file, not a directory")
            return


def directory(what: str = "a directory", *, existing: bool = False) -> Callable[[str], Path]:
    """A directory: an existing one with `existing`, else one that is there or can be made
    (not a file, not inside a file)."""

    def convert(value: str) -> Path:
        if not value.strip():
            raise _fail(value, what)
        path = Path(value)
        if path.exists() and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{value!r} is a file, not {what}")
        if existing and not path.is_dir():
            raise argparse.ArgumentTypeError(f"{value!r}: no such directory ({what})")
        _not_inside_a_file(value, path)
        return path

    return _named(convert, "directory")


# ---------------------------------------------------------------------------- network


def local_addresses() -> list[tuple[str, str]]:
    """(interface name, IPv4 address) of each of this computer's interfaces, as zeroconf
    sees them (ifaddr is the library it lists them with)."""
    try:
        import ifaddr
    except ImportError:  # pragma: no cover - zeroconf depends on it
        from zeroconf import get_all_addresses

        return [("", a) for a in get_all_addresses()]
    out = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                out.append((adapter.nice_name or adapter.name, ip.ip))
    return out


def addresses_said(rows: list[tuple[str, str]] | None = None) -> str:
    """"127.0.0.1 (lo), 192.168.1.20 (wlan0)": this computer's addresses, for a message."""
    rows = local_addresses() if rows is None else rows
    return ", ".join(f"{a} ({n})" if n else a for n, a in rows) or "none"


def _ipv4(value: str, what: str) -> str:
    try:
        return str(ipaddress.IPv4Address(value.strip()))
    except ValueError:
        raise _fail(value, what) from None


def interface_address() -> Callable[[str], str]:
    """The IPv4 address of one of this computer's network interfaces (--interface): a
    mistyped or missing one used to make `doctor` blame a firewall."""

    def convert(value: str) -> str:
        addr = _ipv4(value, "an IPv4 address of this computer")
        rows = local_addresses()
        if addr not in {a for _n, a in rows}:
            raise argparse.ArgumentTypeError(
                f"{addr} is not an address of this computer; its addresses are "
                f"{addresses_said(rows)}")
        return addr

    return _named(convert, "address")


def bind_address() -> Callable[[str], str]:
    """An IPv4 address this computer can receive on (--host): 0.0.0.0 (all of them) or one
    of its own."""

    def convert(value: str) -> str:
        import socket

        addr = _ipv4(value, "an IPv4 address (0.0.0.0: all of this computer's)")
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.bind((addr, 0))
        except OSError:
            raise argparse.ArgumentTypeError(
                f"{addr} is not an address of this computer; use 0.0.0.0 (all) or one of "
                f"{addresses_said()}") from None
        return addr

    return _named(convert, "address")


def port() -> Callable[[str], int]:
    return whole(0, 65535, "a UDP port (0: any free one)")


def invite() -> Callable[[str], str]:
    """An invite as a node prints it: tongiaki://HOST:PORT/GAMEID/PEER."""

    def convert(value: str) -> str:
        from tongiaki_lan.net.protocol.invite import GameRef

        try:
            ref = GameRef.parse(value)
            ipaddress.IPv4Address(ref.host)
        except ValueError:
            raise _fail(value, "an invite (tongiaki://HOST:PORT/GAMEID/PEER, as a node "
                               "prints it)") from None
        if not 1 <= ref.port <= 65535:
            raise _fail(value, "an invite: its port is not 1 to 65535")
        return value.strip()

    return _named(convert, "invite")



def draw_wait() -> Callable[[str], int]:
    """How long a table waits for a missing draw value, as its lobby message may say."""
    from tongiaki_lan.net.protocol.codec import DRAW_WAIT_MAX, DRAW_WAIT_MIN

    return whole(DRAW_WAIT_MIN, DRAW_WAIT_MAX, "a whole number of seconds")

"""The `tongiaki-lan` command.

Each subcommand lives in its own module (`tongiaki_lan.cli.<name>`) exposing
`configure(parser)` and `run(args) -> int`. Modules are imported only when their
subcommand runs, so the engine-only commands start fast and never pull in the
network or UI stacks.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import os
import signal
import sys
import threading
from pathlib import Path

# name -> (module, one-line help)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "solo": ("tongiaki_lan.cli.solo", "play against bots on this machine (no network)"),
    "lobby": ("tongiaki_lan.cli.lobby", "open the LAN lobby console (the default)"),
    "replay": ("tongiaki_lan.cli.replay", "step through a recorded game"),
    "records": ("tongiaki_lan.cli.records", "list the games recorded here, newest first"),
    "play": ("tongiaki_lan.cli.play", "join or create a LAN game (headless bot seat)"),
    "games": ("tongiaki_lan.cli.games", "list the games on the LAN"),
    "watch": ("tongiaki_lan.cli.watch", "watch a LAN game without a seat (headless)"),
    "doctor": ("tongiaki_lan.cli.doctor", "why can't I see your game? (network check)"),
    "selfplay": ("tongiaki_lan.cli.selfplay", "bots play each other, one JSON line per game"),
    "verify": ("tongiaki_lan.cli.verify", "replay a game record and check every move"),
    "export": ("tongiaki_lan.cli.export", "draw a recorded game's board as an SVG picture"),
    "position": ("tongiaki_lan.cli.position", "print a record's position as text"),
    "bench": ("tongiaki_lan.cli.bench", "measure engine or network speed"),
    "tournament": ("tongiaki_lan.cli.tournament", "bots against bots with statistics"),
    "ladder": ("tongiaki_lan.cli.ladder", "rate bots and levels at mixed tables (OpenSkill)"),
}

# the commands that write into the per-user places: they move an earlier version's records
# to this platform's place first (places.py)
SETTLES_PLACES = ("solo", "lobby", "play", "watch")


def stamped(obj: dict) -> dict:
    """A headless JSON line with the local wall-clock time it was written, `at` (ISO 8601
    with the offset, to the second): read after a party, a node's lines said what
    happened but not when. For people reading them: the game keeps its own time."""
    from datetime import datetime

    return {**obj, "at": datetime.now().astimezone().isoformat(timespec="seconds")}


def run_headless(main, args: argparse.Namespace) -> int:
    """Run a headless command's `main(args)` coroutine: its log on stderr (`--verbose`:
    everything, else errors only), Ctrl-C before it handles signals itself: 130."""
    import asyncio
    import logging

    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR,
                        stream=sys.stderr, format="%(asctime)s %(name)s %(message)s")
    try:
        return asyncio.run(main(args))
    except KeyboardInterrupt:
        return 130


def lan_options(p: argparse.ArgumentParser, *, socket: bool = True) -> None:
    """`--interface ADDR` (multicast DNS on chosen interfaces only: a laptop juggles Wi-Fi,
    VPN and Docker networks) and, with `socket`, the game socket's `--host` and `--port`:
    the same words for every command that goes on the LAN."""
    from tongiaki_lan.cli import optiontypes as T

    if socket:
        p.add_argument("--host", type=T.bind_address(), default="0.0.0.0",
                       help="address to bind (0.0.0.0: all of this computer's)")
        p.add_argument("--port", type=T.port(), default=0, help="UDP port (0 = any)")
    p.add_argument("--interface", action="append", type=T.interface_address(), default=None,
                   metavar="ADDR",
                   help="use only the network interface with this IPv4 address for multicast "
                        "DNS (repeatable; 127.0.0.1 keeps discovery on this machine, with "
                        "--host 127.0.0.1 for a game's own traffic)")


def board_options(p: argparse.ArgumentParser, console: bool = True) -> None:
    """`--board` (the live board page in the browser, served by this program) and
    `--board-host ADDR` (for a second screen: docs/board.md says what that risks)."""
    from tongiaki_lan.cli import optiontypes as T

    if console:
        what = ("serve the live board of the game as a page and open it in your browser, "
                "played by clicking (the console's `board` does it later)")
    else:
        what = ("serve the live board of the game as a page; its address is printed as "
                "a {\"event\": \"board\", \"url\": ...} line")
    p.add_argument("--board", action="store_true", help=what)
    p.add_argument("--board-host", type=T.bind_address(), default="127.0.0.1", metavar="ADDR",
                   help="the address the board page is served on (default 127.0.0.1: this "
                        "computer only; another of its addresses shows it on a second "
                        "screen, and lets anyone on that network with its link see the "
                        "game and play your seat)")


def console_board(args: argparse.Namespace):
    """The board page of a console run (`boardlink.BoardLink`, started by `--board` or
    the console's `board`), on `--board-host`; the log goes to the log file from here on
    (the full-screen console owns the terminal), which keeps the page's address."""
    from tongiaki_lan.console.boardlink import BoardLink
    from tongiaki_lan.logfile import log_to_file
    from tongiaki_lan.places import places

    try:
        log_to_file(places().logs)
    except OSError:  # (no log then: the game goes on)
        pass
    return BoardLink(host=getattr(args, "board_host", "127.0.0.1"))


def records_option(p: argparse.ArgumentParser) -> None:
    """`--records DIR`, the same for every command that plays a game."""
    from tongiaki_lan.cli.optiontypes import directory
    from tongiaki_lan.records import default_record_dir

    p.add_argument("--records", type=directory("a directory for records"), default=None,
                   metavar="DIR",
                   help=f"where game records and the identities that play them go "
                        f"(default {default_record_dir()}; $TONGIAKI_LAN_HOME moves "
                        "everything)")


def lang_option(p: argparse.ArgumentParser) -> None:
    """`--lang`, for the commands that open the console."""
    from tongiaki_lan.cli.optiontypes import language
    from tongiaki_lan.i18n import LANGUAGES

    p.add_argument("--lang", type=language(), default=None, metavar="LANG",
                   help="language of the console: " + ", ".join(LANGUAGES) +
                        " (default: from LANGUAGE / LC_ALL / LC_MESSAGES / LANG, else the "
                        "system's language setting on Windows and macOS, else en)")


def plain_option(p: argparse.ArgumentParser) -> None:
    """`--plain`, for the commands that show a game: the line mode (docs/console.md)."""
    p.add_argument("--plain", action="store_true",
                   help="line mode for screen readers and pipes: one line per event, no "
                        "full-screen drawing; lines typed or piped in are the commands")


def use_language(args: argparse.Namespace) -> bool:
    """Switch to the language asked for; False (having said why) if it is not available."""
    from tongiaki_lan.i18n import use

    try:
        use(getattr(args, "lang", None))
    except ValueError as exc:
        print(f"tongiaki-lan: {exc}", file=sys.stderr)
        return False
    return True


def record_options(p: argparse.ArgumentParser, help_text: str = "a game record") -> None:
    """RECORD and `--records DIR` of the commands that read one record (`replay`,
    `verify`, `export`, `position`): a path, or N, the Nth game `tongiaki-lan records`
    lists in DIR. `replay 1` took the numbers `records` prints, `verify 1` and `export 1`
    looked for a file named 1."""
    from tongiaki_lan.cli.optiontypes import directory, record_or_number

    p.add_argument("record", type=record_or_number(), metavar="RECORD",
                   help=f"{help_text} (any path), or N: game N of `tongiaki-lan records`")
    p.add_argument("--records", type=directory("a directory of records"), default=None,
                   metavar="DIR", help="where game N is looked up (default: this system's "
                                       "place for records, `tongiaki-lan --help` prints it)")


def numbered_record(record, directory: Path | None) -> tuple[Path | None, Path]:
    """(the record RECORD names, the directory N was looked up in): a path stays as it
    is; N is game N of `tongiaki-lan records` in `directory` (default: this system's
    records), None when the list is shorter."""
    from tongiaki_lan.records import default_record_dir, newest_records

    directory = directory or default_record_dir()
    if not isinstance(record, int):
        return Path(record), directory
    newest = newest_records(directory)
    return (newest[record - 1] if 1 <= record <= len(newest) else None), directory


def no_such_game(command: str, number: int, directory: Path) -> str:
    return (f"{command}: there is no game {number} in the list of {directory} "
            f"(tongiaki-lan records lists them)")


def record_position(command: str, path, at: int | None, err=None):
    """The game of a record after its first `at` moves (all by default), every move and
    reveal checked; or, having said why on `err` (stderr), the exit code. Shared by the
    commands that show one position of a record (`position`, `export`)."""
    from tongiaki_lan.records import RecordError, read_record, replay_record

    err = err or sys.stderr
    try:
        record = read_record(path)
    except RecordError as exc:
        print(f"{command}: {path}: {exc}", file=err)
        return 1
    total = len(record.moves)
    at = total if at is None else at
    if not 0 <= at <= total:
        print(f"{command}: --at must be 0..{total} (the record holds {total} moves)", file=err)
        return 2
    try:
        game = replay_record(record, upto=at)
    except RecordError as exc:
        print(f"{command}: {path}: {exc}", file=err)
        return 1
    return record, game, at


def _epilog() -> str:
    from tongiaki_lan.records import SUFFIX, default_record_dir

    return (f"Every game played here is recorded as it goes, one {SUFFIX} file per game, "
            f"in {default_record_dir()} (this system's place for program data; "
            f"--records DIR chooses another, and $TONGIAKI_LAN_HOME puts records, profile "
            f"and log under one directory). `replay`, `verify` and `export` read a record "
            f"from any path.")


class Parser(argparse.ArgumentParser):
    """argparse, with a command line it cannot use said in one line: which option, what it
    takes, where the options are listed; exit status 2. argparse's own usage block (eight
    lines for `solo`) came first and hid the line that mattered."""

    def error(self, message: str):  # (argparse's hook: it must not return)
        self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    from tongiaki_lan import __version__

    parser = Parser(prog="tongiaki-lan", description=__doc__.splitlines()[0],
                    epilog=_epilog())
    parser.add_argument("--version", "-V", action="version",
                        version=f"tongiaki-lan {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.commands = sub.choices  # name -> its parser (`parse`)
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            try:
                module = importlib.import_module(module_name)
            except ModuleNotFoundError as exc:
                if exc.name != module_name:
                    raise
                sp.set_defaults(_missing=name)
                continue
            module.configure(sp)
            sp.set_defaults(_run=module.run)
    return parser


# Windows gives a console program this long to finish after its window is closed
CLOSE_GRACE_S = 4.0


class LeaveOnSignals:
    """`with LeaveOnSignals(leave):` — the ways an OS asks a program to stop all end in the
    same clean, recorded leave: `leave()` runs in the event loop, which then says goodbye to
    the table and closes the record as the `quit` command does.

    POSIX: SIGTERM (kill, shutdown), SIGHUP (the terminal window closed) and, with
    `sigint`, SIGINT (Ctrl-C outside a full-screen console; inside one Ctrl-C is a key the
    console asks about first). Windows: SIGBREAK (Ctrl-Break), SIGINT likewise, and the
    console window closed, the user logging off or the system shutting down — those come
    as console control events, not signals: a handler registered with
    SetConsoleCtrlHandler schedules `leave` and holds Windows off (which ends the process
    when the handler returns) until the leave is done or CLOSE_GRACE_S has passed.
    """

    def __init__(self, leave, *, sigint: bool = True) -> None:
        self.leave = leave
        self.sigint = sigint
        self.done = threading.Event()
        self._undo: list = []

    def __enter__(self) -> LeaveOnSignals:
        loop = asyncio.get_running_loop()
        if os.name == "posix":
            wanted = [signal.SIGTERM, signal.SIGHUP] + ([signal.SIGINT] if self.sigint else [])
            for sig in wanted:
                try:
                    loop.add_signal_handler(sig, self.leave)
                except (NotImplementedError, RuntimeError, ValueError):
                    continue  # not the main thread (a test's loop): nothing to undo
                self._undo.append(lambda sig=sig: loop.remove_signal_handler(sig))
            return self
        wanted = [getattr(signal, "SIGBREAK", None)] + ([signal.SIGINT] if self.sigint else [])
        for sig in filter(None, wanted):
            try:
                before = signal.signal(
                    sig, lambda _s, _f: loop.call_soon_threadsafe(self.leave))
            except (ValueError, OSError):  # not the main thread
                continue
            self._undo.append(lambda sig=sig, before=before: signal.signal(sig, before))
        self._console_close_handler(loop)
        return self

    def _console_close_handler(self, loop) -> None:
        try:
            import ctypes
            from ctypes import wintypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
        except (ImportError, AttributeError, OSError):
            return
        closing = {2, 5, 6}  # CTRL_CLOSE_EVENT, CTRL_LOGOFF_EVENT, CTRL_SHUTDOWN_EVENT

        @ctypes.WINFUNCTYPE(wintypes.BOOL, wintypes.DWORD)  # type: ignore[attr-defined]
        def handler(ctrl_type):
            if ctrl_type not in closing:
                return False  # Ctrl-C / Ctrl-Break: Python's own handler, the signals above
            loop.call_soon_threadsafe(self.leave)
            self.done.wait(CLOSE_GRACE_S)
            return True

        if kernel32.SetConsoleCtrlHandler(handler, True):
            self._undo.append(lambda: kernel32.SetConsoleCtrlHandler(handler, False))

    def __exit__(self, *exc) -> None:
        for undo in reversed(self._undo):
            with contextlib.suppress(Exception):
                undo()
        self._undo.clear()
        self.done.set()


async def play_plain(session) -> int:
    """`--plain`: `session` in the console's line mode (console/plain/), left as `quit`
    leaves it when the OS asks the program to stop."""
    from tongiaki_lan.console.plain import PlainRun

    plain = PlainRun(session)
    with LeaveOnSignals(plain.stop, sigint=False):  # (Ctrl-C: a key it asks about)
        return await plain.run()


class ConsoleStop:
    """The `leave` of a full-screen console for LeaveOnSignals: the screen on show ends as
    if the player had left it (with the result `results` holds for its app, else 0: what a
    game screen returns on `quit`), and `asked` tells the command not to open another
    screen. Closing the game screen says goodbye to the table and closes the record, as
    `quit` does."""

    def __init__(self) -> None:
        self.asked = False
        self.results: dict = {}  # Application -> the result that leaves it

    def __call__(self) -> None:
        from prompt_toolkit.application.current import get_app_or_none

        self.asked = True
        app = get_app_or_none()
        if app is not None and app.is_running:
            with contextlib.suppress(Exception):  # already leaving: its result is set
                app.exit(result=self.results.get(app, 0))


def say_at_exit(text: str) -> None:
    """A last line on the terminal, which may be gone (its window was closed)."""
    with contextlib.suppress(OSError, ValueError):
        print(text)
        sys.stdout.flush()


def never_fail_on_text() -> None:
    """Text for a console or a pipe never stops the program: a character the stream's code
    page lacks (a Windows console or pipe in cp1252, say) becomes '?' instead of raising
    UnicodeEncodeError. Bytes meant to be exact (an SVG) go to stdout.buffer instead."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "strict") == "strict":
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # a detached or closed stream
                pass


TOP_OPTIONS = ("-h", "--help", "--version", "-V")


def unknown_command(word: str) -> str:
    """The line for a first word that is no command: the commands, and the likely one."""
    import difflib

    close = difflib.get_close_matches(word, SUBCOMMANDS, n=1)
    guess = f" (did you mean '{close[0]}'?)" if close else ""
    return (f"tongiaki-lan: unknown command {word!r}{guess}; the commands are "
            f"{', '.join(SUBCOMMANDS)} (`tongiaki-lan --help` says what each does; without "
            "a command, the lobby opens)")


def parse(argv: list[str]) -> argparse.Namespace:
    """The command line `argv` (a command first) as its command's options, or SystemExit
    after saying in one line what is wrong (status 2; 0 for --help). A word the command
    does not know is refused by the command's parser, which names the command and its
    --help, not the program's (`tongiaki-lan: unrecognized arguments: --thinks`)."""
    parser = build_parser(only=argv[0] if argv and argv[0] in SUBCOMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        command = getattr(args, "command", None)
        chosen = parser.commands.get(command, parser) if command else parser
        chosen.error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    from tongiaki_lan.files import DamagedFile

    never_fail_on_text()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["help"]:
        # (`tongiaki-lan help`, as git and pip take it, was "unknown command 'help'")
        argv = [argv[1], "--help"] if argv[1:2] and argv[1] in SUBCOMMANDS else ["--help"]
    if argv and not argv[0].startswith("-") and argv[0] not in SUBCOMMANDS:
        # (`tongiaki-lan frob` opened the lobby's parser, which said "unrecognized
        # arguments: frob": the player had typed a command, not an argument)
        print(unknown_command(argv[0]), file=sys.stderr)
        return 2
    if not argv or argv[0] not in SUBCOMMANDS and argv[0] not in TOP_OPTIONS:
        argv = ["lobby", *argv]  # (`tongiaki-lan --name Ana`: the lobby's options)
    try:
        args = parse(argv)
    except SystemExit as done:  # --help, --version, or a value refused (said already)
        return done.code if isinstance(done.code, int) else 0 if done.code is None else 2
    if getattr(args, "_missing", None):
        print(f"tongiaki-lan: '{args._missing}' is not available in this build", file=sys.stderr)
        return 2
    if args.command in SETTLES_PLACES:
        from tongiaki_lan.places import settle_legacy

        note = settle_legacy()
        if note:
            print(note, file=sys.stderr)
    if sys.platform == "win32":  # the selector loop: see net/aio/pump.py, choose_event_loop
        from tongiaki_lan.net.aio.pump import choose_event_loop

        choose_event_loop()
    try:
        code = int(args._run(args) or 0)
        sys.stdout.flush()  # a reader that went away shows here, where it can be handled
        return code
    except KeyboardInterrupt as stopped:  # Ctrl-C: 130; SIGTERM, SIGHUP (lifeline.Stopped)
        return getattr(stopped, "status", 130)
    except DamagedFile as damaged:  # (an identity key cut short: its file, its way back)
        print(f"tongiaki-lan: {damaged}", file=sys.stderr)
        return 1
    except EOFError:
        # the console's input ended (commands piped in, then the pipe closed): the screen
        # and its game were closed on the way out, the record has every move; no traceback
        return 0
    except BrokenPipeError:
        # `tongiaki-lan verify FILE | head`: the reader has read enough. Leave quietly, with
        # the status a writer killed by SIGPIPE has in a shell, and point stdout at
        # /dev/null so that the interpreter's last flush cannot fail again.
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        return 141

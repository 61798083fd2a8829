"""`tongiaki-lan watch --game NAME`: follow a LAN game without a seat, headless.

A watcher (protocol/watching.md) is fed by one member of the table: the lobby, the game's
public start and every move and reveal, each checked by this machine's own engine. It
sends no move and no draw value and cannot slow the table. Every game watched is recorded
like a played one, so `verify` checks it afterwards. `--json` prints one JSON line per
event (as `play --headless` does); without it, one readable line per move. `--plain` is
the console's line mode instead (docs/console.md): the game told as the console's story,
and lines typed or piped in are its commands (`say`, `follow`, `take`, `quit`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shlex
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import (
        board_options,
        lan_options,
        lang_option,
        plain_option,
        records_option,
    )
    from tongiaki_lan.cli import optiontypes as T

    parser.add_argument("--game", type=T.game_name(), default=None,
                        help="name of the LAN game to watch")
    parser.add_argument("--join", type=T.invite(), default=None, metavar="INVITE",
                        help="watch by invite (tongiaki://HOST:PORT/GAMEID/PEER) instead of "
                             "looking the game up")
    parser.add_argument("--name", type=T.player_name(), default=None,
                        help="your name as the players see it (default: your profile's)")
    parser.add_argument("--passphrase", type=T.text("a passphrase"), default=None,
                        help="passphrase of the game")
    parser.add_argument("--json", action="store_true", help="one JSON line per event")
    plain_option(parser)
    lang_option(parser)  # (the line mode's words)
    parser.add_argument("--record", type=T.file_to_write("a record file"), default=None,
                        metavar="FILE",
                        help="record file (default watch-GAME-NAME.tgrec in --records)")
    records_option(parser)
    parser.add_argument("--wait", type=T.seconds(T.WAIT_MAX, zero=True), default=3.0,
                        help="how long to look for the game on the LAN before saying it "
                             "waits for it (it waits up to --timeout)")
    parser.add_argument("--timeout", type=T.seconds(T.TIMEOUT_MAX), default=7200.0,
                        help="give up after this many seconds (waiting for the game, "
                             "then watching it)")
    lan_options(parser)
    board_options(parser, console=False)
    parser.add_argument("--verbose", action="store_true", help="log to stderr")


def run(args: argparse.Namespace) -> int:
    if not args.game and not args.join:
        print("tongiaki-lan watch: name the game (--game NAME) or give an invite (--join)",
              file=sys.stderr)
        return 2
    if args.plain and args.json:
        print("tongiaki-lan watch: --plain or --json, not both", file=sys.stderr)
        return 2
    if args.plain:
        from tongiaki_lan.cli import use_language

        if not use_language(args):  # (the line mode speaks the console's words)
            return 2
    from tongiaki_lan.cli import run_headless
    from tongiaki_lan.places import places
    from tongiaki_lan.profile import player_name

    # (the players see this name: "Eve is watching."; the first run at a terminal asks
    # it as the lobby does, rather than show the login name, "Root"; asked before the
    # event loop starts, where Ctrl-C at the question ends the command at once)
    args.name = player_name(places().profile, args.name,
                            interactive=sys.stdin.isatty() and sys.stdout.isatty())
    return run_headless(_main, args)


def _say(args: argparse.Namespace, obj: dict, text: str | None = None) -> None:
    if args.json:
        from tongiaki_lan.cli import stamped

        line = json.dumps(stamped(obj), default=str)
    elif text is None:
        return
    else:
        line = text
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _text(ev, names: dict[str, str] | None = None) -> str | None:
    """One readable line per event a person watching wants to see: islands as the
    console names them (`expand Fiji`, `reveal Rapa Nui`, not the engine's `Fidschi` and
    `RapaNui`), the winners by name (`names`: colour -> player, from the game's start;
    it said "game over: blue win")."""
    from tongiaki_lan.i18n.islands import shown_move

    d = ev.to_json()
    k = ev.kind
    if k == "watching":
        return f"watching {d['game']} through {d['feeder_name']}"
    if k == "game_start":
        seats = ", ".join(f"{s['name']} ({s['colour']})" for s in d["seats"])
        return f"the game starts: {seats}"
    if k == "move":
        move = shown_move(d["move"], "en", spaced=True)
        return f"{d['index'] + 1:4d} {d['name']} ({d['colour']}): {move}"
    if k == "reveal":
        return f"{d['index'] + 1:4d} {shown_move(d['move'], 'en', spaced=True)}"
    if k == "chat":
        return f"{d['name']}{' (watching)' if d.get('watcher') else ''}: {d['text']}"
    if k in ("left", "handover", "seat_taken", "reclaimed"):
        return f"({k}) {d.get('name', '')}"
    if k == "game_over":
        winners = [f"{names[c]} ({c})" if names and c in names else c for c in d["winners"]]
        verb = "wins" if len(winners) == 1 else "win"  # (a tie: several)
        return f"game over: {' and '.join(winners)} {verb}; digest {d['digest'][:16]}"
    if k == "woke":
        return f"this computer slept {d['slept']:.0f} s: asking the table to feed it again"
    if k == "answered":
        return "the table answered: watching it again"
    if k == "watch_cut":  # (cut: nobody answers, and it goes on asking)
        return ("nobody at the table answers: cut off, or the game ended; still asking"
                if d["cut"] else "the table answers again")
    if k in ("guest_refused", "mismatch", "error"):
        return f"{k}: {d.get('reason', '')}"
    return None


async def _main(args: argparse.Namespace) -> int:
    from tongiaki_lan.cli import LeaveOnSignals
    from tongiaki_lan.net.aio.discovery import Discovery
    from tongiaki_lan.net.aio.matchmaking import watch_by_name
    from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
    from tongiaki_lan.net.protocol.invite import PassphraseNeeded
    from tongiaki_lan.records import default_record_dir, record_file_name

    name = args.name  # (`run` asked it on the first run)
    ref = None
    if args.join:
        try:
            ref = GameRef.parse(args.join)
        except ValueError as exc:
            _say(args, {"event": "error", "reason": str(exc)}, f"error: {exc}")
            return 2
    record = Path(args.record) if args.record else (
        (args.records or default_record_dir())
        / record_file_name("watch", args.game or ref.game_id.hex()[:8], name))
    disc = None
    if ref is None:
        disc = Discovery(args.interface) if args.interface else Discovery()
        try:
            await disc.start(browse=True)
        except OSError as exc:
            _say(args, {"event": "error", "reason": f"cannot use multicast DNS ({exc})"},
                 f"cannot use multicast DNS here ({exc}): watch by invite with --join")
            return 1
    node = Node(name, host=args.host, port=args.port, record_path=record)
    final: dict = {}
    names: dict[str, str] = {}  # colour -> the player's name, from the game's start
    plain_from = None  # the line mode's session, once the game it watches has started

    def on_event(ev) -> None:
        if plain_from is not None:
            return  # (the line mode tells the game from its start on)
        if ev.kind == "game_over":
            final.update(ev.to_json())
            return
        if ev.kind == "refused":
            return  # (a watcher's business is the game, not stray datagrams)
        if ev.kind == "game_start":
            names.update((s["colour"], s["name"]) for s in ev.to_json()["seats"])
        _say(args, ev.to_json(), _text(ev))

    node.add_listener(on_event)
    await node.start()
    stop = asyncio.Event()
    code = 1
    from tongiaki_lan.cli.play import start_board

    board = await start_board(node, args, lambda obj: _say(
        args, obj, f"board: {obj['url']}" if "url" in obj else f"error: {obj['reason']}"))
    if board is False:
        await node.close()
        if disc is not None:
            await disc.close()
        return 2
    with LeaveOnSignals(stop.set):
        try:
            if ref is not None:
                await node.watch_game(ref, args.passphrase, timeout=10)
            else:
                def waiting() -> None:
                    _say(args, {"event": "waiting", "game": args.game,
                                "reason": f"no game {args.game!r} on the LAN yet: waiting "
                                          f"for it (up to {args.timeout:.0f} s)"},
                         f"no game {args.game!r} on the LAN yet: waiting for it (Ctrl-C "
                         "stops; 'tongiaki-lan doctor' says why one is missing)")

                # (waits for the table as `play` does, and follows the table the name
                # settles on while it forms: started early, it saw a table that then
                # merged into another, and no move of the game)
                finding = asyncio.ensure_future(watch_by_name(
                    node, disc, args.game, args.passphrase, args.timeout, waiting, args.wait))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({finding, stopper}, return_when=asyncio.FIRST_COMPLETED)
                stopper.cancel()
                if not finding.done():  # (Ctrl-C while waiting for the table)
                    finding.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await finding
                    _say(args, {"event": "left", "moves": 0}, "stopped watching")
                    return 0
                try:
                    finding.result()
                except TimeoutError as exc:
                    _say(args, {"event": "error", "reason": str(exc)},
                         f"{exc} ('tongiaki-lan games' lists the games, 'tongiaki-lan "
                         "doctor' says why one is missing)")
                    return 1
            if args.plain:
                await node.wait_for(lambda: node.game is not None or node.stopped is not None
                                    or stop.is_set(), args.timeout, raise_on_timeout=False)
                if stop.is_set():
                    _say(args, {}, "stopped watching")
                    return 0
                if node.game is None:  # (it never started, or the node stopped)
                    _say(args, {}, f"stopped: {node.stopped or 'the game did not start'}")
                    return 1
                plain_from = _plain_session(node)
                return await _run_plain(plain_from)
            done = asyncio.ensure_future(node.wait_for(
                lambda: bool(final) or node.stopped is not None, args.timeout,
                raise_on_timeout=False))
            stopper = asyncio.ensure_future(stop.wait())
            await asyncio.wait({done, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if final:
                final["record"] = str(node.record_path)
                _say(args, final, _text(_Over(final), names))
                code = 0
            elif node.stopped:
                _say(args, {"event": "error", "reason": node.stopped}, f"stopped: {node.stopped}")
            elif stop.is_set():
                _say(args, {"event": "left", "moves": len(node.game.moves) if node.game else 0},
                     "stopped watching")
                code = 0
        except PassphraseNeeded as exc:  # (the listing says the game is locked)
            _say(args, {"event": "error", "reason": str(exc), "passphrase": "needed"},
                 f"{exc}. Run: tongiaki-lan watch --game {shlex.quote(exc.name)} "
                 "--passphrase TEXT")
        except JoinRefused as exc:
            _say(args, {"event": "error", "reason": str(exc)}, f"refused: {exc}")
        finally:
            if board is not None:
                await board.close()
            await node.leave(timeout=1.0)
            if disc is not None:
                await disc.close()
    return code


def _plain_session(node):
    """The watched game as the console's LAN feed has it, for the line mode."""
    from tongiaki_lan.console.feeds.lan import LanSession

    session = LanSession(node)
    session.from_lobby = False  # (`lobby` goes nowhere from here)
    return session


async def _run_plain(session) -> int:
    from tongiaki_lan.cli import play_plain

    return await play_plain(session)


class _Over:
    kind = "game_over"

    def __init__(self, data: dict) -> None:
        self._data = data

    def to_json(self) -> dict:
        return self._data

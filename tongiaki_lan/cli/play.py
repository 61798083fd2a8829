"""`tongiaki-lan play --headless`: a bot seat in a LAN game, one JSON line per event.

Joins the LAN game GAME or creates it, starts when N players are seated, plays every
decision of its seat with the bot and writes the record as it goes. Run the same command
again after a crash (same --name and --record) and it rejoins the game from its record.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import board_options, lan_options, records_option
    from tongiaki_lan.cli import optiontypes as T

    parser.add_argument("--headless", action="store_true",
                        help="no console: a bot plays this seat and events go to stdout")
    parser.add_argument("--bot", type=T.bot_kind(), default="random",
                        help="bot that plays this seat: a kind (random, greedy, search) or a "
                             "level (easy, normal, hard)")
    parser.add_argument("--level", default=None, choices=("easy", "normal", "hard"),
                        help="the level of the bot that plays this seat (as --bot LEVEL)")
    parser.add_argument("--name", type=T.player_name(), required=True,
                        help="player name shown to the others")
    parser.add_argument("--game", type=T.game_name(), required=True,
                        help="name of the LAN game to join or create")
    parser.add_argument("--players", type=T.whole(2, 6), default=4, help="seats of the game (2-6)")
    parser.add_argument("--passphrase", type=T.text("a passphrase"), default=None,
                        help="passphrase of the game")
    parser.add_argument("--colour", type=T.colour(), default="", help="preferred colour")
    parser.add_argument("--two-colours", action="store_true",
                        help="when this node creates the game (with --players 2): two "
                             "colours each, played alternately (the French rulebook's "
                             "two-player variant)")
    parser.add_argument("--record", type=T.file_to_write("a record file"), default=None,
                        metavar="FILE",
                        help="record file (default GAME-NAME.tgrec in --records); an "
                             "unfinished record is resumed")
    records_option(parser)
    # (two hours, as `watch`: a bot laptop started as the README shows quit 10 minutes
    # into a 3-player game, and the table waited for it — a LAN-party playtest)
    parser.add_argument("--timeout", type=T.seconds(T.TIMEOUT_MAX), default=7200.0,
                        help="give up after this many seconds (default 7200); giving up "
                             "mid-game is a goodbye for good: a bot takes the seat at once")
    parser.add_argument("--wait", type=T.seconds(T.WAIT_MAX, zero=True), default=1.5,
                        help="how long to look for the game before creating it")
    parser.add_argument("--join", type=T.invite(), default=None, metavar="INVITE",
                        help="join by invite (tongiaki://HOST:PORT/GAMEID/PEER, printed in "
                             "every 'joined' event) instead of looking the game up")
    parser.add_argument("--no-discovery", action="store_true",
                        help="no zeroconf: create the game (or --join one) and neither "
                             "advertise nor browse")
    lan_options(parser)
    parser.add_argument("--quiet-refusals", action="store_true",
                        help="count refused datagrams instead of printing each one")
    parser.add_argument("--handover", type=T.seconds(T.LINGER_MAX), default=None, metavar="S",
                        help="give the seat of a player away for S seconds to a bot (the "
                             "player takes it back on return)")
    parser.add_argument("--draw-wait", type=T.draw_wait(), default=None, metavar="S",
                        help="at a table this node opens: how long the table waits for a "
                             "missing draw value before drawing without it (default 15)")
    parser.add_argument("--table-bot", type=T.bot_kind(), default=None, metavar="KIND",
                        help="the bot (a level or a kind) that takes the seat of a player "
                             "who left or is away, when this node hands it over (default: "
                             "solo play's level, normal)")
    parser.add_argument("--linger", type=T.seconds(T.LINGER_MAX, zero=True), default=0.0,
                        metavar="S",
                        help="after the game, stay up to S seconds for a player who is away "
                             "(asleep) to come back and fetch the result, as a console left "
                             "open on the final table does")
    parser.add_argument("--bot-delay", type=T.seconds(T.PACE_MAX, zero=True), default=0.0,
                        metavar="S",
                        help="pause S seconds before each bot move (to watch a game)")
    board_options(parser, console=False)
    parser.add_argument("--verbose", action="store_true", help="log to stderr")


def _default_record(args: argparse.Namespace) -> Path:
    """The same file for the same game and name, so that running the same command again
    after a crash finds the record and resumes."""
    from tongiaki_lan.records import default_record_dir, record_file_name

    return (args.records or default_record_dir()) / record_file_name(args.game, args.name)


def run(args: argparse.Namespace) -> int:
    if not args.headless:
        print("tongiaki-lan play: only --headless is available here; the console joins LAN "
              "games from the lobby (`tongiaki-lan lobby`)", file=sys.stderr)
        return 2
    if not 2 <= args.players <= 6:
        print("tongiaki-lan play: --players must be 2 to 6", file=sys.stderr)
        return 2
    if args.two_colours and args.players != 2:
        print("tongiaki-lan play: --two-colours is for --players 2", file=sys.stderr)
        return 2
    if args.level:
        args.bot = args.level
    try:
        from tongiaki_lan.bots import make_bot
        make_bot(args.bot)
        if args.table_bot:
            make_bot(args.table_bot)
    except ValueError as exc:
        print(f"tongiaki-lan play: {exc}", file=sys.stderr)
        return 2
    from tongiaki_lan.cli import run_headless

    return run_headless(_main, args)


_closed = False


def _out(obj: dict) -> None:
    if _closed:  # the game_over line is the last one
        return
    from tongiaki_lan.cli import stamped

    sys.stdout.write(json.dumps(stamped(obj), sort_keys=False, default=str) + "\n")
    sys.stdout.flush()


def _close_output() -> None:
    global _closed
    _closed = True


async def _main(args: argparse.Namespace) -> int:
    from tongiaki_lan.cli import LeaveOnSignals
    from tongiaki_lan.net.aio.node import has_sidecar, read_sidecar
    from tongiaki_lan.records import read_record, replay_record

    record = Path(args.record) if args.record else _default_record(args)
    resume = False
    if record.exists():
        try:
            side = read_sidecar(record) if has_sidecar(record) else None
            over = replay_record(read_record(record)).is_over
        except Exception as exc:
            _out({"event": "error", "reason": f"cannot resume from {record}: {exc}"})
            return 1
        if side is not None and not over:
            resume = True
            if not args.port:  # the port it had, if still free: the others reach it at once
                args.port = side.get("port", 0)
        else:
            n = 1
            while record.with_name(f"{record.stem}.{n}{record.suffix}").exists():
                n += 1
            record = record.with_name(f"{record.stem}.{n}{record.suffix}")

    # Ctrl-C, kill, a closed terminal or console window: the same clean leave (cli.__init__)
    stop = asyncio.Event()
    with LeaveOnSignals(stop.set):
        return await _play(args, record, resume, stop)


async def _play(args: argparse.Namespace, record: Path, resume: bool,
                stop: asyncio.Event) -> int:
    from tongiaki_lan.net.aio.discovery import Discovery
    from tongiaki_lan.net.aio.matchmaking import GameRunning, join_or_create, wait_game
    from tongiaki_lan.net.aio.node import GameRef, Node

    ref = None
    if args.join:
        try:
            ref = GameRef.parse(args.join)
        except ValueError as exc:
            _out({"event": "error", "reason": str(exc)})
            return 2
    disc = None
    if not args.no_discovery:
        disc = Discovery(args.interface) if args.interface else Discovery()
        try:
            await disc.start()
        except OSError as exc:
            _out({"event": "error", "reason": f"cannot use multicast DNS here ({exc}); "
                  "play by invite with --join / --no-discovery"})
            return 1
    node = Node(args.name, host=args.host, port=args.port, record_path=record,
                autoplay=args.bot, discovery=disc,
                handover_after=args.handover, bot_delay=args.bot_delay,
                draw_wait=args.draw_wait, table_bot=args.table_bot)
    broken = os.environ.get(BROKEN_ENV)
    if broken:
        try:
            _break(node, broken)
        except ValueError:
            _out({"event": "error", "reason": f"{BROKEN_ENV}={broken!r}: expected RATE or "
                  "RATE:SEED (a test hook)"})
            return 2
    final: dict = {}
    refused = 0
    # join-or-create: the table is shown (joined, lobby) only once it is settled, and only
    # if it is still ours then — a duplicate table this node left is never shown
    held: list[tuple[bytes, dict]] | None = (
        [] if disc is not None and not resume and ref is None else None)

    def show_table() -> None:
        nonlocal held
        if held is None:
            return
        keep = [obj for gid, obj in held if gid == node.game_id]
        held = None
        for obj in keep:
            _out(obj)

    def on_event(ev) -> None:
        nonlocal refused
        if node.core.watching and ev.kind != "seat_taken":
            return  # (a latecomer looking at a running game: only its decision is said)
        if ev.kind == "table_gone":  # (after a sleep: said once, as the reason we stop)
            _out(ev.to_json())
            return
        if ev.kind == "game_over":
            final.update(ev.to_json())
            return
        if ev.kind == "refused":
            refused += 1
            if args.quiet_refusals:
                return
        if held is not None:
            if ev.kind in ("joined", "lobby"):
                held.append((node.game_id, ev.to_json()))
                return
            if ev.kind in ("starting", "game_start"):
                show_table()
        _out(ev.to_json())

    node.add_listener(on_event)
    if disc is not None:
        disc.on_published(lambda inst: _out({"event": "advertised", "instance": inst}))
    addr = await node.start()
    _out({"event": "node", "name": args.name, "peer": node.peer_id.hex(), "port": addr[1],
          "record": str(record), "resume": resume})
    code = 1
    board = await start_board(node, args, _out)
    if board is False:
        await node.close()
        if disc is not None:
            await disc.close()
        return 2
    try:
        async def play() -> None:
            if resume:
                await node.resume(record, args.passphrase)
            elif ref is not None:
                await node.join_game(ref, args.passphrase, args.colour, timeout=10)
                node.set_ready(True)
            elif disc is None:
                await node.create_game(args.game, args.players, args.passphrase, args.colour,
                                       variant="two-colours" if args.two_colours else "standard")
                node.set_ready(True)
            else:
                try:
                    await join_or_create(node, disc, args.game, args.players, args.passphrase,
                                         args.wait, args.colour, timeout=args.timeout,
                                         on_settled=show_table,
                                         variant="two-colours" if args.two_colours
                                         else "standard")
                except GameRunning as late:
                    show_table()
                    if not await _latecomer(node, late.info, args):
                        raise _Running() from None
            await wait_game(node, args.timeout)

        task = asyncio.create_task(play())
        # (its own --timeout may end it as the wait below gives up on it: its exception
        # is then nobody's, and asyncio printed it as a traceback at exit)
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        stopper = asyncio.create_task(stop.wait())
        done, _ = await asyncio.wait({task, stopper}, timeout=args.timeout,
                                     return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if task in done and task.exception() is None and node.stopped is None:
            # game_over is announced once the record is closed on disk
            await node.wait_for(lambda: bool(final), 30, raise_on_timeout=False)
        if task in done and task.exception() is None and node.stopped is None and final:
            # stay a moment so peers still behind can fetch the last moves from us
            await node.wait_for(node.caught_up, 10.0, raise_on_timeout=False)
            if args.linger > 0 and not node.core.everyone_caught_up():
                # and for those away (asleep, perhaps), if asked to
                _out({"event": "lingering", "seconds": args.linger, "digest": final["digest"]})
                await node.wait_for(node.core.everyone_caught_up, args.linger,
                                    raise_on_timeout=False)
            final["refused"] = refused
            _out(final)
            _close_output()
            code = 0
        elif task in done and isinstance(task.exception(), _Running):
            code = 3  # told it runs and how to watch it: not an error, but no game played
        elif task in done and task.exception() is not None:
            _out({"event": "error", "reason": str(task.exception()) or repr(task.exception())})
        elif node.stopped:
            _out({"event": "error", "reason": node.stopped})
        elif stop.is_set() and node.game is not None and not node.game.is_over:
            # SIGINT/SIGTERM at the table: a goodbye for good, so nobody waits for us
            task.cancel()
            await node.leave(for_good=True)
            _out({"event": "left", "for_good": True, "moves": len(node.game.moves),
                  "record": str(record)})
            code = 0  # left on purpose: the record is whole up to here
        else:
            task.cancel()
            if not stop.is_set() and node.game is not None and not node.game.is_over:
                await node.leave(for_good=True)  # (the table must not wait for us)
            _out({"event": "error", "reason": "interrupted" if stop.is_set() else
                  f"no result within {args.timeout:.0f} s"})
    finally:
        if board is not None:
            await board.close()
        if stop.is_set():  # asked to stop: a goodbye the table hears, then close
            await node.leave()
        else:
            await node.close()
        if disc is not None:
            await disc.close()
    return code


# A test hook, never for players: with it set, this laptop behaves as a broken build
# would — its moves, draw values, heartbeats, lobbies and logs corrupted before its key
# signs them, each with probability RATE (net/lab/corrupt.py) — so a test can show that
# three honest laptops expel it and play on (tests/net/test_netns_broken.py;
# docs/network.md, "A broken laptop at the table").
BROKEN_ENV = "TONGIAKI_TEST_BROKEN"


def _break(node, spec: str) -> None:
    from tongiaki_lan.net.lab.corrupt import Corruptor
    from tongiaki_lan.net.protocol.proofs import re_sign

    rate, _, seed = spec.partition(":")
    value = float(rate)
    if not 0.0 <= value <= 1.0:
        raise ValueError(spec)
    Corruptor(value, int(seed or 0), re_sign=re_sign).attach(node.core)
    _out({"event": "warning", "text": f"{BROKEN_ENV} is set: this laptop corrupts "
          f"{value:.0%} of its game messages (a test hook: a broken build)"})


async def start_board(node, args: argparse.Namespace, say):
    """`--board`: the node's table as a live page, its address said as a JSON line
    (`{"event": "board", "url": ...}`, which tools wait for). None without `--board`;
    False when it cannot be served (said why as an error line)."""
    if not getattr(args, "board", False):
        return None
    from tongiaki_lan.console.boardlink import BoardLink
    from tongiaki_lan.console.nodeboard import NodeBoard
    from tongiaki_lan.console.web import BoardServerError

    link = BoardLink(host=args.board_host)
    try:
        url = await link.start()
    except BoardServerError as exc:
        say({"event": "error", "reason": str(exc)})
        return False
    table = NodeBoard(node, link)
    say({"event": "board", "url": url})
    return _Board(table, link)


class _Board:
    """A headless node's page and its table, closed together."""

    def __init__(self, table, link) -> None:
        self.table, self.link = table, link

    async def close(self) -> None:
        await self.table.close()
        await self.link.close()


class _Running(Exception):
    """The game runs and has no seat for us: said, and the command ends (exit code 3)."""


async def _latecomer(node, info, args: argparse.Namespace) -> bool:
    """`play --game NAME` when NAME has started: look at it as a watcher; take a seat a
    bot plays if the table lets newcomers (the colour asked for, else the first), else
    say how far it is and how to watch it. True once seated."""
    from tongiaki_lan.net.aio.matchmaking import watch_advertised
    from tongiaki_lan.net.aio.node import JoinRefused

    try:
        await watch_advertised(node, info, args.passphrase)
        core = node.core
        def looked() -> bool:  # an open seat seen, or caught up with the feeder's game
            if node.lobby_json().get("open_seats"):
                return True
            have = len(node.game.moves) if node.game is not None else -1
            return core.feeder in core._progress and have >= core._progress[core.feeder]

        await node.wait_for(looked, 5.0, raise_on_timeout=False)
        moves = max(core._progress.get(core.feeder, 0),
                    len(node.game.moves) if node.game is not None else 0)
        seats = node.lobby_json().get("open_seats", [])
        mine = [i for i in seats if node.lobby.seats[i].colour == args.colour] or seats
        if mine:
            await node.take_seat(mine[0])
            return True
    except JoinRefused as exc:
        _out({"event": "running", "game": info.name, "game_id": info.game_id.hex(),
              "reason": str(exc), "watch": f"tongiaki-lan watch --game {info.name!r}"})
        return False
    _out({"event": "running", "game": info.name, "game_id": info.game_id.hex(),
          "moves": moves, "open_seats": 0,
          "reason": f"{info.name!r} is running, {moves} moves in; you may watch",
          "watch": f"tongiaki-lan watch --game {info.name!r}"})
    await node.leave_game()
    return False

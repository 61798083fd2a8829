"""`tongiaki-lan bench engine|net|pace|board`: speed figures, reported (never asserted in
tests)."""

from __future__ import annotations

import argparse
import json
import platform
import time

from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.selfplay import game_seed, play_game


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("target", choices=["engine", "net", "pace", "board"],
                   help="engine: games a second; net: move latency on loopback; pace: what "
                        "a solo player waits for each bot's move; board: a move's time to "
                        "the board page in Chromium")
    p.add_argument("--players", type=T.whole(2, 6), default=4, help="engine, pace: 2 to 6")
    p.add_argument("--games", type=T.whole(1, T.GAMES_MAX), default=None,
                   help="games to play (default: engine 500, pace 2)")
    p.add_argument("--bot", type=T.bot_kind(), default=None,
                   help="the bots (default: engine random, pace the normal level)")
    p.add_argument("--pace", type=T.seconds(T.PACE_MAX, zero=True), default=0.4,
                   help="pace: seconds between bot moves, as solo's --pace (default 0.4)")
    p.add_argument("--peers", type=T.whole(2, 6), default=6,
                   help="net: nodes on loopback, 2 to 6")
    p.add_argument("--moves", type=T.whole(1, T.MOVES_MAX), default=300,
                   help="net, board: moves to time")
    p.add_argument("--chromium", metavar="PATH", type=T.existing_file("a Chromium program"),
                   help="board: the Chromium to drive (default: /usr/bin/chromium, or "
                        "chromium on the PATH)")
    p.add_argument("--loss", type=T.number(0.0, 0.5, what="a probability"), default=0.0,
                   help="net: lose each datagram with this probability (seeded lossy link)")
    p.add_argument("--watchers", type=T.whole(0, 96), default=0,
                   help="net: also time games that this many watchers follow (every other "
                        "game), reported beside the unwatched ones")
    p.add_argument("--anchor", metavar="PATH",
                   type=T.directory("a checkout of lakenen/tongiaki", existing=True),
                   help="engine: also time the Python engine of a lakenen/tongiaki checkout at "
                        "PATH, in turns with ours (4 players)")
    p.add_argument("--rounds", type=T.whole(1, 100), default=3,
                   help="engine --anchor: rounds in turn")
    p.add_argument("--json", action="store_true")


def bench_engine(players: int, games: int, bot: str) -> dict:
    """Games played the way `selfplay` plays them (bots behind the public-view wall),
    and the same games with a bare random chooser, which isolates the rules engine."""
    decisions = turns = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        result = play_game(game_seed("bench", i), players, [bot])
        decisions += result.moves
        turns += result.turns
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu

    engine_wall, engine_cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        game = Game(COLOURS[:players], undo=False)
        dealer = Dealer(game_seed("bench", i))
        chooser = RandomBot(i)
        while not game.is_over:
            dealer.apply(game, chooser.choose(game))
    engine_wall = time.perf_counter() - engine_wall
    engine_cpu = time.process_time() - engine_cpu
    return {
        "target": "engine",
        "players": players,
        "games": games,
        "bot": bot,
        "seconds": round(wall, 3),
        "games_per_s": round(games / wall, 1),
        "decisions_per_s": round(decisions / wall, 1),
        "cpu_games_per_s": round(games / cpu, 1),
        "engine_only_games_per_s": round(games / engine_wall, 1),
        # CPU time, not wall time: a fairer figure on a machine busy with other work
        "engine_only_cpu_games_per_s": round(games / engine_cpu, 1),
        "decisions_per_game": round(decisions / games, 1),
        "turns_per_game": round(turns / games, 1),
        "python": platform.python_version(),
    }


def bench_pace(players: int, games: int, bot: str, pace: float) -> dict:
    """Solo games of one player (who takes the first legal move at once) against bots,
    timed as the player sees them: from the move before on the board to each bot's move.
    README's "a quarter of a second" was the bot's thinking alone; the player also waits
    the pace."""
    import asyncio

    from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
    from tongiaki_lan.measure import percentile

    async def one(i: int) -> list[float]:
        session = SoloSession(seed_from_text(f"pace/{i}"), solo_seats(players - 1, "Me", bot),
                              record_path=None, pace=pace)
        waits: list[float] = []
        last = {"at": time.perf_counter(), "seat": None}

        def changed() -> None:
            now = time.perf_counter()
            if last["seat"] is not None and last["seat"] not in session.local_seats():
                waits.append(now - last["at"])
            pending = session.game.pending
            last.update(at=now, seat=pending.seat if pending is not None else None)

        session.subscribe(changed)
        await session.start()
        pending = session.game.pending
        last.update(at=time.perf_counter(), seat=pending.seat if pending else None)
        moved = asyncio.Event()
        session.subscribe(moved.set)
        while not session.game.is_over:
            if session.my_decision():
                await session.submit(session.game.legal_moves()[0])
            else:
                moved.clear()
                await moved.wait()
        await session.close()
        return waits

    async def all_games() -> list[float]:
        return [w for i in range(games) for w in await one(i)]

    waits = sorted(asyncio.run(all_games()))
    return {
        "target": "pace", "players": players, "games": games, "bot": bot, "pace_s": pace,
        "bot_moves": len(waits),
        "mean_wait_s": round(sum(waits) / len(waits), 3) if waits else None,
        "p50_wait_s": round(percentile(waits, 0.5), 3) if waits else None,
        "p95_wait_s": round(percentile(waits, 0.95), 3) if waits else None,
        "max_wait_s": round(waits[-1], 3) if waits else None,
        "python": platform.python_version(),
    }


def run(args) -> int:
    if args.target == "pace":
        out = bench_pace(args.players, args.games or 2, args.bot or "normal", args.pace)
    elif args.target == "engine" and args.anchor:
        from tongiaki_lan.cli.bench_anchor import AnchorError, check_anchor, compare

        if args.players != 4:
            print("bench engine --anchor: the anchor plays 4-player games; use --players 4")
            return 2
        try:
            root = check_anchor(args.anchor)
            games, bot = args.games or 500, args.bot or "random"
            out = compare(lambda: bench_engine(4, games, bot), root, games,
                          max(1, args.rounds))
        except AnchorError as exc:
            print(f"bench engine --anchor: {exc}")
            return 2
    elif args.target == "engine":
        out = bench_engine(args.players, args.games or 500, args.bot or "random")
    elif args.target == "board":
        import asyncio

        from tongiaki_lan.console.web.bench import BenchError, run_bench_board

        try:
            out = asyncio.run(run_bench_board(args.moves, args.players,
                                              str(args.chromium) if args.chromium else None))
        except BenchError as exc:
            print(f"bench board: {exc}")
            return 2
    else:
        try:
            from tongiaki_lan.net.lab.bench import run_bench_net
        except ImportError as exc:
            print(f"bench net: the network layer is not available ({exc})")
            return 2
        out = run_bench_net(args.peers, args.moves, loss=args.loss, watchers=args.watchers)
    if args.json:
        print(json.dumps(out))
    else:
        for k, v in out.items():
            print(f"{k}: {v}")
    return 0

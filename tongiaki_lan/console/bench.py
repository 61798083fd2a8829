"""How long drawing the board takes: `python -m tongiaki_lan.console.bench [--json]`.

Drawing happens on every keypress and every move, so it must stay far below a
frame (the target is a full 31-tile board in well under 20 ms). The board used is
the fullest one reached by random games over a fixed range of seeds.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time

from tongiaki_lan.bots import make_bot
from tongiaki_lan.engine import Dealer, Game

from .terminal.board import COMPACT, FULL, HEX_H, HEX_W, BoardView, board_extent, tile_face


def full_board(min_tiles: int = 31, tries: int = 400) -> Game:
    """A finished random game with as many tiles on the board as can be found."""
    best = None
    for i in range(tries):
        seed = hashlib.blake2b(f"console-bench/{i}".encode(), digest_size=32).digest()
        g = Game(["blue", "red", "green", "yellow"], undo=False)
        dealer = Dealer(seed)
        bot = make_bot("random", seed=i)
        while not g.is_over:
            dealer.apply(g, bot.choose(g))
        if best is None or len(g.placed_tiles()) > len(best.placed_tiles()):
            best = g
        if len(best.placed_tiles()) >= min_tiles:
            break
    return best


def measure(game: Game, width: int, height: int, repeat: int, cold: bool) -> float:
    view = BoardView()
    times = []
    for _ in range(repeat):
        if cold:
            tile_face.cache_clear()
        t0 = time.perf_counter()
        view.render(game, width, height).fragment_lines()
        times.append(time.perf_counter() - t0)
    times.sort()
    return times[len(times) // 2] * 1000


def measure_screen(game: Game, columns: int, rows: int, repeat: int) -> float:
    """The whole game screen (map, panel, log, status, prompt) through prompt_toolkit's
    renderer into an in-memory VT100 terminal of the given size."""
    import asyncio
    import io

    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.application.current import set_app
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output.vt100 import Vt100_Output

    from .feeds.base import GameSession
    from .seats import Seat
    from .story import tell_all
    from .terminal.screen import GameScreen

    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=rows, columns=columns), term="xterm-256color")
    names = ["Ana", "Hina", "Maui", "Kupe"]
    times = []

    async def run() -> None:
        with create_pipe_input() as inp, create_app_session(input=inp, output=output):
            seats = [Seat(n, c) for n, c in zip(names, game.colours, strict=True)]
            session = GameSession(game, seats)
            session.lines = tell_all(game, names, game.events)
            screen = GameScreen(session)
            screen.show_board = True  # the map, not the final table, is the heavy part
            app = screen.app
            with set_app(app):
                for _ in range(repeat):
                    app.renderer.reset()  # draw everything, not just what changed
                    t0 = time.perf_counter()
                    app.renderer.render(app, app.layout)
                    times.append(time.perf_counter() - t0)
                    sink.seek(0)
                    sink.truncate()

    asyncio.run(run())
    times.sort()
    return times[len(times) // 2] * 1000


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    game = full_board()
    x0, y0, x1, y1 = board_extent(game.placed_tiles())
    whole = (x1 - x0 + HEX_W, y1 - y0 + HEX_H)
    cx0, cy0, cx1, cy1 = board_extent(game.placed_tiles(), COMPACT)
    result = {"tiles": len(game.placed_tiles()), "board_chars": list(whole),
              "compact_board_chars": [cx1 - cx0, cy1 - cy0]}
    # the map of a 120x40 screen is 79x37: there this board is drawn compact
    view = BoardView()
    view.render(game, 79, 37)
    result["120x40_map_geometry"] = view.geometry.name
    assert view.geometry in (FULL, COMPACT)
    for label, (w, h) in {"whole_board": whole, "80x24_map": (47, 21), "120x40_map": (79, 37),
                          "200x60_map": (150, 57)}.items():
        result[f"{label}_ms_p50"] = round(measure(game, w, h, args.repeat, cold=False), 3)
        result[f"{label}_cold_ms_p50"] = round(measure(game, w, h, args.repeat, cold=True), 3)
    for cols, rows in ((80, 24), (120, 40), (200, 60)):
        result[f"screen_{cols}x{rows}_ms_p50"] = round(
            measure_screen(game, cols, rows, max(5, args.repeat // 5)), 3)
    if args.json:
        print(json.dumps(result))
    else:
        for k, v in result.items():
            print(f"{k:28} {v}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

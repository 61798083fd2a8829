"""`tongiaki-lan selfplay`: bots play complete games; one JSON line per game."""

from __future__ import annotations

import argparse
import json

from tongiaki_lan.engine.variant import STANDARD, VARIANTS
from tongiaki_lan.selfplay import game_seed, play_game


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import optiontypes as T

    p.add_argument("--players", type=T.whole(2, 6), default=4, help="2 to 6 (default 4)")
    p.add_argument("--games", type=T.whole(1, T.GAMES_MAX), default=1)
    p.add_argument("--seed", type=T.text("a seed"), default="0",
                   help="base seed; game i uses a seed derived from it")
    p.add_argument("--bot", type=T.bot_list(1, 6, budgets=False), default="random",
                   help="bot kind for every seat, or a comma list seat by seat")
    p.add_argument("--think", type=T.seconds(T.THINK_MAX), default=None,
                   help="think time for search bots (s)")
    p.add_argument("--records", type=T.directory("a directory for records"), default=None,
                   help="write one record per game here")
    p.add_argument("--json", action="store_true", help="one JSON object per line")
    p.add_argument("--variant", choices=VARIANTS, default=STANDARD,
                   help="two-colours: 2 players with two colours each, played alternately "
                        "(the French rulebook's two-player variant; needs --players 2)")


def run(args) -> int:
    if not 2 <= args.players <= 6:
        print("selfplay: --players must be 2..6")
        return 2
    if args.variant != STANDARD and args.players != 2:
        print(f"selfplay: --variant {args.variant} is for --players 2")
        return 2
    bots = [b.strip() for b in args.bot.split(",") if b.strip()]
    options = {"think": args.think} if args.think is not None else {}
    for i in range(args.games):
        try:
            result = play_game(game_seed(args.seed, i), args.players, bots, args.records, options,
                               variant=args.variant)
        except ValueError as exc:  # unknown bot kind and the like
            print(f"selfplay: {exc}")
            return 2
        if args.json:
            print(json.dumps(result.to_json()), flush=True)
        else:
            scores = ", ".join(f"{c} {s}" for c, s in result.scores.items())
            if result.players:  # V1: by player, a player's colours joined
                scores = ", ".join(f"{'+'.join(p['colours'])} {p['score']}"
                                   for p in result.players)
            print(f"game {i}: {scores}; winner {' & '.join(result.winners)} "
                  f"after {result.turns} turns ({result.digest.hex()[:16]})", flush=True)
    return 0

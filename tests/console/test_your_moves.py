"""What you typed is yours: in a LAN game played by typed moves, "Since your last move"
lists only the other players' moves, once per decision of yours, after the story lines
it sums up — never a move of your own as a bot's.

Two real nodes on 127.0.0.1, no autoplay; each player's moves go through its own
console session (`LanSession.submit`, where the game screen sends a typed line).
"""

from __future__ import annotations

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.lan import LanSession
from tongiaki_lan.engine import parse_move
from tongiaki_lan.net.lab.loopback import close_all, make_table

from .conftest import wait_until

SUMMARY = "Since your last move:"


async def test_typed_moves_are_never_listed_as_a_bots(tmp_path):
    nodes = await make_table(2, tmp_path, autoplay=None)
    try:
        await nodes[0].wait_for(lambda: all(nd.game is not None for nd in nodes), 30)
        sessions = [LanSession(nd) for nd in nodes]
        for s in sessions:
            await s.start()
        bots = [make_bot("random", seed=i + 7) for i in range(2)]
        # a summary is due at each of our decisions where the other moved since the last
        typed = 0
        while typed < 120 and not nodes[0].game.is_over:
            await wait_until(lambda: any(s.my_decision() for s in sessions)
                             or nodes[0].game.is_over, what="someone's decision")
            if nodes[0].game.is_over:
                break
            i = next(k for k, s in enumerate(sessions) if s.my_decision())
            s = sessions[i]
            n = len(s.game.moves)
            text = str(bots[i].choose(s.game.copy()))
            await s.submit(parse_move(text))  # as typed on that keyboard
            typed += 1
            await wait_until(lambda n=n: all(len(x.game.moves) > n for x in sessions),
                             what="the move on both laptops")
        assert typed >= 40
        for s, nd in zip(sessions, nodes, strict=True):
            texts = [t for _style, t in s.lines]
            assert not any("a bot's moves" in t for t in texts), texts
            mine = s.names[nd.my_seats()[0]]
            other = next(n for n in s.names if n != mine)
            summaries = [k for k, t in enumerate(texts) if t == SUMMARY]
            assert summaries, "the other player's moves were summarised"
            for k in summaries:
                body = texts[k + 1]
                # only the other player's moves, and never two summaries in a row
                assert body.startswith(f"  {other}:"), body
                assert SUMMARY not in texts[k + 2:k + 3]
            # after the story lines: a summary is never the line right after a turn header
            assert all(not texts[k - 1].startswith("──") for k in summaries)
        for s in sessions:
            await s.close()
    finally:
        await close_all(nodes)


def test_the_summary_names_who_made_each_move_when_a_seat_changed_hands():
    """"Since your last move: Dee: expand Tahiti, sail Tahiti 2 NE" — but the bot in Ben's
    seat made those moves before Dee sat down (a LAN-party playtest). Each move is now
    named by who played the seat when it was made."""
    from tongiaki_lan.console.feeds.base import GameSession
    from tongiaki_lan.console.seats import Seat
    from tongiaki_lan.engine import Dealer, Game

    game = Game(["blue", "red"])
    session = GameSession(game, [Seat("Ana", "blue", local=True), Seat("Ben", "red")])
    dealer = Dealer(bytes(32))
    bot = make_bot("random", seed=5)
    ours = 0
    while ours < 3:  # to our third decision: the first summaries are then behind us
        if session.my_decision():
            ours += 1
            session.changed()  # (the summary's snapshot is taken at our decision)
            if ours == 3:
                break
        dealer.apply(game, bot.choose(game))
    # our move, then the red seat moves: some while Ben's bot has it, then Dee sits down
    red = []
    while not red or game.pending.seat != 0 or len(red) < 4:
        if game.pending.seat == 1:
            red.append(len(game.moves))
        if len(red) == 2 and not session.names_from:
            session.names_from = [(0, ["Ana", "Ben"]), (len(game.moves), ["Ana", "Dee"])]
            session.seats[1].name = "Dee"
        dealer.apply(game, bot.choose(game))
        if game.pending.seat == 0 and len(red) >= 4:
            break
    session.changed()
    summary = [t for style, t in session.lines if style == "summary"]
    assert summary[-1].startswith("  Dee: ") and summary[-2].startswith("  Ben: "), summary

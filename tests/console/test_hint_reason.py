"""`hint` says why, as far as it can: a newcomer told only "place Tonga 2" learned
nothing, and could not tell a decision that matters from one that hardly does (a
newcomer's playtest: "hint gives no reason")."""

from __future__ import annotations

import asyncio
import re

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import hint_reason
from tongiaki_lan.engine import Dealer, Game, Sail
from tongiaki_lan.i18n.islands import shown_move

from .conftest import start_screen, wait_until

CHANCES = re.compile(r"the bot's look-ahead: about (\d+) % to win with it, (?:(\d+) % with "
                     r"|much the same with )(.+)$")


async def test_a_hint_names_its_chance_and_the_next_best_option():
    session = SoloSession(seed_from_text("hint-why"), solo_seats(2, "Tester", "random"),
                          pace=0, hint_kind="normal")
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen, task = await start_screen(session)
        await wait_until(session.my_decision, what="our first decision")
        legal = {shown_move(str(m), spaced=True) for m in session.game.legal_moves()}
        inp.send_text("\x15hint\r")
        await wait_until(lambda: screen.message[1].startswith("Hint:"), what="the hint",
                         timeout=60)
        text = screen.message[1]
        found = CHANCES.search(text)
        assert found, text
        hinted = screen.buffer.text
        # (the move read as the next best is: `sail Rapa Nui 2 SE`, not `RapaNui`)
        assert text.startswith(f"Hint: {shown_move(hinted, spaced=True)} (Enter plays it) — "
                               "the bot's look-ahead")
        assert 0 <= int(found.group(1)) <= 100
        # the next best is another legal option of this decision, not the hint again
        assert found.group(3) in legal and found.group(3) != shown_move(hinted, spaced=True)
        inp.send_text("\x15quit\r\r")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


def test_a_departure_says_where_it_goes_and_a_bot_without_chances_claims_none():
    game = Game(["blue", "red"])
    dealer = Dealer(seed_from_text("hint-sail"))
    bot = make_bot("random", seed=3)
    while not any(isinstance(m, Sail) for m in game.legal_moves()):
        dealer.apply(game, bot.choose(game))
    move = next(m for m in game.legal_moves() if isinstance(m, Sail))
    reason = hint_reason(game, move, ())  # (random and greedy hints have no chances)
    assert reason.startswith(" → ") and "look-ahead" not in reason
    options = ((move, 0.5), (game.legal_moves()[-1], 0.25))
    assert reason + " — the bot's look-ahead: about 50 % to win with it, 25 % with " in (
        hint_reason(game, move, options))
    # chances given for another move than the hint (never expected) are not shown
    assert hint_reason(game, move, options[::-1]) == reason


def test_the_next_best_option_is_named_as_the_map_writes_it():
    """"much the same with expand RapaNui": the next best option is read, not typed."""
    from tongiaki_lan.engine import Expand
    from tongiaki_lan.engine.tiles import tile_by_name

    game = Game(["blue", "red"])
    move = Expand(tile_by_name("Samoa").id)
    other = Expand(tile_by_name("Rapa Nui").id)
    assert hint_reason(game, move, ((move, 0.5), (other, 0.2))).endswith(
        "about 50 % to win with it, 20 % with expand Rapa Nui")

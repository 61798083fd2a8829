"""A departure the engine settles by itself says which pier and why (rules X2a, X2d),
as an X1 placement says "(X1)": a newcomer's playtest read "Samoa beach 2 is full: B B G
Y sail NW." at a departure nobody had been asked about, with no word of why NW."""

from __future__ import annotations

import re

from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.engine import Sail
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n.islands import island_name

X2A = re.compile(r"(?:Chain reaction! )?(\S+) beach (\d) is full: [BRGYOP ]+ sail (\w+): "
                 r"([\w, ]+) would lead back to \1 \(X2a\)\.")
SETTLED = re.compile(r"(its only pier\.|\(X2a\)\.|\(X2d\)\.)$")


async def _play(seed: str) -> SoloSession:
    session = SoloSession(seed_from_text(seed), solo_seats(3, "Tester", "random"),
                          record_path=None, pace=0, hint_kind="random")
    await session.start()
    while not session.game.is_over:
        if session.my_decision():
            await session.submit(await session.hint())
        else:
            await session._driver  # the bots move until our decision comes back
    await session.close()
    return session


async def test_a_settled_departure_says_which_pier_and_why():
    session = await _play("x2a-3")
    game = session.game
    told = [t for _s, t in session.lines]
    departures = [t for t in told if " is full: " in t and " sail " in t]
    settled = [t for t in departures if SETTLED.search(t)]
    # every departure is either a Sail move someone chose or one the engine settled
    sails = sum(isinstance(m, Sail) for m in game.moves)
    assert len(departures) == sails + len(settled)
    x2a = [X2A.match(t) for t in settled if "(X2a)" in t]
    assert x2a and all(x2a), settled
    for m in x2a:  # the piers named lead back over the board (the colour test too)
        island = next(t for t in game.islands() if island_name(t) == m.group(1))
        for word in m.group(4).split(", "):
            assert game.leads_back(island, DIRECTION_NAMES.index(word), 5), m.group(0)
        assert m.group(3) not in m.group(4).split(", ")
    # a departure a move chose says nothing of the kind
    assert all(not SETTLED.search(t) for t in departures if t not in settled)

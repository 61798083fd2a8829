"""A table for the door's tests: a real game made into states by the real table model.

The door's tests (test_door.py) want a table that moves at once when told to and records
the commands a page sent, with no console and no bots thinking in another thread: you
against random bots that answer within `play()`. Its states are the table model's own
(`TableModel` over a plain feed), so the page and the server are tested against what
the product serves. The page's own tests drive the real consoles (tests/web/live.py).
"""

from __future__ import annotations

from tongiaki_lan.bots.random_bot import RandomBot
from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.state import TableState
from tongiaki_lan.console.words import engine_reason
from tongiaki_lan.engine import COLOURS, Dealer, Game, IllegalMove, parse_move
from tongiaki_lan.i18n.islands import engine_text
from tongiaki_lan.selfplay import game_seed

NAMES = ("Ana", "Hina", "Maui", "Kupe", "Tane", "Rangi")


class SoloTable:
    """You (seat 0) against random bots, who answer at once. `server` (set by the test)
    is told of every change."""

    def __init__(self, players: int = 3, seed: str = "web", you: int = 0) -> None:
        game = Game(COLOURS[:players])
        self.dealer = Dealer(game_seed(seed, 0))
        self.you = you
        self.bots = {s: RandomBot(s) for s in range(players) if s != you}
        seats = [Seat(NAMES[s], COLOURS[s], "human" if s == you else "random",
                      local=s == you) for s in range(players)]
        self.feed = GameSession(game, seats)
        self.model = TableModel(self.feed)
        self.model.subscribe(self._publish)
        self.server = None
        self.commands: list[str] = []  # every command the page sent, in order

    @property
    def game(self) -> Game:
        return self.feed.game

    def _apply(self, move) -> None:
        self.dealer.apply(self.game, move)
        self.feed._drain_events()  # (the story, as a feed tells it)

    def play(self, text: str) -> tuple[str, str]:
        """A move typed for you: applied, then the bots answer."""
        if self.game.pending_seat != self.you:
            return "error", "not your turn"
        try:
            self._apply(parse_move(engine_text(text)))
        except (ValueError, IllegalMove) as exc:
            return "error", f"{text}: {engine_reason(exc)}"
        while not self.game.is_over and self.game.pending_seat != self.you:
            self._apply(self.bots[self.game.pending_seat].choose(self.game))
        self.feed.changed()
        return "ok", ""

    async def on_command(self, text: str) -> tuple[str, str]:
        self.commands.append(text)
        return self.play(text)

    def state(self) -> TableState:
        return self.model.state

    def _publish(self, state: TableState) -> None:
        if self.server is not None:
            self.server.publish(state)

"""Every laptop's `tongiaki-lan records` lists a LAN game alike: the same players, and a
bot said to have played for a person only (a LAN playtest with six laptops). Real nodes
on 127.0.0.1, each with a data directory of its own, as at a party: Ana and Ben at the
keyboard, Kai a laptop that plays with a bot (`play --headless --bot`), and Dee who comes
to watch mid-game.

The playtest saw "(a bot played some turns for Kai)" of the bot laptop, which the table
had handed to its own bot while the laptop was away, and a late arrival whose record
called Ben a bot from the first move (her record began while a bot played Ben's seat)."""

from __future__ import annotations

import os
import subprocess
import sys

from tongiaki_lan.net.aio.node import GameRef, Node
from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket
from tongiaki_lan.net.lab.loopback import close_all, play_to_end
from tongiaki_lan.records import read_record

from .helpers import verify_record


def _records(directory) -> list[str]:
    """What `tongiaki-lan records` prints for the one game in `directory`, without the
    time it was written and the path (they differ from laptop to laptop)."""
    out = subprocess.run([sys.executable, "-m", "tongiaki_lan", "records", "--records",
                          str(directory)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "200"})
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("  1. "), lines
    return [lines[0].split("  ", 2)[2], *(x.strip() for x in lines[1:-2])]


class _Party:
    """Three laptops, each behind a fault rule of its own (clean until a test cuts one)."""

    def __init__(self, root) -> None:
        self.rules: dict[int, FaultRule] = {}
        self.root = root

    def laptop(self, i: int, name: str, bot: str | None) -> Node:
        self.rules[i] = FaultRule(seed=i)
        return Node(name, host="127.0.0.1", record_dir=self.root / name, autoplay=bot,
                    wrap_socket=lambda s: FaultySocket(s, self.rules[i]))

    def away(self, i: int, node: Node, others: tuple[int, ...]) -> None:
        """Laptop `i` cut off both ways, its player gone from the keyboard."""
        node.core.autoplay = None
        self.rules[i].drop = 1.0
        for j in others:
            self.rules[j].cut.add(("127.0.0.1", node.address[1]))

    def back(self, i: int, node: Node, bot: str = "random") -> None:
        node.core.autoplay = bot
        self.rules[i].drop = 0.0
        for rule in self.rules.values():
            rule.cut.clear()


async def test_every_laptop_lists_the_game_alike_and_a_bot_laptop_is_not_helped(tmp_path):
    party = _Party(tmp_path)
    ana, ben = party.laptop(0, "Ana", None), party.laptop(1, "Ben", None)
    kai = party.laptop(2, "Kai", "random")  # (says it plays with a bot when it joins)
    dee = Node("Dee", host="127.0.0.1", record_dir=tmp_path / "Dee")
    table = [ana, ben, kai]
    try:
        for node in (*table, dee):
            await node.start()
        await ana.create_game("Reef", 3)
        ref = GameRef(ana.game_id, ana.peer_id, "127.0.0.1", ana.address[1], False)
        for node in (ben, kai):
            await node.join_game(ref, timeout=20)
        for node in table:
            node.core.autoplay = "random"  # (the people's moves: a bot's, after the join)
            node.core.handover_after = 1.0
            node.bot_delay = 0.05
            node.set_ready(True)
        await ana.wait_for(lambda: ana.game is not None and len(ana.game.moves) > 10, 60)
        seat_of = {nd.name: nd.core.my_seats()[0] for nd in table}

        def moves_on(n: int):
            start = len(ana.game.moves)
            return lambda: len(ana.game.moves) >= start + n or ana.game.is_over

        def decision_of(name: str, yes: bool):
            """Whether it is (`yes`), or no longer is, a decision of `name`'s seat: a turn is
            several moves, and a dozen of them can all be the others'."""
            return lambda: ana.game.is_over or (ana.game.pending is not None and (
                ana.game.pending.seat == seat_of[name]) == yes)

        # Kai's laptop away: the table's bot plays the bot laptop's seat for a while
        party.away(2, kai, (0, 1))
        await ana.wait_for(lambda: ana.lobby.seats[seat_of["Kai"]].bot, 30)
        await ana.wait_for(moves_on(12), 60)
        # and a decision of Kai's played by the table's bot (twelve moves had none, once)
        await ana.wait_for(decision_of("Kai", True), 60)
        await ana.wait_for(decision_of("Kai", False), 60)
        party.back(2, kai)
        await ana.wait_for(lambda: not ana.lobby.seats[seat_of["Kai"]].bot, 60)
        # then Ben's: Dee comes to watch while the bot plays his seat
        party.away(1, ben, (0, 2))
        await ana.wait_for(lambda: ana.lobby.seats[seat_of["Ben"]].bot, 30)
        await ana.wait_for(moves_on(9), 60)
        arrived = len(ana.game.moves)
        await dee.watch_game(ref)
        await dee.wait_for(lambda: dee.game is not None and dee.core.caught_up_with_table(), 60)
        await ana.wait_for(moves_on(6), 60)
        # and a decision of Ben's played by the bot since Dee came (six moves can all be
        # the others', and then Dee had no bot move to record)
        await ana.wait_for(decision_of("Ben", True), 60)
        await ana.wait_for(decision_of("Ben", False), 60)
        party.back(1, ben)
        await play_to_end(table)
        await dee.wait_for(lambda: dee.game is not None and dee.game.is_over, 60)
        await dee.flush_record()
        assert not ana.core.stopped and len({nd.game.digest() for nd in (*table, dee)}) == 1

        seated = read_record(ana.record_path)
        assert {seat_of["Kai"], seat_of["Ben"]} <= {s for _, bots in seated.bots
                                                    for s, bot in enumerate(bots) if bot}
        listed = {nd.name: _records(tmp_path / nd.name) for nd in (*table, dee)}
        game, note = listed["Ana"]
        assert " · Ana, Ben, Kai · " in game and note == "(a bot played some turns for Ben)"
        assert listed["Ben"] == listed["Kai"] == listed["Ana"]
        assert listed["Dee"] == [game.replace("Reef ·", "Reef (watched) ·"), note]
        # Dee's record: Ben a person, as everywhere, and no bot before she came (who
        # played those moves is not on the wire: protocol/watching.md)
        watched = read_record(dee.record_path)
        assert watched.header.seats == seated.header.seats
        assert watched.bots and all(at >= arrived for at, _ in watched.bots)
        assert verify_record(dee.record_path) == ana.game.digest()
    finally:
        await close_all([*table, dee])

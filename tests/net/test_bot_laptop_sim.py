"""A laptop that plays its seat with a bot (`play --headless --bot normal`) says so when it
joins, and every laptop of the table knows that seat for a bot's (protocol/wire.md, JOIN).
Before, the seat read as a person's on every screen and in every record ("Winner: Kai.")."""

from __future__ import annotations

from tongiaki_lan.net.lab.simnet import SimNet


def test_every_laptop_knows_the_seat_a_laptop_plays_with_a_bot():
    net = SimNet(seed=71)
    ana = net.add("Ana", "10.0.0.1")  # a person at the keyboard
    kai = net.add("Kai", "10.0.0.2", autoplay="normal")
    net.act(ana, ana.core.create_game, "Reef", 2, None, "")
    net.act(kai, kai.core.begin_join, ana.core.game_id, ana.core.peer_id, ana.addr, None, "")
    net.run_until(kai.core.seated, 30)
    for node in (ana, kai):
        net.act(node, node.core.set_ready, True)
    net.run_until(lambda: ana.game is not None and kai.game is not None, 60)
    for node in (ana, kai):
        assert [(s.name, s.kind, s.plays) for s in node.core.lobby.seats] == [
            ("Ana", "human", ""), ("Kai", "human", "normal")]
        (started,) = node.kinds("game_start")
        # what the records' headers and the headless event say of each seat
        assert [s["kind"] for s in started.seats] == ["human", "normal"]
        assert [s["plays"] for s in node.core.lobby_json()["seats"]] == ["", "normal"]

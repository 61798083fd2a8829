"""Two players called Ana (issue 18): a name already seated is refused at the join with
a reason that suggests another, and names compare as people read them."""

from __future__ import annotations

import pytest

from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
from tongiaki_lan.net.lab.loopback import close_all
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.codec import AddBot, Join, SetSeat

A, B, C, D = (bytes([i]) * 8 for i in range(1, 5))
ADDR = ("10.0.0.9", 4000)


@pytest.mark.parametrize("second", ["Ana", "ana", " ANA ", "Aña", "Ａｎａ", "Ána"])
def test_a_second_ana_is_refused_however_she_writes_it(second):
    lb = L.new_lobby("g", 4, False, A, "Ana", "", 1)
    why = L.apply_request(lb, B, ADDR, Join(second, ""))
    assert why == (f"the name {second!r} is already taken at this table: choose another, "
                   f"for example {' '.join(second.split()) + ' 2'!r}")
    assert L.is_name_refusal(why)


def test_other_names_are_seated_and_the_suggestion_is_free():
    lb = L.new_lobby("g", 4, False, A, "Ana", "", 1)
    for peer, name in ((B, "Anna"), (C, "Ana 2")):
        lb = L.apply_request(lb, peer, ADDR, Join(name, ""))
    assert [s.name for s in lb.seats] == ["Ana", "Anna", "Ana 2"]
    why = L.apply_request(lb, D, ADDR, Join("ana", ""))
    assert why.endswith("for example 'ana 3'")
    assert not L.is_name_refusal(L.FULL.format(name="'g'"))


def test_renaming_to_a_seated_name_is_refused_but_keeping_ones_own_is_not():
    lb = L.new_lobby("g", 3, False, A, "Ana", "", 1)
    lb = L.apply_request(lb, B, ADDR, Join("Bo", ""))
    assert L.is_name_refusal(L.apply_request(lb, B, ADDR, SetSeat("ANA", "")))
    same = L.apply_request(lb, B, ADDR, SetSeat("bo", "purple"))
    assert same.seats[1].name == "bo" and same.seats[1].colour == "purple"


def test_a_bot_takes_a_name_nobody_at_the_table_has():
    lb = L.new_lobby("g", 3, False, A, "Maui", "", 1)
    lb = L.apply_request(lb, A, ADDR, AddBot("greedy", ""))
    assert lb.seats[1].name == "Hina (greedy)"
    # and a player may not take a bot's name either
    assert L.is_name_refusal(L.apply_request(lb, B, ADDR, Join("hina", "")))


async def test_joining_a_real_table_under_a_seated_name_says_why(tmp_path):
    ana, other = (Node(n, host="127.0.0.1", record_dir=tmp_path / n) for n in ("Ana", "ana "))
    try:
        for nd in (ana, other):
            await nd.start()
        await ana.create_game("harbour", 3)
        with pytest.raises(JoinRefused) as refused:
            await other.join_game(GameRef(ana.game_id, ana.peer_id, "127.0.0.1",
                                          ana.address[1]))
        assert "the name 'ana ' is already taken at this table" in str(refused.value)
        assert "for example 'ana 2'" in str(refused.value)
        assert [s.name for s in ana.lobby.seats] == ["Ana"]
        assert other.lobby is None
    finally:
        await close_all([ana, other])


@pytest.mark.netns
async def test_a_headless_player_whose_name_is_seated_stops_with_the_reason(tmp_path):
    """`play --game reef --name ana` on a second laptop does not open a second table of
    the same name: it says why it cannot sit and stops."""
    import sys

    from .netns import Lan, netns_unavailable
    from .procs import Proc, kill_all

    why = netns_unavailable()
    if why:
        pytest.skip(why)
    with Lan(2) as lan:
        def play(i: int, name: str, wait: str) -> Proc:
            return Proc(lan.cmd(i, sys.executable, "-m", "tongiaki_lan", "play", "--headless",
                                "--name", name, "--game", "reef", "--players", "3",
                                "--record", str(tmp_path / f"h{i}.tgrec"), "--wait", wait,
                                "--timeout", "60"), tmp_path)
        # (the second waits the usual moment to hear of tables before opening one)
        first, second = play(0, "Ana", "0"), play(1, "ana", "3")
        try:
            await first.start()
            await first.wait(lambda: first.count("advertised") >= 1, 60)
            await second.start()
            assert await second.finish(60) == 1
            (err,) = [e for e in second.events if e["event"] == "error"]
            assert "the name 'ana' is already taken at this table" in err["reason"]
            assert "for example 'ana 2'" in err["reason"]
            assert not [e for e in second.events if e["event"] in ("advertised", "lobby")]
        finally:
            await kill_all([first, second])


async def test_a_player_refused_for_the_name_who_renames_is_seated_at_the_next_join(tmp_path):
    """Refused as 'Tom', renamed 'Tim': the next join seats Tim (the earlier refusal, on
    its way again, used to answer it, and the table kept sending it many times a second)."""
    host = Node("Tom", host="127.0.0.1", record_dir=tmp_path / "a")
    late = Node("Tom", host="127.0.0.1", record_dir=tmp_path / "b")
    try:
        for nd in (host, late):
            await nd.start()
        await host.create_game("atoll", 3)
        ref = GameRef(host.game_id, host.peer_id, "127.0.0.1", host.address[1])
        with pytest.raises(JoinRefused, match="already taken"):
            await late.join_game(ref, timeout=10)
        late.name = "Tim"
        await late.join_game(ref, timeout=10)
        await host.wait_for(lambda: len(host.lobby.seats) == 2, 5)
        assert [s.name for s in host.lobby.seats] == ["Tom", "Tim"]
    finally:
        await close_all([host, late])

"""Records: what self-play writes verifies to the same digest; tampering is refused."""

import asyncio
import json
import re
import subprocess
import sys

import msgpack
import pytest

from tongiaki_lan.engine import COLOURS, TILES, Dealer, Game, Reveal, parse_move
from tongiaki_lan.records import (
    RecordError,
    RecordHeader,
    RecordWriter,
    SeatInfo,
    read_record,
    replay_record,
)


def cli(*args):
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args],
                          capture_output=True, text=True)


def test_selfplay_records_verify_to_the_reported_digest(tmp_path):
    out = cli("selfplay", "--players", "3", "--games", "3", "--seed", "rec",
              "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    games = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(games) == 3
    for g in games:
        assert set(g) >= {"seed", "digest", "scores", "winners", "turns", "moves"}
        v = cli("verify", g["record"], "--json")
        assert v.returncode == 0, v.stdout
        verdict = json.loads(v.stdout)
        assert verdict["digest"] == g["digest"]
        assert verdict["scores"] == g["scores"] and verdict["winners"] == g["winners"]


def _small_record(path, moves=6):
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red", "random")))
    g = header.new_game()
    dealer = header.dealer()
    with RecordWriter.create(path, header) as w:
        for _ in range(moves):
            m = g.legal_moves()[0]
            dealer.apply(g, m, lambda mv: w.append(mv, g.digest()))
    return g


def test_a_tampered_move_is_refused_naming_the_move(tmp_path):
    path = tmp_path / "r.tgrec"
    _small_record(path)
    record = read_record(path)
    assert str(record.moves[2]) == "place Tonga 2"
    # rewrite entry 2 as another legal setup move, keeping the recorded digest
    entries = [[i, m.to_wire(), d] for i, (m, d) in enumerate(
        zip(record.moves, record.digests, strict=True))]
    entries[2][1] = parse_move("place Tonga 6").to_wire()
    path.write_bytes(msgpack.packb(record.header.to_wire())
                     + b"".join(msgpack.packb(e) for e in entries))
    out = cli("verify", str(path))
    assert out.returncode == 1
    assert "move 2 (place Tonga 6)" in out.stdout and "digest differs" in out.stdout


def test_a_digest_flipped_late_shows_prefixes_that_differ(tmp_path):
    """A flipped bit past a digest's 16th hex digit: verify printed two identical
    prefixes as "differs"."""
    path = tmp_path / "r.tgrec"
    _small_record(path)
    record = read_record(path)
    digests = list(record.digests)
    late = bytearray(digests[3])
    late[20] ^= 0x01  # (hex digits 40 and 41)
    digests[3] = bytes(late)
    entries = [[i, m.to_wire(), d] for i, (m, d) in enumerate(
        zip(record.moves, digests, strict=True))]
    path.write_bytes(msgpack.packb(record.header.to_wire())
                     + b"".join(msgpack.packb(e) for e in entries))
    out = cli("verify", str(path))
    assert out.returncode == 1 and "move 3 " in out.stdout, out.stdout
    shown = re.search(r"\(record ([0-9a-f]+)…?, replay ([0-9a-f]+)…?\)", out.stdout)
    theirs, ours = shown.groups()
    assert theirs != ours and len(theirs) == len(ours) >= 16
    assert digests[3].hex().startswith(theirs) and record.digests[3].hex().startswith(ours)


def test_an_illegal_move_in_a_record_is_refused_with_its_clause(tmp_path):
    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")))
    with RecordWriter.create(path, header) as w:
        w.append(parse_move("expand Samoa"), bytes(32))
    with pytest.raises(RecordError, match=r"move 0 \(expand Samoa\).*S3"):
        replay_record(read_record(path))


def test_garbage_is_not_a_record(tmp_path):
    path = tmp_path / "x.tgrec"
    path.write_bytes(b"\x93\x01\x02\x03")
    out = cli("verify", str(path))
    assert out.returncode == 1 and "not a tongiaki-lan record" in out.stdout


def test_a_crash_mid_write_loses_only_the_torn_entry_and_play_resumes(tmp_path):
    path = tmp_path / "r.tgrec"
    g = _small_record(path, moves=5)
    with open(path, "ab") as fh:
        fh.write(b"\x93\x05\x93")  # the start of entry 5, then the laptop died
    record = read_record(path)
    assert len(record.moves) == 5 and record.truncated
    w = RecordWriter.open_append(path)
    m = g.legal_moves()[0]
    Dealer(bytes(32)).apply(g, m, lambda mv: w.append(mv, g.digest()))
    w.close()
    again = read_record(path)
    assert len(again.moves) == 6 and not again.truncated
    assert replay_record(again).digest() == g.digest()


def test_a_reveal_that_is_not_the_seeds_tile_is_refused(tmp_path):
    """Reveals are inputs in a record; verify checks each against the seed's stack."""
    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")))
    g, dealer = header.new_game(), header.dealer()
    true_tile = None
    with RecordWriter.create(path, header) as w:
        while true_tile is None:
            move = g.legal_moves()[-1]  # ends in 'colony' during an action: a reveal
            g.apply(move)
            w.append(move, g.digest())
            if g.awaiting_reveal:
                true_tile = dealer.tile_for(g)
                other = next(t for t in g.unrevealed_tiles() if t != true_tile)
                g.apply(Reveal(other))
                w.append(Reveal(other), g.digest())
    out = cli("verify", str(path))
    assert out.returncode == 1
    assert f"reveals {TILES[other].name} where the seed's stack has {TILES[true_tile].name}" \
        in out.stdout


def test_a_rules_version_1_record_is_refused_naming_its_version(tmp_path):
    path = tmp_path / "old.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")),
                          rules_version=1)
    RecordWriter.create(path, header).close()
    for command in ("verify", "position"):
        out = cli(command, str(path))
        assert out.returncode == 1
        assert "rules version 1" in out.stdout and "rules version 2" in out.stdout


def test_replaying_moves_reproduces_the_game():
    g = Game(COLOURS[:2])
    dealer = Dealer(bytes(32))
    for _ in range(4):
        dealer.apply(g, g.legal_moves()[-1])
    assert Game.replay(COLOURS[:2], g.moves).digest() == g.digest()


def test_a_rewound_record_keeps_its_first_moves_and_goes_on_from_there(tmp_path):
    """A node cut off while the table left its draw value out takes moves back: its
    record is cut to the moves the table shares, and play goes on from there."""
    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red", "random")))
    g = header.new_game()
    dealer = header.dealer()
    w = RecordWriter.create(path, header)
    for _ in range(6):
        dealer.apply(g, g.legal_moves()[0], lambda mv: w.append(mv, g.digest()))
    kept = read_record(path).moves[:3]
    w.rewind(3)
    again = Game(header.colours)
    for m in kept:
        again.apply(m)
    m = again.legal_moves()[-1]
    dealer.apply(again, m, lambda mv: w.append(mv, again.digest()))
    w.close()
    record = read_record(path)
    assert record.moves[:3] == kept and record.moves[3] == m and not record.truncated
    assert replay_record(record).digest() == again.digest()


def test_verify_names_the_players_with_their_colours(tmp_path):
    """`verify` said "scores blue 30, red 10 / winners blue": colours only, while the
    player knows the game by names."""
    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red", "random")))
    game = header.new_game()
    dealer = header.dealer()
    with RecordWriter.create(path, header) as w:
        while not game.is_over:
            dealer.apply(game, game.legal_moves()[0], lambda mv: w.append(mv, game.digest()))
    out = cli("verify", str(path))
    assert out.returncode == 0, out.stdout
    scores = game.scores()
    assert f"scores Ana (blue) {scores['blue']}, Ben (red) {scores['red']}" in out.stdout
    named = {"blue": "Ana (blue)", "red": "Ben (red)"}
    assert "winners " + " & ".join(named[c] for c in game.winners()) in out.stdout


def test_a_seat_that_changes_hands_is_named_from_that_move_on(tmp_path):
    """A LAN seat a newcomer took: the record says so with the move (protocol/record.md),
    replay and verify name the newcomer from then on, and a damaged list is refused."""
    from tongiaki_lan.console.feeds.replay import ReplaySession

    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"),
                                      SeatInfo("Maui (normal)", "red", "normal")))
    game = header.new_game()
    dealer = header.dealer()
    with RecordWriter.create(path, header) as w:
        while not game.is_over:
            names = ("Ana", "Dee") if len(game.moves) == 10 else None
            dealer.apply(game, game.legal_moves()[0],
                         lambda mv, names=names: w.append(mv, game.digest(), names=names))
    record = read_record(path)
    assert record.names == [(10, ("Ana", "Dee"))]
    assert record.seat_names(10) == ("Ana", "Maui (normal)")
    assert record.seat_names(11) == record.seat_names() == ("Ana", "Dee")
    assert replay_record(record).digest() == game.digest()
    out = cli("verify", str(path))
    assert f"Dee (red) {game.scores()['red']}" in out.stdout and "Maui" not in out.stdout
    replay = ReplaySession(record)
    assert replay.names == ["Ana", "Maui"]  # (before the change)
    taken = "Dee takes Maui's seat (red)."
    replay.goto(10)
    assert taken not in [t for _s, t in replay.lines]
    replay.step(1)  # past move 10: the seat changes hands, and the log says so
    assert [t for _s, t in replay.lines].count(taken) == 1 and replay.names[1] == "Dee"
    replay.goto(replay.total)  # said once, where it happened; each side of it told with
    told = [t for _s, t in replay.lines]  # the players of that time
    at = told.index(taken)
    assert told.count(taken) == 1
    assert any("Maui" in t for t in told[:at]) and not any("Dee" in t for t in told[:at])
    assert any("Dee" in t for t in told[at + 1:]) and not any("Maui" in t for t in told[at + 1:])
    replay.goto(0)
    replay.goto(replay.total)  # (`replay --at N`: then the screen starts the session)
    asyncio.run(replay.start())
    assert replay.names == ["Ana", "Dee"] and replay.seats[1].kind == "human"
    over = [t for _s, t in replay.lines if t.startswith("Game over")]
    assert len(over) == 1 and "Dee" in over[0] and "Maui" not in over[0], over

    data = path.read_bytes().replace(msgpack.packb(["Ana", "Dee"]), msgpack.packb(["Ana", 7]))
    path.write_bytes(data)
    with pytest.raises(RecordError, match="move 10: the players' names"):
        read_record(path)


def test_a_seat_a_bot_played_for_its_away_player_is_told_so_in_the_replay(tmp_path):
    """A LAN seat handed to a bot while its player was away, then given back: the record
    says both (protocol/record.md, `bots`); replay tells them where they happened and
    heads the bot's turns with the bot, as the table did live (a playtest read "turn 22:
    Ben (R) founds…" for a move the bot made)."""
    from tongiaki_lan.console.feeds.replay import ReplaySession

    path = tmp_path / "r.tgrec"
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")))
    game = header.new_game()
    dealer = header.dealer()
    says = {12: ("", "normal"), 30: ("", "")}
    with RecordWriter.create(path, header) as w:
        while not game.is_over:
            bots = says.get(len(game.moves))
            names = ("Ana", "Ben") if bots else None
            dealer.apply(game, game.legal_moves()[0], lambda mv, names=names, bots=bots:
                         w.append(mv, game.digest(), names=names, bots=bots))
    record = read_record(path)
    assert record.bots == [(12, ("", "normal")), (30, ("", ""))]
    assert record.seat_bots(12) == ("", "") and record.seat_bots(13) == ("", "normal")
    assert record.seat_bots() == ("", "") and record.seat_names() == ("Ana", "Ben")
    assert cli("verify", str(path)).returncode == 0
    replay = ReplaySession(record)
    replay.goto(replay.total)
    told = [t for _s, t in replay.lines]
    away = told.index("Ben's seat is played by a bot (normal) while they are away.")
    back = told.index("Ben is back and plays their seat again.")
    assert away < back
    headers = [t for t in told[away:back] if t.startswith("── turn")]
    bens = [t for t in headers if "Ben" in t]
    assert bens and all("Ben — bot (normal)" in t for t in bens), headers
    assert not any("bot" in t for t in told[back:] if t.startswith("── turn"))
    replay.goto(20)  # in the bot's stretch, the panel shows who plays
    assert replay.labels[1] == "Ben — bot (normal)"

    data = path.read_bytes().replace(msgpack.packb(["", "normal"]), msgpack.packb(["", 7]))
    path.write_bytes(data)
    with pytest.raises(RecordError, match="move 12: the seats' bots"):
        read_record(path)


def _ben_turns() -> list[int]:
    """The index of the first move of each of Ben's turns, in the game `_bot_game` plays."""
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")))
    game, dealer = header.new_game(), header.dealer()
    starts = []
    while not game.is_over:
        seen = len(game.events)
        dealer.apply(game, game.legal_moves()[0])
        if any(e.kind == "turn" and e.data[0] == 1 for e in game.events[seen:]):
            starts.append(len(game.moves))
    return starts


def _bot_game(path, says: dict[int, tuple[tuple[str, ...], tuple[str, ...]]]):
    from tongiaki_lan.console.feeds.replay import ReplaySession

    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")))
    game, dealer = header.new_game(), header.dealer()
    with RecordWriter.create(path, header) as w:
        while not game.is_over:
            names, bots = says.get(len(game.moves), (None, None))
            dealer.apply(game, game.legal_moves()[0], lambda mv, names=names, bots=bots:
                         w.append(mv, game.digest(), names=names, bots=bots))
    replay = ReplaySession(read_record(path))
    replay.goto(replay.total)
    return [t for _s, t in replay.lines]


def _header_after(told: list[str], line: str) -> str:
    return next(t for t in told[told.index(line):] if t.startswith("── turn"))


def test_the_replay_tells_a_seat_changing_hands_before_the_turn_it_changed_at(tmp_path):
    """A bot takes Ben's seat from the first move of his turn (as it does live: the seat
    is handed while the table waits for him) and gives it back at another. The replay
    told each change after that turn's header, so the header named the player for the
    bot's turn and the bot for the player's (a playtest: "tour 13 : Ben (B)" for the bot's
    turn, "tour 17 : Ben — bot (normal) (B)" for Ben's own)."""
    turns = _ben_turns()
    away, back = turns[2], turns[5]
    told = _bot_game(tmp_path / "r.tgrec", {away: (("Ana", "Ben"), ("", "normal")),
                                            back: (("Ana", "Ben"), ("", ""))})
    gone = "Ben's seat is played by a bot (normal) while they are away."
    again = "Ben is back and plays their seat again."
    assert "Ben — bot (normal) (R)" in _header_after(told, gone)
    header = _header_after(told, again)
    assert "Ben (R)" in header and "bot" not in header
    # the turn before the bot's was Ben's own: its header came before the change
    before = [t for t in told[:told.index(gone)] if t.startswith("── turn") and "Ben" in t]
    assert before and "bot" not in before[-1]


def test_the_replay_tells_a_bot_to_the_end_and_a_newcomer_after_a_bot_as_they_were(tmp_path):
    """A bot that played a seat to the end was told as playing "while they are away" (the
    player had left for good); and a newcomer taking a seat the bot held was told as the
    old player "back" (a playtest: "Dee is back and plays their seat again" for Dee, who
    had never sat there). `records` said "a bot played for Cy a while"."""
    turns = _ben_turns()
    told = _bot_game(tmp_path / "end.tgrec", {turns[2]: (("Ana", "Ben"), ("", "normal"))})
    assert "Ben's seat is played by a bot (normal) from here on." in told
    assert not any("while they are away" in t or "is back" in t for t in told)
    told = _bot_game(tmp_path / "dee.tgrec", {turns[2]: (("Ana", "Ben"), ("", "normal")),
                                               turns[5]: (("Ana", "Dee"), ("", ""))})
    took = "Dee takes Ben's seat (red)."
    assert took in told and not any("is back" in t for t in told), told
    assert "Dee (R)" in _header_after(told, took) and "bot" not in _header_after(told, took)

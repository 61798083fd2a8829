"""`tongiaki-lan records` lists the games recorded here and `replay N` opens one of them;
`verify` says what a record's resume data is rather than calling it a broken record."""

from __future__ import annotations

import json
import os

from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo

from .test_record_place import cli


def _record(path, moves: int | None, seats=(("Ana", "blue", "human"),
                                            ("Hina (normal)", "red", "random"))):
    """A game of first legal moves, `moves` of them (None: to the end)."""
    header = RecordHeader(bytes(32), tuple(SeatInfo(*s) for s in seats), game_name="Reef")
    g = header.new_game()
    dealer = header.dealer()
    with RecordWriter.create(path, header, fsync=False) as w:
        while not g.is_over and (moves is None or len(g.moves) < moves):
            dealer.apply(g, g.legal_moves()[0], lambda mv: w.append(mv, g.digest()))
    return g


def test_records_lists_the_newest_first_and_replay_n_takes_that_number(tmp_path):
    env = {**os.environ}
    done = _record(tmp_path / "a.tgrec", None)
    (tmp_path / "a.tgrec.net").write_bytes(b"\x00secret")  # resume data: not listed
    _record(tmp_path / "b.tgrec", 12)
    (tmp_path / "c.tgrec").write_bytes(b"not a record")
    for age, name in ((300, "a"), (200, "b"), (100, "c")):
        t = 1_700_000_000 - age
        os.utime(tmp_path / f"{name}.tgrec", (t, t))
    out = cli("records", "--records", str(tmp_path), env=env)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line[:4].strip().endswith(".")]
    assert [r.split(".")[0].strip() for r in rows] == ["1", "2", "3"]
    assert rows[0].startswith("  1. damaged:")  # c: the newest, listed with its fault
    assert "Reef · Ana, Hina (normal) · 12 moves · unfinished" in rows[1]
    winners = " & ".join({"blue": "Ana", "red": "Hina (normal)"}[c] for c in done.winners())
    assert f"moves · won by {winners}" in rows[2]
    assert ".net" not in out.stdout
    listed = [json.loads(line) for line in cli("records", "--records", str(tmp_path),
                                               "--json", env=env).stdout.splitlines()]
    assert [e["n"] for e in listed] == [1, 2, 3] and listed[1]["moves"] == 12
    missing = cli("replay", "7", "--records", str(tmp_path), env=env)
    assert missing.returncode == 2 and "there is no game 7" in missing.stdout


def test_a_seat_that_changed_hands_lists_both_players(tmp_path):
    """A newcomer took Ben's seat: the list said "Ana, Dee", and Ana, who had played
    against Ben, wondered where he went."""
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")),
                          game_name="Cove")
    g = header.new_game()
    dealer = header.dealer()
    with RecordWriter.create(tmp_path / "c.tgrec", header, fsync=False) as w:
        while len(g.moves) < 10:
            names = ("Ana", "Dee") if len(g.moves) >= 6 else None
            dealer.apply(g, g.legal_moves()[0],
                         lambda mv, names=names: w.append(mv, g.digest(), names=names))
    out = cli("records", "--records", str(tmp_path), env={**os.environ})
    assert "Cove · Ana, Ben → Dee · 10 moves · unfinished" in out.stdout, out.stdout


def test_a_seat_a_bot_played_for_its_away_player_is_said(tmp_path):
    """Ben's laptop was away and a bot played his seat for a while: the list named "Ana,
    Ben" as if Ben had played every move (a playtest)."""
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")),
                          game_name="Reef")
    g = header.new_game()
    dealer = header.dealer()
    says = {4: ("", "normal"), 8: ("", "")}
    with RecordWriter.create(tmp_path / "r.tgrec", header, fsync=False) as w:
        while len(g.moves) < 10:
            bots = says.get(len(g.moves))
            dealer.apply(g, g.legal_moves()[0], lambda mv, bots=bots: w.append(
                mv, g.digest(), names=("Ana", "Ben") if bots else None, bots=bots))
    out = cli("records", "--records", str(tmp_path), env={**os.environ})
    lines = out.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "Reef · Ana, Ben · 10 moves" in line)
    assert lines[at + 1].strip() == "(a bot played some turns for Ben)", lines
    (listed,) = [json.loads(line) for line in cli("records", "--records", str(tmp_path),
                                                  "--json", env={**os.environ}).stdout.splitlines()]
    assert listed["bot_played_for"] == ["Ben"] and listed["players"] == ["Ana", "Ben"]


def test_a_newcomer_in_a_seat_a_bot_still_played_is_not_listed_as_helped(tmp_path):
    """Ben left for good, a bot played his seat, and Dee took it over before her first
    move; meanwhile a bot played Ana's seat too. The list said the bot played for
    "Ben & Ana & Dee", though Dee never was away (a LAN-party playtest)."""
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")),
                          game_name="Lagoon")
    g = header.new_game()
    dealer = header.dealer()
    says = {4: (("Ana", "Ben"), ("", "normal")), 6: (("Ana", "Dee"), ("", "normal")),
            7: (("Ana", "Dee"), ("normal", "normal")), 9: (("Ana", "Dee"), ("", ""))}
    with RecordWriter.create(tmp_path / "l.tgrec", header, fsync=False) as w:
        def write(mv):
            names, bots = says.get(w.next_index, (None, None))
            w.append(mv, g.digest(), names=names, bots=bots)

        while len(g.moves) < 11:
            dealer.apply(g, g.legal_moves()[0], write)
    (listed,) = [json.loads(line) for line in cli("records", "--records", str(tmp_path),
                                                  "--json", env={**os.environ}).stdout.splitlines()]
    assert listed["players"] == ["Ana", "Ben → Dee"]
    assert listed["bot_played_for"] == ["Ben", "Ana"]


def test_verify_of_the_resume_data_says_what_it_is_and_names_bots_once(tmp_path):
    env = {**os.environ}
    _record(tmp_path / "r.tgrec", None)
    (tmp_path / "r.tgrec.net").write_bytes(b"\x00secret")
    out = cli("verify", str(tmp_path / "r.tgrec.net"), env=env)
    assert out.returncode == 1
    assert "resume data kept beside a record" in out.stdout
    assert f"verify {tmp_path / 'r.tgrec'}" in out.stdout
    ok = cli("verify", str(tmp_path / "r.tgrec"), env=env)
    assert ok.returncode == 0 and "Hina (normal, red)" in ok.stdout, ok.stdout
    assert "(normal) (red)" not in ok.stdout


def test_a_game_left_for_good_or_only_watched_is_not_called_unfinished(tmp_path):
    """A LAN-party playtest: after `quit` for good, and after watching a game for a while,
    `records` said "unfinished" for both, as for a game that waits to be resumed."""
    from tongiaki_lan.net.aio.sidecar import write_sidecar
    from tongiaki_lan.net.protocol import lobby as L

    _record(tmp_path / "left.tgrec", 12)
    lobby = L.new_lobby("Reef", 2, False, bytes(8), "Ana", "", 1)
    write_sidecar(tmp_path / "left.tgrec", peer=bytes(8), game_id=bytes(8), lobby=lobby,
                  passphrase=False, port=7000, left=True)
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Ben", "red")),
                          game_name="Cove", watched=True)
    with RecordWriter.create(tmp_path / "watched.tgrec", header, fsync=False):
        pass
    _record(tmp_path / "mine.tgrec", 8)
    write_sidecar(tmp_path / "mine.tgrec", peer=bytes(8), game_id=bytes(8), lobby=lobby,
                  passphrase=False, port=7000)
    for age, name in ((300, "left"), (200, "watched"), (100, "mine")):
        t = 1_700_000_000 - age
        os.utime(tmp_path / f"{name}.tgrec", (t, t))
    out = cli("records", "--records", str(tmp_path), env={**os.environ})
    rows = [line for line in out.stdout.splitlines() if line[:4].strip().endswith(".")]
    assert rows[0].endswith(" moves · unfinished")  # (its resume data waits for a join)
    assert rows[1].endswith("Cove (watched) · Ana, Ben · 0 moves · watched, not to the end")
    assert rows[2].endswith(" moves · left for good")


def test_a_bot_laptops_seat_is_not_said_to_have_been_played_for_but_a_newcomers_is(tmp_path):
    """Kai's laptop plays with a bot (`play --headless --bot normal`): the table's bot
    played his seat while the laptop was away, and the list said "(a bot played some
    turns for Kai)" as of a person (a LAN playtest). Dee, who took the table bot Maui's
    seat mid-game and was away later, is a person: that is said."""
    header = RecordHeader(bytes(32), (SeatInfo("Ana", "blue"), SeatInfo("Kai", "red", "normal"),
                                      SeatInfo("Maui (random)", "green", "random")),
                          game_name="Atoll")
    g = header.new_game()
    dealer = header.dealer()
    dee = ("Ana", "Kai", "Dee")
    says = {3: (("Ana", "Kai", "Maui (random)"), ("", "normal", "")),
            6: (dee, ("", "", "")), 9: (dee, ("", "", "normal")), 12: (dee, ("", "", ""))}
    with RecordWriter.create(tmp_path / "a.tgrec", header, fsync=False) as w:
        def write(mv):
            names, bots = says.get(w.next_index, (None, None))
            w.append(mv, g.digest(), names=names, bots=bots)

        while len(g.moves) < 14:
            dealer.apply(g, g.legal_moves()[0], write)
    out = cli("records", "--records", str(tmp_path), env={**os.environ})
    lines = out.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if "Atoll · Ana, Kai, Maui (random) → Dee" in line)
    assert lines[at + 1].strip() == "(a bot played some turns for Dee)", lines


def test_a_table_bots_level_is_listed_in_the_readers_language(tmp_path):
    """The table names its bots "Hina (normal)"; an Italian list said "(normal)" in
    English among Italian words. The JSON keeps the name as recorded."""
    _record(tmp_path / "a.tgrec", 6, seats=(("Ana", "blue", "human"),
                                            ("Hina (normal)", "red", "normal")))
    out = cli("records", "--records", str(tmp_path), "--lang", "it", env={**os.environ})
    assert out.returncode == 0, out.stderr
    assert "Ana, Hina (normale) ·" in out.stdout, out.stdout
    assert "(normal)" not in out.stdout
    listed = cli("records", "--records", str(tmp_path), "--json", "--lang", "it",
                 env={**os.environ})
    assert json.loads(listed.stdout.splitlines()[0])["players"] == ["Ana", "Hina (normal)"]


def test_a_solo_game_with_undos_is_listed_with_them(tmp_path):
    """The moves that stand are counted, and the undos said beside them (a solo game's
    record keeps the moves taken back: protocol/record.md, Taking moves back)."""
    from pathlib import Path

    vector = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "record_undo.json"
    data = bytes.fromhex(json.loads(vector.read_text())["record_msgpack"])
    (tmp_path / "solo-20261202-120000-undo.tgrec").write_bytes(data)
    out = cli("records", "--records", str(tmp_path), "--lang", "en", env={**os.environ})
    assert out.returncode == 0, out.stderr
    assert "solo · Ana, Hina · 11 moves (4 undos) · unfinished" in out.stdout, out.stdout
    out = cli("records", "--records", str(tmp_path), "--json", env={**os.environ})
    assert json.loads(out.stdout)["undos"] == 4


def test_replay_of_a_damaged_record_names_the_file(tmp_path):
    # `replay 1` of a damaged record said "replay: not a tongiaki-lan record (header
    # missing)": which of the player's files, it did not say
    (tmp_path / "c.tgrec").write_bytes(b"not a record")
    out = cli("replay", "1", "--records", str(tmp_path), "--plain", env={**os.environ})
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stdout.startswith(f"replay: {tmp_path / 'c.tgrec'}: not a tongiaki-lan record")

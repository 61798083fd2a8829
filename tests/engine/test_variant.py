"""Two colours each (rules digest V1, the French rulebook's "Variante proposée par jeuxsoc"):
who owns which seat, combined scores and the player's tie-breaks, and a variant that never
changes a digest or the play of the colours."""

import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tongiaki_lan.bots import PublicView
from tongiaki_lan.bots.evaluation import final_utilities, utilities
from tongiaki_lan.engine import COLOURS, Dealer, Game
from tongiaki_lan.engine import variant as V
from tongiaki_lan.records import RecordError, RecordHeader, SeatInfo, read_record, replay_record

from .builder import position_text

TILES4 = {(0, -1): ("Samoa", 0), (1, -1): ("Nauru", 0), (2, -1): ("Tubuai", 0),
          (3, -1): ("Muroroa", 0), (6, 6): ("Oahu", 0)}


def two_colour(**kw) -> Game:
    """A position of a four-colour game played as two colours each."""
    return V.with_variant(Game.from_position(position_text(players=4, **kw)), V.TWO_COLOURS)


def test_V1_seats_alternate_players_A1_B1_A2_B2():
    g = V.with_variant(Game(COLOURS[:4]), V.TWO_COLOURS)
    assert V.owners(g) == (0, 1, 0, 1)
    assert V.seats_of(g, 0) == (0, 2) and V.seats_of(g, 1) == (1, 3)
    assert V.player_colours(g, 0) == ("blue", "green")
    assert V.n_players(g) == 2
    with pytest.raises(ValueError, match="4 colours"):
        V.with_variant(Game(COLOURS[:3]), V.TWO_COLOURS)
    with pytest.raises(ValueError, match="unknown variant"):
        V.owners_for("three-colours", 6)


def test_V1_a_player_scores_both_colours_together():
    # blue (A) on Samoa 5, green (A) on Nauru 2 and on Samoa too: each colour scores (E3)
    g = two_colour(tiles=TILES4, ships={"Samoa": ["B", "G", ""], "Nauru": ["G", "", ""],
                                         "Tubuai": ["R", ""], "Muroroa": ["", "Y", ""]})
    assert g.scores() == {"blue": 5, "red": 2, "green": 7, "yellow": 2}
    assert V.player_scores(g) == [12, 4]
    assert V.winners(g) == [0] and V.winner_labels(g) == ["blue+green"]


def test_V1_tie_breaks_count_an_island_once_for_the_player_then_fewer_ships():
    tiles = {**TILES4, (5, 5): ("Tahiti", 0)}
    # equal points (8 and 8): A is on one island only (blue and green on Oahu: counted once,
    # not twice), B on two (Nauru and Tubuai): B wins, though A has fewer ships
    g = two_colour(tiles=tiles, ships={"Oahu": ["B", "G", ""], "Nauru": ["R", "", "Y"],
                                        "Tubuai": ["R", "Y"]})
    assert V.player_scores(g) == [8, 8]
    assert V.ranking_keys(g) == [(8, 1, -2), (8, 2, -4)]
    assert V.winners(g) == [1]
    # equal points and islands: fewer ships over both colours wins
    g = two_colour(tiles=tiles, ships={"Oahu": ["B", "G", ""], "Tahiti": ["R", "Y", "R"]})
    assert V.ranking_keys(g) == [(8, 1, -2), (8, 1, -3)]
    assert V.winners(g) == [0]
    # all equal: the win is shared (E4's last decision)
    g = two_colour(tiles=tiles, ships={"Oahu": ["B", "G", ""], "Tahiti": ["R", "Y", ""]})
    assert V.winners(g) == [0, 1] and V.winner_labels(g) == ["blue+green", "red+yellow"]


def test_in_a_standard_game_players_are_the_seats_and_rank_as_E4():
    g = Game.from_position(position_text(players=3, tiles=TILES4, ships={
        "Samoa": ["B", "", ""], "Nauru": ["R", "", ""], "Tubuai": ["G", ""]}))
    assert V.variant_of(g) == V.STANDARD and V.owners(g) == (0, 1, 2)
    assert V.ranking_keys(g) == [g.ranking_keys()[c] for c in g.colours]
    assert [g.colours[p] for p in V.winners(g)] == g.winners()


def _play(variant: str, seed: bytes, moves: int | None = None) -> Game:
    g = V.with_variant(Game(COLOURS[:4]), variant)
    dealer, rng = Dealer(seed), random.Random(seed)
    while not g.is_over and (moves is None or len(g.moves) < moves):
        if g.awaiting_reveal:
            dealer.deal(g)
        else:
            g.apply(g.legal_move(rng.randrange(g.legal_move_count())))
    return g


def test_the_variant_changes_no_rule_and_no_digest_of_the_colours_play():
    """V1 'every rule applies per colour': the same moves give the same digests."""
    for i in range(5):
        seed = hashlib.blake2b(f"variant/{i}".encode(), digest_size=32).digest()
        plain, two = _play(V.STANDARD, seed), _play(V.TWO_COLOURS, seed)
        assert plain.moves == two.moves and plain.digest() == two.digest()
        assert plain.scores() == two.scores()


def test_position_text_carries_the_variant_and_copies_keep_it():
    g = _play(V.TWO_COLOURS, bytes(32), moves=40)
    text = g.position()
    assert text.endswith(" variant=two-colours")
    again = Game.from_position(text)
    assert again.owners == (0, 1, 0, 1) and again.position() == text
    assert again.digest() == g.digest()
    assert g.copy().owners == g.copy(undo=False).owners == (0, 1, 0, 1)
    plain = Game.from_position(text.removesuffix(" variant=two-colours"))
    assert plain.owners is None and "variant" not in plain.position()
    with pytest.raises(ValueError, match="variant"):
        Game.from_position(text.replace("variant=two-colours", "variant=solitaire"))


def test_bots_weigh_the_owner_result_their_partner_colour_is_no_rival():
    g = two_colour(tiles=TILES4, ships={"Samoa": ["B", "G", ""], "Nauru": ["R", "", ""]})
    u = utilities(g)
    assert u[0] == u[2] and u[1] == u[3] and u[0] > 0 > u[1]
    plain = Game.from_position(g.position().removesuffix(" variant=two-colours"))
    assert utilities(plain)[0] <= 0 < u[0]  # the standard game: green is blue's rival
    view = PublicView(g)  # what a bot sees, and the scratch games it searches on
    assert view.owners == view.game().owners == (0, 1, 0, 1)
    end = _play(V.TWO_COLOURS, bytes(range(32)))
    fin = final_utilities(end)
    assert fin[0] == fin[2] and fin[1] == fin[3] and sum(fin) == pytest.approx(2.0)


def test_record_header_carries_the_variant_and_refuses_a_wrong_one(tmp_path):
    seats = tuple(SeatInfo(n, c) for n, c in zip("ABAB", COLOURS[:4], strict=True))
    h = RecordHeader(bytes(32), seats, variant=V.TWO_COLOURS)
    wire = h.to_wire()
    assert wire["variant"] == "two-colours"
    assert RecordHeader.from_wire(wire).new_game().owners == (0, 1, 0, 1)
    assert "variant" not in RecordHeader(bytes(32), seats).to_wire()  # old records unchanged
    with pytest.raises(RecordError, match="unknown variant 'solitaire'"):
        RecordHeader.from_wire({**wire, "variant": "solitaire"})
    with pytest.raises(RecordError, match="4 colours"):
        RecordHeader.from_wire({**wire, "seats": wire["seats"][:3]})


def cli(*args):
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args],
                          capture_output=True, text=True)


def test_selfplay_two_colours_reports_players_and_its_records_verify(tmp_path):
    out = cli("selfplay", "--players", "2", "--variant", "two-colours", "--games", "4",
              "--seed", "1", "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    games = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(games) == 4
    for g in games:
        assert g["end"] in ("E1", "X3") and g["variant"] == "two-colours"
        assert [p["colours"] for p in g["players"]] == [["blue", "green"], ["red", "yellow"]]
        for p in g["players"]:
            assert p["score"] == sum(g["scores"][c] for c in p["colours"])
        v = cli("verify", g["record"], "--json")
        assert v.returncode == 0, v.stdout
        verdict = json.loads(v.stdout)
        assert verdict["digest"] == g["digest"] and verdict["winners"] == g["winners"]
        assert [p["score"] for p in verdict["players"]] == [p["score"] for p in g["players"]]
        game = replay_record(read_record(g["record"]))
        assert game.position().endswith("variant=two-colours")
    refused = cli("selfplay", "--players", "3", "--variant", "two-colours")
    assert refused.returncode == 2 and "--players 2" in refused.stdout


def test_variant_vectors_replay_to_the_same_digest_players_and_winners():
    from tongiaki_lan.engine import move_from_wire

    path = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "variant.json"
    games = json.loads(path.read_text())["two_colours_games"]
    assert games
    for v in games:
        g = V.with_variant(Game(v["colours"]), v["variant"])
        plain = Game(v["colours"])
        for w in v["moves_wire"]:
            g.apply(move_from_wire(w))
            plain.apply(move_from_wire(w))
        assert g.digest().hex() == v["final_digest"] == plain.digest().hex()
        assert list(V.owners(g)) == v["owners"] == [0, 1, 0, 1]
        assert g.scores() == v["scores_by_colour"]
        assert V.players_json(g) == v["players"] and V.winners(g) == v["winners"]
        assert g.position() == v["final_position"]

"""G1, G2: the components. The catalogue must equal the published tiles exactly."""

import pytest

from tongiaki_lan.engine import COLOURS, TILES, Game

# The rows of the tile catalogue (reference tiles.md), verbatim.
ISLAND_ROWS = """
| Tonga (start) | 0 | 3: 0 · 3: 1 · 3: 2 · 3: 3 · 3: 4 · 3: 5 | 18 |
| Muroroa | 2 | 2: 1 · 2: 2 · 3: 4,5 | 7 |
| Nauru | 2 | 2: 1,2 · 3: 3 · 2: 4,5 | 7 |
| Tubuai | 2 | 3: 1,2 · 3: 4,5 | 6 |
| Rarotonga | 3 | 3: 1,2 · 4: 3,4,5 | 7 |
| Rapa Nui | 3 | 5: 1,2 · 3: 3,4,5 | 8 |
| Tokelau | 3 | 4: 1 · 3: 2,3 · 2: 4,5 | 9 |
| Tuamotu | 3 | 4: 1,2,3 · 4: 4,5 | 8 |
| Hiva Oa | 4 | 2: 1,2 · 2: 3 · 5: 4,5 | 9 |
| Mangareva | 4 | 2: 1,2 · 3: 3,4 · 4: 5 | 9 |
| Oahu | 4 | 3: 1,2 · 5: 3 · 3: 4,5 | 11 |
| Tahiti | 4 | 2: 1,2 · 3: 3,4 · 4: 5 | 9 |
| Tuvalu | 4 | 2: 1,2 · 4: 3 · 3: 4,5 | 9 |
| Fidschi | 5 | 5: 1 · 4: 2,3 · 4: 4,5 | 13 |
| Hawaii | 5 | 3: 1,2 · 5: 3 · 2: 4,5 | 10 |
| Samoa | 5 | 3: 1,2 · 4: 3,4 · 5: 5 | 12 |
"""
SEA_ROWS = """
| S01 | 0–1: - · 2–3: 2 · 4–5: - |
| S02 | 0–1: 2 · 2–3: - · 4–5: 2 |
| S03 | 0–1: 3 · 2–3: 2 · 4–5: 4 |
| S04 | 0–1: 3 · 2–3: - · 4–5: 2 |
| S05 | 0–3: 4 · 1–5: 3 · 2–4: - |
| S06 | 0–3: 3 · 1–5: 3 · 2–4: 3 |
| S07 | 0–3: 4 · 1–5: 4 · 2–4: 4 |
| S08 | 0–3: 3 · 1–5: 2 · 2–4: - |
| S09 | 0–4: - · 1–3: 4 · 2–5: 2 |
| S10 | 0–4: 2 · 1–3: 3 · 2–5: 4 |
| S11 | 0–4: 4 · 1–3: 4 · 2–5: 3 |
| S12 | 0–4: 3 · 1–3: 3 · 2–5: 4 |
| S13 | 0–5: - · 1–2: - · 3–4: - |
| S14 | 0–5: 2 · 1–2: 2 · 3–4: 2 |
| S15 | 0–5: - · 1–2: 4 · 3–4: 2 |
| S16 | 0–5: - · 1–2: 3 · 3–4: 4 |
"""


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def test_G2_islands_equal_the_catalogue():
    rows = [_cells(r) for r in ISLAND_ROWS.strip().splitlines()]
    islands = [t for t in TILES if t.is_island]
    assert len(rows) == len(islands) == 16
    for (name, value, beaches, total), tile in zip(rows, islands, strict=True):
        assert tile.name == name.replace(" (start)", "")
        assert tile.value == int(value)
        expected = []
        for part in beaches.split("·"):
            berths, piers = part.split(":")
            expected.append((int(berths), tuple(int(p) for p in piers.split(","))))
        assert [(b.berths, b.piers) for b in tile.beaches] == expected, name
        assert tile.berths == int(total)


def test_G2_sea_tiles_equal_the_catalogue():
    rows = [_cells(r) for r in SEA_ROWS.strip().splitlines()]
    seas = [t for t in TILES if t.is_sea]
    assert len(rows) == len(seas) == 16
    unnumbered = 0
    for (name, routes), tile in zip(rows, seas, strict=True):
        assert tile.name == name
        expected = []
        for part in routes.split("·"):
            edges, danger = part.split(":")
            a, b = edges.strip().split("–")
            d = 0 if danger.strip() == "-" else int(danger)
            unnumbered += d == 0
            expected.append((int(a), int(b), d))
        assert [(r.a, r.b, r.danger) for r in tile.routes] == expected, name
        assert sorted(e for r in tile.routes for e in (r.a, r.b)) == [0, 1, 2, 3, 4, 5]
    assert unnumbered == 12


def test_G2_counts_by_value():
    values = sorted(t.value for t in TILES if t.is_island and t.id != 0)
    assert values == [2] * 3 + [3] * 4 + [4] * 5 + [5] * 3
    assert len(TILES) == 32
    # no island other than Tonga has a pier on edge 0
    assert all(0 not in b.piers for t in TILES[1:16] for b in t.beaches)


def test_G1_six_colours_fifteen_ships_two_to_six_players():
    assert COLOURS == ("blue", "red", "green", "yellow", "orange", "purple")
    for n in range(2, 7):
        g = Game(COLOURS[:n])
        assert [g.reserve(s) for s in range(n)] == [15] * n
    for bad in ([COLOURS[0]], list(COLOURS) + ["blue"], ["blue", "blue"]):
        with pytest.raises(ValueError):
            Game(bad)

"""`tongiaki-lan export --svg`: a picture of a recorded board that a browser shows whole."""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tongiaki_lan.engine import TILES
from tongiaki_lan.records import read_record, replay_record
from tongiaki_lan.svgboard import SIZE, hex_centre

REPO = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))
                 if p), None)


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args], capture_output=True,
                          text=True, env=env, cwd=cwd)


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished four-player game between random bots (kings, full beaches, 30 tiles)."""
    out_dir = tmp_path_factory.mktemp("records")
    out = cli("selfplay", "--players", "4", "--games", "1", "--seed", "pic", "--records",
              str(out_dir), "--json")
    assert out.returncode == 0, out.stderr
    return Path(json.loads(out.stdout)["record"])


def export(record: Path, svg: Path, *extra: str) -> ET.Element:
    out = cli("export", str(record), "--svg", str(svg), *extra)
    assert out.returncode == 0, out.stderr
    return ET.parse(svg).getroot()


def tiles_in(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if "tile" in g.get("class", "").split()]


def test_the_svg_of_a_finished_game_has_one_hex_per_tile_and_every_ship_and_king(
        finished, tmp_path):
    game = replay_record(read_record(finished))
    assert game.is_over
    root = export(finished, tmp_path / "board.svg")
    tiles = tiles_in(root)
    placed = sorted(TILES[t].name for t, _ in game.placed_tiles().values())
    assert sorted(g.get("data-tile") for g in tiles) == placed
    assert all(len(list(g.iter(f"{SVG}polygon"))) >= 1 for g in tiles)
    hexes = [p for g in tiles for p in g.iter(f"{SVG}polygon")
             if "king" not in p.get("class", "")]
    assert len(hexes) == len(placed)
    ships = [c for c in root.iter(f"{SVG}circle") if c.get("class") == "ship"
             and c.get("cx") is not None and c.get("fill")]
    on_board = sum(len(b) for t, _ in game.placed_tiles().values() if t < 16
                   for b in game.ships_on(t))
    legend = len(game.colours)  # one disc per player under the board
    assert len(ships) == on_board + legend
    crowns = [p for p in root.iter(f"{SVG}polygon") if "king" in p.get("class", "")]
    assert len(crowns) == len(game.kings())
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "final position" in text and "Game over" in text
    for name in (s.name for s in read_record(finished).header.seats):
        assert name in text


def test_at_n_draws_the_board_after_n_moves(finished, tmp_path):
    record = read_record(finished)
    at = len(record.moves) // 2
    early = replay_record(record, upto=at)
    root = export(finished, tmp_path / "mid.svg", "--at", str(at))
    assert len(tiles_in(root)) == len(early.placed_tiles())
    assert len(tiles_in(root)) < len(replay_record(record).placed_tiles())
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert f"after move {at} of {len(record.moves)}" in text


def test_bad_input_is_refused_with_a_reason(finished, tmp_path):
    out = cli("export", str(finished), "--at", "100000", "--svg", str(tmp_path / "x.svg"))
    assert out.returncode == 2 and "--at must be 0.." in out.stderr
    junk = tmp_path / "junk.tgrec"
    junk.write_bytes(b"not a record")
    out = cli("export", str(junk), "--svg", str(tmp_path / "y.svg"))
    assert out.returncode == 1 and "not a tongiaki-lan record" in out.stderr
    assert not (tmp_path / "x.svg").exists() and not (tmp_path / "y.svg").exists()


# ------------------------------------------------------------------ a real browser

PROBE = """<!doctype html><html><body><canvas id="c"></canvas><pre id="out">pending</pre>
<script>
const probes = %s;
const img = new Image();
img.onload = () => {
  const c = document.getElementById('c');
  c.width = img.naturalWidth; c.height = img.naturalHeight;
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  const seen = probes.map(([x, y]) => Array.from(ctx.getImageData(x, y, 1, 1).data));
  document.getElementById('out').textContent =
    JSON.stringify({w: img.naturalWidth, h: img.naturalHeight, seen});
};
img.onerror = () => { document.getElementById('out').textContent = 'error'; };
img.src = 'data:image/svg+xml;base64,%s';
</script></body></html>
"""


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         f"--user-data-dir={tmp_path / 'profile'}", "--disable-dev-shm-usage", *args],
        capture_output=True, text=True, timeout=120)


def _hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.skipif(CHROMIUM is None,
                    reason="no chromium on this machine (apt-get install chromium; .ci/run does)")
def test_a_real_browser_draws_every_tile_where_the_board_has_it(finished, tmp_path):
    import base64

    game = replay_record(read_record(finished))
    svg = tmp_path / "board.svg"
    root = export(finished, svg)
    vx, vy, w, h = (float(v) for v in root.get("viewBox").split())
    # One probe per tile, near its east corner: clear of routes (which join edge
    # midpoints), berths, names and numbers, so it shows the tile's own ground colour.
    probes, expected = [], []
    for (q, r), (tid, _) in game.placed_tiles().items():
        cx, cy = hex_centre(q, r)
        probes.append([round(cx + 0.86 * SIZE - vx), round(cy - vy)])
        expected.append("#3f86bd" if TILES[tid].is_sea else "#8cc3e3")
    page = tmp_path / "probe.html"
    page.write_text(PROBE % (json.dumps(probes), base64.b64encode(svg.read_bytes()).decode()))
    out = chromium(tmp_path, "--virtual-time-budget=10000", "--dump-dom", page.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    result = json.loads(dom[dom.index('<pre id="out">') + 14:dom.index("</pre>")])
    assert (result["w"], result["h"]) == (int(w), int(h))
    for (x, y), want, got in zip(probes, expected, result["seen"], strict=True):
        assert max(abs(a - b) for a, b in zip(_hex_rgb(want), got[:3], strict=True)) <= 8, \
            f"pixel {x},{y}: {got} instead of {want}"
    # And a screenshot as a person would see the file (kept with the test's files).
    png = tmp_path / "board.png"
    out = chromium(tmp_path, f"--screenshot={png}", f"--window-size={int(w)},{int(h)}",
                   svg.as_uri())
    assert out.returncode == 0 and png.exists(), out.stderr[-2000:]
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    assert struct.unpack(">II", head[16:24]) == (int(w), int(h))


def test_the_summary_line_speaks_the_language_asked_for(finished, tmp_path):
    out = cli("export", str(finished), "--svg", str(tmp_path / "b.svg"), "--lang", "it")
    assert out.returncode == 0, out.stderr
    assert "posizione finale" in out.stdout and " tessere)" in out.stdout
    assert "tiles" not in out.stdout


def test_every_island_name_fits_its_oval_and_every_beach_stands_apart(finished, tmp_path):
    """In every language: a name's width (at its size, in the widest font the style
    names) fits the oval at the rows it takes; berths of one beach are closer to each
    other than to any berth of another beach (Tonga's 5 and 6 crowded)."""
    import math

    from tongiaki_lan import i18n
    from tongiaki_lan.svgboard import BERTH_R, LAND_RX, LAND_RY, NAME_PX, board_svg, text_width

    game = replay_record(read_record(finished))
    for lang in ("en", "it", "fi", "fr", "de"):
        i18n.use(lang)
        try:
            root = ET.fromstring(board_svg(game).encode())
        finally:
            i18n.use("en")
        for g in tiles_in(root):
            land = g.find(f"{SVG}ellipse")
            if land is None:
                continue
            cy = float(land.get("cy"))
            name = next(t for t in g.iter(f"{SVG}text") if t.get("class") == "name")
            size = float((name.get("style") or f"font-size:{NAME_PX}px")[10:-2])
            top, bottom = float(name.get("y")) - 0.75 * size, float(name.get("y")) + 0.25 * size
            far = max(abs(top - cy), abs(bottom - cy))
            room = 2 * LAND_RX * math.sqrt(1 - (far / LAND_RY) ** 2)
            assert text_width(name.text, size) <= room, (lang, name.text, size)
            berths = [(float(c.get("cx")), float(c.get("cy")), c.get("data-beach"))
                      for c in g.iter(f"{SVG}circle") if c.get("data-beach")]
            for i, (x1, y1, b1) in enumerate(berths):
                for x2, y2, b2 in berths[i + 1:]:
                    gap = math.hypot(x1 - x2, y1 - y2) - 2 * BERTH_R
                    if b1 != b2:  # another beach: clearly apart
                        assert gap >= 8, (g.get("data-tile"), b1, b2, gap)
                    else:
                        assert gap >= 1, (g.get("data-tile"), b1, gap)


MEASURE = """<!doctype html><html><body>%s<pre id="out">pending</pre>
<script>
const out = [];
for (const g of document.querySelectorAll('g.island-tile')) {
  const e = g.querySelector('ellipse');
  const t = g.querySelector('text.name');
  const b = t.getBBox();
  const cx = +e.getAttribute('cx'), cy = +e.getAttribute('cy');
  const rx = +e.getAttribute('rx'), ry = +e.getAttribute('ry');
  // the glyphs' box: from the baseline up to the capitals' height, down to the descenders
  const size = parseFloat(getComputedStyle(t).fontSize);
  const y0 = +t.getAttribute('y') - 0.73 * size, y1 = +t.getAttribute('y') + 0.23 * size;
  const inside = [[b.x, y0], [b.x + b.width, y0], [b.x, y1], [b.x + b.width, y1]].every(
    ([x, y]) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1);
  out.push([t.textContent, Math.round(b.width * 10) / 10, inside]);
}
document.getElementById('out').textContent = JSON.stringify(out);
</script></body></html>
"""


@pytest.mark.skipif(CHROMIUM is None,
                    reason="no chromium on this machine (apt-get install chromium; .ci/run does)")
@pytest.mark.parametrize("lang", ["en", "fr", "fi"])
def test_a_real_browser_draws_every_island_name_inside_its_oval(finished, tmp_path, lang):
    svg = tmp_path / "board.svg"
    export(finished, svg, "--lang", lang)
    text = svg.read_text(encoding="utf-8").split("?>", 1)[1]
    page = tmp_path / "measure.html"
    page.write_text(MEASURE % text, encoding="utf-8")
    out = chromium(tmp_path, "--virtual-time-budget=10000", "--dump-dom", page.as_uri())
    assert out.returncode == 0, out.stderr[-2000:]
    dom = out.stdout
    result = json.loads(dom[dom.index('<pre id="out">') + 14:dom.index("</pre>")])
    assert len(result) >= 8
    assert all(inside for _name, _w, inside in result), result

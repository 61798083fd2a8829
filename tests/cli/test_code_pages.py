"""Text for a console or a pipe never fails for a code page (a Windows console or pipe in
cp1252 or cp437, emulated with PYTHONIOENCODING), and an SVG written to standard output
is UTF-8 bytes whatever the code page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    where = tmp_path_factory.mktemp("rec")
    made = subprocess.run([sys.executable, "-m", "tongiaki_lan", "selfplay", "--players", "2",
                           "--games", "1", "--seed", "codepage", "--records", str(where)],
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert made.returncode == 0, made.stderr
    (path,) = where.glob("*.tgrec")
    return path


def run(*args: str, encoding: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": encoding}
    return subprocess.run([sys.executable, "-m", "tongiaki_lan", *args], capture_output=True,
                          env=env)


@pytest.mark.parametrize("encoding", ["ascii", "cp437"])
def test_a_line_with_letters_the_code_page_lacks_is_printed_not_a_crash(record, tmp_path,
                                                                       encoding):
    out = run("export", str(record), "--svg", str(tmp_path / "b.svg"), "--lang", "fi",
              encoding=encoding)
    assert out.returncode == 0 and b"Traceback" not in out.stderr, out.stderr[-800:]
    line = out.stdout.decode(encoding)
    assert "b.svg: Tongiaki ? " in line and "loppuasema" in line  # "—" became "?"


def test_an_svg_on_standard_output_is_utf8_bytes_whatever_the_code_page(record, tmp_path):
    (tmp_path / "ref.svg").write_bytes(b"")
    assert run("export", str(record), "--svg", str(tmp_path / "ref.svg"),
               encoding="utf-8").returncode == 0
    out = run("export", str(record), "--svg", "-", encoding="cp1252")
    assert out.returncode == 0, out.stderr[-800:]
    assert out.stdout == (tmp_path / "ref.svg").read_bytes()
    assert "Tongiaki —".encode() in out.stdout  # the title's dash as UTF-8, not cp1252

"""`tongiaki-lan solo --plain` (and `replay --plain`) through pipes, real processes: the
line mode for screen readers and scripts (issue 46, item 6). A game played to the end by
reading its lines and answering them; each decision of ours said once with its legal
moves; a refused move said with its rule; no escape code and nothing said twice; the end
of the input, Ctrl-C and a closed stdout each leave cleanly with the record kept."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys

import pytest

from tongiaki_lan.records import read_record, replay_record

from .plainproc import REPO, PlainProcess
from .procgroup import kill_group, survivors

POSIX = os.name == "posix"
ESCAPE = b"\x1b"


def solo_args(seed: str, *extra: str) -> list[str]:
    return ["solo", "--plain", "--lang", "en", "--bots", "2", "--bot", "random", "--seed",
            seed, "--pace", "0", "--name", "Ana", *extra]


def is_moves_line(line: str) -> bool:
    return line.startswith("Legal moves: ") or re.match(r"\d+ legal moves, the first: ",
                                                         line) is not None


def listed_moves(line: str) -> list[str]:
    """The moves of a `Legal moves:` line, as typed (where each goes left off)."""
    body = re.sub(r"^(Legal moves: |\d+ legal moves, the first: )", "", line)
    body = body.removesuffix(" … (moves lists them all)")
    parts = body.split("; ") if " → " in body else body.split(", ")
    return [part.split(" → ")[0].strip() for part in parts]


def our_decisions(record) -> int:
    """How many decisions seat 0 (the keyboard's) took in the record."""
    game = record.header.new_game()
    n = 0
    for move in record.moves:
        p = game.pending
        n += p.seat == 0 and not p.is_chance
        game.apply(move)
    return n


def the_record(home) -> object:
    (path,) = (home / "records").glob("solo-*.tgrec")
    return path


def test_solo_plain_plays_a_game_to_the_end_read_and_answered_line_by_line(tmp_path):
    play = PlainProcess(solo_args("plain-pipe"), tmp_path)
    rng = random.Random(46)
    decisions = hints = 0
    try:
        while True:
            said = play.until(lambda line: line.startswith(("Your decision", "Game over")),
                              "our next decision, or the end")
            if said[-1].startswith("Game over"):
                break
            decisions += 1
            (shown,) = play.until(lambda line: True, "the line after the decision")
            assert is_moves_line(shown), (said[-1], shown)  # every decision with its moves
            moves = listed_moves(shown)
            if not shown.startswith("Legal moves: "):  # many: the count and the first few
                count = int(shown.split()[0])
                play.send("moves")
                (full,) = play.until(lambda line: line.startswith("Legal moves: "),
                                     "all the legal moves")[-1:]
                assert listed_moves(full)[:len(moves)] == moves
                moves = listed_moves(full)
                assert len(moves) == count
            if decisions == 1:  # a refused move says why, with the rule behind it
                play.send("expand Tonga")
                (refused,) = play.until(lambda line: line.startswith("expand Tonga:"),
                                        "the refusal")[-1:]
                assert refused.startswith("expand Tonga: S3: ") and "place" in refused
            if decisions % 7 == 3:  # the hint, then Enter alone plays it
                play.send("hint")
                (hint,) = play.until(lambda line: line.startswith("Hint: "), "the hint")[-1:]
                assert re.match(r"Hint: (.*?) \(Enter plays it", hint).group(1) in moves
                play.send("")
                hints += 1
            else:
                move = rng.choice(moves)
                play.send(move)
                if move == "colony":  # (every ship goes home: it asks first, Enter plays)
                    (asked,) = play.until(lambda line: line.startswith("colony:"),
                                          "colony's answer")[-1:]
                    if "Enter again to confirm" in asked:
                        play.send("")
        play.until(lambda line: line.startswith("Who scores each island: "), "the final table")
        play.send("quit")
        code = play.finish()
    finally:
        play.kill()
    out = play.lines
    assert code == 0 and play.stderr == b"", play.stderr[-1500:]
    assert ESCAPE not in play.raw and b"\r" not in play.raw  # no drawing, no cursor moves
    record = read_record(the_record(tmp_path))
    assert replay_record(record).is_over  # every move and digest checked again
    assert f"Record saved: {the_record(tmp_path)}" in out
    # each decision of ours was said once: as many as the record holds
    assert decisions == our_decisions(record) and hints >= 3
    # nothing said twice: no line right after itself, each turn and discovery once
    # (what was typed is echoed as `> LINE`: a line said again in answer to a command, as
    # `hint` at a landing whose hint was just said, is an answer, not a repeat)
    repeated = [a for a, b in zip(out, out[1:], strict=False)
                if a == b and not a.startswith("> ")]
    assert not repeated, f"a line repeated: {repeated}"
    said = [line for line in out if not line.startswith("> ")]  # (what was typed, echoed)
    turns = [line for line in said if re.match(r"turn \d+: ", line)]
    found = [line for line in said if line.startswith("Discovered at ")]
    assert turns and len(turns) == len(set(turns)) and len(found) == len(set(found))
    assert [int(t.split()[1].rstrip(":")) for t in turns] == list(range(1, len(turns) + 1))
    assert sum(line.startswith("Game over: ") for line in said) == 1


def test_a_script_piped_in_plays_when_asked_and_its_end_leaves_the_game_recorded(tmp_path):
    """Lines piped in at once wait for our decision (a bot still moving would refuse
    them), and the end of the input leaves as `quit` does: the record kept, exit 0, no
    traceback, no process left."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "tongiaki_lan", *solo_args("plain-eof")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(b"hint\n\nexpand Tonga\nhint\n\n", timeout=120)
        left = survivors(proc.pid, within=30)
    finally:
        kill_group(proc.pid)
    text = out.decode("utf-8")
    assert proc.returncode == 0 and err == b"", err[-1500:]
    assert not left, left
    lines = text.splitlines()
    # the refusal is the setup's (S3), not "it is Hina's decision": the line waited
    assert any(line.startswith("expand Tonga: S3: ") for line in lines), lines
    record = read_record(the_record(tmp_path))
    replay_record(record)
    assert our_decisions(record) == 2
    path = the_record(tmp_path)
    assert f"Record saved: {path}" in lines
    assert f"Play on with: tongiaki-lan solo --resume {path}" in lines


@pytest.mark.skipif(not POSIX, reason="a signal to a child process: POSIX")
def test_ctrl_c_asks_first_and_again_leaves(tmp_path):
    play = PlainProcess(solo_args("plain-ctrl-c"), tmp_path)
    try:
        play.until(is_moves_line, "our first decision")
        play.send("place Tonga 2")
        play.until(is_moves_line, "our second decision")
        play.proc.send_signal(signal.SIGINT)
        (asked,) = play.until(lambda line: line.startswith("Ctrl-C:"), "the question")[-1:]
        assert "Ctrl-C again (or Enter) leaves" in asked and "record keeps the game" in asked
        play.proc.send_signal(signal.SIGINT)
        code = play.finish()
    finally:
        play.kill()
    assert code == 0 and play.stderr == b"", play.stderr[-1500:]
    record = read_record(the_record(tmp_path))
    assert [str(m) for m in record.moves][:1] == ["place Tonga 2"]
    assert any(line.startswith("Play on with: ") for line in play.lines)


def test_a_closed_stdout_ends_the_game_quietly_with_its_record(tmp_path):
    """`solo --plain | head`: once the reader has gone, the game is left as `quit`
    leaves it, with no traceback, and the status a writer killed by SIGPIPE has."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "TONGIAKI_LAN_HOME": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "tongiaki_lan", *solo_args("plain-head")],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, start_new_session=True)
    try:
        while not is_moves_line(proc.stdout.readline().decode("utf-8")):
            pass
        proc.stdout.close()  # (the reader goes away: `head` has read enough)
        proc.stdin.write(b"place Tonga 4\n")
        proc.stdin.flush()
        err = proc.stderr.read()
        code = proc.wait(timeout=120)
        left = survivors(proc.pid, within=30)
    finally:
        kill_group(proc.pid)
    assert code == 141 and b"Traceback" not in err and b"BrokenPipe" not in err, err[-1500:]
    assert not left, left
    record = read_record(the_record(tmp_path))
    assert [str(m) for m in replay_record(record).moves][:1] == ["place Tonga 4"]


def test_replay_plain_steps_through_a_record_one_line_per_step(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    made = subprocess.run([sys.executable, "-m", "tongiaki_lan", "selfplay", "--players", "2",
                           "--games", "1", "--seed", "plain-replay", "--records",
                           str(tmp_path), "--json"], capture_output=True, text=True, env=env)
    assert made.returncode == 0, made.stderr
    (path,) = tmp_path.glob("*.tgrec")
    total = len(read_record(path).moves)
    play = PlainProcess(["replay", "--plain", "--lang", "en", str(path)], tmp_path)
    try:
        play.until(lambda line: line.startswith(f"Replay move 0/{total} "), "the start")
        play.send("")  # Enter alone: the next move
        (step,) = play.until(lambda line: line.startswith("Replay move "), "a step")[-1:]
        assert step.startswith(f"Replay move 1/{total} ")
        play.send("back")
        back = play.until(lambda line: line.startswith("Replay move "), "a step back")
        assert back[-1].startswith(f"Replay move 0/{total} ")
        assert [line for line in back if not line.startswith(">")] == back[-1:]  # (no story
        # said again on the way back)
        play.send("last")
        end = play.until(lambda line: line.startswith(f"Replay move {total}/{total}"),
                         "the end")
        assert any(line.startswith("Game over: ") for line in end)
        assert any(line.startswith("Who scores each island: ") for line in end)
        play.close_input()
        code = play.finish()
    finally:
        play.kill()
    assert code == 0 and play.stderr == b"", play.stderr[-1500:]
    assert ESCAPE not in play.raw

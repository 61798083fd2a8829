"""The line mode's view (console/plain/lines.py): from one table state to the next, the
lines worth hearing, each once — a screen reader reads every line written, a pipe keeps
every line. Real sessions, the real table model and input path; no terminal."""

from __future__ import annotations

import dataclasses

from tongiaki_lan.console.feeds.base import GameSession
from tongiaki_lan.console.feeds.solo import SoloSession, seed_from_text, solo_seats
from tongiaki_lan.console.input import TableInput
from tongiaki_lan.console.model import TableModel
from tongiaki_lan.console.plain.lines import LineView, story_news
from tongiaki_lan.console.plain.run import PlainLine
from tongiaki_lan.console.seats import Seat
from tongiaki_lan.console.state import Countdown
from tongiaki_lan.engine import decisions as D

from .conftest import wait_until
from .test_table import _game_at


def _solo(seed: str) -> SoloSession:
    return SoloSession(seed_from_text(seed), solo_seats(2, "Ana", "random"), record_path=None,
                       pace=0)


def test_what_is_new_in_the_story_is_said_where_it_came_in():
    """The summary of the others' moves goes in before the turn line told a moment ago,
    and `undo` strikes lines where they stand: only the lines not there before are new."""
    a, b, turn = ("", "a"), ("", "b"), ("turn", "── turn 2: Ana (B) ──")
    s1, s2, c = ("summary", "Since your last move:"), ("summary", "  Ben: expand Fiji"), \
        ("", "c")
    assert story_news((a, b), (a, b, c)) == [c]
    assert story_news((a, b, turn), (a, b, s1, s2, turn, c)) == [s1, s2, c]
    struck = [("void", "✗ b"), ("void", "✗ turn")]
    assert story_news((a, b, turn), (a, *struck, ("info", "Taken back"))) == \
        [*struck, ("info", "Taken back")]
    assert story_news((a, b, c), (a, b)) == []  # (a replay stepped back: nothing new)


async def test_our_decision_is_said_once_with_its_moves_and_an_answer_each_time_asked():
    session = _solo("plain-lines")
    model = TableModel(session)
    line = PlainLine()
    typed = TableInput(model, line)
    view = LineView()
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        said = view.lines(model.state)
        decision = [i for i, text in enumerate(said) if text.startswith("Your decision:")]
        assert len(decision) == 1 and said[decision[0] + 1] == (
            "Legal moves: place Tonga 1, place Tonga 2, place Tonga 3, place Tonga 4, "
            "place Tonga 5, place Tonga 6")
        assert view.announced and view.lines(model.state) == []  # (said: not again)
        for _twice in range(2):  # the same refusal, typed twice, is answered twice
            view.forget_notice()
            await typed.submit("expand Tonga")
            (refused,) = view.lines(model.state)
            assert refused.startswith("expand Tonga: S3: ")
        await typed.submit("place Tonga 2")
        await wait_until(session.my_decision, what="our second decision")
        said = view.lines(model.state)
        assert said[0] == "Ana (B) puts a ship on beach 2 of Tonga."
        assert sum(text.startswith("Your decision:") for text in said) == 1
        assert not any(text.startswith(("Since your last move", "  ")) for text in said)
    finally:
        await session.close()


async def test_undo_says_what_was_taken_back_and_the_decision_not_the_struck_lines():
    session = _solo("plain-undo")
    model = TableModel(session)
    typed = TableInput(model, PlainLine())
    view = LineView()
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        await typed.submit("place Tonga 3")
        await wait_until(session.my_decision, what="our second decision")
        view.lines(model.state)
        await typed.submit("undo")
        said = view.lines(model.state)
        assert said[0].startswith("Taken back: place Tonga 3, and the bots' moves after it")
        assert said[1].startswith("Your decision: put a ship on Tonga")
        assert "place Tonga 3" in said[2]  # (free again)
        assert not any(text.startswith("✗") for text in said)
    finally:
        await session.close()


def test_a_countdown_is_said_when_it_starts_not_as_it_counts():
    game = _game_at(lambda g: g.pending is not None and g.pending.seat is not None)
    model = TableModel(GameSession(game, [Seat(n, c) for n, c in
                                          zip(["Ana", "Ben", "Cy"], game.colours,
                                              strict=True)]))
    view = LineView()
    state = model.state
    view.lines(state)
    waits = dataclasses.replace(state, version=state.version + 1, countdowns=(
        Countdown("draw", "Next tile waits for Cy: the others draw it without them in 15 s",
                  ends_at=100.0, who="Cy"),))
    assert view.lines(waits) == ["Next tile waits for Cy: the others draw it without them "
                                 "in 15 s"]
    later = dataclasses.replace(waits, version=waits.version + 1, countdowns=(
        dataclasses.replace(waits.countdowns[0], text="… in 9 s"),))
    assert view.lines(later) == []  # (not ticking)
    assert view.lines(state) == [] and view.lines(waits)  # ended, then a new one: said


def _ours(game):
    """Ana, Ben and Cy at `game`, the decision pending this keyboard's: its session, its
    table model and a line mode to type into (the input not yet attached)."""
    seat = game.pending.seat
    session = GameSession(game, [Seat(n, c, local=i == seat) for i, (n, c) in
                                 enumerate(zip(["Ana", "Ben", "Cy"], game.colours,
                                               strict=True))])
    return session, TableModel(session), PlainLine()


async def test_our_landing_is_said_with_the_hints_landing_and_its_reason():
    game = _game_at(lambda g: g.pending is not None and g.pending.kind == D.LANDING)
    session, model, line = _ours(game)
    TableInput(model, line)  # (asks the hint for our landing by itself)
    view = LineView()
    await session.start()
    try:
        said = view.lines(model.state)  # (the story so far)
        if not model.state.offer:  # before the hint's landing: not yet, not "Thinking…"
            assert not view.announced and not any(
                text.startswith(("Your decision", "Thinking")) for text in said)
            await wait_until(lambda: model.state.offer, what="the hint's landing")
            said = view.lines(model.state)
        assert said[0].startswith("Your decision:") and "Enter takes the hint" in said[0]
        assert said[-1].startswith(f"Hint: {model.state.offer} (Enter plays it)")
        assert line.offered() == model.state.offer  # (Enter alone lands them so)
    finally:
        await session.close()


def test_the_end_is_said_in_sentences_not_a_table_of_columns():
    game = _game_at(lambda g: g.is_over, players=3)
    model = TableModel(GameSession(game, [Seat(n, c) for n, c in
                                          zip(["Ana", "Ben", "Cy"], game.colours,
                                              strict=True)]))
    said = LineView().lines(model.state)
    players = [text for text in said if text.startswith(("Ana (B): ", "Ben (R): ",
                                                         "Cy (G): "))]
    assert len(players) == 3 and all(" points, on " in text for text in players)
    assert said[-1].startswith("Who scores each island: ")
    assert "·" not in said[-1]


async def test_the_help_leaves_out_the_full_screen_consoles_keys_and_map():
    session = _solo("plain-help")
    model = TableModel(session)
    typed = TableInput(model, PlainLine())
    view = LineView()
    await session.start()
    try:
        view.lines(model.state)
        await typed.submit("help")
        said = view.lines(model.state)
        assert any(text.startswith("  hint — ") for text in said)
        assert not any(("PgUp" in text or text.startswith(("Keys:", "Mouse:", "Map:",
                                                            "Panel:"))) for text in said)
        # no Tab to press and no map to re-centre or switch to: a listener heard "Tab
        # lists exactly the legal ones" in the help and after each refused move
        assert not any("Tab" in text or "centre" in text or text.startswith("  map")
                       for text in said), said
        assert "Type a move in its short form; moves lists exactly the legal ones. Other " \
               "commands:" in said
        assert "  rules — the rule behind the pending decision · help [MOVE]" in said
        for typed_line, answer in (("place Tonga 9", "(moves lists the legal moves)"),
                                   ("plaec Tonga 2", "did you mean place?"),
                                   ("xyzzy", "help lists the commands, moves the legal "
                                             "moves")):
            view.forget_notice()
            await typed.submit(typed_line)
            (refused,) = view.lines(model.state)
            assert refused.endswith(answer) and "Tab" not in refused, refused
    finally:
        await session.close()


async def test_the_terminal_still_says_tab():
    session = _solo("plain-help")
    model = TableModel(session)
    typed = TableInput(model)  # (the terminal's line: Tab completes there)
    await session.start()
    try:
        await typed.submit("place Tonga 9")
        assert model.notice[1].endswith("(Tab lists the legal moves)")
        await typed.submit("help")
        assert any("Tab lists exactly" in text for _s, text in session.lines)
    finally:
        await session.close()


def test_islands_says_the_board_island_by_island_ships_free_berths_and_kings():
    """`islands`: what the full screen's map shows, in words, for a listener."""
    from tongiaki_lan.console.plain.lines import islands_lines
    from tongiaki_lan.engine import LETTERS, TILES
    from tongiaki_lan.i18n.islands import island_name

    game = _game_at(lambda g: any(g.king_of(t) is not None for t in g.islands()))
    model = TableModel(GameSession(game, [Seat(n, c) for n, c in
                                          zip(["Ana", "Ben", "Cy"], game.colours,
                                              strict=True)]))
    said = islands_lines(model.state)
    assert len(said) == len(game.islands())
    for tile, line in zip(game.islands(), said, strict=True):
        q, r = game.hex_of(tile)
        assert line.startswith(f"{island_name(tile)} ({TILES[tile].value}) at {q},{r}: ")
        for n, (ships, beach) in enumerate(zip(game.ships_on(tile), TILES[tile].beaches,
                                               strict=True), 1):
            letters = " ".join(LETTERS[c] for c in ships)
            free = beach.berths - len(ships)
            want = (f"beach {n}: empty" if not ships else f"beach {n}: {letters}, full"
                    if free <= 0 else f"beach {n}: {letters}, {free} free")
            assert want in line
        king = game.king_of(tile)
        assert ("Royal Island, king " in line) == (king is not None)
        assert king is None or f"Royal Island, king {LETTERS[king]}" in line


def test_the_line_mode_reaches_neither_prompt_toolkit_nor_the_network():
    """It cannot draw a screen or move a cursor, and it holds no network logic: none of
    console/plain/ reaches prompt_toolkit or tongiaki_lan.net, through any console
    module it imports."""
    from .layers import graph, imports_of, modules

    mods, g = modules(), graph()
    plain = [m for m in mods if m.startswith("tongiaki_lan.console.plain")]
    assert len(plain) >= 4
    for mod in plain:
        seen, todo = {mod}, [mod]
        while todo:
            for nxt in g.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        for reached in seen:
            found = {i for i in imports_of(mods[reached])
                     if i.startswith(("prompt_toolkit", "tongiaki_lan.net"))}
            assert not found, f"{mod} reaches {found} through {reached}"


async def test_a_second_ctrl_c_leaves_without_asking_again():
    # the second Ctrl-C said the whole question again ("Ctrl-C: the game is not over —
    # Ctrl-C again (or Enter) leaves; …"), then left: read out, it sounded unheard
    import io

    from tongiaki_lan.console.plain.run import PlainRun

    session = _solo("plain-ctrl-c")
    out = io.StringIO()
    run = PlainRun(session, out=out, stdin=io.StringIO(""), tty_in=True, tty_out=False)
    await session.start()
    try:
        await wait_until(session.my_decision, what="our first decision")
        run.flush()
        run._on_ctrl_c()
        asked = out.getvalue().count("Ctrl-C again (or Enter) leaves")
        run._on_ctrl_c()
        assert asked == 1 and run._stopping and run.code == 0
        assert out.getvalue().count("Ctrl-C again (or Enter) leaves") == 1, out.getvalue()
    finally:
        run.model.unsubscribe(run._changed)
        await session.close()


def _one_full_beach(game) -> bool:
    """Someone's departure where a single full beach may go, by more than one pier."""
    from tongiaki_lan.engine import Sail

    p = game.pending
    if p is None or p.kind != D.DEPARTURE or p.seat is None:
        return False
    sails = [m for m in game.legal_moves() if isinstance(m, Sail)]
    return len({(m.island, m.beach) for m in sails}) == 1 and len(sails) > 1


async def test_a_single_full_beach_is_said_without_tab_and_the_terminal_keeps_it():
    """A departure where one full beach can go said "(Tab: where it goes)" in the line
    mode, which has no Tab (a playtest): the moves said after it tell where each goes."""
    from tongiaki_lan.console.plain.lines import said_status
    from tongiaki_lan.console.status import status_line

    game = _game_at(_one_full_beach, seed=b"one full beach")
    session, model, line = _ours(game)
    TableInput(model, line)
    view = LineView()
    await session.start()
    try:
        said = view.lines(model.state)
        (decision,) = [text for text in said if text.startswith("Your decision:")]
        assert decision.endswith(" is full: sail ISLAND BEACH PIER"), decision
        listing = said[said.index(decision) + 1]
        assert listing.startswith("Legal moves: sail ") and "→" in listing  # (where each goes)
        assert not any("Tab" in text for text in said), said
        assert "Tab" not in said_status(model.state)
        assert not any("Tab" in text for text in view.decision_lines(model.state))  # (Enter)
        # the terminal's line, where Tab completes, still says it
        assert status_line(model.state)[1].endswith("(Tab: where it goes)")
        assert "Tab" not in model.state.status  # (nor the board page: no Tab there)
    finally:
        await session.close()


async def test_a_replay_in_the_line_mode_names_no_page_keys(tmp_path):
    """A replay's first line said "PgDn/Enter = next, PgUp = back." to a listener, who
    has no PgDn; the terminal's keys are a line of its own, which the line mode (and the
    board page) leave out."""
    from tongiaki_lan.console.feeds.replay import ReplaySession
    from tongiaki_lan.console.web.payload import state_payload
    from tongiaki_lan.records import read_record

    from .test_replay_lobby import _record

    _record(tmp_path / "r.tgrec", moves=20)
    replay = ReplaySession(read_record(tmp_path / "r.tgrec"), "r.tgrec")
    model = TableModel(replay)
    view = LineView()
    said = view.lines(model.state)
    assert said[0] == f"Replay of r.tgrec: {replay.total} moves."
    assert not any("PgDn" in text or "PgUp" in text for text in said), said
    replay.step(3)
    model.changed()
    said = view.lines(model.state)
    assert said and not any("Pg" in text for text in said), said
    # the terminal's story still says its keys, the page's does not
    story = [text for _style, text in model.state.story]
    assert "PgDn/Enter = next, PgUp = back." in story
    assert not any("PgDn" in text for _s, text in state_payload(model.state)["story"])

"""Replay stepping on the game screen, and the lobby without a network."""

from __future__ import annotations

import asyncio

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from tongiaki_lan.bots import make_bot
from tongiaki_lan.console.feeds.replay import ReplaySession
from tongiaki_lan.console.terminal.board import render_text
from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.console.terminal.screen import GameScreen
from tongiaki_lan.engine import Dealer, Game, Reveal
from tongiaki_lan.records import RecordHeader, RecordWriter, SeatInfo, read_record

from .conftest import wait_until

PAGE_DOWN = "\x1b[6~"
PAGE_UP = "\x1b[5~"


def _record(path, moves: int = 60):
    seed = bytes(range(32))
    colours = ["blue", "red", "green"]
    header = RecordHeader(seed, tuple(SeatInfo(n, c, "random")
                                      for n, c in zip(["A", "B", "C"], colours, strict=True)))
    game = Game(colours)
    dealer = Dealer(seed)
    bot = make_bot("random", seed=3)
    positions = [render_text(game)]  # after each entry of the record, reveals included

    def record(move):
        writer.append(move, game.digest())
        positions.append(render_text(game))

    with RecordWriter.create(path, header) as writer:
        for _ in range(moves):
            dealer.apply(game, bot.choose(game), record)
    return positions


async def test_replay_steps_forwards_and_backwards(tmp_path):
    path = tmp_path / "r.tgr"
    positions = _record(path)
    session = ReplaySession(read_record(path), str(path))
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        screen = GameScreen(session, colour=False)
        await session.start()
        task = asyncio.ensure_future(screen.app.run_async())
        await wait_until(lambda: screen.app.is_running)
        inp.send_text("\r")  # Enter on an empty line: the next move
        await wait_until(lambda: session.index == 1)
        inp.send_text(PAGE_DOWN * 4)
        await wait_until(lambda: session.index == 5)
        inp.send_text(PAGE_UP)
        await wait_until(lambda: session.index == 4)
        assert render_text(session.game) == positions[4]
        total = len(positions) - 1
        # the panel's title at 80x24 (32 columns): no next move cut to "— next: plac"
        # (the status line has it whole); a wide panel keeps it
        assert screen.panel_lines(32)[0][0][1] == f"Replay · move 4/{total}"
        assert "— next: " in screen.panel_lines(60)[0][0][1]
        inp.send_text("goto 50\r")
        await wait_until(lambda: session.index == 50)
        assert render_text(session.game) == positions[50]
        assert f"move 50/{total}" in screen.status_text()
        inp.send_text("back 10\r")  # steps back over a tile reveal with its move
        await wait_until(lambda: session.index <= 40)
        assert not isinstance(session.record.moves[session.index], Reveal)
        assert render_text(session.game) == positions[session.index]
        inp.send_text("help\r")  # the replay's own commands come first, in sight
        await wait_until(lambda: any("next [N]" in t for _k, t in session.lines))
        texts = [t for _k, t in session.lines]
        first_own = next(i for i, t in enumerate(texts) if "next [N]" in t)
        assert first_own < next(i for i, t in enumerate(texts)
                                if t.startswith("Commands of every game screen"))
        # a replay takes no moves: its help offers no hint, nor typing one (a playtest)
        assert not any(t.startswith(("Type a move", "  hint —", "Mouse: click"))
                       for t in texts)
        # the help's first line is at the top, "── N newer lines: PgDn ──" at the foot:
        # PgDn reads on (it stepped a move, and the help was gone)
        await wait_until(lambda: screen.log_scroll > 0, what="the help scrolled to its top")
        at, scrolled = session.index, screen.log_scroll
        inp.send_text(PAGE_DOWN)
        await wait_until(lambda: screen.log_scroll < scrolled, what="the help read on")
        assert session.index == at and any("next [N]" in t for _k, t in session.lines)
        if screen.log_scroll == 0:  # (a tall terminal: the help ended on that page)
            screen.log_scroll = 5
        inp.send_text("\x1b[F")  # End: back to the newest lines at once
        await wait_until(lambda: screen.log_scroll == 0, what="the newest lines")
        assert session.index == at
        inp.send_text("place Tonga 1\r")  # a replay takes no moves: a reason, not a crash
        await wait_until(lambda: "replay takes no moves" in screen.message[1])
        inp.send_text("hint\r")  # nobody decides in a replay: no suggestion to play
        await wait_until(lambda: screen.message[1] == "A replay takes no moves: no hint.")
        assert screen.buffer.text == ""
        inp.send_text("last\r")
        await wait_until(lambda: session.index == total)
        assert render_text(session.game) == positions[total]
        inp.send_text("quit\r")
        assert await asyncio.wait_for(task, 30) == 0
    await session.close()


async def test_lobby_without_network_says_so_and_offers_solo():
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        task = asyncio.ensure_future(lobby.run())
        await wait_until(lambda: lobby.app.is_running)
        top = "\n".join("".join(t for _, t in line) for line in lobby.draw_top(80, 20))
        assert "LAN disabled" in top and "solo" in top
        # the bottom line offers what works without a network, not create/join/watch
        assert lobby._status()[1].strip() == "solo [BOTS] [LEVEL] · solo resume · help · quit"
        inp.send_text("create Reef 4\r")  # needs the LAN: a clear one-line refusal
        await wait_until(lambda: "LAN disabled" in lobby.message)
        inp.send_text("solo abc\r")  # a word where a number belongs: a reason, no Python error
        await wait_until(lambda: "solo: the number of bots is a number from 1 to 5"
                         in lobby.message)
        assert "invalid literal" not in lobby.message
        inp.send_text("solo 9\r")
        await wait_until(lambda: "from 1 to 5" in lobby.message)
        inp.send_text("solo 2\r")
        assert await asyncio.wait_for(task, 30) == ("solo", 2, "")


async def test_solo_from_the_lobby_takes_a_level_in_the_players_words():
    """The lobby's `solo` took a number of bots only, so a newcomer's first game from the
    lobby was against the normal level whatever the README advised."""
    from tongiaki_lan import i18n

    for lang, typed, expected in (("en", "solo 2 easy", ("solo", 2, "easy")),
                                  ("en", "solo hard", ("solo", 3, "hard")),
                                  ("it", "solo facile 1", ("solo", 1, "easy"))):
        i18n.use(lang)
        try:
            with create_pipe_input() as inp, create_app_session(input=inp,
                                                                output=DummyOutput()):
                lobby = LobbyScreen("Tester", lan=False, colour_output=False)
                task = asyncio.ensure_future(lobby.run())
                await wait_until(lambda lb=lobby: lb.app.is_running)
                inp.send_text(typed + "\r")
                assert await asyncio.wait_for(task, 30) == expected
        finally:
            i18n.use("en")


async def test_a_passphrase_is_typed_unseen_and_kept_out_of_the_history():
    import io

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")
    got = []

    async def then(secret):
        got.append(secret)

    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        task = asyncio.ensure_future(lobby.run())
        await wait_until(lambda: lobby.app.is_running)
        lobby.ask_secret("Passphrase for Reef:", then)
        inp.send_text("kumara7")
        await wait_until(lambda: lobby.buffer.text == "kumara7")
        await wait_until(lambda: "*******" in sink.getvalue(), what="the stars drawn")
        inp.send_text("\r")
        await wait_until(lambda: got == ["kumara7"], what="the passphrase handed on")
        inp.send_text("help\r")
        await wait_until(lambda: any("Commands" in t for _, t in lobby.lines))
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)
    assert "kumara7" not in sink.getvalue()  # never drawn
    assert "kumara7" not in list(lobby.buffer.history.get_strings())  # Up cannot bring it back


async def test_a_passphrase_the_table_does_not_answer_is_asked_again_unseen():
    """A wrong passphrase: the table stays silent. The player typed the passphrase again
    as a command, and the screen said "kumara: not a command" (a playtest): the lobby
    now asks for it again, unseen, until it is right or Enter alone cancels."""
    import io

    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output.vt100 import Vt100_Output

    from tongiaki_lan.console.lobbymodel import WrongPassphrase

    sink = io.StringIO()
    output = Vt100_Output(sink, lambda: Size(rows=24, columns=80), term="xterm")
    got = []

    async def then(secret):
        got.append(secret)
        if secret != "kumara":
            raise WrongPassphrase("could not join Reef: no answer from the game within 4 s "
                                  "(wrong or missing passphrase?)")

    with create_pipe_input() as inp, create_app_session(input=inp, output=output):
        lobby = LobbyScreen("Tester", lan=False, colour_output=False)
        task = asyncio.ensure_future(lobby.run())
        await wait_until(lambda: lobby.app.is_running)
        lobby.ask_secret("Passphrase for Reef:", then)
        inp.send_text("kumar\r")
        await wait_until(lambda: any("Type the passphrase again" in t for _, t in lobby.lines),
                         what="asked again")
        inp.send_text("kumara\r")
        await wait_until(lambda: got == ["kumar", "kumara"], what="the second try")
        assert lobby._secret is None  # right: nothing more is asked
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)
    assert "kumara" not in sink.getvalue() and "kumar:" not in sink.getvalue()
    assert not any("kumar" in t for _, t in lobby.lines)

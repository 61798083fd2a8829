"""The lobby as a new player reads it at 80x24: stable game numbers, `join NAME`, one
reason per error (the command named once), the bottom bar offering only what works."""

from __future__ import annotations

import asyncio
import io
from types import SimpleNamespace

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tongiaki_lan.console.terminal.lobby import LobbyScreen
from tongiaki_lan.net.aio.discovery import GameInfo

from .conftest import FakeLan, wait_until


def game(name: str, gid: int, phase: str = "lobby", passphrase: bool = False) -> GameInfo:
    return GameInfo(bytes([gid]) * 8, name, phase, 1, 4, passphrase, float(gid), ())


def rows_of(lobby: LobbyScreen) -> list[str]:
    drawn = lobby.app.renderer._last_screen
    if drawn is None:
        return []
    return ["".join(drawn.data_buffer[y][x].char for x in range(80)).rstrip()
            for y in range(24)]


async def _lobby(inp, lan: FakeLan):
    lobby = LobbyScreen("Tester", lan=False, colour_output=False)
    task = asyncio.ensure_future(lobby.run())
    await wait_until(lambda: lobby.app.is_running, what="the lobby")
    lobby.lan_error = None
    lobby.discovery = lan
    lobby.node = SimpleNamespace(lobby=None, game_id=None, peer_id=b"me")
    lobby.app.invalidate()
    return lobby, task


async def _lobby_of(node):
    """The lobby of a real node (on loopback), its discovery a FakeLan."""
    lobby = LobbyScreen(node.name, lan=False, colour_output=False)
    task = asyncio.ensure_future(lobby.run())
    await wait_until(lambda: lobby.app.is_running, what="the lobby")
    lobby.lan_error = None
    lan = FakeLan()
    lobby.attach(node, lan)
    return lobby, task, lan


def _output():
    return Vt100_Output(io.StringIO(), lambda: Size(rows=24, columns=80), term="xterm")


async def test_game_numbers_stay_put_and_join_takes_a_name():
    reef, atoll, lagoon = game("Reef", 1), game("atoll", 2), game("Lagoon", 3)
    lan = FakeLan(reef, atoll)  # Reef's advert came first on this laptop
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, lan)
        # seen together: numbered by name, whatever the order of discovery
        assert lobby.numbered() == [(1, atoll), (2, reef)]
        await wait_until(lambda: any("1. atoll" in r for r in rows_of(lobby)))
        lan.listed = [lagoon, reef, atoll]  # a new game: a new number, the others keep theirs
        assert lobby.numbered() == [(1, atoll), (2, reef), (3, lagoon)]
        lan.listed = [lagoon, reef]  # atoll went away: nobody else becomes number 1
        assert lobby.numbered() == [(2, reef), (3, lagoon)]
        lobby.app.invalidate()
        await wait_until(lambda: any("2. Reef" in r for r in rows_of(lobby))
                         and not any("1. " in r for r in rows_of(lobby)))
        assert lobby.find_game(["2"])[0] is reef
        assert lobby.find_game(["lag"])[0] is lagoon  # a unique start of the name, any case
        assert lobby.find_game(["REEF", "kumara"]) == (reef, ["kumara"])  # then a passphrase
        lan.listed = [lagoon, reef, game("Lagoon Two", 4)]
        assert lobby.find_game(["lagoon"])[0] is lagoon  # the whole name wins over a prefix
        recif = game("Récif", 5)  # (a French host's table, joined from an Italian keyboard)
        lan.listed = [lagoon, reef, game("Lagoon Two", 4), recif]
        assert lobby.find_game(["recif"])[0] is recif and lobby.find_game(["RÉC"])[0] is recif
        inp.send_text("join lag\r")
        await wait_until(lambda: "could be" in lobby.message, what="the ambiguity")
        assert "3. Lagoon" in lobby.message and "4. Lagoon Two" in lobby.message
        inp.send_text("join 1\r")
        await wait_until(lambda: "no game 1" in lobby.message)
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_a_list_that_emptied_numbers_its_next_game_1():
    """A playtest's fresh lobby showed its only game as "2.": a game seen for a moment
    had kept number 1."""
    gone, atoll = game("Gone", 1), game("Atoll", 2)
    lan = FakeLan(gone)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, lan)
        assert lobby.numbered() == [(1, gone)]
        lan.listed = []
        assert lobby.numbered() == []
        lan.listed = [atoll]
        assert lobby.numbered() == [(1, atoll)]
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_errors_name_their_command_once_and_read_whole():
    lan = FakeLan(game("Over", 1, phase="over"), game("Secret Reef of the Long Name", 2,
                                                        passphrase=True))
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, lan)
        expect = {
            "join 7": "join: there is no game 7 here (listed: 1 Over, 2 Secret Reef of the "
                      "Long Name); each laptop numbers its own list, a game's name works on "
                      "all",
            "name": "name: what name?",
            "create": "create: give the game a name, e.g. create Friday 4",
            "join 1": "join: Over is over; create a new game or join another",
            "frobnicate": "frobnicate: not a command (help lists them)",
            "creat Lagon": "creat: not a command — did you mean create?",  # (a playtest)
            "create Friday night 5": "create NAME [SEATS] [lock]: a name with spaces needs "
                                     "quotes",
        }
        for typed, message in expect.items():
            inp.send_text(typed + "\r")
            await wait_until(lambda m=message: lobby.message == m,
                             what=f"{message!r}, got {lobby.message!r}")
            await wait_until(lambda m=message: m in " ".join(r.strip() for r in rows_of(lobby)))
        # a colour chosen at no table is said to be kept for the next one (it said
        # nothing, and seemed lost: a playtest)
        inp.send_text("colour purple\r")
        await wait_until(lambda: ("info", "Your colour at the next table you create or "
                                          "join: purple.") in lobby.lines,
                         what="the colour kept")
        # a join under way (here to game 2) is not "your table" before it seats us: with a
        # wrong passphrase a playtest's row said so until the refusal came, 4 s later
        lobby.node.game_id = lan.listed[1].game_id
        assert "your table" not in "".join(t for row in lobby.draw_top(80, 24)
                                           for _s, t in row)
        lobby.node.game_id = None
        # a game's notes that do not fit beside it get a row of their own, never cut
        lobby.yours = {lan.listed[1].game_id: object()}
        lobby.message = ""
        lobby.app.invalidate()
        await wait_until(lambda: any("← yours: join resumes your seat" in r
                                     for r in rows_of(lobby)), what="the whole note")
        assert not any("Looking for games" in r for r in rows_of(lobby))
        inp.send_text("help\r")
        await wait_until(lambda: any("Commands" in t for _s, t in lobby.lines))
        helped = [t for _s, t in lobby.lines if t.strip().startswith(("ready", "unready"))]
        assert len(helped) == 1 and "unready" in helped[0]  # once, not twice

        async def then(secret):
            raise AssertionError("an empty passphrase cancels")

        lobby.ask_secret("Passphrase for Reef:", then)
        await wait_until(lambda: any("(typed unseen; empty cancels)" in r
                                     for r in rows_of(lobby)))
        inp.send_text("\r")  # empty: cancelled, and the lobby says so
        await wait_until(lambda: lobby.lines[-1] == ("info", "Cancelled."))
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_start_names_only_those_the_host_waits_for():
    """The host's `start` was answered by the table "not ready yet: Ana, Ben": no command
    named, and the host herself listed, though starting is saying she is ready."""
    import dataclasses

    from tongiaki_lan.net.protocol import lobby as L

    ana, ben = b"a" * 8, b"b" * 8
    table = L.apply_request(L.new_lobby("Reef", 2, False, ana, "Ana", "", 1), ben,
                            ("10.0.0.9", 4000), L.Join("Ben", ""))
    calls = []
    node = SimpleNamespace(
        lobby=table, game_id=b"g" * 8, peer_id=ana, name="Ana", coordinator=lambda: ana,
        present=lambda: {ana, ben}, watchers=[], game=None,
        lobby_json=lambda: {"watchers": [], "open_seats": [], "seats": []},
        set_ready=lambda r: calls.append(("ready", r)),
        start_game=lambda: calls.append(("start",)))
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        lobby.node = node
        inp.send_text("start\r")
        await wait_until(lambda: lobby.message == "start: waiting for Ben to say ready",
                         what=f"the refusal, got {lobby.message!r}")
        assert calls == []
        node.lobby = dataclasses.replace(table, seats=tuple(
            dataclasses.replace(x, ready=x.owner == ben) for x in table.seats))
        inp.send_text("start\r")
        await wait_until(lambda: ("start",) in calls, what="the start")
        assert calls == [("ready", True), ("start",)]
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_the_bottom_bar_offers_start_to_the_host_only():
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        table = SimpleNamespace(seats=(), name="Reef", total=4, passphrase=False, phase="lobby")
        host = SimpleNamespace(lobby=table, game_id=b"g", peer_id=b"me",
                               coordinator=lambda: b"me", present=lambda: set())
        lobby.node = host
        assert "start" in lobby._status()[1]
        # `bot [LEVEL]`, as help says it and the table shows it (`bot easy`), not [KIND]
        assert "bot [LEVEL]" in lobby._status()[1]
        lobby.node = SimpleNamespace(**{**vars(host), "coordinator": lambda: b"someone"})
        assert "start" not in lobby._status()[1] and "ready" in lobby._status()[1]
        lobby.node = SimpleNamespace(lobby=None, game_id=None, peer_id=b"me")
        bar = lobby._status()[1]
        assert "[lock]" in bar and "[PASS]" not in bar  # as help says it
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


@pytest.mark.parametrize("lang", ["en", "it", "fi", "fr", "de"])
def test_colours_are_typed_as_the_table_shows_them(lang):
    """The table lists `2. rot  Maui (search)` to a German player: `unbot rot`, `colour
    grün` (or `grun`) must mean those colours, as the English names and letters do."""
    from tongiaki_lan import i18n
    from tongiaki_lan.console.lobbymodel import colour_key
    from tongiaki_lan.console.seats import COLOUR_NAMES
    from tongiaki_lan.engine import COLOURS

    i18n.use(lang)
    try:
        for key in COLOURS:
            shown = i18n._(COLOUR_NAMES[key])
            assert colour_key(shown) == key, (lang, shown)
            assert colour_key(shown.upper()) == key
            assert colour_key(key) == key and colour_key(key[0].upper()) == key
        assert colour_key("mauve") is None and colour_key("") is None
        if lang == "de":
            assert colour_key("grun") == "green" and colour_key("Rot") == "red"
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", ["en", "it", "fi", "fr", "de"])
def test_levels_are_typed_and_shown_in_the_players_language(lang):
    """An Italian table lists `bot facile`; `bot facile` (and the English `bot easy`, as
    the help and `--level` spell it) must add that level, and nothing else is a level."""
    from tongiaki_lan import i18n
    from tongiaki_lan.console.lobbymodel import level_key
    from tongiaki_lan.console.seats import kind_label

    i18n.use(lang)
    try:
        for key in ("easy", "normal", "hard"):
            shown = kind_label(key)
            assert level_key(shown) == key and level_key(shown.upper()) == key, (lang, shown)
            assert level_key(key) == key
        assert (kind_label("easy") == "easy") == (lang == "en")
        assert kind_label("search") == "search" and level_key("search") is None
        assert level_key("blue") is None
    finally:
        i18n.use("en")


async def test_a_game_of_yours_is_told_when_it_shows_in_the_list():
    """"You were playing Reef…: join N resumes your seat" at every start for a record of a
    game that has ended since (its player left it for good) sent players looking for a
    game that is not there: it is said once the game is listed, and only then."""
    reef, lagoon = game("Reef", 1, phase="playing"), game("Lagoon", 2)
    lan = FakeLan(lagoon)
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, lan)
        lobby.yours = {reef.game_id: SimpleNamespace(name="Reef", moves=27)}
        lobby._tell_yours()
        await asyncio.sleep(1.2)
        assert not any("You were playing" in t for _s, t in lobby.lines)
        lan.listed = [lagoon, reef]
        await wait_until(lambda: any("You were playing Reef (27 moves)" in t
                                     for _s, t in lobby.lines), what="Reef told")
        await asyncio.sleep(1.2)
        assert sum("You were playing" in t for _s, t in lobby.lines) == 1
        # the way back names the game's own number ("join N" sent a newcomer looking)
        number = dict((g.name, n) for n, g in lobby.numbered())["Reef"]
        assert any(f"join {number} resumes your seat" in t for _s, t in lobby.lines)
        await wait_until(lambda: any("← yours" in r for r in rows_of(lobby)))
        # it ended meanwhile (without us): listed as over, no longer offered as ours
        lan.listed = [lagoon, game("Reef", 1, phase="over")]
        lobby.app.invalidate()
        await wait_until(lambda: any("Reef" in r and "over" in r for r in rows_of(lobby)))
        assert not any("← yours" in r for r in rows_of(lobby))
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_create_refuses_the_name_of_a_table_already_listed():
    """Two friends who both typed `create Reef` sat at two tables named Reef, and
    `join reef` could not tell them apart: a name already listed is refused with the way
    to that table; a game that is over does not hold its name."""
    created = []

    async def create_game(name, *args, **kwargs):
        created.append(name)

    lan = FakeLan(game("Reef", 1), game("Atoll", 2, phase="over"))
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, lan)
        lobby.node.create_game = create_game
        inp.send_text("create reef 3\r")
        await wait_until(lambda: bool(lobby.message), what="the refusal")
        number = dict((g.name, n) for n, g in lobby.numbered())["Reef"]
        assert lobby.message == (f"create: {number}. Reef is already on the LAN: join "
                                 f"{number}, or give yours another name")
        inp.send_text("create Atoll 3\r")
        await wait_until(lambda: created == ["Atoll"], what="the create")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_create_and_say_refuse_what_would_show_as_nothing_or_be_cut():
    """`create ""` and `create "   "` opened tables with no name (a blank in every list,
    which `join` could not name); a name over 24 characters was cut without a word ("Island
    party of the " with its space), and 13 emoji went out whole for every other laptop to
    refuse; `say` alone sent an empty line ("<Ana>")."""
    created, said = [], []

    async def create_game(name, *args, **kwargs):
        created.append(name)

    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        lobby.node.create_game = create_game
        expect = {
            'create "" 3': "create: give the game a name, e.g. create Friday 4",
            'create "   " 3': "create: give the game a name, e.g. create Friday 4",
            'create "Island party of the forty characters" 3':
                "create: a game's name has at most 24 characters (fewer with emoji)",
            'create "' + "🌺" * 13 + '" 3':
                "create: a game's name has at most 24 characters (fewer with emoji)",
        }
        for typed, message in expect.items():
            lobby.message = ""
            inp.send_text(typed + "\r")
            await wait_until(lambda m=message: lobby.message == m,
                             what=f"{message!r}, got {lobby.message!r}")
        inp.send_text('create "  Island   party " 3\r')
        await wait_until(lambda: created == ["Island party"], what="the create")
        lobby.node.lobby = SimpleNamespace(name="Island party")
        lobby.node.chat = said.append
        inp.send_text("say   \r")
        await wait_until(lambda: lobby.message == "say: what?", what="the refusal")
        inp.send_text("say hello\r")
        await wait_until(lambda: said == ["hello"], what="the chat")
        lobby.node.lobby = None
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


@pytest.mark.parametrize("lang, marker", [("en", "── 1 more line below: PgDn ──"),
                                          ("it", "── 1 riga in più sotto: PagGiù ──"),
                                          ("de", "── 1 weitere Zeile darunter: Bild↓ ──")])
async def test_the_scrolled_back_marker_is_in_the_players_language(lang, marker):
    """PgUp in an Italian lobby drew "── 3 more line(s) below: PgDn ──" in English."""
    from tongiaki_lan import i18n

    i18n.use(lang)
    try:
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby, task = await _lobby(inp, FakeLan())
            lobby.lines.extend(("info", f"line {i}") for i in range(40))
            lobby.log_scroll = 1
            rows = ["".join(t for _s, t in row) for row in lobby.draw_log(78, 10)]
            assert rows[-1].strip() == marker
            lobby.log_scroll = 3
            rows = ["".join(t for _s, t in row) for row in lobby.draw_log(78, 10)]
            assert rows[-1].strip() == marker.replace("1", "3").replace(
                "line", "lines").replace("riga", "righe").replace("Zeile", "Zeilen")
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        i18n.use("en")


async def test_help_at_a_table_shows_its_first_line_first():
    """At a table of 80x24 the messages have ~12 rows and `help` ~17: the list showed its
    last lines, `solo` and `create` cut off at the top with no sign of it."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        lobby.lines.extend(("info", f"earlier {i}") for i in range(5))
        await lobby.command("help")
        rows = ["".join(t for _s, t in row).strip() for row in lobby.draw_log(78, 10)]
        assert rows[0].startswith("Commands (PgUp/PgDn"), rows
        assert rows[-1].startswith("── ") and "more lines below: PgDn" in rows[-1]
        lobby.log_scroll = 0  # PgDn to the end: the last line of help
        rows = ["".join(t for _s, t in row).strip() for row in lobby.draw_log(78, 10)]
        assert rows[-1].startswith("leave — leave this table")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_who_sits_down_at_our_table_is_told():
    """"Ben left." was said in the lobby, but not that Ben sat down: the host waiting for
    friends had to watch the seats. People and bots are told."""
    def seat(name, owner, kind="human", plays=""):
        return SimpleNamespace(kind=kind, name=name, colour="blue", owner=owner, ready=False,
                               bot="easy" if kind == "bot" else "", plays=plays)

    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())
        table = SimpleNamespace(seats=(seat("Tester", b"me"), seat("Ana", b"ana")),
                                name="Reef", total=4, passphrase=False, phase="lobby",
                                variant="standard", members=())
        lobby.node = SimpleNamespace(lobby=table, game_id=b"g", peer_id=b"me",
                                     coordinator=lambda: b"ana", present=lambda: {b"me"})
        event = SimpleNamespace(kind="lobby", data={})
        lobby._on_node_event(event)  # we sat down: Ana, already there, is no news
        assert not any("sat down" in t for _s, t in lobby.lines)
        table.seats += (seat("Ben", b"ben"), seat("Maui", b"ana", "bot"),
                        seat("Kai", b"kai", plays="normal"))
        lobby._on_node_event(event)
        lobby._on_node_event(event)
        # (a bot too: the host's `bot` showed in the seats with no word, and the others
        # wondered who Maui was — a LAN-party playtest; and a laptop that plays its seat
        # with a bot, `play --headless --bot normal`, read as a person)
        assert [t for _s, t in lobby.lines if "sat down" in t] == [
            "Ben sat down at the table.", "A bot sat down at the table: Maui (easy).",
            "A bot sat down at the table: Kai (normal)."]
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_two_tables_created_in_the_same_second_become_one(tmp_path):
    """Cy and Dee typed `create Lagon 4` in the same second: neither list showed the
    other's table yet, and the party had two tables named Lagon (a playtest). The one
    with the larger game id moves to the other while nobody has joined it, and says so."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.net.aio.discovery import Advert, GameInfo
    from tongiaki_lan.net.aio.node import Node
    from tongiaki_lan.net.lab.loopback import close_all


    cy = Node("Cy", host="127.0.0.1", record_dir=tmp_path / "Cy")
    dee = Node("Dee", host="127.0.0.1", record_dir=tmp_path / "Dee")
    await cy.start()
    await dee.start()
    try:
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby, task, lan = await _lobby_of(dee)
            inp.send_text("create Lagon 4\r")
            await wait_until(lambda: dee.lobby is not None, what="Dee's table")
            while True:  # Cy's table, the same second: the smaller id is the one kept
                await cy.create_game("Lagon", 4)
                if cy.game_id < dee.game_id:
                    break
                await cy.leave_game()
            ad = Advert("x", cy.peer_id, cy.game_id, "Lagon", "Cy", "lobby", 1, 4, False,
                        ("127.0.0.1",), cy.address[1], 0.0)
            lan.listed = [GameInfo(cy.game_id, "Lagon", "lobby", 1, 4, False, 0.0, (ad,))]
            await wait_until(lambda: dee.lobby is not None and dee.game_id == cy.game_id
                             and len(cy.lobby.members) == 2, what="one table")
            await wait_until(lambda: any("Another table named Lagon" in t
                                         for _s, t in lobby.lines), what="the line")
            assert [t for _s, t in lobby.lines if "Another table" in t] == [
                "Another table named Lagon opened at the same moment as yours: you sit at "
                "that one now, so the party has one table, not two."]
            assert [t for _s, t in lobby.lines].count("You are at the table Lagon.") == 1
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        await close_all([cy, dee])


def _listed(node, phase: str = "lobby"):
    """A node's table as the LAN lists it (FakeLan stands in for zeroconf)."""
    from tongiaki_lan.net.aio.discovery import Advert, GameInfo

    lb = node.lobby
    ad = Advert("x", node.peer_id, node.game_id, lb.name, node.name, phase, len(lb.seats),
                lb.total, False, ("127.0.0.1",), node.address[1], 0.0)
    return GameInfo(node.game_id, lb.name, phase, len(lb.seats), lb.total, False, 0.0, (ad,))


async def test_a_table_created_as_its_name_fills_elsewhere_goes_on_to_the_next_name(
        tmp_path):
    """Issue 45: Dee typed `create Lagon 2` in the same second as Cy and Ed, whose Lagon
    filled: Dee would wait alone at a Lagon nobody joins (every newcomer told it runs).
    Her table goes on to "Lagon (2)", which everyone who typed Lagon sees and joins."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.net.aio.node import Node
    from tongiaki_lan.net.lab.loopback import close_all


    cy = Node("Cy", host="127.0.0.1", record_dir=tmp_path / "Cy")
    ed = Node("Ed", host="127.0.0.1", record_dir=tmp_path / "Ed")
    dee = Node("Dee", host="127.0.0.1", record_dir=tmp_path / "Dee")
    for n in (cy, ed, dee):
        await n.start()
    try:
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby, task, lan = await _lobby_of(dee)
            inp.send_text("create Lagon 2\r")
            await wait_until(lambda: dee.lobby is not None, what="Dee's table")
            await cy.create_game("Lagon", 2)
            from tongiaki_lan.net.aio.node import GameRef

            await ed.join_game(GameRef(cy.game_id, cy.peer_id, "127.0.0.1", cy.address[1]))
            lan.listed = [_listed(cy)]  # full: it starts in a moment
            await wait_until(lambda: dee.lobby is not None and dee.lobby.name == "Lagon (2)",
                             what="Dee at the next table")
            assert dee.game_id != cy.game_id and len(dee.lobby.members) == 1
            await wait_until(lambda: "You are at the table Lagon (2)." in
                             [t for _s, t in lobby.lines], what="the line")
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        await close_all([cy, ed, dee])


async def test_watch_of_a_table_still_forming_follows_the_one_its_name_settles_on(tmp_path):
    """Issue 45 item 4: Dan typed `watch 1` while Lagon was forming; that table then merged
    into its twin (Cy moved to Ed's, the smaller id) and started there. Dan watched the
    first, saw its lobby, and then no move of the game; now he follows the twin, and the
    game screen opens on the game they play."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.net.aio.node import GameRef, Node
    from tongiaki_lan.net.lab.loopback import close_all

    from .conftest import FakeLan

    cy = Node("Cy", host="127.0.0.1", record_dir=tmp_path / "Cy")
    ed = Node("Ed", host="127.0.0.1", record_dir=tmp_path / "Ed")
    dan = Node("Dan", host="127.0.0.1", record_dir=tmp_path / "Dan")
    for n in (cy, ed, dan):
        await n.start()
    try:
        while True:  # two twins of Lagon; Ed's has the smaller id
            await cy.create_game("Lagon", 2)
            await ed.create_game("Lagon", 2)
            if ed.game_id < cy.game_id:
                break
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby = LobbyScreen("Dan", lan=False, colour_output=False)
            task = asyncio.ensure_future(lobby.run())
            await wait_until(lambda: lobby.app.is_running, what="the lobby")
            lobby.lan_error = None
            lan = FakeLan(_listed(cy))  # Ed's twin not heard of yet
            lobby.attach(dan, lan)
            inp.send_text("watch 1\r")
            await wait_until(lambda: dan.lobby is not None and dan.game_id == cy.game_id,
                             what="Dan watching Cy's table")
            lan.listed = [_listed(cy), _listed(ed)]  # the twin is heard of...
            await cy.leave_game()  # ... and Cy moves there, as the smaller id wins
            await cy.join_game(GameRef(ed.game_id, ed.peer_id, "127.0.0.1", ed.address[1]))
            lan.listed = [_listed(ed)]
            await wait_until(lambda: dan.lobby is not None and dan.game_id == ed.game_id,
                             what="Dan following the table Lagon settled on")
            for n in (cy, ed):
                n.set_ready(True)
            result = await asyncio.wait_for(task, 30)  # the game screen opens
            assert result[0] == "game" and dan.game is not None
            assert dan.game_id == ed.game_id and dan.core.watching
    finally:
        await close_all([cy, ed, dan])


async def test_a_colour_taken_at_the_table_is_said_with_the_one_given(tmp_path):
    """A playtest's player chose violet, joined a table where it was taken, and played
    blue without a word."""
    from prompt_toolkit.input import create_pipe_input

    from tongiaki_lan.net.aio.discovery import Advert, GameInfo
    from tongiaki_lan.net.aio.node import Node
    from tongiaki_lan.net.lab.loopback import close_all

    from .conftest import FakeLan

    ana = Node("Ana", host="127.0.0.1", record_dir=tmp_path / "Ana")
    cy = Node("Cy", host="127.0.0.1", record_dir=tmp_path / "Cy")
    await ana.start()
    await cy.start()
    try:
        await ana.create_game("Reef", 4, None, "purple")
        ad = Advert("x", ana.peer_id, ana.game_id, "Reef", "Ana", "lobby", 1, 4, False,
                    ("127.0.0.1",), ana.address[1], 0.0)
        lan = FakeLan(GameInfo(ana.game_id, "Reef", "lobby", 1, 4, False, 0.0, (ad,)))
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby = LobbyScreen("Cy", lan=False, colour_output=False)
            task = asyncio.ensure_future(lobby.run())
            await wait_until(lambda: lobby.app.is_running, what="the lobby")
            lobby.lan_error = None
            lobby.attach(cy, lan)
            inp.send_text("colour purple\r")
            inp.send_text("join reef\r")
            await wait_until(lambda: any("was taken" in t for _s, t in lobby.lines),
                             what="the colour given")
            got = next(x.colour for x in cy.lobby.seats if x.owner == cy.peer_id)
            assert got != "purple"
            assert (f"purple was taken at this table: you play {got} (colour COLOUR changes "
                    "it).") in [t for _s, t in lobby.lines]
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        await close_all([ana, cy])


async def test_ctrl_c_at_the_passphrase_cancels_the_question_not_the_lobby():
    """Ctrl-C at "Passphrase for Reef:" left tongiaki-lan, halfway through `create Reef
    2 lock`, the question saying "empty cancels": it cancels, as Enter alone does, and the
    lobby stays; at the lobby's own prompt Ctrl-C still leaves."""
    with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
        lobby, task = await _lobby(inp, FakeLan())

        async def then(secret):
            raise AssertionError("Ctrl-C cancels")

        lobby.ask_secret("Passphrase for Reef:", then)
        await wait_until(lambda: any("(typed unseen; empty cancels)" in r
                                     for r in rows_of(lobby)), what="the question")
        inp.send_text("coco\x03")  # (half typed)
        await wait_until(lambda: lobby.lines[-1] == ("info", "Cancelled."), what="cancelled")
        assert lobby.input.secret is None and lobby.buffer.text == ""
        assert lobby.app.is_running and not task.done()
        await wait_until(lambda: not any("typed unseen" in r for r in rows_of(lobby)),
                         what="the question gone")
        inp.send_text("\x03")
        await asyncio.wait_for(task, 30)


async def test_a_seat_whose_laptop_never_answered_is_said_free_again(tmp_path, monkeypatch):
    """Joe typed `join 1` while the table's answers to him were lost; his lobby gave up
    ("no answer from the game within 4 s"), and the host's screen said "Joe sat down at
    the table.", "Joe is away.", then "Joe left." — as if Joe had got up and gone, when
    his laptop never knew it sat there. It says the seat is free again, and why (a
    LAN playtest, network namespaces and iptables). The seat waits 12 s; cut here."""
    from tongiaki_lan.net.aio.node import GameRef, JoinRefused, Node
    from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket
    from tongiaki_lan.net.lab.loopback import close_all
    from tongiaki_lan.net.protocol import lobbysync

    monkeypatch.setattr(lobbysync, "SEAT_CONFIRM_S", 3.0)
    rule = FaultRule()
    tui = Node("Tui", host="127.0.0.1", record_dir=tmp_path / "Tui",
               wrap_socket=lambda s: FaultySocket(s, rule))
    joe = Node("Joe", host="127.0.0.1", record_dir=tmp_path / "Joe")
    await tui.start()
    await joe.start()
    try:
        with create_pipe_input() as inp, create_app_session(input=inp, output=_output()):
            lobby, task, _lan = await _lobby_of(tui)
            inp.send_text("create Cove 2\r")
            await wait_until(lambda: tui.lobby is not None, what="Tui's table")
            ref = GameRef(tui.game_id, tui.peer_id, "127.0.0.1", tui.address[1])
            rule.cut.add(tuple(joe.address[:2]))
            with pytest.raises(JoinRefused, match="no answer"):
                await joe.join_game(ref, timeout=1.0)
            rule.cut.clear()
            said = "Joe's laptop did not answer the table: their seat is free again."
            await wait_until(lambda: any(t == said for _s, t in lobby.lines),
                             what="the seat free again", timeout=30)
            assert len(tui.lobby.seats) == 1
            assert "Joe left." not in [t for _s, t in lobby.lines]
            inp.send_text("\x03")
            await asyncio.wait_for(task, 30)
    finally:
        await close_all([tui, joe])

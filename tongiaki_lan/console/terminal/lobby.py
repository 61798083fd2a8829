"""The lobby's screen in the terminal: the games on the LAN and your table above, what the
lobby said below, the status line with the commands that matter now, the command line.

It draws the lobby's model (lobbymodel.py) and hands each line typed to the lobby's
commands (lobbyinput.py); the network side (lobbynet.py) runs beside it on the same
event loop. `run()` ends with what the player chose: ("solo", bots, level),
("resume", path), ("game", node, discovery) once a LAN game starts, or ("quit",).
"""

from __future__ import annotations

from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import BeforeInput, ConditionalProcessor, PasswordProcessor

from tongiaki_lan.i18n import _, ngettext

from ..forming import forming_table
from ..lobbyinput import COMMANDS, MORE_COMMANDS, LobbyInput
from ..lobbymodel import COLOUR_NAMES, PHASE_NAMES, LobbyModel
from ..lobbynet import LobbyNet
from .theme import build_style, player_style
from .widgets import CanvasControl, wrap_words


def _model_attr(name: str, doc: str = "") -> property:
    """An attribute of the lobby's model, read and set through the screen (as callers
    and tests have always done: `lobby.lines`, `lobby.node = node`)."""
    return property(lambda self: getattr(self.model, name),
                    lambda self, value: setattr(self.model, name, value), doc=doc)


class LobbyScreen:
    """The terminal view of the lobby, and the one object the command line starts."""

    name = _model_attr("name")
    colour = _model_attr("colour")
    record_dir = _model_attr("record_dir")
    on_name = _model_attr("on_name", "called with the new name after `name NEW`")
    node = _model_attr("node")
    discovery = _model_attr("discovery")
    lan_error = _model_attr("lan_error")
    lines = _model_attr("lines")
    message = _model_attr("message")
    yours = _model_attr("yours")
    take_wanted = _model_attr("take_wanted")
    board_wanted = _model_attr("board_wanted")
    board_url = _model_attr("board_url", "the board page's address once served, or None")
    _busy = _model_attr("busy")

    def __init__(self, name: str, colour: str = "", record_dir=None, host: str = "0.0.0.0",
                 port: int = 0, lan: bool = True, colour_output: bool = True,
                 interfaces: list[str] | None = None):
        self.model = LobbyModel(name, colour, record_dir)
        self.net = LobbyNet(self.model, host=host, port=port, lan=lan, interfaces=interfaces)
        self.input = LobbyInput(self.model, self.net)
        self.log_scroll = 0  # lines scrolled back from the newest
        self.buffer = Buffer(multiline=False, accept_handler=self._accept,
                             completer=WordCompleter([*COMMANDS, *MORE_COMMANDS],
                                                     sentence=True),
                             complete_while_typing=False)
        self.app = self._build(colour_output)
        self.model.subscribe(self.app.invalidate)
        self.model.on_finish(self._finish)

    def _finish(self, result: tuple) -> None:
        if self.app.is_running and not self.app.future.done():
            self.app.exit(result=result)

    # ---------------------------------------------------------------- the other parts

    reclaim_wait_s = property(lambda self: self.net.reclaim_wait_s,
                              lambda self, v: setattr(self.net, "reclaim_wait_s", v))

    @property
    def _secret(self):
        return self.input.secret

    async def start_network(self) -> None:
        await self.net.start_network()

    def attach(self, node, discovery) -> None:
        """Use this node and this browser (start_network's, or a test's own)."""
        self.net.attach(node, discovery)

    async def close_network(self) -> None:
        await self.net.close_network()

    def _on_node_event(self, ev) -> None:
        self.net.on_node_event(ev)

    def _tell_yours(self) -> None:
        self.model.tell_yours()

    def games(self):
        return self.model.games()

    def numbered(self):
        return self.model.numbered()

    def find_game(self, words: list[str], command: str = "join"):
        return self.model.find_game(words, command)

    def number_of(self, info):
        return self.model.number_of(info)

    def carried_lines(self):
        return self.model.carried_lines()

    def ask_secret(self, prompt: str, then) -> None:
        self.input.ask_secret(prompt, then)

    async def command(self, text: str) -> None:
        await self.input.command(text)

    async def _command(self, text: str) -> None:
        await self.input._command(text)

    async def doctor(self) -> None:
        await self.net.doctor()

    # ---------------------------------------------------------------- drawing

    def draw_top(self, width: int, height: int):
        out: list[list[tuple[str, str]]] = []
        head = "class:lobby.head"
        out.append([("class:title", _(" Tongiaki — LAN lobby   you: {name}").format(
            name=self.name))])
        if self.lan_error:
            out.append([("class:message.error", f" {self.lan_error}")])
            out.append([("", _(" You can still play solo: type ")), ("class:prompt", "solo")])
        else:
            games = self.numbered()
            out.append([(head, _(" Games on the LAN ({n})").format(n=len(games)))])
            if not games:
                out.append([("class:panel.head",
                             _("  looking… none yet — create one: create NAME [SEATS]"))])
            for i, g in games[:8]:
                lock = " " + _("[passphrase]") if g.passphrase else ""
                mine = ("  " + _("← your table")  # (once seated: while a join waited
                        # for a refusal, a wrong passphrase, the row said so for 4 s)
                        if self.node and g.game_id == self.node.game_id
                        and getattr(self.node, "lobby", None) is not None else "")
                if mine and self.model.watching():
                    mine = "  " + _("← you watch it")
                if not mine and g.game_id in self.yours and g.phase != "over":
                    mine = "  " + _("← yours: join resumes your seat")
                # (a running game's seats a newcomer may take are not counted as taken:
                # "6/6 seats · playing · 3 seats open" read as a contradiction)
                taken = g.taken - (g.open_seats if getattr(g, "running", False) else 0)
                seats = _("{taken}/{total} seats").format(taken=max(0, taken), total=g.total)
                phase = _(PHASE_NAMES.get(g.phase, g.phase)) + self._guest_note(g)
                row = f"  {i}. {g.name[:24]:<24} {seats}  {phase:<8}"
                if len(row) + len(lock) + len(mine) <= width:
                    out.append([("", row), ("class:message", lock), ("class:panel.head", mine)])
                elif len(row) + len(lock) <= width:  # the notes on a row of their own
                    out.append([("", row), ("class:message", lock)])
                    out.append([("class:panel.head", "      " + mine.strip())])
                elif len(row) <= width:  # (a running game's offer is long)
                    out.append([("", row)])
                    out.append([("class:message", "     " + lock), ("class:panel.head", mine)])
                else:  # a narrow terminal (or long words): nothing cut off
                    out.append([("", f"  {i}. {g.name[:24]:<24} {seats}")])
                    out.append([("", "      " + phase), ("class:message", lock),
                                ("class:panel.head", mine)])
        table = forming_table(self.node)
        if table is not None:
            out.append([("", "")])
            out.append([(head, " " + table.heading)])
            # (the colour column as wide as its longest name in this language: `keltainen`)
            cw = max(len(_(c)) for c in COLOUR_NAMES.values())
            for s in table.seats:
                out.append([
                    ("", f"  {s.number}. "),
                    (player_style(s.colour), f"{s.colour_name:<{cw}}"),
                    ("", f" {s.name[:16]:<16} {s.kind:<12} "),
                    ("class:log.good" if s.ready else "class:panel.head", s.ready_text),
                    ("class:panel.head", ("  " + ", ".join(s.flags)) if s.flags else ""),
                ])
            if table.watchers:
                out.append([("class:panel.head", "  " + _("Watching: ")),
                            ("", ", ".join(table.watchers)[:max(10, width - 16)])])
        return out[:height]

    @staticmethod
    def _guest_note(g) -> str:
        """What a running game offers a latecomer: `· 1 bot seat to take · watch` (a
        seat a newcomer may take is always one a bot plays: "1 seat open" read as an
        empty chair)."""
        if not getattr(g, "running", False):
            return ""
        note = ""
        if g.open_seats:
            note += " · " + ngettext("{n} bot seat to take", "{n} bot seats to take",
                                     g.open_seats).format(n=g.open_seats)
        if g.watchable:
            note += " · watch"  # (the command word, as typed)
        return note

    def draw_log(self, width: int, height: int):
        rows = []
        for style, text in self.lines:
            cls = f"class:log.{style}" if style else "class:log"
            for part in wrap_words(text, max(10, width - 2), subsequent_indent="   ") or [""]:
                rows.append([(cls, " " + part)])
        if not height:
            return []
        if self.model.log_anchor is not None:
            anchor, self.model.log_anchor = self.model.log_anchor, None
            below = sum(len(wrap_words(text, max(10, width - 2), subsequent_indent="   ")
                            or [""]) for _s, text in self.lines[anchor:])
            self.log_scroll = max(0, below - height)
        self.log_scroll = min(self.log_scroll, max(0, len(rows) - height))
        end = len(rows) - self.log_scroll
        shown = rows[max(0, end - height):end]
        if self.log_scroll and shown:
            shown[-1] = [("class:rule", " " + ngettext(
                "── {n} more line below: PgDn ──", "── {n} more lines below: PgDn ──",
                self.log_scroll).format(n=self.log_scroll))]
        return shown

    def _status(self) -> tuple[str, str]:
        secret = self.input.secret
        if secret is not None:
            return "class:status", " " + _("{prompt} (typed unseen; empty cancels)").format(
                prompt=secret[0])
        if self.message:
            return "class:message.error", " " + self.message
        return "class:status", " " + self.model.hint()

    def _columns(self) -> int:
        try:
            return self.app.output.get_size().columns
        except Exception:  # pragma: no cover - no terminal attached
            return 80

    def _status_rows(self) -> list[str]:
        """The status line, wrapped to the terminal's width: a refusal's explanation is
        usually at its end, so it gets a second (or third) row rather than being cut."""
        return wrap_words(self._status()[1], max(10, self._columns() - 1),
                             subsequent_indent="  ")[:4] or [""]

    def status(self):
        return [(self._status()[0], "\n".join(self._status_rows()))]

    def _build(self, colour: bool) -> Application:
        kb = KeyBindings()

        @kb.add("c-c")
        @kb.add("c-d")
        def _(event):
            event.app.exit(result=("quit",))

        # (added later, so it goes first while a passphrase is asked for)
        @kb.add("c-c", filter=Condition(lambda: self.input.secret is not None))
        def _(event):
            self.input.cancel_secret()
            self.buffer.reset()

        @kb.add("pageup")
        def _(event):
            self.log_scroll += 5

        @kb.add("pagedown")
        def _(event):
            self.log_scroll = max(0, self.log_scroll - 5)

        def top_height() -> Dimension:
            want = len(self.draw_top(self._columns(), 100))
            return Dimension(min=3, preferred=want, max=want)

        secret = Condition(lambda: self.input.secret is not None)
        root = HSplit([
            Window(CanvasControl(self.draw_top), wrap_lines=False, height=top_height),
            Window(height=1, char="─", style="class:rule"),
            Window(CanvasControl(self.draw_log), wrap_lines=False,
                   height=Dimension(min=5, weight=1)),
            Window(FormattedTextControl(self.status), style="class:status",
                   height=lambda: Dimension.exact(len(self._status_rows()))),
            Window(BufferControl(self.buffer, input_processors=[
                ConditionalProcessor(PasswordProcessor(), secret),
                BeforeInput("> ", style="class:prompt")]), height=1,
                # (the `> ` comes back after a pasted page: screen.py says why)
                get_horizontal_scroll=lambda window: 0),
        ])
        from prompt_toolkit.output import ColorDepth

        return Application(layout=Layout(root), key_bindings=kb, style=build_style(),
                           full_screen=True,
                           color_depth=None if colour else ColorDepth.DEPTH_1_BIT)

    # ---------------------------------------------------------------- the command line

    def _accept(self, buffer: Buffer) -> bool:
        text = buffer.text
        self.log_scroll = 0
        if self.input.secret is not None:
            # a passphrase never reaches the history (Up would show it) nor the screen
            buffer.set_document(buffer.document.__class__(""), True)
        self.input.enter(text)
        return False

    async def run(self):
        await self.net.start_network()
        if self.lan_error:
            self.lines.append(("bad", self.lan_error))
        else:
            self.lines.append(("info", _("help lists the commands.")))
        unfinished = self.net.unfinished_solo()
        if unfinished is not None:  # (left mid-way, from here or `solo`: not lost)
            self.lines.append(("info", _("Your last solo game stopped after move {n}: solo "
                                         "resume plays on it.").format(n=unfinished[1])))
        self.net.background()
        result = await self.app.run_async()
        self.net.stop()
        return result or ("quit",)

"""The terminal's building blocks: a control that shows what a function draws (the map,
the panel, the log), and the word wrapping every part of the screen shares."""

from __future__ import annotations

import re
import textwrap

from prompt_toolkit.layout.controls import UIContent, UIControl
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType


class CanvasControl(UIControl):
    """Shows whatever `draw(width, height)` returns; redrawn on every render."""

    def __init__(self, draw, on_click=None, on_scroll=None):
        self.draw = draw
        self.on_click = on_click  # (x, y) of a left click, in the control's own cells
        self.on_scroll = on_scroll  # +1 (wheel down) / -1 (wheel up)

    def create_content(self, width: int, height: int) -> UIContent:
        lines = self.draw(width, height)
        return UIContent(get_line=lambda i: lines[i] if i < len(lines) else [],
                         line_count=max(1, len(lines)))

    def is_focusable(self) -> bool:
        return False

    def mouse_handler(self, mouse_event: MouseEvent):
        kind = mouse_event.event_type
        if (kind == MouseEventType.MOUSE_UP and self.on_click is not None
                and mouse_event.button in (MouseButton.LEFT, MouseButton.UNKNOWN)):
            self.on_click(mouse_event.position.x, mouse_event.position.y)
            return None
        if self.on_scroll is not None and kind in (MouseEventType.SCROLL_UP,
                                                   MouseEventType.SCROLL_DOWN):
            self.on_scroll(1 if kind == MouseEventType.SCROLL_DOWN else -1)
            return None
        return NotImplemented


class _PathWrapper(textwrap.TextWrapper):
    """Lines may also end after a path's separator, or a hyphen before a digit: a
    record's path is longer than the log panel, and was cut wherever the line ran out
    (`…/tongiaki-lan/rec` / `ords/so` / `lo-2026…`); `tongiaki-lan` stays whole.
    (`wordsep_simple_re` is the pattern textwrap splits on without hyphens; a test
    checks that textwrap still reads it. Its spaces are textwrap's own, ASCII: a
    no-break space holds words together, as in the game-over line's hint.)"""

    wordsep_simple_re = re.compile(r"([\t\n\x0b\x0c\r ]+|(?<=[/\\])(?=[^\s/\\])|(?<=\w-)(?=\d))")


def wrap_words(text: str, width: int, **kw) -> list[str]:
    """textwrap.wrap, but a word is never broken at its hyphens: `tongiaki-lan` and the
    record's `Reef-78ed60c9-….tgrec` were split across lines ("run tongiaki-" / "lan
    again"); a path is broken after a `/` or `\\`, but not a web address, which goes
    to a line of its own if it fits one (the board page's was cut after `http://`: a
    player could neither copy nor click it); another word longer than the line is still
    broken, as before. French puts a space before `;`, `:`, `!` and `?`: no line
    may start with one ("  ; un bot (normal) joue sa place", a playtest), so that space is
    a non-breaking one here."""
    text = _BEFORE_PUNCT.sub("\u00a0\\1", text)
    urls = _URL.findall(text)
    if urls:  # (its `/` and `-` hidden from the path rule while wrapping)
        text = _URL.sub(lambda m: m.group(0).translate(_HOLD), text)
    rows = _PathWrapper(width, break_on_hyphens=False, **kw).wrap(text)
    return [row.translate(_RELEASE) for row in rows] if urls else rows


_BEFORE_PUNCT = re.compile(r" ([;:!?»])")
_URL = re.compile(r"\bhttps?://\S+")
# a URL's `/` and `-` while it is wrapped: characters of the private use area, which no
# text holds (a key may hold `-` before a digit, where a word may break)
_HOLD = str.maketrans({"/": "\ue000", "-": "\ue001"})
_RELEASE = str.maketrans({"\ue000": "/", "\ue001": "-"})


def wrap_fragments(lines, width: int) -> list[list[tuple[str, str]]]:
    out = []
    for style, text in lines:
        cls = f"class:log.{style}" if style else "class:log"
        if style == "turn" and len(text) > width:  # (a narrow panel broke "── turn 22: Ben
            text = text.strip("─ ")  # — bot (normal)" from its "(R) ──": the rules go first)
        if style == "summary":
            text = _moves_whole(text)
        for part in wrap_words(text, max(10, width), subsequent_indent="  ") or [""]:
            out.append([(cls, part)])
    return out


def _moves_whole(text: str) -> str:
    """A summary line (`  Hina: expand Tonga, beaches 4 5`) with each move's words held
    together: a move was cut between lines ("beaches 4" / "5", a playtest)."""
    head, sep, moves = text.partition(": ")
    if not sep:
        return text
    return head + sep + ", ".join(m.replace(" ", "\u00a0") for m in moves.split(", "))

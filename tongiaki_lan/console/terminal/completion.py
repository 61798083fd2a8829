"""Tab on the game screen's line: exactly the legal moves of the pending decision, as the
state offers them, and the commands; a watcher's few words and whom they name."""

from __future__ import annotations

from prompt_toolkit.completion import Completer, Completion

from tongiaki_lan.i18n import _, ngettext
from tongiaki_lan.i18n.islands import joined_islands

from ..input import WATCHER_WORDS
from ..seats import colour_name

COMPLETION_LIMIT = 24  # above this many matches, complete one word at a time


class MoveCompleter(Completer):
    """Offers exactly the legal moves of the pending decision, in their text form.

    Large sets (a New Colony tile has six placements per free hex, a landing can have
    dozens) are offered a word at a time, so the menu always stays short enough to
    read: `tile ` offers the hexes, `tile 1,-2 ` then the six directions.
    """

    def __init__(self, screen):
        self.screen = screen  # the game screen: its model's state, the offer on its line

    def get_completions(self, document, complete_event):
        state = self.screen.model.state
        before = document.text_before_cursor
        typed = joined_islands(before.lstrip())  # (`sail Rapa Nui `, as the map writes it)
        low = typed.lower()
        if not typed and not complete_event.completion_requested:
            return  # an empty line shows no menu until Tab asks for one
        if state.kind == "watch":
            yield from self._watcher_completions(state, before, low)
            return
        word, space, rest = low.partition(" ")
        if space and word == "replace" and "replace" in state.commands:
            yield from self._player_completions(state, rest)
            return
        options = {o.text: o for o in state.decision.moves}
        offer = self.screen.offered()
        if (offer and document.text == offer and complete_event.completion_requested
                and offer in options):  # (a whole move, not `tile 1,2 `)
            # Tab on the untouched offer (`land 1:B 2:G 3:G`) lists the other ways, as on
            # `land `: it showed nothing, and the offer had to be cleared by hand first
            typed = offer.split(" ", 1)[0] + " "
            low = typed.lower()
        matches = [m for m in options if m.lower().startswith(low)]
        if len(matches) > COMPLETION_LIMIT:
            stems: dict[str, int] = {}
            for m in matches:
                cut = m.find(" ", len(typed) + (0 if typed.endswith(" ") or not typed else 1))
                stem = m if cut < 0 else m[: cut + 1]
                stems[stem] = stems.get(stem, 0) + 1
            for stem, n in stems.items():
                meta = ngettext("{n} move", "{n} moves", n).format(n=n) if n > 1 else ""
                yield Completion(stem, start_position=-len(before), display=stem.strip(),
                                 display_meta=meta)
        else:
            for m in matches:
                yield Completion(m, start_position=-len(before),
                                 display_meta=options[m].preview)
        if low:
            for word in state.commands:
                if word.startswith(low) and word != low:
                    yield Completion(word, start_position=-len(before),
                                     display_meta=_("command"))

    def _player_completions(self, state, rest: str):
        """`replace `: the other players' names (or a colour, the English word the table
        takes, when that is what is being typed); it offered nothing, and a name had to
        be read off the panel and typed whole. Not ours, nor a seat a bot plays already;
        only away players' when someone is away (a playtest's Tab offered everyone, and the
        first name it put on the line was a player sitting right there)."""
        typed = rest.strip()
        options = []
        away = any(seat.away for seat in state.seats)
        for seat in state.seats:
            if seat.local or seat.bot_kind or (away and not seat.away):
                continue
            english = (typed and not seat.name.lower().startswith(typed)
                       and seat.colour.startswith(typed))
            options.append(seat.colour if english else seat.name)
        for o in dict.fromkeys(options):  # (two colours each: a name once)
            if o.lower().startswith(typed) and o.lower() != typed:
                yield Completion(o, start_position=-len(rest.lstrip()))

    def _watcher_completions(self, state, before: str, low: str):
        """A watcher's line: its few commands, then a player's name after `follow ` and
        an open seat's colour after `take `."""
        word, space, rest = low.partition(" ")
        if not space:
            words = [*WATCHER_WORDS]
            if state.over:
                words += ["map", "board"] + (["lobby"] if state.from_lobby else [])
            if not state.open_seat_indices:
                words.remove("take")
            for w in words:
                if w.startswith(low) and w != low:
                    yield Completion(w, start_position=-len(before), display_meta=_("command"))
            return
        if word == "follow":
            options = list(dict.fromkeys(seat.name for seat in state.seats))
        elif word in ("take", "join"):
            # an open seat's colour as the panel names it (`take verde`), or its English
            # name when that is what is being typed (`take gr` in Italian: green)
            typed = rest.strip()
            options = []
            for i in state.open_seat_indices:
                seat = state.seats[i]
                shown = colour_name(seat.colour).lower()
                english = typed and not shown.startswith(typed) and seat.colour.startswith(typed)
                options.append(seat.colour if english else shown)
        else:
            return
        for o in options:
            if o.lower().startswith(rest.strip()) and o.lower() != rest.strip():
                yield Completion(o, start_position=-len(rest.lstrip()))

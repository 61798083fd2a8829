"""The table as it forms, before its game: its name, the seats taken (who, which colour,
a person or a bot, ready or not), how many are open and who watches.

One value for every view of a table still in the lobby: the terminal's lobby screen
draws its "Your table" rows from it, and the board page of a laptop sitting at that
table (a headless node's `play --headless --board`, a lobby's page between games) draws
the same, where it said only "Waiting for the game to start…". Read from the node's
replicated lobby (`node.lobby`) whenever a view asks: nothing here is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

from tongiaki_lan.engine import COLOURS, LETTERS
from tongiaki_lan.i18n import _, current, ngettext

from .lobbymodel import PHASE_NAMES
from .seats import COLOUR_NAMES, kind_label


@dataclass(frozen=True, slots=True)
class FormingSeat:
    """One seat taken at the table."""

    number: int  # 1, 2, … as listed
    name: str  # the player's name (a bot seat's without its kind: `kind` says it)
    colour: str  # engine colour name (`blue`)
    letter: str  # its letter (`B`)
    colour_name: str  # the colour in the player's language
    kind: str  # who plays it, in words: `human`, `bot normal`
    ready: bool
    ready_text: str  # `ready` or `not ready`, in words
    flags: tuple[str, ...]  # `you`, `away`, in words
    this_laptop: bool  # this laptop's seat (whoever plays it)


@dataclass(frozen=True, slots=True)
class FormingTable:
    """The table this laptop sits at (or watches) before its game starts."""

    name: str
    phase: str  # in words (`lobby`, `starting`)
    heading: str  # `Your table: Reef (lobby, 2/4 seats, passphrase)`; `You watch: …`
    watching: bool  # this laptop watches it (no seat)
    taken: int
    total: int
    open_text: str  # `2 seats open`, "" when the table is full
    seats: tuple[FormingSeat, ...]
    watchers: tuple[str, ...]  # who watches, besides this laptop
    lang: str = ""  # the language its words are in


def _watching(node) -> bool:
    return bool(getattr(getattr(node, "core", None), "watching", False))


def forming_table(node) -> FormingTable | None:
    """The table `node` sits at or watches, as it is now; None when it sits at none."""
    lb = getattr(node, "lobby", None) if node is not None else None
    if lb is None:
        return None
    from .feeds.lanfacts import guests_word
    from .lobbynet import DEFAULT_DRAW_WAIT

    watching = _watching(node)
    present = node.present()
    seats = _("{taken}/{total} seats").format(taken=len(lb.seats), total=lb.total)
    extra = ", " + _("passphrase") if lb.passphrase else ""
    if lb.variant == "two-colours":  # V1: said on the table's line, for everyone
        extra += ", " + _("two colours each")
    guests = getattr(lb, "guests", None)
    if guests is not None and guests_word(guests) != "open":  # (once changed)
        extra += ", " + _("guests: {word}").format(word=guests_word(guests))
    if getattr(lb, "draw_wait", DEFAULT_DRAW_WAIT) != DEFAULT_DRAW_WAIT:
        # (`wait 30` said nothing, to the one who typed it nor to the others)
        extra += ", " + _("tiles wait {s} s").format(s=lb.draw_wait)
    phase = _(PHASE_NAMES.get(lb.phase, lb.phase))
    if watching:
        title = _(" You watch: {name} ({phase}, {seats}{extra})")
    else:
        title = _(" Your table: {name} ({phase}, {seats}{extra})")
    heading = title.format(name=lb.name, phase=phase, seats=seats, extra=extra).strip()
    rows = []
    for i, s in enumerate(lb.seats, 1):
        bot = s.bot if s.kind == "bot" else s.plays  # (plays: a laptop's bot)
        kind = _("bot {kind}").format(kind=kind_label(bot)) if bot else _("human")
        name = s.name
        if s.kind == "bot" and name.endswith(f" ({s.bot})") and len(name) > len(s.bot) + 3:
            name = name[:-len(s.bot) - 3]  # `Tangaroa (search)`: the kind column says it
        mine = s.owner == node.peer_id and s.kind != "bot"
        flags = []
        if mine:  # (a laptop whose bot plays its seat: its page is not "you")
            flags.append(_("this laptop") if s.plays else _("you"))
        if s.owner not in present:
            flags.append(_("away"))
        letter = LETTERS[COLOURS.index(s.colour)] if s.colour in COLOURS else "?"
        rows.append(FormingSeat(
            number=i, name=name, colour=s.colour, letter=letter,
            colour_name=_(COLOUR_NAMES.get(s.colour, s.colour)), kind=kind,
            ready=bool(s.ready), ready_text=_("ready") if s.ready else _("not ready"),
            flags=tuple(flags), this_laptop=mine))
    me = node.peer_id.hex()
    listed = (node.lobby_json().get("watchers") or ()) if hasattr(node, "lobby_json") else ()
    watchers = sorted({w["name"] for w in listed if w.get("peer") != me}, key=str.casefold)
    free = max(0, lb.total - len(lb.seats))
    open_text = ngettext("{n} seat open", "{n} seats open", free).format(n=free) if free else ""
    return FormingTable(name=lb.name, phase=phase, heading=heading, watching=watching,
                        taken=len(lb.seats), total=lb.total, open_text=open_text,
                        seats=tuple(rows), watchers=tuple(watchers), lang=current())

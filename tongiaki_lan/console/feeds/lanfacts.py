"""What the network node knows of a LAN table, read for the screen: who sits where and who
plays each seat, who is away, which seats a newcomer may take, whether this laptop has
caught up, a peer's name as a player reads it, and the host's word on guests.

Plain functions of a node (the asyncio `Node`, or a test's stand-in with a few of its
attributes: hence the care with what may be missing)."""

from __future__ import annotations

from tongiaki_lan.i18n import N_, _

from ..seats import Seat

# the host's word for who else may come to the table (net.protocol.watching.GUESTS_BY_WORD)
GUEST_WORDS = {
    "open": N_("open: anyone may watch and chat, and take a seat a bot plays"),
    "watch": N_("watch: anyone may watch and chat, nobody takes a seat"),
    "quiet": N_("quiet: anyone may watch, watchers do not chat"),
    "closed": N_("closed: nobody watches, nobody takes a seat"),
}
def guests_word(bits: int) -> str:
    """The word for a table's guests setting (`open`, `watch`, …), or its bits."""
    from tongiaki_lan.net.protocol.watching import GUESTS_BY_WORD

    return next((w for w, b in GUESTS_BY_WORD.items() if b == bits), str(bits))


def set_guests(node, word: str) -> str:
    """`guests WORD`: the host's say on who else may come; returns what it now means.
    Raises ValueError with the reason (not the host, an unknown word)."""
    from tongiaki_lan.net.protocol.watching import GUESTS_BY_WORD

    word = word.strip().lower()
    lb = node.lobby
    if lb is None:
        raise ValueError(_("you are not at a table: create or join a game first"))
    if not word:
        return _("guests: {meaning}").format(meaning=_(GUEST_WORDS.get(guests_word(lb.guests),
                                                                        guests_word(lb.guests))))
    if word not in GUESTS_BY_WORD:
        raise ValueError(_("guests: one of open, watch, quiet, closed"))
    if node.coordinator() != node.peer_id:
        who = next((x.name for x in lb.seats if x.owner == node.coordinator()
                    and x.kind == "human"), _("the table's creator"))
        raise ValueError(_("guests: {who} hosts this table and says who may come").format(
            who=who))
    node.set_guests(GUESTS_BY_WORD[word])
    return _("guests: {meaning}").format(meaning=_(GUEST_WORDS[word]))


def open_seats(node) -> list[int]:
    """Seats a newcomer may take now (a bot plays them: its player left for good, or the
    table added it), as the node knows the table."""
    try:
        return list(node.lobby_json().get("open_seats") or ())
    except Exception:  # noqa: BLE001 - a node without the guests part: none
        return []


def is_watching(node) -> bool:
    core = getattr(node, "core", None)
    return bool(getattr(core, "watching", False))


def table_moves(node) -> int:
    """How many moves the table has played, as far as this node knows (the net layer's
    `table_moves`: a watcher, or a newcomer just seated, may still be catching up)."""
    return node.core.table_moves()


def caught_up(node) -> bool:
    """Whether this node's game has every move a member said it has (and, watching,
    whether its feeder said how far the table is at all)."""
    check = getattr(getattr(node, "core", None), "caught_up_with_table", None)
    return True if check is None else check()  # (a stand-in node without a core: yes)


def seats_of(node, gone: set[str] | frozenset[str] = frozenset()) -> list[Seat]:
    """The seats as the screen shows them. `gone`: peers (hex) that left for good: a bot
    plays their seats from now on, so they are not shown as away (greyed, "Away: Cat")
    as if the table still waited for them."""
    lb = node.lobby
    present = node.present()
    try:  # (what the node knows of goodbyes, also those said before this screen began)
        left = [bool(s.get("left")) for s in node.lobby_json()["seats"]]
    except Exception:  # noqa: BLE001 - a node without it: the goodbyes this screen heard
        left = []
    if is_watching(node):  # it hears only its feeder: away is who the feeder says is
        away = getattr(node.core, "table_away", set)()  # (a node without it: nobody)
        present = {s.owner for i, s in enumerate(lb.seats)
                   if not (i < len(left) and left[i]) and s.owner not in away}
    out = []
    for i, s in enumerate(lb.seats):
        mine = s.owner == node.peer_id
        if s.kind == "bot":
            kind = s.bot or "bot"
        else:
            kind = "human" if mine else "remote"
        laptop_bot = False
        if s.kind == "human" and s.bot:  # handed to a bot while its player is away
            kind = s.bot
        elif s.kind == "human" and s.plays and not mine:  # a laptop that runs a bot
            kind = s.plays
            laptop_bot = True
        out.append(Seat(s.name, s.colour, kind, local=mine and s.kind != "bot" and not s.bot,
                        away=(s.owner not in present and s.owner.hex() not in gone
                              and not (i < len(left) and left[i])), laptop_bot=laptop_bot))
    return out


def peer_label(node, data: dict) -> str:
    """The name to show for the peer of a node event (chat, away, back, rejoined): the
    player's name alone, with the short peer id only when two players share that name.

    The net layer names peers `Bob (aca600ea)` for its own logs; a player needs the id
    only to tell two Bobs apart."""
    peer = data.get("peer") or ""
    lb = getattr(node, "lobby", None)
    if lb is not None and peer:
        humans = [s for s in lb.seats if s.kind == "human"]
        mine = next((s for s in humans if s.owner.hex() == peer), None)
        if mine is not None:
            if sum(1 for s in humans if s.name == mine.name) > 1:
                return f"{mine.name} ({peer[:8]})"
            return mine.name
    name = str(data.get("name") or "")
    if peer and name.endswith(f" ({peer[:8]})"):
        return name[:-len(peer[:8]) - 3]
    return name or _("a peer")

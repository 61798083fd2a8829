"""What the network node knows of a LAN table, read for the screen: who sits where and who
plays each seat, who is away, which seats a newcomer may take, whether this laptop has
caught up, a peer's name as a player reads it, and the host's word on guests.

Plain functions of a node (the asyncio `Node`, or a test's stand-in with a few of its
attributes: hence the care with what may be missing)."""

from __future__ import annotations

import time
from collections.abc import Callable

from tongiaki_lan.engine import Game
from tongiaki_lan.engine.tiles import ISLAND_IDS, SEA_IDS
from tongiaki_lan.i18n import N_, _
from tongiaki_lan.net.protocol.latechains import CHAIN_LEAD
from tongiaki_lan.net.protocol.lobby import room_for_a_chain

from ..departures import MoveSpans
from ..seats import Seat, colour_name


def _now() -> float:
    return time.monotonic()  # (the event loop's clock, also where no loop runs)

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


def seats_of(node, gone: set[str] | frozenset[str] = frozenset(),
             own_bot: bool = False) -> list[Seat]:
    """The seats as the screen shows them. `gone`: peers (hex) that left for good: a bot
    plays their seats from now on, so they are not shown as away (greyed, "Away: Cat")
    as if the table still waited for them. `own_bot`: this laptop's own seats are played
    by its bot (`play --headless`), shown as a bot's and never this keyboard's."""
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
        elif s.kind == "human" and s.plays and (own_bot or not mine):  # a laptop that
            # runs a bot (this one's too, on the page of a headless node: `own_bot`)
            kind = s.plays
            laptop_bot = True
        away = (s.owner not in present and s.owner.hex() not in gone
                and not (i < len(left) and left[i]))
        not_playing = getattr(node, "not_playing", None)  # (a stand-in node without it)
        out.append(Seat(s.name, s.colour, kind,
                        local=mine and s.kind != "bot" and not s.bot and not laptop_bot,
                        away=away, laptop_bot=laptop_bot,
                        this_laptop=mine and s.kind == "human",
                        idle=((away or mine) and not_playing is not None
                              and not_playing(s.owner))))
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


class TableFacts:
    """What this laptop knows of its LAN table beyond the game, kept from the node's
    events: a draw waiting and for whom, who left for good, who watches (and where guests
    speak from), which moves a bot made for an away player and which were typed here,
    where each move's events begin, a watch cut, a seat lost. The table model reads them
    through the LAN feed; the story of the node's events (lanstory.py) reads them to
    know what is news."""

    def __init__(self, node, game: Callable[[], Game | None]):
        self.node = node
        self.game = game  # (the game the screen shows, which may lag the node's a moment)
        # a fair draw waiting for someone's value: (draw, who, when they are left out, on
        # the monotonic clock). The node says it once; the screen counts down from it.
        self.draw_wait: tuple[int, str, float] | None = None
        self.draw_never = False  # the tile waits for the last who draw: no countdown
        # peers that left for good (until they start again): a bot plays their seats, so
        # the table's routine lines about them (waiting, handover, left out of the draws)
        # would only contradict "left for good" — that one line says it all
        self.gone: set[str] = set()
        self.watch_cut = False  # watching, and no member of the table answers
        self.seat_lost = False  # back after a goodbye for good, the seat was a newcomer's
        self.this_laptop_expelled = False  # the table expelled this laptop, on a proof
        self.typed: set[int] = set()  # indices of the moves played at this keyboard
        self.bot_moves: set[int] = set()  # moves a bot made for another, away player
        self.handed_kind: dict[int, str] = {}  # seat -> the bot kind that last played it
        self.spans = MoveSpans()  # which departures a move chose (`settled_departure`)
        self.watchers: dict[str, str] = self.watchers_now()  # who watches (hex -> name)
        self.watchers_before: dict[str, str] = self.watchers  # ... before the last change
        # everyone who watched this table (peer hex) and where they spoke from: a watcher
        # that has gone is off the list before its last datagrams (its goodbye) come in,
        # and those are refused, which read "refused from 10.77.5.13:41905: link-MACed
        # datagram from a sender without a link key" three times in the players' logs
        self.guests_seen: set[str] = set()
        self.guest_addrs: set[str] = set()
        self.remember_guests()

    @property
    def game_name(self) -> str:
        return self.node.lobby.name if self.node.lobby is not None else ""

    def note(self, ev) -> None:
        """Take in one node event, before its story is told (lanstory.py)."""
        from tongiaki_lan.net.protocol.handover import handed
        from tongiaki_lan.net.protocol.lobby import is_seat_given

        k, d = ev.kind, ev.data
        lb = self.node.lobby
        if k in ("move", "reveal"):  # (before its events are told)
            self.spans.note(d["index"], d.get("events_from", -1))
        if k in ("move", "game_over", "reveal", "draw_dropped", "rewound", "mismatch"):
            self.draw_wait = None  # the tile came, its contributor was left out, or the
            # game moved on: nothing is waited for any more
        if k == "lobby" and lb is not None:  # (the kind of bot each seat had, for a
            # header told after the seat was given back: `mark_bot_turn`)
            for i, seat in enumerate(lb.seats):
                if handed(seat):
                    self.handed_kind[i] = seat.bot
        if k == "rewound":  # (moves taken back: their indices hold other moves now)
            self.spans.forget_from(d["index"])
        if k == "move" and d.get("seat") is not None:
            bot = d.get("by_bot")  # (judged by who sent it: the lobby may have given the
            # seat back before the bot's last moves reached us)
            if bot is None and lb is not None:  # (from a log: a guess)
                bot = 0 <= d["seat"] < len(lb.seats) and handed(lb.seats[d["seat"]])
            if bot:
                self.bot_moves.add(d["index"])  # (a bot for its away player)
        if k == "watchers":
            self.watchers_before, self.watchers = self.watchers, self.watchers_now()
            self.remember_guests()
        elif k == "seat_taken" and not d.get("mine"):
            self.watchers.pop(d.get("peer") or "", None)  # (a player now)
        elif k == "left" and d["for_good"]:
            self.gone.add(d.get("peer") or "")
        elif k == "expelled" and d.get("you"):
            self.this_laptop_expelled = True
        elif k == "expelled":  # (a bot plays its seat, and it draws
            # no more: its handover and its drop are part of the expulsion's line)
            self.gone.add(d.get("peer") or "")
        elif k == "restarted":
            self.gone.discard(d.get("peer") or "")
        elif k == "draw_waiting":
            names = ", ".join(peer_label(self.node, {"peer": p, "name": n})
                              for p, n in zip(d["peers"], d["names"], strict=False))
            self.draw_wait = (d["draw"], names, _now() + max(0, d["drop_in"]))
            self.draw_never = d["drop_in"] < 0
        elif k == "watch_cut":
            self.watch_cut = bool(d["cut"])
        elif (k in ("guest_refused", "request_refused") and not is_watching(self.node)
              and is_seat_given(d.get("reason") or "")):
            self.seat_lost = True  # (a newcomer plays the seat we left for good)

    def watchers_now(self) -> dict[str, str]:
        """Who watches the table (peer hex -> name), ourselves left out."""
        try:
            listed = self.node.lobby_json().get("watchers") or ()
        except Exception:  # noqa: BLE001 - a node without the guests part
            listed = ()
        me = self.node.peer_id.hex()
        return {w["peer"]: w["name"] for w in listed if w.get("peer") != me}

    def watcher_names(self) -> list[str]:
        """The names of those watching, for the panel's `Watching:` line (each once)."""
        return sorted(set(self.watchers.values()), key=str.casefold)

    def takes_newcomers(self) -> bool:
        """Whether the table's host lets a newcomer take a seat (`guests open`)."""
        from tongiaki_lan.net.protocol.codec import GUEST_SEATS

        lb = self.node.lobby
        return lb is None or bool(getattr(lb, "guests", GUEST_SEATS) & GUEST_SEATS)

    def no_guest_seats(self) -> str:
        from tongiaki_lan.net.protocol.lobby import NO_GUEST_SEATS

        return _(NO_GUEST_SEATS).format(name=repr(self.game_name))

    def open_seat_list(self) -> list[int]:
        """Seats a newcomer may take now, if the table lets newcomers take seats."""
        from tongiaki_lan.net.protocol.codec import GUEST_SEATS

        lb = self.node.lobby
        if lb is None or not lb.guests & GUEST_SEATS or self.game().is_over:
            return []
        return open_seats(self.node)

    def colours_of(self, seats) -> str:
        lb = self.node.lobby
        return ", ".join(colour_name(lb.seats[i].colour) for i in seats)

    def player_groups(self, seats: list[int]) -> list[list[int]]:
        """`seats` by player: one seat each, or a player's two colours together (V1)."""
        lb = self.node.lobby
        groups: list[list[int]] = []
        for i in seats:
            s = lb.seats[i]
            for g in groups:
                t = lb.seats[g[0]]
                if (t.owner, t.name, t.kind) == (s.owner, s.name, s.kind) and s.kind != "bot":
                    g.append(i)
                    break
            else:
                groups.append([i])
        return groups

    def may_draw_again(self) -> bool:
        """Can a laptop left out of the draws still take part again (net/protocol/
        latechains.py): room for a fresh chain in the lobby, and tiles left for it? A
        playtest's laptop dropped at tile 30 of 31 was promised it would."""
        lb = self.node.lobby
        if self.game() is None or (lb is not None and not room_for_a_chain(lb)):
            return False
        # (the game ends when either kind of tile runs out, E1: a few of each must be left
        # past the lead a chain needs, for the tiles a waking laptop lets go by — 3 to 13
        # in the simulated sweeps)
        islands, seas = self.game().revealed_counts()
        return min(len(ISLAND_IDS) - islands, len(SEA_IDS) - seas) > CHAIN_LEAD + 1

    def last_drawer(self, leaving: int | None = None) -> bytes | None:
        """The one laptop still drawing the tiles (of two or more that began), or None;
        `leaving`: a contributor just left out, whose lobby may not be here yet."""
        contributors = getattr(getattr(self.node, "core", None), "contributors", None)
        lb = self.node.lobby
        if lb is None or not contributors or len(contributors) < 2:
            return None
        out = {i for i, _ in lb.dropped} | {leaving}
        left = [p for i, p in enumerate(contributors) if i not in out]
        return left[0] if len(left) == 1 else None

    def is_mine(self, seat) -> bool:
        lb = self.node.lobby
        return (lb is not None and isinstance(seat, int) and 0 <= seat < len(lb.seats)
                and lb.seats[seat].owner == self.node.peer_id)

    def seat_gone(self, seat) -> bool:
        """Whether seat index `seat` belongs to a player who left for good."""
        lb = self.node.lobby
        if not self.gone or lb is None or not isinstance(seat, int) or not (
                0 <= seat < len(lb.seats)):
            return False
        return lb.seats[seat].owner.hex() in self.gone

    def countdown_left(self) -> float | None:
        """Seconds until the contributor(s) a draw waits for are left out; None when no
        draw waits (or the game is no longer at that draw)."""
        if self.draw_wait is None:
            return None
        g = self.game()
        if g is None or g.is_over or not g.awaiting_reveal or g.draws() != self.draw_wait[0]:
            self.draw_wait = None
            return None
        return max(0.0, self.draw_wait[2] - _now())

    def draw_waiting(self) -> tuple[str, bool] | None:
        if self.countdown_left() is None:
            return None
        return self.draw_wait[1], self.draw_never

    def left_seats(self) -> set[int]:
        lb = self.node.lobby
        if not self.gone or lb is None:
            return set()
        return {i for i, s in enumerate(lb.seats) if s.owner.hex() in self.gone}

    def expelled_seats(self) -> set[int]:
        lb = self.node.lobby
        if lb is None or not lb.expelled:
            return set()
        out = {p for p, _first in lb.expelled}
        return {i for i, s in enumerate(lb.seats) if s.owner in out}

    def remember_guests(self) -> None:
        watching = set(self.watchers)
        if not watching:
            return
        self.guests_seen |= watching
        transport = getattr(self.node, "transport", None)
        links = getattr(transport, "links", None) or {}
        self.guest_addrs |= {f"{lk.addr[0]}:{lk.addr[1]}" for peer, lk in links.items()
                             if isinstance(peer, bytes) and peer.hex() in watching}

    def a_guests(self, d: dict) -> bool:
        """Whether a refused datagram came from someone who watches or watched the table."""
        return ((d.get("peer") or "") in self.guests_seen
                or (d.get("addr") or "") in self.guest_addrs)

    def member_address(self, addr: str | None) -> bool:
        """Whether `addr` ("host:port") is where a member of our game speaks from: after
        a cut its datagrams come with keys this node no longer holds, so they are refused
        before the sender is known."""
        lb = self.node.lobby
        if not addr or lb is None:
            return False
        members = {m.peer for m in lb.members}
        known = {f"{m.host}:{m.port}" for m in lb.members}
        transport = getattr(self.node, "transport", None)  # (where the node lives)
        links = transport.links.items() if transport is not None else ()
        known |= {f"{lk.addr[0]}:{lk.addr[1]}" for peer, lk in links if peer in members}
        return addr in known

    def member(self, peer: str | None) -> bool:
        lb = self.node.lobby
        return bool(peer) and lb is not None and any(m.peer.hex() == peer for m in lb.members)

    def away_seats(self) -> set[int]:
        """Seats whose player is away from the table now (`replace` may give them to a
        bot)."""
        lb = self.node.lobby
        if lb is None:
            return set()
        present = self.node.present()
        return {i for i, s in enumerate(lb.seats)
                if s.kind == "human" and s.owner != self.node.peer_id and s.owner not in present}

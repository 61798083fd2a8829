"""The game screen driven by a LAN node: others' moves appear as they happen.

The node owns the engine and the record; this session only reads the node's game,
turns node events into story lines, and hands typed moves to `Node.send_move`,
which checks them with the engine before anything is sent.
"""

from __future__ import annotations

import contextlib
import math
import time

from tongiaki_lan.engine import IllegalMove, Move
from tongiaki_lan.i18n import N_, _

from .session import GameSession, Seat
from .words import net_reason


def _now() -> float:
    return time.monotonic()  # (the event loop's clock, also where no loop runs)


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
    out = []
    for i, s in enumerate(lb.seats):
        mine = s.owner == node.peer_id
        if s.kind == "bot":
            kind = s.bot or "bot"
        else:
            kind = "human" if mine else "remote"
        if s.kind == "human" and s.bot:  # handed to a bot while its player is away
            kind = s.bot
        out.append(Seat(s.name, s.colour, kind, local=mine and s.kind != "bot" and not s.bot,
                        away=(s.owner not in present and s.owner.hex() not in gone
                              and not (i < len(left) and left[i]))))
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


class LanSession(GameSession):
    title = N_("LAN")
    from_lobby = True  # a LAN game always starts from the lobby

    def __init__(self, node, discovery=None, carried: list | None = None):
        self.node = node
        self.discovery = discovery
        super().__init__(node.game, seats_of(node))
        self.carried = list(carried or [])  # the lobby's chat, shown first
        self.title = f"{_('LAN')} {node.lobby.name}"[:20]
        # a fair draw waiting for someone's value: (draw, who, when they are left out, on
        # the monotonic clock). The node says it once; the screen counts down from it.
        self.draw_wait: tuple[int, str, float] | None = None
        self._typed: set[int] = set()  # indices of the moves played at this keyboard
        self._left: set[str] = set()  # peers that said they left: their echoes are quiet
        # peer -> index in `lines` of its "left the table" line, which the goodbye that
        # follows (for good / back soon) replaces rather than contradicts
        self._left_line: dict[str, int] = {}
        # peers that left for good (until they start again): a bot plays their seats, so
        # the table's routine lines about them (waiting, handover, left out of the draws)
        # would only contradict "left for good" — that one line says it all
        self._gone: set[str] = set()
        # how we leave at `quit` mid-game: for good (a bot takes the seat at once and the
        # table stops waiting for us) unless the player typed `quit soon`
        self.leave_for_good = True
        node.add_listener(self._on_node_event)

    async def start(self) -> None:
        n = len(self.game.moves)
        if self.carried:
            self.lines.append(("info", _("From the lobby:")))
            self.lines.extend(self.carried)
        self.lines.append(("info", _("Game {game} started; record: {path}").format(
            game=self.node.lobby.name, path=self.node.record_path)))
        if n:
            self.lines.append(("info", _("Resumed after {n} moves.").format(n=n)))
        await super().start()

    def _on_node_event(self, ev) -> None:
        k, d = ev.kind, ev.data
        if self.node.game is not None and self.node.game is not self.game:
            self.game = self.node.game
        if k in ("move", "game_over", "reveal", "draw_dropped", "rewound", "mismatch"):
            self.draw_wait = None  # the tile came, its contributor was left out, or the
            # game moved on: nothing is waited for any more
        if k in ("move", "game_over", "reveal"):
            self._drain_events()  # (a tile dealt once a late value came is told at once)
        elif k == "chat":
            self.lines.append(("", f"<{peer_label(self.node, d)}> {d.get('text', '')}"))
        elif k in ("away", "back"):
            self._presence_line(k, d)
        elif k in ("waiting", "handover") and self._seat_gone(d.get("seat")):
            pass  # (said by "left for good": the table waits for nobody, a bot plays)
        elif k == "draw_dropped" and (d.get("peer") or "") in self._gone:
            pass  # (a goodbye for good leaves the draws too: nothing went wrong)
        elif k == "waiting":
            self.lines.append(("info", _("Waiting for {name} to come back… (replace {who} gives "
                                         "the seat to a bot after a minute)").format(
                name=d.get("name", "?"), who=d.get("name", "NAME"))))
        elif k == "handover":
            self.lines.append(("info", _("{name}'s seat is played by a bot ({bot}, on {driver}'s "
                                         "laptop) until they are back.").format(
                name=d["name"], bot=d["bot"],
                driver=peer_label(self.node, {"peer": d["driver"], "name": d["driver_name"]}))))
        elif k == "left" and d["for_good"]:
            self._gone.add(d.get("peer") or "")
            self._said_left(d, _("{name} left for good; a bot ({bot}) plays their seat from "
                                 "now on.").format(name=peer_label(self.node, d), bot=d["bot"]))
        elif k == "left":
            self._said_left(d, _("{name} left and will be back soon; their seat "
                                 "waits.").format(name=peer_label(self.node, d)))
        elif k == "woke":
            self.lines.append(("bad", _("This computer was asleep for {s} s: asking the table "
                                        "what happened…").format(s=round(d["slept"]))))
        elif k == "table_gone":
            self.lines.append(("bad", _("The table did not answer: it finished or broke up "
                                        "while this computer slept. Your record keeps the game "
                                        "up to move {n}.").format(n=d["moves"])))
        elif k == "bot_fallback":
            self.lines.append(("bad", _("The {bot} bot failed at move {n}; the {fallback} bot "
                                        "played it.").format(bot=d["bot"], n=d["index"] + 1,
                                                             fallback=d["fallback"])))
        elif k == "reclaimed":
            self.lines.append(("info", _("{name} is back and plays their seat again.").format(
                name=d["name"])))
        elif k == "restarted":
            self._left.discard(d.get("peer") or "")  # (really back: told from now on)
            self._gone.discard(d.get("peer") or "")
            self._left_line.pop(d.get("peer") or "", None)
            self.lines.append(("info", _("{name} rejoined.").format(
                name=peer_label(self.node, d))))
        elif k == "draw_waiting":
            names = ", ".join(peer_label(self.node, {"peer": p, "name": n})
                              for p, n in zip(d["peers"], d["names"], strict=False))
            if d["drop_in"] > 0:
                self.lines.append(("info", _(
                    "The next tile waits for the draw value of {names}; after about {s} s "
                    "more the table draws without it.").format(names=names, s=d["drop_in"])))
            else:  # (their laptop was already away: not "after about 0 s more")
                self.lines.append(("info", _("Next tile waits for the value of {names}: drawn "
                                             "without it any moment").format(names=names)))
            self.draw_wait = (d["draw"], names, _now() + max(0, d["drop_in"]))
        elif k == "draw_dropped":
            self.lines.append(("bad", _("{name} sent no draw value in time and no longer takes "
                                        "part in the draws (from tile {n} on).").format(
                name=peer_label(self.node, d), n=d["draw"] + 1)))
        elif k == "rewound":  # (the moves taken back are mostly the table's own, as this
            # laptop had them before its draw value was left out: none need be ours)
            self.lines.append(("bad", _(
                "You were cut off and the table went on without you: from move {n} on, this "
                "laptop now follows the game as the table played it.").format(n=d["index"] + 1)))
        elif k == "warning":
            self.lines.append(("bad", d.get("text", "")))
        elif k == "mismatch":
            self.lines.append(("bad", _("Game stopped: {reason} (dump {dump})").format(
                reason=d.get("reason"), dump=d.get("dump"))))
        elif k in ("error", "request_refused"):
            self.lines.append(("bad", net_reason(d.get("reason", d))))
        elif k == "refused" and d.get("what") is None and (
                self._member(d.get("peer")) or self._member_address(d.get("addr"))):
            pass  # a member's datagram the transport set aside (keys renewed after a cut, a
            # late copy): routine, and in the log file; the game pane keeps to the game
        elif k == "refused" and d.get("what") == "join" and not self._member(d.get("peer")):
            pass  # someone in the lobby tried to join this game after it started: told so
            # on their screen; at the table it read "refused from a4f5319da6d841fb: game
            # 'Cove' has already started" (the log file keeps it)
        elif k == "refused":
            self.lines.append(("bad", _("refused from {peer}: {reason}").format(
                peer=d.get("peer") or d.get("addr"), reason=net_reason(d.get("reason")))))
        if self.node.lobby is not None:
            # (who drives each seat: the labels follow)
            self.seats = seats_of(self.node, self._gone)
            self._narrator.names, self._narrator.labels = self.names, self.labels
        self.changed()

    def _presence_line(self, kind: str, d: dict) -> None:
        """One line for a player who quit on purpose ("Cat left the table; their seat
        waits…"): the datagrams still on their way from that laptop would otherwise make
        it "back", then "away" again. They are told again once their node restarts."""
        peer = d.get("peer") or ""
        name = peer_label(self.node, d)
        if kind == "away" and d.get("left"):
            if peer not in self._left:
                self._left.add(peer)
                self._left_line[peer] = len(self.lines)
                self.lines.append(("info", _("{name} left the table; their seat waits for "
                                             "them.").format(name=name)))
            return
        if peer in self._left:
            return
        text = _("{name} is away.") if kind == "away" else _("{name} is back.")
        self.lines.append(("info", text.format(name=name)))

    def _said_left(self, d: dict, text: str) -> None:
        """A goodbye (for good, or back soon): it replaces the "left the table" line the
        node's "away" gave a moment before, so the log says once, and rightly, what
        happens to the seat."""
        at = self._left_line.pop(d.get("peer") or "", None)
        if at is not None and at < len(self.lines) and self.lines[at][0] == "info":
            self.lines[at] = ("info", text)
        else:
            self.lines.append(("info", text))

    def _seat_gone(self, seat) -> bool:
        """Whether seat index `seat` belongs to a player who left for good."""
        lb = self.node.lobby
        if not self._gone or lb is None or not isinstance(seat, int) or not (
                0 <= seat < len(lb.seats)):
            return False
        return lb.seats[seat].owner.hex() in self._gone

    def leave_note(self) -> str:
        """What the leaving question says of a LAN seat: `quit` is for good (a bot takes
        the seat at once, the table waits for nobody), `quit soon` keeps the seat waiting,
        and how to come back to it."""
        return _("for good: a bot takes your seat at once; or type 'quit soon': your seat "
                 "waits — run tongiaki-lan again and join the game marked 'yours'")

    def countdown_left(self) -> float | None:
        """Seconds until the contributor(s) a draw waits for are left out; None when no
        draw waits (or the game is no longer at that draw)."""
        if self.draw_wait is None:
            return None
        g = self.game
        if g is None or g.is_over or not g.awaiting_reveal or g.draws() != self.draw_wait[0]:
            self.draw_wait = None
            return None
        return max(0.0, self.draw_wait[2] - _now())

    def countdown_text(self) -> str | None:
        """The status line while a draw waits: whose value, and the seconds left."""
        left = self.countdown_left()
        if left is None:
            return None
        names = self.draw_wait[1]
        if left <= 0:
            return _("Next tile waits for the value of {names}: drawn without it any "
                     "moment").format(names=names)
        return _("Next tile waits for the value of {names}: drawn without it in {s} "
                 "s").format(names=names, s=math.ceil(left))

    def _member_address(self, addr: str | None) -> bool:
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

    def _member(self, peer: str | None) -> bool:
        lb = self.node.lobby
        return bool(peer) and lb is not None and any(m.peer.hex() == peer for m in lb.members)

    async def submit(self, move: Move) -> None:
        # Marked before it is sent: the node applies it at once and tells the screen
        # (whose summary must already know the move was typed here) before returning.
        index = len(self.game.moves)
        self._typed.add(index)
        try:
            self.node.send_move(move)
        except IllegalMove:
            self._typed.discard(index)
            raise
        except ValueError as exc:  # not sent: the net's reason, in the player's language
            self._typed.discard(index)
            raise IllegalMove("T0", net_reason(exc)) from None

    def played_for_us(self, seat: int, index: int) -> bool:
        """Our seat's moves not typed here were a bot's, on whichever laptop drove the
        seat while we were away (or down)."""
        return index not in self._typed

    def commands(self):
        def say(text: str):
            if not text.strip():
                return _("say: what?")
            self.node.chat(text.strip())
            return None

        def replace(who: str):
            if not who.strip():
                return _("replace: whose seat? (a player's name or colour)")
            at = len(self.lines)
            try:
                self.node.replace(who.strip())
            except ValueError as exc:
                return _("replace: {reason}").format(reason=net_reason(exc))
            # (before what the table answered: on the coordinator that is already here)
            self.lines.insert(min(at, len(self.lines)), ("info", _(
                "Asked the table to give {name}'s seat to a bot.").format(name=who.strip())))
            return None

        return {"say": (N_("say TEXT — chat with the table"), say),
                "replace": (N_("replace NAME — a bot plays an absent player's seat until they "
                               "are back"), replace)}

    async def close(self) -> None:
        await super().close()
        with contextlib.suppress(Exception):
            await self.node.leave(for_good=self.leave_for_good)
        if self.discovery is not None:
            with contextlib.suppress(Exception):
                await self.discovery.close()

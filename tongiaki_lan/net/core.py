"""The protocol of one player in a LAN game, as a sans-I/O state machine.

`NodeCore` holds the lobby coordination, the seed agreement, move sync with fetch, liveness
and seat handover. It never reads a clock, never touches a socket, a file or a thread: it
takes datagrams and the current time, and hands back datagrams to send
(`datagrams_to_send`), typed events (`events`, see `net.events`) and the time it next
wants to be woken (`get_timer` / `handle_timer`), as h11's `Connection` and aioquic's
`QuicConnection` do. So the whole protocol runs unchanged over real sockets (`net.node`
adds asyncio, the record file and the bot threads) and inside the tests' simulated network
on a virtual clock (`net.simnet`).

No node is special. During the lobby the first present member (the coordinator) orders
requests; once the game runs the engine orders everything: only the seat whose decision is
pending may move, every node checks every move with its own engine and compares digests.
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import os

import msgpack

from tongiaki_lan.engine import Dealer, Game, IllegalMove, Move, move_from_wire
from tongiaki_lan.net import events as E
from tongiaki_lan.net import lobby as L
from tongiaki_lan.net.auth import derive_key
from tongiaki_lan.net.codec import (
    ID_LEN,
    NO_GAME,
    Abort,
    AddBot,
    Chat,
    Commit,
    Fetch,
    Heartbeat,
    Join,
    Leave,
    Lobby,
    Log,
    Member,
    Message,
    MoveMsg,
    Ready,
    Refuse,
    RemoveBot,
    Reveal,
    SeedOk,
    SetSeat,
    Start,
)
from tongiaki_lan.net.identity import Identity
from tongiaki_lan.net.links import Links
from tongiaki_lan.net.presence import Presence
from tongiaki_lan.net.seed import SeedRound, seed_check

log = logging.getLogger("tongiaki_lan.net.core")

HEARTBEAT_S = 0.5
TICK_S = 0.1
FETCH_RETRY_S = 1.0
START_TIMEOUT_S = 15.0
HANDOVER_AFTER_S = 60.0
HANDOVER_BOT = "greedy"
LOG_CHUNK_BYTES = 900
MAX_EARLY = 64
PREV_MOVES = 3  # earlier moves repeated in every MOVE (protocol/transport.md, Loss)
MAX_EVENTS = 10_000
REQUESTS = (Join, SetSeat, Ready, AddBot, RemoveBot, Leave, Start)


def bot_seed(seed: bytes, seat: int, index: int) -> int:
    """A bot's randomness for one decision, fixed by the game: whichever node drives the
    seat computes the same move, so a hand-over between drivers can never fork the game."""
    h = hashlib.blake2b(seed + bytes([seat]) + index.to_bytes(4, "big"), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def handed(seat) -> bool:
    """A human seat currently played by a bot because its player was away (`replace`)."""
    return seat.kind == "human" and bool(seat.bot)


class NodeCore:
    """One player's node. Every public method that changes state takes `now` (seconds on
    any monotonic clock); afterwards the caller collects `datagrams_to_send()` and
    `events()` and arms a timer for `get_timer()`."""

    def __init__(self, name: str, identity: Identity | None = None, *, incarnation: int = 1,
                 autoplay: str | None = None, handover_after: float | None = None,
                 handover_bot: str = HANDOVER_BOT, port: int = 0) -> None:
        self.name = name
        self.identity = identity or Identity.generate()
        self.peer_id = self.identity.peer_id
        self.incarnation = incarnation
        self.autoplay = autoplay
        # None: only on request (`replace`), after HANDOVER_AFTER_S; a number: this node
        # also asks by itself once a player has been away that long (headless nodes)
        self.handover_after = handover_after
        self.handover_bot = handover_bot
        self.port = port
        self.links = Links(self.peer_id, incarnation, self._on_message, admit=self._admit,
                           on_restart=self._on_restart, on_refused=self._on_refused,
                           keep=self._keep_link, identity=self.identity,
                           on_early=self._on_early_move, early_types=(MoveMsg,),
                           urgent_types=(MoveMsg,))
        self.presence = Presence()
        self.new_round = SeedRound  # tests swap in a dishonest one
        self.now = 0.0
        self._events: list[E.NodeEvent] = []
        self._reset_game_state()
        self.game_id: bytes = NO_GAME
        self.passphrase: str | None = None
        self.refusals = 0
        self.closing = False

    # ================================================================== sans-I/O surface

    def receive(self, data: bytes, addr: tuple, now: float) -> None:
        self.now = now
        self.links.receive(data, addr, now)

    def datagrams_to_send(self) -> list[tuple[bytes, tuple[str, int]]]:
        return self.links.datagrams_to_send()

    def events(self) -> list[E.NodeEvent]:
        out, self._events = self._events, []
        return out

    def get_timer(self) -> float | None:
        t = self.links.get_timer()
        if self.lobby is not None:
            tick = self._last_tick + TICK_S
            t = tick if t is None else min(t, tick)
        return t

    def handle_timer(self, now: float) -> None:
        self.now = now
        self.links.handle_timer(now)
        if self.lobby is not None and now >= self._last_tick + TICK_S:
            self._last_tick = now
            try:
                self._tick()
            except Exception:
                log.exception("tick failed")

    def _emit(self, ev: E.NodeEvent) -> None:
        if len(self._events) >= MAX_EVENTS:  # nobody collects: keep the newest
            del self._events[: MAX_EVENTS // 10]
        self._events.append(ev)

    # ================================================================== game set-up

    def _enter_game(self, game_id: bytes, passphrase: str | None) -> None:
        self.game_id = game_id
        self.passphrase = passphrase or None
        key = derive_key(passphrase, game_id) if passphrase else None
        self.links.set_game(game_id, key)

    def create_game(self, game_name: str, seats: int, passphrase: str | None, colour: str,
                    now: float, invite: str = "") -> bytes:
        """Open a new game in the lobby phase, seated as its first player."""
        self.now = now
        self._reset_game_state()
        self._enter_game(os.urandom(ID_LEN), passphrase)
        self.lobby = L.new_lobby(game_name, seats, bool(passphrase), self.peer_id, self.name,
                                 colour, self.port)
        self._lobby_changed(None)
        self._emit(E.Joined(game_name, self.game_id.hex(), True, invite))
        return self.game_id

    def begin_join(self, game_id: bytes, peer: bytes, addr: tuple[str, int],
                   passphrase: str | None, colour: str, now: float) -> None:
        """Ask a game for a seat; watch `seated()` and `join_refusal`."""
        self.now = now
        self._reset_game_state()
        self._enter_game(game_id, passphrase)
        self._joining = {peer}
        self._join_sent = {peer}
        self._join_colour = colour
        self.links.send(peer, addr, Join(self.name, colour))

    def abandon(self) -> None:
        """Forget the current game (a failed join, or after leaving)."""
        self._reset_game_state()
        self.links.set_game(NO_GAME, None)
        self.game_id = NO_GAME

    def leave_game(self, now: float) -> None:
        self.now = now
        if self.lobby is not None:
            self._broadcast(Leave())

    def resume(self, game_id: bytes, passphrase: str | None, lobby: Lobby, seed: bytes,
               game: Game, digests: list[bytes], now: float) -> None:
        """Rejoin a game after a crash or restart, from our own record (replayed into `game`)
        and the lobby saved at the start; the peers fill in the moves we missed."""
        self.now = now
        self._reset_game_state()
        self._enter_game(game_id, passphrase)
        self.lobby = lobby
        self.seed = seed
        self.game = game
        self.dealer = Dealer(seed)
        self._digest_list = list(digests)
        self._deal()  # the crash may have come between a move and its reveals
        self._emit(E.GameStarted(seed.hex(), self._seat_json(), True, len(game.moves)))
        for m in lobby.members:
            if m.peer != self.peer_id and m.host != "0.0.0.0":
                self.links.send(m.peer, (m.host, m.port), self._heartbeat())
        self._after_state_change()

    def seated(self) -> bool:
        return self.lobby is not None and L.is_member(self.lobby, self.peer_id)

    def _reset_game_state(self) -> None:
        self.lobby: Lobby | None = None
        self.game: Game | None = None
        self.dealer: Dealer | None = None
        self.seed: bytes | None = None
        self.stopped: str | None = None  # reason the game stopped on this node
        self._round: SeedRound | None = None
        self._early: list[tuple[bytes, Message]] = []
        self._joining: set[bytes] = set()
        self._join_sent: set[bytes] = set()
        self._join_colour = ""
        self.join_refusal: str | None = None
        self._answered_join: set[bytes] = set()
        self.presence = Presence()
        self._progress: dict[bytes, int] = {}
        self._buffer: dict[int, list[tuple[bytes, MoveMsg]]] = {}
        self._digest_list: list[bytes] = []
        self._fetch_at = -1e9
        self._served: dict[tuple[bytes, int], float] = {}
        self._thinking: int | None = None
        self._your_turn: int | None = None
        self._waiting_noted: int | None = None
        self._last_hb = -1e9
        self._last_tick = -1e9
        self._lobby_sent: dict[bytes, float] = {}
        self._start_seen = 0.0
        self._handover_asked: dict[int, float] = {}
        # when this node applied / sent each move index (the core's clock): for `bench`
        self.move_times: dict[int, float] = {}
        self.sent_at: dict[int, float] = {}

    # ================================================================== UI requests

    def set_seat(self, name: str, colour: str, now: float) -> None:
        self.now = now
        self.name = name
        self._request(SetSeat(name, colour))

    def set_ready(self, ready: bool, now: float) -> None:
        self.now = now
        self._request(Ready(ready))

    def add_bot(self, kind: str, colour: str, now: float) -> None:
        self.now = now
        self._request(AddBot(kind, colour))

    def remove_bot(self, colour: str, now: float) -> None:
        self.now = now
        self._request(RemoveBot(colour))

    def start_game(self, now: float) -> None:
        self.now = now
        self._request(Start())

    def chat(self, text: str, now: float) -> None:
        self.now = now
        self._broadcast(Chat(text))
        self._emit(E.ChatLine(self.peer_id.hex(), self.name, text))

    def replace(self, who: str, now: float, bot: str | None = None) -> None:
        """Give the seat of an absent player (`who`: name or colour) to a bot. Raises
        ValueError with the reason when it cannot be done (yet)."""
        self.now = now
        if self.game is None or self.game.is_over:
            raise ValueError("no game in progress")
        want = who.strip().lower()
        seat = next((i for i, s in enumerate(self.lobby.seats)
                     if s.kind == "human" and want in (s.name.lower(), s.colour.lower())), None)
        if seat is None:
            raise ValueError(f"no player {who!r} at this table")
        s = self.lobby.seats[seat]
        if handed(s):
            raise ValueError(f"{s.name}'s seat is already played by a bot")
        if s.owner == self.peer_id:
            raise ValueError("that is your own seat")
        away = self.presence.away_for(s.owner, now)
        limit = self.handover_after if self.handover_after is not None else HANDOVER_AFTER_S
        if away is None:
            raise ValueError(f"{s.name} is here: only an absent player's seat can be replaced")
        if away < limit:
            raise ValueError(f"{s.name} has been away {away:.0f} s; a seat can be replaced "
                             f"after {limit:.0f} s")
        self._ask_handover(seat, bot or self.handover_bot)

    def send_move(self, move: Move, now: float) -> None:
        """Play a move for a seat of this node. Raises IllegalMove / ValueError as the engine
        does; nothing is sent then."""
        self.now = now
        if self.game is None or self.game.is_over:
            raise ValueError("no game in progress")
        if self.stopped:
            raise ValueError(f"game stopped: {self.stopped}")
        d = self.game.pending
        if d is None or d.seat is None:
            raise ValueError("a tile is being revealed")
        seat = self.lobby.seats[d.seat]
        if self._driver(d.seat) != self.peer_id:
            if handed(seat) and seat.owner == self.peer_id:
                raise ValueError("a bot plays your seat until the others see you are back")
            raise ValueError(f"it is {seat.name}'s decision, not yours")
        self._play_local(move)

    def bot_move(self, index: int, move: Move, now: float) -> None:
        """The move a `BotTurn` asked for; ignored if the game moved on meanwhile."""
        self.now = now
        if self.game is None or len(self.game.moves) != index or self.stopped:
            return
        if self._thinking == index:
            self._thinking = None
        try:
            self._play_local(move)
        except (IllegalMove, ValueError) as exc:
            self._emit(E.Error(f"bot chose an illegal move: {exc}"))

    def learn_address(self, peer: bytes, addr: tuple[str, int], now: float) -> None:
        """A member's current address from elsewhere (its zeroconf advert)."""
        self.now = now
        if self.lobby is None or not L.is_member(self.lobby, peer) or peer == self.peer_id:
            return
        lk = self.links.links.get(peer)
        if lk is None:
            self.links.link(peer, addr)
            self.links.send(peer, addr, self._heartbeat())
        elif lk.addr != tuple(addr) and self.presence.is_away(peer):
            self.links.redirect(peer, addr)
            self.links.send(peer, None, self._heartbeat())

    def _request(self, msg: Message) -> None:
        if self.lobby is None:
            raise ValueError("not in a game")
        coord = self.coordinator()
        if coord == self.peer_id:
            self._handle_request(self.peer_id, ("0.0.0.0", self.port), msg)
        else:
            self.links.send(coord, self._addr_of(coord), msg)

    # ================================================================== views

    def present(self) -> set[bytes]:
        if self.lobby is None:
            return {self.peer_id}
        return {m.peer for m in self.lobby.members
                if m.peer == self.peer_id or not self.presence.is_absent(m.peer)}

    def coordinator(self) -> bytes:
        return L.coordinator(self.lobby, self.present())

    def _driver(self, seat: int) -> bytes:
        """Who plays the seat now: its owner, except for bots and handed-over seats whose
        driver is away (or, for a handed seat, always) — then the coordinator."""
        s = self.lobby.seats[seat]
        if handed(s):
            present = self.present() - {s.owner}
            return L.coordinator(self.lobby, present) if present else self.peer_id
        if s.kind == "bot":
            return L.bot_driver(self.lobby, seat, self.present())
        return s.owner

    def my_seats(self) -> list[int]:
        if self.lobby is None:
            return []
        return [i for i, s in enumerate(self.lobby.seats) if s.owner == self.peer_id]

    def _addr_of(self, peer: bytes) -> tuple[str, int] | None:
        lk = self.links.links.get(peer)
        if lk is not None:
            return lk.addr
        for m in self.lobby.members if self.lobby else ():
            if m.peer == peer and m.host != "0.0.0.0":
                return (m.host, m.port)
        return None

    def peer_name(self, peer: bytes | None) -> str:
        if peer is None:
            return "unknown sender"
        if self.lobby is not None:
            for s in self.lobby.seats:
                if s.owner == peer and s.kind == "human":
                    return f"{s.name} ({peer.hex()[:8]})"
        return f"node {peer.hex()[:8]}"

    def lobby_json(self) -> dict:
        lb = self.lobby
        if lb is None:
            return {}
        present = self.present()
        return {
            "game": lb.name, "game_id": self.game_id.hex(), "version": lb.version,
            "phase": lb.phase, "seats_total": lb.total, "passphrase": lb.passphrase,
            "seats": [{"name": s.name, "colour": s.colour, "kind": s.kind, "bot": s.bot,
                       "ready": s.ready, "owner": s.owner.hex(), "mine": s.owner == self.peer_id,
                       "away": s.owner not in present, "handed": handed(s)}
                      for s in lb.seats],
            "coordinator": self.coordinator().hex(),
        }

    def _seat_json(self) -> list[dict]:
        return [{"name": s.name, "colour": s.colour, "kind": s.bot or "human"}
                for s in self.lobby.seats]

    def caught_up(self) -> bool:
        """Every present peer reports at least as many moves as we have and nothing we sent
        is unacknowledged: safe to exit after game over."""
        if self.game is None:
            return True
        n = len(self.game.moves)
        others = [m.peer for m in self.lobby.members if m.peer != self.peer_id]
        present = self.present()
        return self.links.idle() and all(
            self._progress.get(p, -1) >= n for p in others if p in present)

    # ================================================================== inbound

    def _keep_link(self, peer: bytes) -> bool:
        return peer in self._joining or (self.lobby is not None and L.is_member(self.lobby, peer))

    def _admit(self, peer: bytes, msg: Message) -> str | None:
        if self.lobby is not None and L.is_member(self.lobby, peer):
            return None
        if peer in self._joining:
            return None
        if isinstance(msg, Join):
            if self.lobby is None:
                return "join while this node is not in a game"
            return None
        return f"unknown node {peer.hex()[:8]} is not a member of this game"

    def _on_refused(self, peer: bytes | None, addr: tuple, why: str) -> None:
        self.refusals += 1
        who = self.peer_name(peer)
        log.info("refused datagram from %s at %s:%s: %s", who, addr[0], addr[1], why)
        self._emit(E.Refused(peer.hex() if peer else None, who, f"{addr[0]}:{addr[1]}", why))

    def _refuse_msg(self, peer: bytes, what: str, why: str) -> None:
        self.refusals += 1
        who = self.peer_name(peer)
        addr = self._addr_of(peer) or ("?", 0)
        log.info("refused %s from %s: %s", what, who, why)
        self._emit(E.Refused(peer.hex(), who, f"{addr[0]}:{addr[1]}", why, what))

    def _on_restart(self, peer: bytes) -> None:
        self._progress.pop(peer, None)
        if self.lobby is not None and L.is_member(self.lobby, peer):
            self.presence.heard(peer, self.now)
            self._emit(E.Restarted(peer.hex(), self.peer_name(peer)))
            self._lobby_sent.pop(peer, None)
            self._member_back(peer)

    def _on_message(self, peer: bytes, addr: tuple, msg: Message, early: bool = False) -> None:
        if self.closing:
            return
        if self.lobby is not None and L.is_member(self.lobby, peer):
            if self.presence.heard(peer, self.now):
                self._emit(E.Back(peer.hex(), self.peer_name(peer)))
                self._member_back(peer)
            self._note_address(peer, addr)
        try:
            if early:
                self._on_move(peer, msg, early=True)
            else:
                self._dispatch(peer, addr, msg)
        except Exception as exc:  # a bug or an unforeseen input must not kill the node
            log.exception("internal error on %s from %s", type(msg).__name__, peer.hex())
            self._refuse_msg(peer, type(msg).__name__, f"internal error: {exc}")

    def _dispatch(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if isinstance(msg, Heartbeat):
            self._on_heartbeat(peer, msg)
        elif isinstance(msg, Lobby):
            self._on_lobby(peer, addr, msg)
        elif isinstance(msg, Refuse):
            if peer in self._joining and not self.seated():
                self.join_refusal = msg.reason
            else:
                self._emit(E.RequestRefused(peer.hex(), msg.reason))
        elif isinstance(msg, REQUESTS):
            self._handle_request(peer, addr, msg)
        elif isinstance(msg, Commit | Reveal | Abort | SeedOk):
            self._on_seed_message(peer, msg)
        elif isinstance(msg, MoveMsg):
            self._on_move(peer, msg)
        elif isinstance(msg, Fetch):
            self._on_fetch(peer, msg)
        elif isinstance(msg, Log):
            self._on_log(peer, msg)
        elif isinstance(msg, Chat):
            if self.lobby is not None and L.is_member(self.lobby, peer):
                self._emit(E.ChatLine(peer.hex(), self.peer_name(peer), msg.text))

    def _note_address(self, peer: bytes, addr: tuple) -> None:
        """A member speaks from another address than the lobby lists (it restarted on
        another port): the coordinator publishes it, so members that restarted too, and
        only know the old one, find it again."""
        lb = self.lobby
        if lb.phase == "lobby" or self.coordinator() != self.peer_id:
            return
        for m in lb.members:
            if m.peer == peer and (m.host, m.port) != tuple(addr[:2]):
                members = tuple(Member(x.peer, addr[0], addr[1]) if x.peer == peer else x
                                for x in lb.members)
                self._install_lobby(dataclasses.replace(lb, version=lb.version + 1,
                                                        members=members), broadcast=True)
                return

    # ------------------------------------------------------------------ lobby

    def _handle_request(self, peer: bytes, addr: tuple, msg: Message) -> None:
        if self.lobby is None:
            return
        if isinstance(msg, Leave) and peer != self.peer_id:
            self.presence.left(peer, self.now)
            self._emit(E.Away(peer.hex(), self.peer_name(peer), True))
        if (isinstance(msg, Join) and self.lobby.phase != "lobby"
                and not L.is_member(self.lobby, peer)):
            why = f"game {self.lobby.name!r} has already started"
            self._refuse_msg(peer, "join", why)
            self.links.send(peer, addr, Refuse(why))
            self.links.forget(peer)  # a stranger's link is not worth keeping
            return
        if isinstance(msg, AddBot) and self.lobby.phase == "playing":
            self._handover_request(peer, addr, msg)
            return
        if self.coordinator() != self.peer_id:
            if isinstance(msg, Join) and peer not in self._answered_join:
                self._answered_join.add(peer)
                self.links.send(peer, addr, self.lobby)  # the joiner finds the coordinator
            return
        result = L.apply_request(self.lobby, peer, addr, msg)
        if isinstance(result, str):
            if peer == self.peer_id:
                self._emit(E.RequestRefused(peer.hex(), result))
            elif not isinstance(msg, Leave):
                self.links.send(peer, addr, Refuse(result))
            return
        if isinstance(msg, Join) and result is self.lobby:
            self.links.send(peer, addr, self.lobby)  # a repeated join: resend the lobby
            return
        if result is not self.lobby:
            self._install_lobby(result, broadcast=True)

    def _install_lobby(self, new: Lobby, broadcast: bool) -> None:
        old = self.lobby
        self.lobby = new
        if broadcast:
            self._broadcast(new)
        self._lobby_changed(old)

    def _on_lobby(self, peer: bytes, addr: tuple, msg: Lobby) -> None:
        # the sender's own entry carries a placeholder address: use where it came from
        members = tuple(Member(m.peer, addr[0], addr[1]) if m.peer == peer else m
                        for m in msg.members)
        msg = dataclasses.replace(msg, members=members)
        if not L.is_member(msg, peer):
            self._refuse_msg(peer, "lobby", "lobby from a node that is not in it")
            return
        cur = self.lobby
        if cur is None:
            if peer not in self._joining:
                self._refuse_msg(peer, "lobby", "unsolicited lobby")
                return
        elif msg.version <= cur.version:
            return
        elif self.game is not None and not _same_table(msg.seats, cur.seats):
            self._refuse_msg(peer, "lobby", "lobby with other seats after the game started")
            return
        if not L.is_member(msg, self.peer_id) and not self.seated():
            # not seated yet: ask the coordinator (and anyone we have not asked) for a seat
            self.lobby = None
            for m in msg.members:
                if m.peer not in self._join_sent:
                    self._join_sent.add(m.peer)
                    self._joining.add(m.peer)
                    self.links.send(m.peer, (m.host, m.port), Join(self.name, self._join_colour))
            return
        if cur is not None:
            for m in msg.members:  # addresses the others learnt (a restarted member's)
                if m.peer != self.peer_id and m.peer != peer and m.host != "0.0.0.0":
                    old = next((x for x in cur.members if x.peer == m.peer), None)
                    if old is not None and (old.host, old.port) != (m.host, m.port):
                        self.links.redirect(m.peer, (m.host, m.port))
        self._install_lobby(msg, broadcast=False)

    def _lobby_changed(self, old: Lobby | None) -> None:
        lb = self.lobby
        self._emit(E.LobbyChanged(self.lobby_json()))
        if old is not None and self.game is not None:
            self._announce_handovers(old, lb)
        if lb.phase == "starting" and (self._round is None or self._round.nonce != lb.start_nonce):
            self._begin_seed_round()
        if lb.phase == "lobby" and self._round is not None:
            self._round = None
        if self.coordinator() == self.peer_id and L.should_autostart(lb):
            self._install_lobby(L.start(lb), broadcast=True)
        if self.game is not None:
            self._after_state_change()

    # ------------------------------------------------------------------ handover

    def _ask_handover(self, seat: int, bot: str) -> None:
        colour = self.lobby.seats[seat].colour
        self._handover_asked[seat] = self.now
        coord = self.coordinator()
        if coord == self.peer_id:
            self._handover_request(self.peer_id, ("0.0.0.0", self.port), AddBot(bot, colour))
        else:
            self.links.send(coord, self._addr_of(coord), AddBot(bot, colour))

    def _handover_request(self, peer: bytes, addr: tuple, msg: AddBot) -> None:
        """ADD_BOT during a game: hand the away human seat of that colour to a bot."""
        lb = self.lobby
        seat = next((i for i, s in enumerate(lb.seats) if s.colour == msg.colour), None)
        why = None
        if self.coordinator() != self.peer_id:
            why = "not the coordinator"
        elif not L.is_member(lb, peer):
            why = "not a member of this game"
        elif seat is None or lb.seats[seat].kind != "human":
            why = f"no player plays {msg.colour}"
        elif handed(lb.seats[seat]):
            return  # already done (two nodes asked)
        elif lb.seats[seat].owner == peer or not self.presence.is_absent(lb.seats[seat].owner):
            why = f"{lb.seats[seat].name} is here"
        if why:
            if peer == self.peer_id:
                self._emit(E.RequestRefused(peer.hex(), why))
            else:
                self.links.send(peer, addr, Refuse(why))
            return
        seats = list(lb.seats)
        seats[seat] = dataclasses.replace(seats[seat], bot=msg.bot or HANDOVER_BOT)
        self._install_lobby(dataclasses.replace(lb, version=lb.version + 1, seats=tuple(seats)),
                            broadcast=True)

    def _announce_handovers(self, old: Lobby, new: Lobby) -> None:
        for i, (a, b) in enumerate(zip(old.seats, new.seats, strict=False)):
            if not handed(a) and handed(b):
                driver = self._driver(i)
                self._emit(E.SeatHandedOver(i, b.name, b.bot, driver.hex(),
                                            self.peer_name(driver)))
                log.info("%s's seat is played by a bot (%s) from now on", b.name, b.bot)
            elif handed(a) and not handed(b):
                self._emit(E.SeatReclaimed(i, b.name))
                if b.owner == self.peer_id:
                    self._your_turn = None

    def _member_back(self, peer: bytes) -> None:
        """A member is heard again: if a bot plays its seat, the coordinator gives it back."""
        lb = self.lobby
        if self.game is not None and self.coordinator() == self.peer_id:
            seats = tuple(dataclasses.replace(s, bot="") if handed(s) and s.owner == peer else s
                          for s in lb.seats)
            if seats != lb.seats:
                self._install_lobby(dataclasses.replace(lb, version=lb.version + 1, seats=seats),
                                    broadcast=True)
        self._after_state_change()

    # ------------------------------------------------------------------ seed

    def _begin_seed_round(self) -> None:
        lb = self.lobby
        self._round = self.new_round(self.game_id, lb.start_nonce, self.peer_id, L.seed_order(lb))
        self._start_seen = self.now
        self._emit(E.Starting(lb.start_nonce.hex(), [p.hex() for p in self._round.order]))
        self._broadcast(Commit(lb.start_nonce, self._round.my_commitment))
        early, self._early = self._early, []
        for peer, msg in early:
            self._on_seed_message(peer, msg)
        self._seed_progress()

    def _on_seed_message(self, peer: bytes, msg: Commit | Reveal | Abort | SeedOk) -> None:
        rnd = self._round
        if isinstance(msg, Abort):
            if rnd is not None and msg.nonce == rnd.nonce:
                self._abort_start(msg.reason, tell=False)
            return
        if rnd is None or msg.nonce != rnd.nonce:
            if self.game is None and len(self._early) < MAX_EARLY:
                self._early.append((peer, msg))  # may overtake the lobby that announces it
            return
        if isinstance(msg, SeedOk):
            why = rnd.add_ok(peer, msg.check)
            if why:
                self._refuse_msg(peer, "seed confirmation", why)
                self._abort_start(f"{self.peer_name(peer)}: {why}", tell=True)
                return
        elif isinstance(msg, Commit):
            why = rnd.add_commit(peer, msg.commitment)
            if why:
                self._refuse_msg(peer, "commit", why)
                return
        else:
            why = rnd.add_reveal(peer, msg.secret)
            if why:
                self._refuse_msg(peer, "reveal", why)
                self._abort_start(f"{self.peer_name(peer)}: {why}", tell=True)
                return
        self._seed_progress()

    def _seed_progress(self) -> None:
        rnd = self._round
        if rnd is None:
            return
        if rnd.all_committed() and not rnd.revealed:
            rnd.revealed = True
            self._broadcast(Reveal(rnd.nonce, rnd.secret))
        if rnd.revealed and rnd.complete() and not rnd.ok_sent:
            rnd.ok_sent = True
            for p, check in list(rnd.oks.items()):  # confirmations that came early
                why = rnd.add_ok(p, check)
                if why:
                    self._abort_start(f"{self.peer_name(p)}: {why}", tell=True)
                    return
            self._broadcast(SeedOk(rnd.nonce, seed_check(rnd.seed())))
        if rnd.ok_sent and rnd.confirmed() and self.game is None:
            self._begin_game(rnd.seed())

    def _abort_start(self, reason: str, tell: bool) -> None:
        rnd = self._round
        if rnd is None:
            return
        if tell:
            self._broadcast(Abort(rnd.nonce, reason[:300]))
        self._round = None
        self._buffer.clear()  # nothing said for the void attempt may leak into the next one
        self._early.clear()
        self._emit(E.Aborted(reason))
        if self.coordinator() == self.peer_id and self.lobby.phase == "starting":
            self._install_lobby(L.abort_start(self.lobby), broadcast=True)

    # ------------------------------------------------------------------ game

    def _begin_game(self, seed: bytes) -> None:
        lb = self.lobby
        self.seed = seed
        self.game = Game([s.colour for s in lb.seats])
        self.dealer = Dealer(seed)
        self.lobby = dataclasses.replace(lb, phase="playing")
        self._emit(E.GameStarted(seed.hex(), self._seat_json(), False, 0))
        self._deal()
        if self.coordinator() == self.peer_id:
            self._install_lobby(dataclasses.replace(self.lobby, version=lb.version + 1),
                                broadcast=True)
        self._drain_buffer()
        self._after_state_change()

    def _after_state_change(self) -> None:
        """Called after anything that might make this node the one to move."""
        g = self.game
        if g is None or self.stopped or self.closing or g.is_over:
            return
        d = g.pending
        if d is None or d.seat is None:  # a reveal: the dealer's, never a seat's
            return
        seat = self.lobby.seats[d.seat]
        idx = len(g.moves)
        if self._driver(d.seat) != self.peer_id:
            self._note_waiting(d.seat)
            return
        if seat.kind == "bot" or handed(seat):
            kind = seat.bot
        elif not self.autoplay:
            if self._your_turn != idx:
                self._your_turn = idx
                self._emit(E.YourTurn(idx, d.seat, d.kind))
            return
        else:
            kind = self.autoplay
        if self._thinking == idx:
            return
        self._thinking = idx
        self._emit(E.BotTurn(d.seat, idx, kind, bot_seed(self.seed, d.seat, idx)))

    def _note_waiting(self, seat: int) -> None:
        s = self.lobby.seats[seat]
        if s.kind == "human" and not handed(s) and self.presence.is_absent(s.owner):
            idx = len(self.game.moves)
            if self._waiting_noted != idx:
                self._waiting_noted = idx
                self._emit(E.Waiting(seat, s.name))

    def _play_local(self, move: Move) -> None:
        g = self.game
        idx = len(g.moves)
        seat = g.pending.seat
        g.apply(move)  # raises on an illegal move; nothing sent then
        digest = g.digest()
        self._digest_list.append(digest)
        self._emit(E.RecordMove(idx, move, digest))
        self.move_times[idx] = self.sent_at[idx] = self.now
        prev = tuple((g.moves[i].to_wire(), self._digest_list[i])
                     for i in range(max(0, idx - PREV_MOVES), idx))
        self._broadcast(MoveMsg(idx, move.to_wire(), digest, prev))
        self._applied(idx, seat, move, by=self.peer_id)

    def _deal(self) -> None:
        """Reveal the tiles the last move calls for. Until fair draws (issue 10) every peer
        deals the same tiles from the agreed seed, so reveals are never sent; each is
        recorded like a move."""
        def on_reveal(move: Move) -> None:
            digest = self.game.digest()
            idx = len(self.game.moves) - 1
            self._digest_list.append(digest)
            self._emit(E.RecordMove(idx, move, digest))
            self.move_times.setdefault(idx, self.now)
            self._emit(E.TileRevealed(idx, str(move)))

        self.dealer.deal(self.game, on_reveal)

    def _applied(self, idx: int, seat: int, move: Move, by: bytes) -> None:
        s = self.lobby.seats[seat]
        self._emit(E.MoveApplied(idx, seat, s.colour, s.name, str(move), by.hex()))
        self._deal()
        if self.game.is_over:
            self._broadcast(self._heartbeat())  # tell everyone at once that we are done
            g = self.game
            self._emit(E.GameOver(g.digest().hex(), g.scores(), g.winners(), len(g.moves)))
        else:
            self._after_state_change()

    def _stop(self, reason: str) -> None:
        """Our state differs from a peer's: stop playing (the glue keeps the evidence)."""
        if self.stopped:
            return
        self.stopped = reason
        log.info("game stopped: %s", reason)  # the Mismatch event tells the player
        self._emit(E.Mismatch(reason))

    def dump_lines(self) -> list[str]:
        """What a stopped game leaves next to its record, to compare with a peer's."""
        lines = [f"game {self.game_id.hex()} stopped: {self.stopped}",
                 f"seed {self.seed.hex() if self.seed else '-'}"]
        if self.game is not None:
            lines += [f"{i:4d} {m}" for i, m in enumerate(self.game.moves)]
            lines.append(f"digest after last move {self.game.digest().hex()}")
        return lines

    def _on_early_move(self, peer: bytes, addr: tuple, msg: MoveMsg) -> None:
        """A MOVE that overtook an earlier message of its link (that one was lost): use it
        now rather than after the resend. The in-order copy later finds it played."""
        if self.closing or self.game is None or self.lobby is None:
            return
        if not L.is_member(self.lobby, peer) or msg.index < len(self.game.moves):
            return
        self._on_message(peer, addr, msg, early=True)

    def _on_move(self, peer: bytes, msg: MoveMsg, early: bool = False) -> None:
        g = self.game
        if g is None:
            if self.lobby is not None and self.lobby.phase in ("starting", "playing"):
                self._keep(peer, msg)  # overtook the last reveal: keep it for later
                return
            self._refuse_msg(peer, f"move {msg.index}", "no game in progress here")
            return
        n = len(g.moves)
        if msg.index < n:
            if g.moves[msg.index].to_wire() != msg.move:
                self._refuse_msg(peer, f"move {msg.index}",
                                 f"conflicts with the move already played ({g.moves[msg.index]})")
            return
        start = msg.index - len(msg.prev)
        if msg.index > n and start <= n:  # the moves we missed ride along: relayed moves,
            for k, (wire, digest) in enumerate(msg.prev):  # checked like a LOG's
                if start + k < len(g.moves):
                    continue
                why = self._check_and_apply(peer, wire, digest, check_sender=False)
                if why:
                    self._refuse_msg(peer, f"move {start + k}", why)
                    return
            self._drain_buffer()
            n = len(g.moves)
            if msg.index < n:
                return
        if msg.index > n:
            if not early:
                self._keep(peer, msg)
                self._fetch(peer, n)
            return
        why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True)
        if why:
            self._refuse_msg(peer, f"move {msg.index}", why)
        self._drain_buffer()

    def _keep(self, peer: bytes, msg: MoveMsg) -> None:
        """Hold a move that came early. Several candidates per index are kept, so a forged
        move cannot displace the real one; each is checked when its turn comes."""
        if len(self._buffer) >= 256 and msg.index not in self._buffer:
            return
        slot = self._buffer.setdefault(msg.index, [])
        if len(slot) < 4:
            slot.append((peer, msg))

    def _drain_buffer(self) -> None:
        while self.game is not None and not self.stopped:
            n = len(self.game.moves)
            for k in [k for k in self._buffer if k < n]:
                del self._buffer[k]
            slot = self._buffer.pop(n, None)
            if slot is None:
                return
            for peer, msg in slot:
                if len(self.game.moves) != n:
                    break
                why = self._check_and_apply(peer, msg.move, msg.digest, check_sender=True)
                if why:
                    self._refuse_msg(peer, f"move {msg.index}", why)
            if len(self.game.moves) == n:
                return

    def _check_and_apply(self, peer: bytes, wire: list, digest: bytes,
                         check_sender: bool) -> str | None:
        g = self.game
        if self.stopped:
            return f"game stopped here: {self.stopped}"
        if g.is_over:
            return "the game is over"
        idx = len(g.moves)
        d = g.pending
        if d is None or d.seat is None:
            return "a tile reveal is dealt by every node itself, never sent"
        seat = self.lobby.seats[d.seat]
        if check_sender:
            if seat.kind == "human" and not handed(seat) and seat.owner != peer:
                return (f"it is {seat.name}'s ({seat.colour}) decision, "
                        f"not {self.peer_name(peer)}'s")
            if (seat.kind == "bot" or handed(seat)) and not L.is_member(self.lobby, peer):
                return "bot move from a node outside the game"
        try:
            move = move_from_wire(wire)
        except ValueError as exc:
            return f"malformed move: {exc}"
        try:
            g.apply(move)
        except IllegalMove as exc:
            return f"illegal move {move} for {seat.name} ({getattr(exc, 'clause', '?')}): {exc}"
        except ValueError as exc:
            return f"illegal move {move} for {seat.name}: {exc}"
        mine = g.digest()
        self.move_times[idx] = self.now  # applied and verified
        self._digest_list.append(mine)
        self._emit(E.RecordMove(idx, move, mine))
        if mine != digest:
            self._stop(f"digest mismatch after move {idx} ({move}) from {self.peer_name(peer)}: "
                       f"ours {mine.hex()[:16]}, theirs {digest.hex()[:16]}")
        self._applied(idx, d.seat, move, by=peer)
        return None

    def _fetch(self, peer: bytes, start: int) -> None:
        if self.now - self._fetch_at < FETCH_RETRY_S:
            return
        self._fetch_at = self.now
        self.links.send(peer, self._addr_of(peer), Fetch(start))

    def _on_fetch(self, peer: bytes, msg: Fetch) -> None:
        g = self.game
        if g is None:
            return
        if self.now - self._served.get((peer, msg.start), -10.0) < FETCH_RETRY_S / 2:
            return  # the same request again within half a second: already on its way
        self._served[(peer, msg.start)] = self.now
        if len(self._served) > 4096:
            self._served.clear()
        for chunk in log_chunks(g.moves, self._digest_list, msg.start):
            self.links.send(peer, None, chunk)

    def _on_log(self, peer: bytes, msg: Log) -> None:
        g = self.game
        if g is None:
            return
        for k, (wire, digest) in enumerate(msg.entries):
            idx = msg.start + k
            n = len(g.moves)
            if idx < n:
                continue
            if idx > n or self.stopped:
                return
            why = self._check_and_apply(peer, wire, digest, check_sender=False)
            if why:
                self._refuse_msg(peer, f"logged move {idx}", why)
                return
        self._drain_buffer()
        if len(g.moves) < msg.total and msg.start + len(msg.entries) == len(g.moves):
            self._fetch_at = -1e9

    # ------------------------------------------------------------------ heartbeats

    def _heartbeat(self) -> Heartbeat:
        lb = self.lobby
        g = self.game
        phase = lb.phase if lb else "lobby"
        if g is not None:
            phase = "over" if g.is_over else "playing"
        return Heartbeat(phase, lb.version if lb else 0, len(g.moves) if g else 0,
                         g.digest() if g is not None and g.moves else b"")

    def _on_heartbeat(self, peer: bytes, hb: Heartbeat) -> None:
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return
        self._progress[peer] = hb.n_moves
        g = self.game
        if g is not None and not self.stopped:
            n = len(g.moves)
            if hb.n_moves == n and hb.digest and hb.digest != g.digest():
                self._stop(f"{self.peer_name(peer)} reached a different state after move "
                           f"{n - 1}: theirs {hb.digest.hex()[:16]}, ours {g.digest().hex()[:16]}")
            elif hb.n_moves > n:
                self._fetch(peer, n)
        if hb.lobby_version < self.lobby.version:
            if self.now - self._lobby_sent.get(peer, -1e9) > 1.0:
                self._lobby_sent[peer] = self.now
                self.links.send(peer, None, self.lobby)

    def _broadcast(self, msg: Message) -> None:
        if self.lobby is None:
            return
        for m in self.lobby.members:
            if m.peer == self.peer_id or self.presence.has_left(m.peer):
                continue
            self.links.send(m.peer, self._addr_of(m.peer), msg)

    def _tick(self) -> None:
        lb = self.lobby
        now = self.now
        if now - self._last_hb >= HEARTBEAT_S:
            self._last_hb = now
            self._broadcast(self._heartbeat())
        others = [m.peer for m in lb.members if m.peer != self.peer_id]
        changed = False
        for peer, away in self.presence.update(others, now):
            changed = True
            if away:
                self._emit(E.Away(peer.hex(), self.peer_name(peer), False))
            else:
                self._emit(E.Back(peer.hex(), self.peer_name(peer)))
        if changed:
            if self.game is None and self.coordinator() == self.peer_id:
                if L.should_autostart(self.lobby):
                    self._install_lobby(L.start(self.lobby), broadcast=True)
            self._after_state_change()
        if (lb.phase == "starting" and self._round is not None and self.game is None
                and now - self._start_seen > START_TIMEOUT_S):
            missing = [p for p in self._round.order if p not in self._round.reveals]
            self._abort_start("no commitment/reveal from "
                              + ", ".join(self.peer_name(p) for p in missing), tell=True)
        g = self.game
        if g is not None and not self.stopped:
            ahead = [p for p, k in self._progress.items() if k > len(g.moves)]
            if ahead:
                self._fetch(ahead[0], len(g.moves))
            if self.handover_after is not None and not g.is_over:
                self._auto_handover()

    def _auto_handover(self) -> None:
        """Headless nodes (`--handover S`) ask by themselves for a bot in the seat of a
        player away for S seconds (again every S seconds until it is done)."""
        for i, s in enumerate(self.lobby.seats):
            if s.kind != "human" or handed(s) or s.owner == self.peer_id:
                continue
            away = self.presence.away_for(s.owner, self.now)
            if away is None or away < self.handover_after:
                continue
            if self.now - self._handover_asked.get(i, -1e9) < max(1.0, self.handover_after):
                continue
            self._ask_handover(i, self.handover_bot)


def _same_table(a, b) -> bool:
    """Seats equal but for who plays a human seat meanwhile (handover)."""
    return len(a) == len(b) and all(
        dataclasses.replace(x, bot="") == dataclasses.replace(y, bot="") if x.kind == "human"
        else x == y for x, y in zip(a, b, strict=True))


def log_chunks(moves, digests, start: int, max_chunks: int = 32):
    """LOG messages holding moves start.. in order, each under LOG_CHUNK_BYTES."""
    total = len(moves)
    i = start
    sent = 0
    while i < total and sent < max_chunks:
        entries, size = [], 0
        while i < total:
            w = moves[i].to_wire()
            sz = len(msgpack.packb(w)) + 36
            if entries and size + sz > LOG_CHUNK_BYTES:
                break
            entries.append((w, digests[i]))
            size += sz
            i += 1
        yield Log(i - len(entries), total, tuple(entries))
        sent += 1

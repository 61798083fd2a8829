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
import logging
import os
from collections.abc import Callable

from tongiaki_lan.draws import Chain
from tongiaki_lan.engine import Game
from tongiaki_lan.engine.variant import STANDARD
from tongiaki_lan.net.protocol import events as E
from tongiaki_lan.net.protocol import lobby as L
from tongiaki_lan.net.protocol.auth import derive_key
from tongiaki_lan.net.protocol.codec import (
    DRAW_WAIT_DEFAULT,
    ID_LEN,
    MAX_BOT,
    NO_GAME,
    Abort,
    AddBot,
    AwayList,
    Chat,
    ChatFrom,
    Commit,
    Draw,
    Farewell,
    Fetch,
    Heartbeat,
    Join,
    Leave,
    Lobby,
    Log,
    Message,
    MoveMsg,
    NewChain,
    Proof,
    Ready,
    Refuse,
    RemoveBot,
    Reveal,
    SeedOk,
    SetGuests,
    SetSeat,
    SetWait,
    Start,
    TakeSeat,
    Watch,
    Watchers,
    WatchState,
)
from tongiaki_lan.net.protocol.drawsync import DrawSync
from tongiaki_lan.net.protocol.expulsion import Expulsions
from tongiaki_lan.net.protocol.farewell import Farewells
from tongiaki_lan.net.protocol.handover import Handover, handed, seat_kind
from tongiaki_lan.net.protocol.identity import Identity
from tongiaki_lan.net.protocol.latechains import LateChains
from tongiaki_lan.net.protocol.links import Links
from tongiaki_lan.net.protocol.lobbysync import LobbySync
from tongiaki_lan.net.protocol.movesync import MoveSync, bot_seed
from tongiaki_lan.net.protocol.presence import Presence
from tongiaki_lan.net.protocol.probe import Responder, is_probe_frame
from tongiaki_lan.net.protocol.proofs import short_lobby_hash, sign_lobby
from tongiaki_lan.net.protocol.seed import SeedRound
from tongiaki_lan.net.protocol.seeding import SeedAgreement
from tongiaki_lan.net.protocol.settings import (
    HANDOVER_BOT,
    HEARTBEAT_S,
    IDLE_AFTER_S,
    IDLE_AGAIN_S,
    MAX_EVENTS,
    START_TIMEOUT_S,
    STUCK_AFTER_S,
    TICK_S,
)
from tongiaki_lan.net.protocol.wake import Hold, Waking
from tongiaki_lan.net.protocol.watching import Spectators

log = logging.getLogger("tongiaki_lan.net.protocol.core")

__all__ = ["NodeCore", "bot_seed", "handed"]

REQUESTS = (Join, SetSeat, Ready, AddBot, RemoveBot, Leave, Start, SetWait)


class NodeCore(MoveSync, DrawSync, LateChains, SeedAgreement, LobbySync, Handover, Farewells,
               Waking, Spectators, Expulsions):
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
        # the wait for a missing draw value at a table this node opens (Lobby.draw_wait)
        self.draw_wait = DRAW_WAIT_DEFAULT
        self.port = port
        self.links = Links(self.peer_id, incarnation, self._on_message, admit=self._admit,
                           on_restart=self._on_restart, on_refused=self._on_refused,
                           keep=self._keep_link, identity=self.identity,
                           on_early=self._on_early_move, early_types=(MoveMsg, Draw),
                           urgent_types=(MoveMsg, Draw))
        self.presence = Presence()
        self.new_round = SeedRound  # tests swap in a dishonest one
        # where game ids, start nonces and secrets come from: the OS; a simulation gives
        # a seeded source so a whole run reproduces from its seed
        self.entropy: Callable[[int], bytes] = os.urandom
        self.now = 0.0
        self._events: list[E.NodeEvent] = []
        self._reset_game_state()
        self.game_id: bytes = NO_GAME
        self.passphrase: str | None = None
        self.game_key: bytes | None = None  # the passphrase game's key (auth.derive_key)
        self.refusals = 0
        self.closing = False
        # answers `doctor`'s probes in any phase; it never sees or changes game state
        self.probes = Responder(self.identity)

    # ================================================================== sans-I/O surface

    @property
    def plays(self) -> str:
        """The bot this laptop plays its seat with (a headless node), "" for a person at
        the keyboard: the others' screens call the seat a bot's (Join.plays, Seat.plays)."""
        return (self.autoplay or "")[:MAX_BOT]

    def receive(self, data: bytes, addr: tuple, now: float) -> None:
        self.now = now
        if is_probe_frame(data):  # outside any game: a probe (protocol/wire.md, "Probe")
            self.probes.game = self.game_id
            reply = self.probes.answer(data, addr, now)
            if reply is not None:
                self.links.send_raw(reply, tuple(addr[:2]))
            return
        self._check_wake(now)
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
            if self._deal_due is not None:
                t = min(t, self._deal_due)
        return t

    def handle_timer(self, now: float) -> None:
        self.now = now
        self._check_wake(now)
        self.links.handle_timer(now)
        if self._deal_due is not None and now >= self._deal_due:
            try:
                self._deal_timer()
            except Exception:
                log.exception("deal failed")
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

    def _enter_game(self, game_id: bytes, passphrase: str | None,
                    key: bytes | None = None) -> None:
        """`key`: the game's key kept from an earlier run (its resume data), used when no
        passphrase is given, so a player back after a crash is not asked for it again."""
        self.game_id = game_id
        self.passphrase = passphrase or None
        if passphrase:
            key = derive_key(passphrase, game_id)
        self.game_key = key
        self.links.set_game(game_id, key)

    def create_game(self, game_name: str, seats: int, passphrase: str | None, colour: str,
                    now: float, invite: str = "", variant: str = STANDARD) -> bytes:
        """Open a new game in the lobby phase, seated as its first player. `variant`:
        a table option, "two-colours" (2 players with two colours each, V1)."""
        self.now = now
        self._reset_game_state()
        self._enter_game(self.entropy(ID_LEN), passphrase)
        self.lobby = self._lobby_signed = sign_lobby(
            self.identity, self.game_id, self.links.incarnation, dataclasses.replace(
                L.new_lobby(game_name, seats, bool(passphrase), self.peer_id, self.name,
                            colour, self.port, variant, self.plays), draw_wait=self.draw_wait))
        self._lobby_changed(None)
        self._emit(E.Joined(game_name, self.game_id.hex(), True, invite))
        return self.game_id

    def begin_join(self, game_id: bytes, peer: bytes, addr: tuple[str, int],
                   passphrase: str | None, colour: str, now: float) -> None:
        """Ask a game for a seat; watch `seated()` and `join_refusal`."""
        self.now = now
        self._reset_game_state()
        self._enter_game(game_id, passphrase)
        # a fresh run of every link: a REFUSE of an earlier try (a name taken, say) still
        # on its way for this game must not answer this one
        self.links.rebirth()
        self._joining = {peer}
        self._join_sent = {peer}
        self._join_colour = colour
        self.links.send(peer, addr, Join(self.name, colour, self.plays))

    def abandon(self) -> None:
        """Forget the current game (a failed join, or after leaving)."""
        self._reset_game_state()
        self.links.set_game(NO_GAME, None)
        self.game_id = NO_GAME

    def leave_game(self, now: float, for_good: bool = False) -> None:
        """Say goodbye: LEAVE in the lobby, FAREWELL in a running game (`Farewells`)."""
        self.now = now
        if self.watching:  # a watcher just stops being fed
            self._broadcast(Leave())
        elif self.lobby is not None:
            self.say_farewell(for_good, now)

    def resume(self, game_id: bytes, passphrase: str | None, lobby: Lobby, seed: bytes,
               game: Game, digests: list[bytes], now: float, *,
               contributors: list[bytes], heads: tuple[bytes, ...],
               chain_secret: bytes | None, proofs: list | None = None,
               key: bytes | None = None, late_secrets: list[bytes] = ()) -> None:
        """Rejoin a game after a crash or restart, from our own record (replayed into `game`,
        with each draw's values in `proofs`) and the lobby and chain secret saved at the
        start; the peers fill in the moves we missed."""
        self.now = now
        self._reset_game_state()
        self._enter_game(game_id, passphrase, key)
        self.lobby = self._lobby_signed = lobby
        self.seed = seed
        self.game = game
        self._digest_list = list(digests)
        # (a record keeps a mid-game chain's head beside its first value: not on the wire)
        self._proof_of = {i: tuple((v[0], v[1]) for v in values)
                          for i, values in enumerate(proofs or ()) if values is not None}
        self._late_secrets = list(late_secrets)
        self._gave_upto = game.draws()  # (it may have given the next one before it stopped)
        for values in proofs or ():  # chains our record dealt with: taken before, by us
            for v in values or ():
                if len(v) == 3:
                    self._heads_heard[v[2]] = -1
        self._setup_draws(contributors, heads,
                          Chain(chain_secret) if chain_secret is not None else None)
        self._resumed_at = now
        self._hold_until_heard(now)
        self._deal()  # the crash may have come between a move and its reveals
        self._emit(E.GameStarted(seed.hex(), self._seat_json(), True, len(game.moves)))
        for m in lobby.members:
            if m.peer != self.peer_id and m.host != "0.0.0.0":
                self.links.send(m.peer, (m.host, m.port), self._heartbeat())
        self._after_state_change()

    @property
    def chain_secret(self) -> bytes | None:
        """Our fair-draw chain's secret: the glue keeps it (mode 0600) so a restarted node
        goes on revealing."""
        return self._seed_chain.secret if self._seed_chain is not None else None

    @property
    def late_chain_secrets(self) -> list[bytes]:
        """The secrets of the chains this node committed to mid-game (`LateChains`), kept
        beside the first one's."""
        return list(self._late_secrets)

    def seated(self) -> bool:
        return self.lobby is not None and L.is_member(self.lobby, self.peer_id)

    def _reset_game_state(self) -> None:
        self.lobby: Lobby | None = None
        self.game: Game | None = None
        self.contributors: list[bytes] = []  # fair draws: the nodes whose chains decide
        self.draw_book = None
        self._chain: Chain | None = None  # the chain we draw with now
        self._seed_chain: Chain | None = None  # the one of the seed round
        self._n_seed = 0  # contributors of the seed round; the lobby's `chains` follow
        self._seed_heads: tuple[bytes, ...] = ()
        self._reset_late_chains()
        self._draw_pool: dict[int, dict[int, bytes]] = {}  # draw -> contributor -> value
        self._proof_of: dict[int, tuple] = {}  # move index of a reveal -> its values
        self._draw_wait: tuple[int, float] | None = None  # the draw we wait for, since when
        self._draw_resent = -1e9
        self._draw_noted: int | None = None
        # the node that gathers the next draw's values (whoever sent the move that called
        # for it), and the last draw whose values we sent to everyone
        self._gatherer: bytes | None = None
        self._fanned: int | None = None
        self._passed_on: int | None = None  # the last draw we gathered and passed on
        self._deal_due: float | None = None  # when to deal it ourselves (`_deal_timer`)
        self._drop_asked: tuple[int, int] | None = None
        self._deferred_lobby: tuple | None = None
        self._early_draws: list[tuple[bytes, Draw]] = []
        self._resumed_at: float | None = None
        self._back_at: dict[bytes, float] = {}  # when each member was last heard again
        self._fork_suspect: tuple | None = None  # a differing state seen within the grace
        # when we last dealt a tile with the value of a contributor away lately (the
        # table may have drawn it without that value meanwhile), and when the lobby last
        # left someone out of the draws: a differing state is held a while after either
        self._late_deal_at = -1e9
        self._dropped_at = -1e9
        self._withholders: set[bytes] = set()  # left out of the draws while present
        # the first move this node may have played or dealt alone, cut off from everyone
        # (moves since then never counted for the table if it went on without us)
        self._alone_from: int | None = None
        self._alone_seen_at = -1e9  # the last tick that found us alone (or unheard)
        # the last lobbies installed during the game, each with how many moves the game
        # had when it came: a watcher is fed each at its place (`Spectators._feed`)
        self._lobbies: list[tuple[int, Lobby]] = []
        # when this node last found itself unheard: it hears the others, but none of them
        # acknowledges what it sends (a firewall, a one-way Wi-Fi fault). Its moves since
        # never reached the table: like a node cut off, it yields to the table's game
        self._unheard_at = -1e9
        self._unheard_since: float | None = None  # since when, while it lasts
        # when this node last began to hear the table again after hearing nobody: how long
        # the others were away, measured while it was deaf, says nothing about them (the
        # first of them it heard again is seconds ahead of the last)
        self._heard_again_at = -1e9
        self._deaf = False
        self._yield_to: bytes | None = None  # the member whose log we asked to catch up
        self._yield_checked = -1
        self.seed: bytes | None = None
        self._farewells: dict[bytes, Farewell] = {}  # leaver -> its goodbye (`Farewells`)
        # goodbyes back soon of players who came back since (`_farewell_restart`)
        # (-> the leaver's run we took it from: only a newer run may say the same again)
        self._spent_farewells: dict[Farewell, int] = {}
        self._farewell_run: dict[bytes, int] = {}
        self._farewell_at: dict[bytes, float] = {}  # leaver -> when we took its goodbye
        self._returned: set[bytes] = set()  # leavers for good that started again since
        self._waking: Hold | None = None  # holding after a sleep or restart (`Waking`)
        self._last_call: float | None = None  # the `now` of the last call (`Waking`)
        # (when, slept, the table's moves) the table answered our wake
        self._woke_at: tuple | None = None
        # guests (`Spectators`): the member we watch through (None: we are no watcher),
        # when we last asked it; the watchers we feed, every member's list of its own,
        # what the UI was last told, and seat requests waiting for their turn
        self.feeder: bytes | None = None
        self._table_away: set[bytes] = set()  # a watcher: who its feeder says is away
        self._told_watching = False
        self._watch_sent = -1e9
        self._asking = None  # a watcher asking for a feed again (`_ask_to_watch`)
        self._take_asked: tuple[int, float] | None = None  # a watcher's seat request, when
        self._watchers: dict = {}
        self._watcher_lists: dict[bytes, tuple] = {}
        self._watchers_shown: list = []
        self._take_requests: dict[bytes, tuple] = {}
        self._former: dict[bytes, str] = {}  # players whose seat a newcomer took -> its name
        self._former_told: dict[bytes, float] = {}
        self.stopped: str | None = None  # reason the game stopped on this node
        self._round: SeedRound | None = None
        self._early: list[tuple[bytes, Message]] = []
        self._joining: set[bytes] = set()
        self._join_sent: set[bytes] = set()
        self._join_colour = ""
        self.join_refusal: str | None = None
        self._answered_join: set[bytes] = set()
        self._turned_away: set[bytes] = set()  # refused a seat at a full table (told once)
        self._unconfirmed: dict[bytes, float] = {}  # seated by us at, until it acknowledges
        # (move index, since when) of the decision pending as this node saw it come up
        self._pending_since: tuple[int, float] = (-1, 0.0)
        # members whose seat a bot plays because they did not play (given back on request
        # only), and how often that happened to each (`_idle`)
        self._idle_handed: set[bytes] = set()
        self._idle_strikes: dict[bytes, int] = {}
        self._asked_back = False  # `reclaim` asked for our seat; the bot still plays it
        self._told_not_playing = False  # NotPlaying said for the decision pending
        self.presence = Presence()
        self._progress: dict[bytes, int] = {}
        # member -> (when, our move count then) since its heartbeats say it is behind
        self._behind: dict[bytes, tuple[float, int]] = {}
        self._buffer: dict[int, list[tuple[bytes, MoveMsg]]] = {}
        self._digest_list: list[bytes] = []
        self._fetch_at = -1e9
        self._served: dict[tuple[bytes, int], float] = {}
        # members whose new run we saw start but not yet prove it is alive (`_heard_from`)
        self._new_runs: set[bytes] = set()
        self._thinking: int | None = None
        self._your_turn: int | None = None
        self._waiting_noted: int | None = None
        self._last_hb = -1e9
        self._last_tick = -1e9
        self._lobby_sent: dict[bytes, float] = {}
        self._start_seen = 0.0
        self._handover_asked: dict[int, float] = {}
        # member -> when its moves or draw values last reached us through others
        # (`Handover.heard_through`: a one-way fault is not an absence)
        self._seen_through: dict[bytes, float] = {}
        # who signed each move of our game (`Stamp`), and whose seat decided it: kept in
        # memory only (a restart forgets them), passed on with the move in LOG and `prev`
        self._stamps: dict = {}
        self._unchecked: set[int] = set()  # moves whose stamp is not checked yet
        self._movers: dict[int, int] = {}
        self._initial_digest: bytes | None = None
        self._probed: dict[bytes, float] = {}  # when we last asked a member for its log
        self._probe_low: dict[bytes, int] = {}  # where to ask from (its games part earlier)
        self._distrusted: dict[bytes, float] = {}  # when a member's log was last refused
        self._lobby_signed: Lobby | None = None  # our lobby as its author signed it
        self._lobby_settled = -1e9  # when we last made a new version to settle two lobbies
        self._reset_expulsions()
        # when this node applied / sent each move index (the core's clock): for `bench`
        self.move_times: dict[int, float] = {}
        self.sent_at: dict[int, float] = {}

    # ================================================================== UI requests

    def set_seat(self, name: str, colour: str, now: float) -> None:
        self.now = now
        self.name = name
        self._request(SetSeat(name, colour))

    def set_draw_wait(self, seconds: int, now: float) -> None:
        """Ask for another wait for a missing draw value at this table (lobby phase)."""
        self.now = now
        self._request(SetWait(int(seconds)))

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
        """A line to the table (a watcher's goes through its feeder, if the table lets
        watchers chat)."""
        self.now = now
        self._broadcast(Chat(text))
        self._emit(E.ChatLine(self.peer_id.hex(), self.name, text, self.watching))
        if not self.watching:
            self._member_chat_to_watchers(self.peer_id, text)

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
            # (anyone can advertise: its traffic goes there once it answers from there)
            self.links.try_address(peer, addr)
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

    def staying(self) -> list[bytes]:
        """The members that have not said goodbye (LEAVE, FAREWELL), us included: those
        whose silence may mean a cut rather than a choice."""
        if self.lobby is None:
            return [self.peer_id]
        return [m.peer for m in self.lobby.members
                if m.peer == self.peer_id or not self.presence.has_left(m.peer)]

    def hears_nobody(self) -> bool:
        """Every other member still at a table of three or more is away: more likely this
        laptop is cut off (its Wi-Fi, a firewall) than all the others gone at once."""
        if self.watching:  # (it hears its feeder alone, by design; who is away it is told)
            return False
        others = [p for p in self.staying() if p != self.peer_id]
        return len(others) >= 2 and all(self.presence.is_absent(p) for p in others)

    def unheard(self, staying: list[bytes] | None = None) -> bool:
        """Whether nobody hears us, though we hear them: every other staying member is
        present, yet has acknowledged nothing we sent for `away_after` seconds — counted
        from when each was last heard again: what we sent a laptop while its lid was closed
        waits unacknowledged, and at a table of two its return read for a moment as nobody
        hearing us (a red line on the laptop that never left)."""
        if staying is None:
            staying = [p for p in self.staying() if p != self.peer_id]
        after = self.presence.away_after
        return bool(staying) and all(
            not self.presence.is_absent(p)
            and min(self.links.unacked_for(p, self.now),
                    self.now - self._back_at.get(p, -1e9)) > after
            for p in staying)

    def away_heard(self, peer: bytes) -> float | None:
        """Seconds `peer` has been away as far as this node can tell (None: here): not
        counting the time this node heard nobody. A laptop deaf for 14 s that heard three
        of four again a moment before the fourth took that one's seat at once, though
        only it had been away, and the table had gone on without it (docs/network.md)."""
        away = self.presence.away_for(peer, self.now)
        return None if away is None else min(away, self.now - self._heard_again_at)

    def present(self) -> set[bytes]:
        if self.lobby is None:
            return {self.peer_id}
        return {m.peer for m in self.lobby.members
                if m.peer == self.peer_id or not self.presence.is_absent(m.peer)}

    def coordinator(self) -> bytes:
        """The first present member in join order, leaving out any we hold a proof against
        (a broken laptop coordinates nothing: `Expulsions`)."""
        present = self.present()
        if self._proofs:
            present = present - set(self._proofs)
        return L.coordinator(self.lobby, present)

    def _wire_lobby(self) -> Lobby:
        """Our lobby as it goes to a peer: as its author signed it."""
        return self._lobby_signed if self._lobby_signed is not None else self.lobby

    def _driver(self, seat: int) -> bytes:
        """Who plays the seat now: its owner, except for bots and handed-over seats whose
        driver is away (or, for a handed seat, always) — then the coordinator."""
        s = self.lobby.seats[seat]
        if handed(s):
            present = self.present() - {s.owner} - self.dropped_peers()
            return L.coordinator(self.lobby, present) if present else self.peer_id
        if s.kind == "bot":
            return L.bot_driver(self.lobby, seat, self.present() - self.dropped_peers())
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
                       "plays": s.plays,
                       "ready": s.ready, "owner": s.owner.hex(), "mine": s.owner == self.peer_id,
                       "away": s.owner not in present, "handed": handed(s),
                       "left": s.kind == "human" and self.left_for_good(s.owner)}
                      for s in lb.seats],
            "draw_wait": lb.draw_wait,
            "guests": lb.guests,
            "open_seats": L.open_seats(lb, [p for p in self._farewells if self.left_for_good(p)])
            if lb.phase == "playing" else [],
            "expelled": [{"peer": p.hex(), "name": self.peer_name(p), "from_move": first}
                         for p, first in lb.expelled],
            "watchers": self.watchers(),
            "watching": self.watching,
            "coordinator": self.coordinator().hex(),
            **({"variant": lb.variant} if lb.variant != STANDARD else {}),
        }

    def _seat_json(self) -> list[dict]:
        return [{"name": s.name, "colour": s.colour, "kind": seat_kind(s)}
                for s in self.lobby.seats]

    def caught_up(self) -> bool:
        """Every present peer reports at least as many moves as we have and nothing we sent
        is unacknowledged: safe to exit after game over."""
        if self.game is None:
            return True
        n = len(self.game.moves)
        others = [m.peer for m in self.lobby.members if m.peer != self.peer_id]
        present = self.present()
        return self._delivered() and all(
            self._progress.get(p, -1) >= n for p in others if p in present) and all(
            w.sent >= n for w in self._watchers.values())  # (our watchers got the end too)

    def _delivered(self) -> bool:
        """Nothing we sent waits for an ack from a node still here: one that quit after the
        game (its laptop closed) will never ack, and must not keep us waiting."""
        gone = {m.peer for m in self.lobby.members if self.presence.is_absent(m.peer)}
        return all(not lk.unacked for p, lk in self.links.links.items() if p not in gone)

    def everyone_caught_up(self) -> bool:
        """`caught_up`, counting members away (asleep, perhaps) but not those who said
        goodbye: what a node that lingers after the game waits for."""
        if self.game is None:
            return True
        n = len(self.game.moves)
        return self._delivered() and all(
            self._progress.get(m.peer, -1) >= n for m in self.lobby.members
            if m.peer != self.peer_id and not self.presence.has_left(m.peer))

    # ================================================================== inbound

    def _keep_link(self, peer: bytes) -> bool:
        return (peer in self._joining or self._guest(peer)
                or (self.lobby is not None and L.is_member(self.lobby, peer)))

    def _admit(self, peer: bytes, msg: Message) -> str | None:
        if self.lobby is not None and L.is_member(self.lobby, peer):
            return None
        if peer in self._joining or peer in self._former:  # (a former player is told why)
            return None
        if peer in self.expelled_peers():  # (an expelled one too: `_on_expelled_message`)
            return None
        if isinstance(msg, Join | Watch | TakeSeat):
            if self.lobby is None:
                return f"{type(msg).__name__.lower()} while this node is not in a game"
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
        w = self._watchers.get(peer)
        if w is not None:  # a watcher that started again: feed it from the start
            w.start_over()
        # what we served its earlier run went to an incarnation that no longer listens
        self._served = {k: t for k, t in self._served.items() if k[0] != peer}
        if self.lobby is not None and L.is_member(self.lobby, peer):
            self._lobby_sent.pop(peer, None)
            # told, and acted on, once the new run proves it is alive (`_heard_from`): a
            # datagram of a run this node never heard from may be a capture replayed
            # long after that run went away
            self._new_runs.add(peer)

    def _alive_at(self, peer: bytes) -> float | None:
        """When the datagram being delivered shows `peer` alive, None if it shows
        nothing (protocol/transport.md, "Liveness"). A member here stays here while its
        datagrams keep coming, newer than the ones before and naming our run (one we no
        longer reach still plays); one away is back only on a proof: an echo of a packet
        we sent it within the away time. A replay is bytes from before, so it proves no
        more than that: no replay, to any node, from any address, brings anyone back."""
        sign = self.links.sign
        if sign is None:
            return None
        if sign.newer and not self.presence.is_absent(peer):
            return self.now
        if sign.proven_at is not None and (self.now - sign.proven_at
                                           <= self.presence.away_after):
            return sign.proven_at
        return None

    def _heard_from(self, peer: bytes, msg: Message) -> None:
        """A message of a member: if its datagram shows the member alive, the member is
        here (back, if it was away; its new run told, if it restarted)."""
        alive = self._alive_at(peer)
        if alive is None:
            return
        new_run = peer in self._new_runs
        if new_run:
            self._new_runs.discard(peer)
            if self.presence.heard(peer, alive):
                # back from away: what it played alone may still be taken back (the
                # table's lobby is on its way), so a differing state gets the grace
                self._back_at[peer] = self.now
            self._emit(E.Restarted(peer.hex(), self.peer_name(peer)))
            self._farewell_restart(peer)
            self._member_back(peer)
        gone_for = self.presence.away_for(peer, self.now)  # (for the log: `heard` ends it)
        if self._late_after_goodbye(peer):
            pass  # it stays gone: not shown back, nor present, nor coordinator
        elif self._stuck(peer):
            pass  # it sends, but does not follow the game: away still (`_stuck`)
        elif self.presence.heard(peer, alive):
            self._back_at[peer] = self.now
            log.info("%s is back, after %.1f s away", self.peer_name(peer),
                     gone_for or 0.0)  # (with its "away" below: `_log_away`)
            self._back_after_goodbye(peer)
            self._emit(E.Back(peer.hex(), self.peer_name(peer)))
            self._member_back(peer)
        self._heard_while_waking(peer, msg)

    def _note_behind(self, peer: bytes, n_moves: int) -> None:
        """Keep, for a member whose heartbeat says it has fewer moves than we do, when that
        was first seen and how many we had then; forget it once it has that many (or we
        have fewer, taken back after a partition)."""
        g = self.game
        mark = self._behind.get(peer)
        if mark is not None and (n_moves >= mark[1] or g is None or len(g.moves) < mark[1]):
            del self._behind[peer]
            mark = None
        if (mark is None and g is not None and not g.is_over and not self.stopped
                and n_moves < len(g.moves)):
            self._behind[peer] = (self.now, len(g.moves))

    def _stuck(self, peer: bytes) -> bool:
        """A member whose heartbeats keep coming but whose game has not reached, within
        STUCK_AFTER_S, the moves we had when we saw it behind: it does not hear the table
        (a firewall that lets it send but blocks what comes in, a Wi-Fi deaf one way), so
        the table cannot play with it. It is away like a silent one: its seat can go to a
        bot instead of the table waiting for it for ever; back once it has caught up. A
        laptop deaf to one player only is not stuck: it gets that player's moves from the
        others. A member that does not play (`_idle`) is away likewise, until it asks
        for its seat back (`reclaim`)."""
        mark = self._behind.get(peer)
        return ((mark is not None and self.now - mark[0] > STUCK_AFTER_S)
                or peer in self._idle_handed or self._idle(peer))

    def not_playing(self, peer: bytes) -> bool:
        """Whether `peer` counts as away because it does not play (`_idle`), or a bot
        plays its seat for that reason until it asks for it back: its laptop is here.
        The screens say "Waiting for Ben to play", not "to come back"."""
        return self._idle(peer) or peer in self._idle_handed

    def _idle(self, peer: bytes, lobby: Lobby | None = None) -> bool:
        """Whether the decision pending is a seat of `peer` that its player has not made
        for IDLE_AFTER_S (IDLE_AGAIN_S once a bot played that seat for this reason), as
        this node saw the decision come up. Its laptop may be here and follow the game:
        nobody plays. Nothing is idle while a tile is being dealt, or while this node is
        cut off or waking (the moves may be on their way to it)."""
        g, lb = self.game, lobby or self.lobby
        if g is None or g.is_over or lb is None or self.watching or self.stopped:
            return False
        n = len(g.moves)
        if self._pending_since[0] != n:
            self._pending_since = (n, self.now)
        d = g.pending
        if d is None or d.seat is None or not 0 <= d.seat < len(lb.seats):
            return False
        s = lb.seats[d.seat]
        if s.kind != "human" or handed(s) or s.owner != peer:
            return False
        if self._waking is not None or self._deaf or self._unheard_since is not None:
            return False
        limit = IDLE_AGAIN_S if self._idle_strikes.get(peer) else IDLE_AFTER_S
        return self.now - self._pending_since[1] > limit

    def _on_message(self, peer: bytes, addr: tuple, msg: Message, early: bool = False) -> None:
        if self.closing:
            return
        if (self.lobby is not None and not self.watching and not L.is_member(self.lobby, peer)
                and (self._guest(peer) or isinstance(msg, Watch | TakeSeat))):
            try:  # a watcher or a newcomer asking for a seat: only what guests may say
                self._on_guest_message(peer, addr, msg)
            except Exception as exc:
                log.exception("internal error on %s from guest %s", type(msg).__name__,
                              peer.hex())
                self._refuse_msg(peer, type(msg).__name__, f"internal error: {exc}")
            return
        if self.lobby is not None and L.is_member(self.lobby, peer):
            if isinstance(msg, Heartbeat):
                self._note_behind(peer, msg.n_moves)
            self._heard_from(peer, msg)
            self._note_address(peer, addr)  # (where its traffic goes: moved only on proof)
        if (self.watching and peer == self.feeder and not isinstance(msg, Refuse)
                and self.links.sign is not None
                and (self.links.sign.newer or self.links.sign.proven_at is not None)):
            self._feeder_answered()  # (its first word after a WATCH again: a LOG, a beat)
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
            if self.watching:  # refused as a watcher, or a seat we asked for
                self._take_asked = None  # (not asked again after a cut: refused again)
                self.join_refusal = msg.reason
                self._emit(E.GuestRefused(msg.reason))
            elif (self.game is not None and not self.stopped and L.is_seat_given(msg.reason)
                  and self.lobby is not None and L.is_member(self.lobby, peer)):
                # we left for good and came back: a newcomer plays our seat now
                self.stopped = msg.reason
                self._emit(E.GuestRefused(msg.reason))
            elif peer in self._joining and not self.seated():
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
        elif isinstance(msg, Draw):
            self._on_draw(peer, msg)
        elif isinstance(msg, Farewell):
            self._on_farewell(peer, msg)
        elif isinstance(msg, NewChain):
            self._on_new_chain(peer, msg)
        elif isinstance(msg, Chat):
            if self.lobby is not None and L.is_member(self.lobby, peer) and not self.watching:
                self._emit(E.ChatLine(peer.hex(), self.peer_name(peer), msg.text))
                self._member_chat_to_watchers(peer, msg.text)
        elif isinstance(msg, WatchState):
            self._on_watch_state(peer, msg)
        elif isinstance(msg, Watchers):
            self._on_watchers(peer, msg)
        elif isinstance(msg, AwayList):
            self._on_away_list(peer, msg)
        elif isinstance(msg, ChatFrom):
            self._on_chat_from(peer, msg)
        elif isinstance(msg, SetGuests):
            self._on_set_guests(peer, addr, msg)
        elif isinstance(msg, Proof):
            self._on_proof(peer, msg)

    # ------------------------------------------------------------------ lobby

    # ------------------------------------------------------------------ handover

    # ------------------------------------------------------------------ seed

    # ------------------------------------------------------------------ game

    # ------------------------------------------------------------------ heartbeats

    def _heartbeat(self) -> Heartbeat:
        lb = self.lobby
        g = self.game
        phase = lb.phase if lb else "lobby"
        if g is not None:
            phase = "over" if g.is_over else "playing"
        return Heartbeat(phase, lb.version if lb else 0, len(g.moves) if g else 0,
                         g.digest() if g is not None and g.moves else b"",
                         short_lobby_hash(self._lobby_signed) if lb else b"")

    def _on_heartbeat(self, peer: bytes, hb: Heartbeat) -> None:
        if self.watching and peer == self.feeder:  # (even before its lobby: "N moves in")
            self._progress[peer] = hb.n_moves
            self._maybe_watching()
        if self.lobby is None or not L.is_member(self.lobby, peer):
            return
        self._progress[peer] = hb.n_moves
        g = self.game
        if g is not None and not self.stopped:
            n = len(g.moves)
            k = hb.n_moves - 1
            if (0 <= k < len(self._digest_list) and k < n and hb.digest
                    and hb.digest != self._digest_list[k]):
                self._game_forked(peer, k, f"their state after move {k} is "
                                  f"{hb.digest.hex()[:16]}, ours "
                                  f"{self._digest_list[k].hex()[:16]}", claim=True)
            elif hb.n_moves > n:
                self._fetch(peer, n)
        if self.watching:
            return
        if hb.lobby_version < self.lobby.version:
            if self.now - self._lobby_sent.get(peer, -1e9) > 1.0:
                self._lobby_sent[peer] = self.now
                self.links.send(peer, None, self._wire_lobby())
        elif (hb.lobby_version == self.lobby.version and hb.lobby_hash
              and hb.lobby_hash != short_lobby_hash(self._lobby_signed)):
            self._lobbies_differ(peer)

    def _lobbies_differ(self, peer: bytes) -> None:
        """A member holds another lobby of our version: two coordinators for a moment (a
        member away and back), or a broken laptop that told members different things.
        Each sends the other its own (a node that then holds two lobbies of one version
        from one run of their author holds a proof against it); the coordinator makes a
        new version out of its own, which every member takes."""
        if self.now - self._lobby_sent.get(peer, -1e9) > 1.0:
            self._lobby_sent[peer] = self.now
            self.links.send(peer, None, self._wire_lobby())
        if (self.coordinator() == self.peer_id and self.game is not None
                and self.now - self._lobby_settled > 2.0):
            self._lobby_settled = self.now
            self._install_lobby(dataclasses.replace(self.lobby, version=self.lobby.version + 1),
                                broadcast=True)

    def _recipients(self) -> list[bytes]:
        """The members a message to the table goes to: all but us and those who left (a
        watcher's go to its feeder only)."""
        if self.watching:
            return [self.feeder]
        if self.lobby is None:
            return []
        return [m.peer for m in self.lobby.members
                if m.peer != self.peer_id and not self.presence.has_left(m.peer)]

    def _log_away(self, peer: bytes) -> None:
        """Each "away" in the log file, with the silence behind it (and each "back", with
        how long it lasted): the screen says them once in the story, but after an evening
        on a crowded Wi-Fi nobody could tell from the log how often a player flipped away
        and back, nor whether it was a few lost heartbeats or a laptop gone (a playtest
        counted them from a headless bot's output: the consoles' logs had none)."""
        name, last = self.peer_name(peer), self.presence.last_heard(peer)
        if self._idle(peer):
            log.info("%s is away: the decision waiting for them has not come for %.0f s",
                     name, self.now - self._pending_since[1])
        elif last is not None and self.now - last > self.presence.away_after:
            log.info("%s is away: nothing heard from it for %.1f s", name, self.now - last)
        else:
            log.info("%s is away: it sends, but does not follow the game", name)

    def _broadcast(self, msg: Message) -> None:
        for peer in self._recipients():
            self.links.send(peer, self._addr_of(peer), msg)

    def _tick(self) -> None:
        lb = self.lobby
        now = self.now
        if self.watching:
            self._watcher_tick()
            return
        if self.game is not None and not L.is_member(lb, self.peer_id):
            return  # expelled (or our seat given to a newcomer): we are no member any more
        self._feeder_tick()
        if self._unconfirmed:
            self._free_unconfirmed_seats()
        if now - self._last_hb >= HEARTBEAT_S:
            self._last_hb = now
            self._broadcast(self._heartbeat())
        others = [m.peer for m in lb.members if m.peer != self.peer_id]
        changed = False
        for peer, away in self.presence.update(others, now,
                                               [p for p in others if self._stuck(p)]):
            changed = True
            if away:
                self._withholders.discard(peer)  # gone quiet: a differing game is a fork
                self._log_away(peer)
                idle = self._idle(peer) or peer in self._idle_handed
                self._emit(E.Away(peer.hex(), self.peer_name(peer), False, idle,
                                  again=idle and bool(self._idle_strikes.get(peer))))
            else:
                self._emit(E.Back(peer.hex(), self.peer_name(peer)))
        if self._idle(self.peer_id) != self._told_not_playing:
            # (our own decision has waited as long as the others wait: the player, if
            # there, learns it before their seat goes to a bot, not after)
            self._told_not_playing = not self._told_not_playing
            if self._told_not_playing:
                self._emit(E.NotPlaying())
        deaf = self.hears_nobody()
        if self._deaf and not deaf:
            self._heard_again_at = now
        self._deaf = deaf
        staying = [p for p in self.staying() if p != self.peer_id]
        # (not while waking: what we sent before a sleep waits unacknowledged until the
        # table answers, a moment after we hear it again)
        unheard = self.game is not None and self._waking is None and self.unheard(staying)
        if unheard:
            self._unheard_at = now
            if self._unheard_since is None:
                self._unheard_since = now
                self._emit(E.Unheard(True))
        elif self._unheard_since is not None and any(
                self.links.acked_at(p) > self._unheard_since for p in staying):
            # (heard again only on proof: an acknowledgement. A take-back's fresh links,
            # or a member that looks stuck, end the test above but not the fault)
            self._unheard_since = None
            self._emit(E.Unheard(False))
        alone = bool(staying) and (unheard or all(self.presence.is_absent(p) for p in staying))
        if alone:
            self._alone_seen_at = now
        if self.game is not None and self._alone_from is None and alone:
            since = now - self.presence.away_after - 1.0  # (moves of the last seconds too)
            self._alone_from = min((i for i, t in self.move_times.items() if t >= since),
                                   default=len(self.game.moves))
        if changed:
            if self.game is None and self.coordinator() == self.peer_id:
                if L.should_autostart(self.lobby):
                    self._install_lobby(L.start(self.lobby, self.entropy(8)), broadcast=True)
            self._after_state_change()
        if (lb.phase == "starting" and self._round is not None and self.game is None
                and now - self._start_seen > START_TIMEOUT_S):
            missing = [p for p in self._round.order if p not in self._round.reveals]
            self._abort_start("no commitment/reveal from "
                              + ", ".join(self.peer_name(p) for p in missing), tell=True)
        g = self.game
        if g is not None and not self.stopped:
            self._wake_tick()
            if self.stopped:
                return
            if not self._catch_up():
                # (a member that said it was ahead held our decision back: a broken
                # laptop's heartbeat can say so; once nobody is, the decision is ours)
                self._after_state_change()
            if self.handover_after is not None and not g.is_over and self._waking is None:
                self._auto_handover()
            self._apply_farewells()
            if not g.is_over:
                self._give_back_to_the_running()
            self._draw_tick()
            self._chain_tick()
            self._fork_tick()
            self._expulsion_tick()


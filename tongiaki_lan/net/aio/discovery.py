"""Finding games on the LAN with zeroconf (mDNS / DNS-SD), protocol/discovery.md.

Every node in a game advertises its own service instance (so any member can be
contacted, and a game survives the departure of whoever created it); browsing groups the
instances by game id into a live list of games. A node that quits unregisters (goodbye
packets, gone at once); one that crashes disappears when its records' short TTL runs out.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass

from zeroconf import (
    BadTypeInNameException,
    DNSOutgoing,
    DNSQuestion,
    InterfaceChoice,
    IPVersion,
    ServiceStateChange,
    current_time_millis,
    get_all_addresses,
)
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf
from zeroconf.const import _CLASS_IN as CLASS_IN
from zeroconf.const import _FLAGS_QR_QUERY as FLAGS_QR_QUERY
from zeroconf.const import _TYPE_PTR as TYPE_PTR

from tongiaki_lan.net.protocol.codec import ID_LEN, PHASES, PROTOCOL_VERSION

log = logging.getLogger("tongiaki_lan.net.aio.discovery")

SERVICE_TYPE = "_tongiaki._udp.local."
RECORD_TTL = 15  # seconds: how long a crashed node's adverts survive
REFRESH_S = RECORD_TTL / 3  # a live node re-announces this often
EXPIRY_CHECK_S = 1.0
_TYPE_SRV, _CLASS_IN = 33, 1
# A browser asks once at start and again after 1 s, 4 s, 9 s...: on a lossy LAN the one
# question of the first second, or its answer, is lost often (at 40 % loss each way, two
# times in three), and `games --wait 1` then finds nothing. So a node that has just
# started browsing, or has just opened a table that a same-named one may duplicate,
# hurries: it asks again every HURRY_EVERY_S for a few seconds, listing the answers it
# already holds (which are then not sent again) and asking for a unicast answer (QU), so
# responders that multicast the records lately answer only the asker.
HURRY_EVERY_S = 0.2
HURRY_AT_START_S = 3.0
# ... but the hurry of a browser that has just started stops early once QUIET_ASKS asks in a
# row brought no pointer it did not hold: on a crowded LAN every answer comes back to the
# first question or two, and thirty laptops asking five times a second for three seconds
# would be most of the multicast the party makes (docs/network.md, "Crowded networks")
QUIET_ASKS = 5  # a second of nothing new (at 40 % loss a missed answer is rarely lost 5 times)
RESOLVE_TRIES = 3
PHASE_ORDER = {p: i for i, p in enumerate(PHASES)}


@dataclass(frozen=True)
class Advert:
    """One node's service instance, as read from its TXT record."""

    instance: str
    peer: bytes
    game_id: bytes
    game_name: str
    player: str
    phase: str
    taken: int
    total: int
    passphrase: bool
    hosts: tuple[str, ...]
    port: int
    first_seen: float  # wall-clock time this browser first saw the instance
    open_seats: int = 0  # seats a newcomer may take (protocol/watching.md)
    watchable: bool = True  # the table takes watchers
    fresh: bool = False  # the game started a moment ago (net/protocol/tables.py, FRESH_S)


@dataclass(frozen=True)
class GameInfo:
    """A game as the browser sees it: all adverts that carry the same game id."""

    game_id: bytes
    name: str
    phase: str
    taken: int
    total: int
    passphrase: bool
    first_seen: float
    members: tuple[Advert, ...]
    open_seats: int = 0  # seats a newcomer may take while it runs (protocol/watching.md)
    watchable: bool = True
    fresh: bool = False  # started a moment ago: the party that filled it still arrives

    @property
    def joinable(self) -> bool:
        return self.phase == "lobby" and self.taken < self.total

    @property
    def running(self) -> bool:
        """Started: a latecomer may watch it (or take an open seat), never join it."""
        return self.phase in ("starting", "playing")

    def to_json(self) -> dict:
        return {
            "game": self.name, "game_id": self.game_id.hex(), "phase": self.phase,
            "seats_taken": self.taken, "seats_total": self.total,
            "passphrase": self.passphrase, "running": self.running,
            "open_seats": self.open_seats, "watchable": self.watchable, "fresh": self.fresh,
            "first_seen": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.first_seen))
            + f".{int(self.first_seen * 1000) % 1000:03d}",
            "first_seen_unix": round(self.first_seen, 3),
            "peers": [{"name": a.player, "host": a.hosts[0] if a.hosts else None,
                       "port": a.port} for a in self.members],
        }


@dataclass(frozen=True)
class OtherAdvert:
    """An instance of our service type that is not a game this version can join: a
    `doctor` (TXT `v=doctor`), or a node of another protocol version. `doctor` lists them."""

    instance: str
    version: str
    peer: bytes | None
    player: str
    hosts: tuple[str, ...]
    port: int


DOCTOR_VERSION = "doctor"


def parse_txt(props: dict) -> dict | None:
    """Decode our TXT keys; None for anything that is not a compatible tongiaki advert."""
    def get(k: str) -> str:
        v = props.get(k.encode())
        return v.decode("utf-8", "replace") if isinstance(v, bytes) else ""

    try:
        if get("v") != str(PROTOCOL_VERSION):
            return None
        game_id = bytes.fromhex(get("id"))
        peer = bytes.fromhex(get("peer"))
        taken_s, _, total_s = get("seats").partition("/")
        taken, total = int(taken_s), int(total_s)
        phase = get("phase")
        if len(game_id) != ID_LEN or len(peer) != ID_LEN or phase not in PHASES:
            return None
        if not (0 <= taken <= total <= 6):
            return None
        open_s = get("open") or "0"
        open_seats = int(open_s) if open_s.isdigit() and int(open_s) <= 6 else 0
        return {"game_id": game_id, "peer": peer, "game_name": get("game")[:24],
                "player": get("name")[:24], "phase": phase, "taken": taken, "total": total,
                "passphrase": get("pass") == "1", "open_seats": open_seats,
                "watchable": get("watch") != "0", "fresh": get("fresh") == "1"}
    except ValueError:
        return None


def instance_name(peer: bytes) -> str:
    """A node's service instance: one per node (its peer id), the same at every table."""
    return f"tongiaki {peer.hex()}.{SERVICE_TYPE}"


def host_name(peer: bytes) -> str:
    """The host name an advert's SRV record names: one per node, from its peer id."""
    return f"tongiaki-{peer.hex()}.local."


def advert_records(peer: bytes, game_name: str, game_id: bytes, phase: str, taken: int,
                   total: int, passphrase: bool, player: str, open_seats: int = 0,
                   watchable: bool = True, fresh: bool = False,
                   **_) -> tuple[str, dict[str, str]]:
    """A node's advert (protocol/discovery.md): its service instance name and its TXT
    properties, in the order they are written. Pure, so vectors/discovery.json can hold
    exactly what a node publishes.

    One instance per node for its whole run, whatever table it sits at: the table's name
    is in the TXT record. (It was "<game name> <peer>": a node that moved to a twin table
    of the same name withdrew its instance and registered the same name again; the last
    announcement of its first registration, still under way, went out after the goodbye
    and put the name back in its own cache, where zeroconf's probe took it for another
    host's (NonUniqueNameException): the node sat at a table nobody could see. A node
    that moves now only updates its TXT record.)"""
    props = {
        "v": str(PROTOCOL_VERSION), "game": game_name, "id": game_id.hex(),
        "phase": phase, "seats": f"{taken}/{total}",
        "pass": "1" if passphrase else "0", "peer": peer.hex(), "name": player,
        "open": str(open_seats), "watch": "1" if watchable else "0",
    }
    if fresh:
        props["fresh"] = "1"
    return instance_name(peer), props


def doctor_records(peer: bytes, player: str) -> tuple[str, dict[str, str]]:
    """A `doctor`'s advert: instance name and TXT properties (protocol/discovery.md)."""
    return (f"doctor {peer.hex()[:8]}.{SERVICE_TYPE}",
            {"v": DOCTOR_VERSION, "peer": peer.hex(), "name": player})


def local_ipv4() -> list[str]:
    addrs = [a for a in get_all_addresses() if not a.startswith("127.")]
    return addrs or ["127.0.0.1"]


class Discovery:
    """Advertise this node and browse for the others. Create inside a running loop.

    `interfaces`: zeroconf's choice, or a list of this host's IPv4 addresses to use only
    those interfaces (["127.0.0.1"] keeps discovery on this machine); adverts then carry
    those addresses."""

    def __init__(self, interfaces=InterfaceChoice.All) -> None:
        self._interfaces = interfaces
        self._addresses = ([a for a in interfaces if isinstance(a, str)]
                           if isinstance(interfaces, list | tuple) else None)
        self.azc: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self.adverts: dict[str, Advert] = {}
        self._first_seen: dict[str, float] = {}
        self._info: AsyncServiceInfo | None = None
        self._want: dict | None = None
        self._pub_task: asyncio.Task | None = None
        self._announcing = None  # zeroconf's announcements of our latest record, under way
        self._resolving: set[asyncio.Task] = set()
        self.changed = asyncio.Event()
        self._listeners: list[Callable[[], None]] = []
        self.own_instance: str | None = None
        self._on_published: list[Callable[[str], None]] = []
        self._hurry_until = 0.0
        self._quiet_until = 0.0  # a hurry that may end early, once answers stop coming
        self._hurry_task: asyncio.Task | None = None
        self.queries_sent = 0
        self.others: dict[str, OtherAdvert] = {}  # resolved instances that are not games
        self.heard: set[str] = set()  # every instance name the browser was told of

    def on_published(self, fn: Callable[[str], None]) -> None:
        """Call `fn(instance)` each time this node's advert is first registered (after
        the mDNS probing, when other hosts can see it)."""
        self._on_published.append(fn)

    async def start(self, browse: bool = True) -> None:
        self.azc = AsyncZeroconf(interfaces=self._interfaces, ip_version=IPVersion.V4Only)
        loop = asyncio.get_running_loop()
        self._housekeeping = [loop.create_task(self._refresh_loop())]
        if browse:
            self.browser = AsyncServiceBrowser(self.azc.zeroconf, [SERVICE_TYPE],
                                               handlers=[self._on_change])
            self._housekeeping.append(loop.create_task(self._expiry_loop()))
            self.hurry(HURRY_AT_START_S, until_quiet=True)

    def hurry(self, seconds: float, until_quiet: bool = False) -> None:
        """Ask the LAN for games every HURRY_EVERY_S during the next `seconds` (with
        `until_quiet`, only until QUIET_ASKS asks in a row brought nothing new)."""
        if self.azc is None:
            return
        until = time.monotonic() + seconds
        if until_quiet:
            self._quiet_until = max(self._quiet_until, until)
        else:
            self._hurry_until = max(self._hurry_until, until)
        if self._hurry_task is None or self._hurry_task.done():
            self._hurry_task = asyncio.get_running_loop().create_task(self._hurry_loop())

    async def _hurry_loop(self) -> None:
        quiet, held = 0, -1
        while (now := time.monotonic()) < max(self._hurry_until, self._quiet_until):
            try:
                known = self._ask()
            except Exception:  # a closed socket, an odd interface: the browser still asks
                log.debug("hurried query failed", exc_info=True)
                known = held
            quiet = quiet + 1 if known == held and known > 0 else 0
            held = known
            if quiet >= QUIET_ASKS and now >= self._hurry_until:
                self._quiet_until = 0.0  # everyone has answered: stop asking
            await asyncio.sleep(HURRY_EVERY_S)

    def _ask(self) -> int:
        """Send one hurried question; returns how many pointers it listed as known."""
        zc = self.azc.zeroconf
        now = current_time_millis()
        out = DNSOutgoing(FLAGS_QR_QUERY, multicast=True)
        question = DNSQuestion(SERVICE_TYPE, TYPE_PTR, CLASS_IN)
        question.unicast = True  # QU: answer me, not everyone
        out.add_question(question)
        known = 0
        for record in zc.cache.get_all_by_details(SERVICE_TYPE, TYPE_PTR, CLASS_IN):
            if not record.is_stale(now):
                out.add_answer_at_time(record, now)  # known: do not send it again
                known += 1
        zc.async_send(out)
        self.queries_sent += 1
        return known

    async def _refresh_loop(self) -> None:
        """Re-announce our advert well within its TTL. zeroconf keeps PTR records for at
        least 1125 s whatever we ask, so browsers notice a crashed node by its SRV
        record running out instead; a live node must therefore keep it fresh."""
        while True:
            await asyncio.sleep(REFRESH_S)
            if self._info is not None and (self._pub_task is None or self._pub_task.done()):
                with contextlib.suppress(Exception):
                    self._announcing = await self.azc.async_update_service(self._info)

    async def _expiry_loop(self) -> None:
        """Drop adverts whose SRV record has expired: the node behind it crashed."""
        while True:
            await asyncio.sleep(EXPIRY_CHECK_S)
            now = current_time_millis()
            cache = self.azc.zeroconf.cache
            gone = [name for name in self.adverts
                    if not any(not r.is_expired(now) for r in
                               cache.get_all_by_details(name, _TYPE_SRV, _CLASS_IN))]
            for name in gone:
                self.adverts.pop(name, None)
                log.info("advert %s expired", name)
            if gone:
                self._notify()

    def add_listener(self, fn: Callable[[], None]) -> None:
        self._listeners.append(fn)

    # ------------------------------------------------------------------ browsing

    def _on_change(self, zeroconf, service_type: str, name: str,
                   state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            other = self.others.pop(name, None)
            if self.adverts.pop(name, None) is not None or other is not None:
                self._notify()
            return
        self._first_seen.setdefault(name, time.time())
        self.heard.add(name)
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._resolving.add(task)
        task.add_done_callback(self._resolving.discard)

    async def _resolve(self, name: str) -> None:
        # the answer to a PTR question carries SRV, TXT and address records too, but
        # when they are lost a lone resolve that gives up would leave the game unseen
        # until the node's next refresh: try again while the pointer is still there
        for _ in range(RESOLVE_TRIES):
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            try:
                ok = await info.async_request(self.azc.zeroconf, 3000)
            except (BadTypeInNameException, OSError, asyncio.CancelledError):
                return
            except Exception:  # a malformed record from some other host must not hurt us
                log.debug("resolving %s failed", name, exc_info=True)
                return
            if ok and info.port:
                break
            if not self._pointed(name):
                return
        else:
            return
        fields = parse_txt(info.properties or {})
        hosts = tuple(a for a in info.parsed_addresses(IPVersion.V4Only))
        if fields is None:
            self._other(name, info.properties or {}, hosts, info.port)
            return
        self.adverts[name] = Advert(name, hosts=hosts, port=info.port,
                                    first_seen=self._first_seen.get(name, time.time()), **fields)
        self._notify()

    def _other(self, name: str, props: dict, hosts: tuple[str, ...], port: int) -> None:
        def get(k: str) -> str:
            v = props.get(k.encode())
            return v.decode("utf-8", "replace")[:24] if isinstance(v, bytes) else ""

        try:
            peer = bytes.fromhex(get("peer")[:2 * ID_LEN])
        except ValueError:
            peer = b""
        self.others[name] = OtherAdvert(name, get("v"), peer if len(peer) == ID_LEN else None,
                                        get("name"), hosts, port)
        self._notify()

    def heard_own(self) -> bool:
        """Whether the browser heard this node's own advert come back (multicast
        reaches this program: no firewall drops it)."""
        return self.own_instance is not None and self.own_instance in self.heard

    async def advertise_doctor(self, peer: bytes, port: int, player: str) -> None:
        """Publish a `doctor` instance: other doctors find and probe it, and browsers
        hear it but list no game (its TXT `v` is not a protocol version)."""
        instance, props = doctor_records(peer, player)
        info = AsyncServiceInfo(
            SERVICE_TYPE, instance, port=port, properties=props,
            addresses=[socket.inet_aton(a) for a in self._addresses or local_ipv4()],
            server=host_name(peer), host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
        )
        self.own_instance = instance
        await self.azc.async_register_service(info, allow_name_change=False)
        self._info = info

    def _pointed(self, name: str) -> bool:
        """Whether some live PTR record still names this instance."""
        now = current_time_millis()
        return any(r.alias == name and not r.is_expired(now) for r in
                   self.azc.zeroconf.cache.get_all_by_details(SERVICE_TYPE, TYPE_PTR, CLASS_IN))

    def _notify(self) -> None:
        self.changed.set()
        for fn in self._listeners:
            with contextlib.suppress(Exception):
                fn()

    def games(self, include_own: bool = True) -> list[GameInfo]:
        by_id: dict[bytes, list[Advert]] = {}
        for a in sorted(self.adverts.values(), key=lambda a: (a.first_seen, a.instance)):
            if not include_own and a.instance == self.own_instance:
                continue
            by_id.setdefault(a.game_id, []).append(a)
        out = []
        for gid, ads in by_id.items():
            phase = max((a.phase for a in ads), key=PHASE_ORDER.__getitem__)
            out.append(GameInfo(gid, ads[0].game_name, phase, max(a.taken for a in ads),
                                max(a.total for a in ads), any(a.passphrase for a in ads),
                                min(a.first_seen for a in ads), tuple(ads),
                                max(a.open_seats for a in ads), all(a.watchable for a in ads),
                                any(a.fresh for a in ads)))
        out.sort(key=lambda g: (g.first_seen, g.game_id))
        return out

    async def wait_changed(self, timeout: float) -> bool:
        self.changed.clear()
        try:
            await asyncio.wait_for(self.changed.wait(), timeout)
            return True
        except asyncio.TimeoutError:
            return False

    # ------------------------------------------------------------------ advertising

    def advertise_soon(self, **fields) -> None:
        """Publish (or update) this node's advert; calls are coalesced, latest wins."""
        self._want = fields
        if self._pub_task is None or self._pub_task.done():
            self._pub_task = asyncio.get_running_loop().create_task(self._publish())

    async def _publish(self) -> None:
        while self._want is not None:
            want, self._want = self._want, None
            try:
                await self._publish_one(want)
            except Exception:
                log.exception("zeroconf publish failed")

    async def _publish_one(self, f: dict) -> None:
        instance, props = advert_records(**f)
        info = AsyncServiceInfo(
            SERVICE_TYPE, instance, port=f["port"], properties=props,
            addresses=[socket.inet_aton(a) for a in self._addresses or local_ipv4()],
            server=host_name(f["peer"]), host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
        )
        if self._info is not None and self._info.name != instance:
            await self.withdraw()
        if self._info is None:
            self.own_instance = instance
            # no probing (RFC 6762 §8.1): the name holds this node's peer id, which no
            # other node has, and a probe held the advert back by 1.5 s while tables
            # opened at the same moment were being merged
            self._announcing = await self.azc.async_register_service(
                info, allow_name_change=False, cooperating_responders=True)
            for fn in self._on_published:
                with contextlib.suppress(Exception):
                    fn(instance)
        else:
            self._announcing = await self.azc.async_update_service(info)
        self._info = info

    async def withdraw(self) -> None:
        if self._pub_task is not None and not self._pub_task.done():
            self._want = None
            with contextlib.suppress(Exception):
                await self._pub_task
        if self._info is not None and self.azc is not None:
            info, self._info = self._info, None
            # the announcements under way go out first: one sent after the goodbye put the
            # advert back in every cache (ours too, where zeroconf then refused the name
            # as another host's when the node registered again: NonUniqueNameException)
            if self._announcing is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(asyncio.shield(self._announcing), 2.0)
            with contextlib.suppress(Exception):
                # the first await queues the goodbye packets, the second waits until they
                # are out: closing before that would leave the advert to expire by TTL
                sent = await self.azc.async_unregister_service(info)
                await asyncio.wait_for(sent, 3.0)

    async def close(self) -> None:
        for t in [*getattr(self, "_housekeeping", []), self._hurry_task]:
            if t is not None:
                t.cancel()
        await self.withdraw()
        for t in list(self._resolving):
            t.cancel()
        if self.browser is not None:
            with contextlib.suppress(Exception):
                await self.browser.async_cancel()
        if self.azc is not None:
            with contextlib.suppress(Exception):
                await self.azc.async_close()

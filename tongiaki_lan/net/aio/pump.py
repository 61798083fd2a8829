"""The one piece of asyncio under the protocol: runs a sans-I/O state machine over a UDP
socket (asyncio-dgram).

The machine (`Links` or `NodeCore`) is anything with `receive(data, addr, now)`,
`handle_timer(now)`, `datagrams_to_send()` and `get_timer()`. The pump feeds it what the
socket receives and the monotonic clock, and sends what it returns; `after` runs after
every step so the owner can drain the machine's events before its datagrams leave (a move
is in the record before any peer hears of it).

Per datagram the pump does as little asyncio work as it can, because on a busy machine
every task switch and thread wake-up is latency for the move being spread: the machine's
datagrams are handed to the kernel at once, inside `step` (a UDP send never blocks; what
the socket cannot take at once asyncio buffers), and its timer is one `loop.call_at`
handle, moved when the machine's next deadline moves — no task and no future per step.

ICMP errors never stop the receive loop (docs/network.md, "ICMP errors and the event loop").
A datagram sent to a crashed peer's old port comes back as an ICMP port-unreachable. Linux
reports it on an unconnected socket only with IP_RECVERR; Windows reports it by failing the
socket's next receive with WSAECONNRESET, and on the Proactor loop (Windows' default) that
failure stopped the datagram reader for good (CPython gh-91227, fixed in 3.11/3.12 point
releases; gh-127057, a second path through WSARecvFrom, fixed later still). So: the socket
is made here, with `SIO_UDP_CONNRESET` turned off on Windows, so the error is never raised
at all; an error that still reaches the protocol is logged and ignored; and should the
transport close under a live pump anyway, the pump binds its port again and carries on.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import sys
import time
from collections.abc import Callable

import asyncio_dgram

log = logging.getLogger("tongiaki_lan.net.aio.pump")


def udp_socket(host: str, port: int) -> socket.socket:
    """A bound, non-blocking UDP socket whose receive an ICMP error cannot fail on
    Windows: `SIO_UDP_CONNRESET` off (a Windows-only ioctl; elsewhere the kernel does not
    report ICMP errors on an unconnected UDP socket unless asked with IP_RECVERR)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        no_connreset(sock)
        sock.setblocking(False)
        sock.bind((host, port))
    except BaseException:
        sock.close()
        raise
    return sock


def no_connreset(sock: socket.socket) -> bool:
    """Turn Windows' 'connection reset' reports for UDP off; True when it was done."""
    option = getattr(socket, "SIO_UDP_CONNRESET", None)
    if option is None or not hasattr(sock, "ioctl"):
        return False
    try:
        sock.ioctl(option, False)
    except OSError as exc:  # an odd network stack: the pump still survives the error
        log.warning("could not turn SIO_UDP_CONNRESET off: %s", exc)
        return False
    return True


def choose_event_loop() -> None:
    """On Windows, run asyncio on the selector loop rather than the Proactor default.

    zeroconf makes its own sockets and its public API takes no socket options, so
    `SIO_UDP_CONNRESET` cannot be turned off there; on the Proactor loop one ICMP error
    (a unicast mDNS answer to a `games` that has already quit) could stop its reader on
    the Python versions named in the module docstring. The selector loop hands such an
    error to the protocol's `error_received` and keeps reading, on every version. Nothing
    here needs the Proactor loop (no asyncio subprocesses; the console reads the Windows
    console through prompt_toolkit, which supports both loops). Elsewhere: nothing."""
    if sys.platform != "win32":
        return
    import warnings

    with warnings.catch_warnings():  # the policy API is deprecated from 3.14 on
        warnings.simplefilter("ignore", DeprecationWarning)
        policy = getattr(asyncio, "WindowsSelectorEventLoopPolicy", None)
        if policy is not None and not isinstance(asyncio.get_event_loop_policy(), policy):
            asyncio.set_event_loop_policy(policy())
def _sleep_counting_clock() -> Callable[[], float]:
    """A monotonic clock that goes on counting while the computer sleeps, so that the
    protocol sees a closed lid as the jump it is (`net.protocol.wake`): CLOCK_BOOTTIME on
    Linux and CLOCK_MONOTONIC on macOS (both count suspend; `time.monotonic` there does
    not); on Windows `time.monotonic` (GetTickCount64) already counts it."""
    if sys.platform.startswith("linux") and hasattr(time, "CLOCK_BOOTTIME"):
        return lambda: time.clock_gettime(time.CLOCK_BOOTTIME)
    if sys.platform == "darwin" and hasattr(time, "CLOCK_MONOTONIC"):
        return lambda: time.clock_gettime(time.CLOCK_MONOTONIC)
    return time.monotonic


clock = _sleep_counting_clock()  # the machine's clock: every `now` it is given


class _Socket:
    """An asyncio-dgram server stream plus `send_nowait`: the same `sendto` its `send`
    makes, without a coroutine around it (its `send` only adds a wait for the write
    buffer to drain, which a few hundred bytes a move never fill)."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._transport = getattr(stream, "_transport", None)

    @property
    def sockname(self):
        return self._stream.sockname

    async def recv(self):
        return await self._stream.recv()

    async def send(self, data: bytes, addr) -> None:
        await self._stream.send(data, addr)

    def send_nowait(self, data: bytes, addr) -> bool:
        """Hand `data` to the kernel now; False when only `send` can (no transport)."""
        if self._transport is None:
            return False
        self._transport.sendto(data, addr)
        return True

    def close(self) -> None:
        self._stream.close()

    def watch(self, on_lost: Callable[[Exception | None], None],
              on_error: Callable[[Exception], None]) -> None:
        """Be told when the transport closes and of each error the socket reports."""
        self._on_lost, self._on_error = on_lost, on_error

    def on_datagram(self, handler: Callable[[bytes, tuple], None]) -> bool:
        """Have `handler` called for each datagram as the event loop reads it, instead of
        queueing it for `recv`: the queue costs every datagram a second pass through the
        loop (a task wake-up) before anyone looks at it. False when this stream cannot."""
        transport = self._transport
        if transport is None or not hasattr(transport, "set_protocol"):
            return False
        transport.set_protocol(_Direct(handler, transport.get_protocol(),
                                       getattr(self, "_on_lost", None),
                                       getattr(self, "_on_error", None)))
        return True

    @property
    def transport(self):
        return self._transport


class _Direct(asyncio.DatagramProtocol):
    """Hands datagrams straight to the pump; everything else still goes to the
    asyncio-dgram protocol it replaced, so the stream still learns of errors and close."""

    def __init__(self, handler: Callable[[bytes, tuple], None], inner,
                 on_lost: Callable[[Exception | None], None] | None = None,
                 on_error: Callable[[Exception], None] | None = None) -> None:
        self._handler = handler
        self._inner = inner
        self._on_lost = on_lost
        self._on_error = on_error

    def datagram_received(self, data: bytes, addr) -> None:
        self._handler(data, addr)

    def error_received(self, exc: Exception) -> None:
        # ICMP errors (a crashed peer's port): not fatal, retransmission copes
        log.debug("socket error: %s", exc)
        if self._on_error is not None:
            self._on_error(exc)

    def connection_lost(self, exc) -> None:
        self._inner.connection_lost(exc)
        if self._on_lost is not None:
            self._on_lost(exc)

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()


class DatagramPump:
    def __init__(self, machine, *, wrap_socket: Callable | None = None,
                 after: Callable[[], None] | None = None) -> None:
        self.machine = machine
        self._wrap = wrap_socket
        self._after = after or (lambda: None)
        self._sock = None
        self._sockname: tuple[str, int] | None = None
        self._host = "0.0.0.0"
        self._tasks: list[asyncio.Task] = []
        self._out: asyncio.Queue | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._timer_due: float | None = None
        self.closed = False
        self.socket_errors = 0  # errors the socket reported (ICMP) and the pump survived
        self.reopened = 0  # times the socket closed under the pump and was bound again

    async def open(self, host: str = "0.0.0.0", port: int = 0) -> tuple[str, int]:
        """Bind (the given port when it is free, else any: a restarted node keeps its
        address when it can, and peers learn a new one from its datagrams otherwise)."""
        try:
            sock = udp_socket(host, port)
        except OSError:
            if not port:
                raise
            log.info("port %d is taken: binding another one", port)
            sock = udp_socket(host, 0)
        self._host = host
        await self._attach(sock)
        self._out = asyncio.Queue()
        loop = self._loop
        self._tasks.insert(0, loop.create_task(self._send_loop(), name="tk-send"))
        self._arm()
        return self.address

    async def _attach(self, sock: socket.socket) -> None:
        stream = _Socket(await asyncio_dgram.from_socket(sock))
        stream.watch(self._lost, self._error)
        self._sock = self._wrap(stream) if self._wrap else stream
        self._loop = loop = asyncio.get_running_loop()
        direct = getattr(self._sock, "on_datagram", None)
        if direct is None or not direct(self._datagram):
            self._tasks.append(loop.create_task(self._recv_loop(), name="tk-recv"))

    def _error(self, exc: Exception) -> None:
        self.socket_errors += 1

    def _lost(self, exc: Exception | None) -> None:
        """The transport closed while the pump is open (a fatal read error on some loop
        and Python version): bind the same port again, so peers keep reaching us."""
        if self.closed or self._loop is None:
            return
        log.warning("the game socket closed under us (%s): opening it again", exc)
        self._tasks.append(self._loop.create_task(self._reopen(), name="tk-reopen"))

    async def _reopen(self) -> None:
        port = self.address[1]
        for delay in (0.0, 0.05, 0.2, 1.0):
            await asyncio.sleep(delay)
            if self.closed:
                return
            try:
                sock = udp_socket(self._host, port)
            except OSError as exc:
                log.warning("binding port %d again failed: %s", port, exc)
                continue
            await self._attach(sock)
            self.reopened += 1
            return
        log.error("could not bind port %d again: this node no longer hears its peers", port)

    @property
    def address(self) -> tuple[str, int]:
        if self._sockname is None:
            self._sockname = tuple(self._sock.sockname[:2])
        return self._sockname

    @property
    def socket(self):
        return self._sock

    async def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        for t in self._tasks:
            t.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=1.0)
        if self._sock is not None:
            self._sock.close()

    def step(self) -> None:
        """Call after poking the machine from outside (a UI request): drains its events,
        sends its datagrams and re-arms the timer."""
        if self.closed:
            return
        try:
            self._after()
        finally:
            for data, addr in self.machine.datagrams_to_send():
                self._send(data, addr)
            self._arm()

    def send_raw(self, data: bytes, addr) -> None:
        self._send(data, tuple(addr))

    def _send(self, data: bytes, addr) -> None:
        send_nowait = getattr(self._sock, "send_nowait", None)
        if send_nowait is not None:
            try:
                if send_nowait(data, addr):
                    return
            except Exception as exc:  # unreachable peer, closed socket: retransmission copes
                log.debug("send to %s failed: %s", addr, exc)
                return
        self._out.put_nowait((data, addr))

    async def _send_loop(self) -> None:
        """Sockets without `send_nowait` (a test's wrapper) send from here."""
        while not self.closed:
            data, addr = await self._out.get()
            try:
                await self._sock.send(data, addr)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # unreachable peer, closed socket: retransmission copes
                log.debug("send to %s failed: %s", addr, exc)

    def _datagram(self, data: bytes, addr) -> None:
        if self.closed:
            return
        try:
            self.machine.receive(data, addr, clock())
        except Exception:  # a bug must not stop the node hearing the next datagram
            log.exception("internal error handling datagram from %s", addr)
        self.step()

    async def _recv_loop(self) -> None:
        """Sockets without `on_datagram` (a test's wrapper) are read from here."""
        while not self.closed:
            try:
                data, addr = await self._sock.recv()
            except asyncio.CancelledError:
                raise
            except asyncio_dgram.TransportClosed:
                return
            except Exception as exc:  # ICMP errors surface here; they are not fatal
                log.debug("recv error: %s", exc)
                continue
            self._datagram(data, addr)

    # ------------------------------------------------------------------ the timer

    def _arm(self) -> None:
        """Have `_fire` run when the machine next wants `handle_timer` (and at least
        every 0.25 s: a machine whose deadline moved without a step is looked at again)."""
        if self.closed or self._loop is None:
            return
        now = clock()
        due = self.machine.get_timer()
        due = now + 0.25 if due is None else min(due, now + 0.25)
        if self._timer is not None:
            if self._timer_due is not None and abs(self._timer_due - due) < 0.0002:
                return  # already armed for (about) then
            self._timer.cancel()
        self._timer_due = due
        # the machine's clock is `clock`; the loop's may differ by an offset
        when = self._loop.time() + max(0.0, due - now)
        self._timer = self._loop.call_at(when, self._fire)

    def _fire(self) -> None:
        self._timer = None
        self._timer_due = None
        if self.closed:
            return
        now = clock()
        due = self.machine.get_timer()
        if due is not None and due <= now:
            try:
                self.machine.handle_timer(now)
            except Exception:
                log.exception("timer failed")
            self.step()  # re-arms; a still-due timer fires again on the next loop pass
        else:
            self._arm()

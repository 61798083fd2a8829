"""`tongiaki-lan bench net`: move latency and traffic between real nodes on loopback.

Latency of a move = from the moment the deciding node's bot hands the move to its node
(before that node applies, records and sends it) until the last peer has applied it with
its own engine, compared digests and appended it to its record (stamped by each node's
glue once its core is done with the datagram). By default every node is its own OS
process (as on separate laptops; the clocks compared are the system's (CLOCK_BOOTTIME on Linux),
which `net.aio.pump.clock` reads in every process). `mode="inprocess"` puts all nodes on one
event loop instead, which adds every peer's validation work in turn: an upper bound. Each
node has its own UDP socket, engine and fsynced record.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tongiaki_lan.measure import percentile
from tongiaki_lan.net.lab.loopback import close_all, make_table, play_to_end


def _latencies(times: list[tuple[dict, dict]], n: int, out: dict[str, list[float]],
               prefix: str = "") -> None:
    """Per game move: deciding node sends -> the last peer applied it (`out["all"]`); and
    for the moves that call for tiles, -> the last node, the sender too, dealt the last of
    them (`out["reveal"]`: a fair draw needs every contributor's value) beside the moves
    that reveal nothing (`out["plain"]`). `times`: each node's (sent_at, applied_at); with
    the times each node's core took in the datagram instead (`prefix` "reached_"), the
    moment the move (or the last value) reached the last of them."""
    senders = [{int(k): v for k, v in sent.items()} for sent, _ in times]
    applied = [{int(k): v for k, v in done.items()} for _, done in times]
    for i in range(n):
        who = [j for j, sent in enumerate(senders) if i in sent]
        if not who:
            continue  # a reveal: dealt by every node, sent by none
        t0 = senders[who[0]][i]
        others = [a.get(i) for j, a in enumerate(applied) if j != who[0]]
        if None in others:
            continue
        out[prefix + "all"].append(max(others) - t0)
        last = i
        while last + 1 < n and not any(last + 1 in sent for sent in senders):
            last += 1
        if last == i:
            out[prefix + "plain"].append(max(others) - t0)
            continue
        dealt = [a.get(last) for a in applied]
        if None not in dealt:
            out[prefix + "reveal"].append(max(dealt) - t0)


# what `_latencies` fills: applied and recorded by every node, and only reached it
_KINDS = ("all", "reveal", "plain", "reached_all", "reached_reveal", "reached_plain")


async def _bench(peers: int, moves: int, record_dir: Path) -> dict:
    lat: dict[str, list[float]] = {k: [] for k in _KINDS}
    latencies = lat["all"]
    datagrams = bytes_sent = retrans = 0
    games = 0
    game_moves = 0
    t0 = time.perf_counter()
    while len(latencies) < moves:
        nodes = await make_table(peers, record_dir / f"g{games}", game_name=f"bench{games}")
        try:
            base = [(nd.transport.stats.datagrams_sent, nd.transport.stats.bytes_sent)
                    for nd in nodes]
            await play_to_end(nodes, timeout=300)
            n = len(nodes[0].game.moves)
            game_moves += n
            games += 1
            _latencies([(nd.sent_at, nd.applied_at) for nd in nodes], n, lat)
            _latencies([(nd.sent_at, nd.core.move_times) for nd in nodes], n, lat, "reached_")
            for nd, (d0, b0) in zip(nodes, base, strict=True):
                datagrams += nd.transport.stats.datagrams_sent - d0
                bytes_sent += nd.transport.stats.bytes_sent - b0
                retrans += nd.transport.stats.retransmissions
            if len({nd.game.digest() for nd in nodes}) != 1:
                raise RuntimeError("nodes disagree on the final digest")
        finally:
            await close_all(nodes)
    return _summary(peers, moves, games, lat, datagrams, bytes_sent, game_moves, retrans,
                    time.perf_counter() - t0, "inprocess")


# ---------------------------------------------------------------- one process per node
# Children are plain `python -m tongiaki_lan.net.lab.bench --child I DIR` processes driven by
# JSON lines on stdin/stdout (multiprocessing's spawn would re-run the caller's __main__).


def _reply(obj) -> None:
    """One JSON line to the bench; its reader gone (the bench was killed) ends this node
    quietly, not with a traceback on the terminal."""
    try:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, ValueError):  # (ValueError: stdout closed)
        os._exit(1)


async def _child_main(i: int, record_dir: Path, loss: float = 0.0) -> None:
    from tongiaki_lan.net.aio.node import GameRef, Node
    from tongiaki_lan.net.lab.faults import FaultRule, FaultySocket

    loop = asyncio.get_running_loop()
    wrap = None
    if loss:  # the seeded lossy link: each datagram this node sends is lost with P = loss
        rule = FaultRule(drop=loss, seed=1000 + i)
        wrap = lambda s: FaultySocket(s, rule)  # noqa: E731
    node = Node(f"p{i}", host="127.0.0.1", record_dir=record_dir / f"p{i}", autoplay="random",
                wrap_socket=wrap)
    aborts = []

    def ready_again(ev) -> None:  # as a player would after "start aborted"
        if ev.kind == "abort":
            aborts.append(ev.data["reason"])
            loop.call_soon(lambda: node.lobby is not None and node.set_ready(True))

    node.add_listener(ready_again)
    await node.start()

    reply = _reply

    try:
        while True:
            line = await loop.run_in_executor(None, sys.stdin.readline)
            if not line:
                return
            cmd = json.loads(line)
            if cmd[0] == "quit":
                return
            stats = node.transport.stats
            d0, b0, r0 = stats.datagrams_sent, stats.bytes_sent, stats.retransmissions
            cpu0 = time.process_time()  # every thread of this node: its work for the game
            if node.lobby is not None:
                await node.leave_game(0.2)
            if cmd[0] == "create":
                await node.create_game(cmd[1], cmd[2])
                reply(["ref", node.game_id.hex(), node.peer_id.hex(), node.address[1]])
            else:
                _, gid, peer, port = cmd
                await node.join_game(GameRef(bytes.fromhex(gid), bytes.fromhex(peer),
                                             "127.0.0.1", port), timeout=20)
                reply(["ref", gid, node.peer_id.hex(), node.address[1]])  # (watchers' way in)
            node.set_ready(True)
            await node.wait_for(lambda: node.game is not None and node.game.is_over, 300)
            await node.wait_for(node.caught_up, 10, raise_on_timeout=False)
            await node.flush_record()
            if aborts:
                print(f"bench node {i}: start aborted {len(aborts)}x: {aborts[-1]}",
                      file=sys.stderr)
                aborts.clear()
            reply(["done", i, node.sent_at, node.applied_at, stats.datagrams_sent - d0,
                   stats.bytes_sent - b0, stats.retransmissions - r0,
                   node.game.digest().hex(), len(node.game.moves),
                   time.process_time() - cpu0, node.core.move_times])
    finally:
        await node.close()


async def _watchers_main(count: int, record_dir: Path) -> None:
    """`count` watchers in one process, at idle priority: on a party's network each
    watcher is a laptop of its own; on this machine they must not take the players' CPU,
    or the bench would measure a crowded processor instead of the protocol. Per game it is told the
    members' addresses and watches through them in turn."""
    from tongiaki_lan.net.aio.node import GameRef, Node

    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    with contextlib.suppress(OSError, AttributeError):  # (Linux: runs only when a core
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # would idle otherwise)
    loop = asyncio.get_running_loop()

    reply = _reply

    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line or json.loads(line)[0] == "quit":
            return
        _, gid, members = json.loads(line)
        nodes = [Node(f"w{k}", host="127.0.0.1", record_dir=record_dir / f"w{k}")
                 for k in range(count)]
        try:
            for k, nd in enumerate(nodes):
                await nd.start()
                peer, port = members[k % len(members)]
                await nd.watch_game(GameRef(bytes.fromhex(gid), bytes.fromhex(peer),
                                            "127.0.0.1", port), timeout=20)
            await asyncio.gather(*(nd.wait_for(
                lambda nd=nd: nd.game is not None and nd.game.is_over, 300,
                raise_on_timeout=False) for nd in nodes))
            reply(["done", [nd.game.digest().hex() if nd.game else "" for nd in nodes]])
        finally:
            for nd in nodes:
                await nd.close()


def _bench_processes(peers: int, moves: int, record_dir: Path, loss: float = 0.0,
                     watchers: int = 0) -> dict:
    """`watchers` > 0: every other game is watched by that many watchers, so the players'
    latencies with and without them come from the same minutes of this machine."""
    procs = [subprocess.Popen(
        [sys.executable, "-m", "tongiaki_lan.net.lab.bench", "--child", str(i), str(record_dir),
         str(loss)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for i in range(peers)]
    wproc = subprocess.Popen(
        [sys.executable, "-m", "tongiaki_lan.net.lab.bench", "--watchers", str(watchers),
         str(record_dir)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True) if watchers else None

    def send(p, obj) -> None:
        p.stdin.write(json.dumps(obj) + "\n")
        p.stdin.flush()

    def recv(p) -> list:
        line = p.stdout.readline()
        if not line:
            raise RuntimeError(f"bench node {procs.index(p)} exited")
        return json.loads(line)

    lat: dict[str, list[float]] = {k: [] for k in _KINDS}
    wlat: dict[str, list[float]] = {k: [] for k in _KINDS}  # the watched games'
    latencies = lat["all"]
    datagrams = bytes_sent = retrans = game_moves = games = 0
    cpu = 0.0
    t0 = time.perf_counter()
    try:
        while len(latencies) < moves or watchers and len(wlat["all"]) < moves:
            watched = bool(watchers) and games % 2 == 1
            send(procs[0], ["create", f"bench{games}", peers])
            _, gid, peer, port = recv(procs[0])
            members = [[peer, port]]
            for p in procs[1:]:
                send(p, ["join", gid, peer, port])
                members.append(recv(p)[2:4])
            if watched:
                send(wproc, ["watch", gid, members])
            done = [recv(p) for p in procs]
            games += 1
            if len({d[7] for d in done}) != 1:
                raise RuntimeError("nodes disagree on the final digest")
            if watched:
                seen = recv(wproc)[1]
                if set(seen) != {done[0][7]}:
                    raise RuntimeError(f"watchers disagree with the players: {seen}")
            n = done[0][8]
            game_moves += n
            for d in done:
                datagrams += d[4]
                bytes_sent += d[5]
                retrans += d[6]
                cpu += d[9]
            into = wlat if watched else lat
            _latencies([(d[2], d[3]) for d in done], n, into)
            _latencies([(d[2], d[10]) for d in done], n, into, "reached_")
    finally:
        if wproc is not None:
            with contextlib.suppress(Exception):
                send(wproc, ["quit"])
            try:
                wproc.wait(10)
            except subprocess.TimeoutExpired:
                wproc.kill()
        for p in procs:
            with contextlib.suppress(Exception):
                send(p, ["quit"])
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
    out = _summary(peers, moves, games, lat, datagrams, bytes_sent, game_moves, retrans,
                   time.perf_counter() - t0, "processes")
    out["loss"] = loss
    if watchers:  # the players' latencies in the games every watcher followed
        w = _summary(peers, moves, games, wlat, 0, 0, 1, 0, 0.0, "processes")
        out["watchers"] = watchers
        out["with_watchers"] = {k: w[k] for k in ("p50_ms", "p99_ms", "moves",
                                                  "reveals_nothing", "reveals_a_tile")}
        out["with_watchers"]["what"] = (
            f"the same players in the interleaved games {watchers} watchers followed (one "
            "niced process for all of them; each watcher fed by a player in turn), every "
            "watcher's final digest equal to the players'")
    # CPU seconds of all nodes per game move (reveals included): a figure that, unlike
    # the latencies, hardly depends on what else the machine is running
    out["cpu_ms_per_move"] = round(cpu * 1000 / max(1, game_moves), 3)
    return out


def _summary(peers, moves, games, lat, datagrams, bytes_sent, game_moves, retrans, wall,
             mode) -> dict:
    ms = [x * 1000 for x in lat["all"][:moves]]

    def part(xs: list[float], reached: list[float]) -> dict:
        v = [x * 1000 for x in xs]
        r = [x * 1000 for x in reached]
        return {"moves": len(v), "p50_ms": round(percentile(v, 0.50), 3) if v else None,
                "p99_ms": round(percentile(v, 0.99), 3) if v else None,
                "reached_p50_ms": round(percentile(r, 0.50), 3) if r else None}

    return {
        "reveals_nothing": part(lat["plain"], lat["reached_plain"]),
        "reveals_a_tile": part(lat["reveal"], lat["reached_reveal"]),
        "peers": peers,
        "moves": len(ms),
        "games": games,
        "mode": mode,
        "p50_ms": round(percentile(ms, 0.50), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "max_ms": round(max(ms), 3) if ms else 0.0,
        "mean_ms": round(sum(ms) / len(ms), 3) if ms else 0.0,
        "datagrams_per_move": round(datagrams / max(1, game_moves), 2),
        "bytes_per_move": round(bytes_sent / max(1, game_moves), 1),
        "retransmissions": retrans,
        "wall_s": round(wall, 2),
        "what": ("one OS process per node" if mode == "processes" else
                 "all nodes on one event loop") + " on 127.0.0.1, random bots; latency = "
                "deciding node's bot chose -> last peer applied it, checked the digest and "
                "recorded it (for reveals_a_tile: -> the last node dealt the tile from "
                "every contributor's value); reached_p50_ms: -> the move (or the draw's "
                "last value) reached the last node's protocol core; traffic counts every "
                "datagram (moves, acks, heartbeats, lobby) over all played moves",
    }


def cpu_calibration_ms() -> float:
    """How long this machine takes, right now, for a fixed piece of pure Python (the best
    of three): the same code measures differently as a virtual machine's CPU share or
    clock changes, so a run's latencies are read beside it."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        x = 0
        for i in range(1_000_000):
            x += i
        best = min(best, time.perf_counter() - t0)
    return round(best * 1000, 1)


def run_bench_net(peers: int, moves: int, mode: str = "processes", loss: float = 0.0,
                  watchers: int = 0) -> dict:
    if not 2 <= peers <= 6:
        raise ValueError("peers must be 2 to 6")
    if not 0 <= watchers <= 6 * 16:
        raise ValueError("watchers must be 0 to 96 (16 per player)")
    if not 0.0 <= loss < 1.0:
        raise ValueError("loss must be in [0, 1)")
    calibration = cpu_calibration_ms()
    cpu0 = _cpu_times()
    with tempfile.TemporaryDirectory(prefix="tongiaki-bench-") as tmp:
        if mode == "processes" or loss or watchers:
            from tongiaki_lan.lifeline import stop_on_signals

            with stop_on_signals():  # (SIGTERM, SIGHUP: its nodes are ended as on Ctrl-C)
                out = _bench_processes(peers, max(1, moves), Path(tmp), loss, watchers)
        else:
            out = asyncio.run(_bench(peers, max(1, moves), Path(tmp)))
    out["cpu_calibration_ms"] = calibration  # (a million additions in a Python loop)
    cpu1 = _cpu_times()
    if cpu0 and cpu1:  # the share of CPU time the hypervisor gave to other machines
        busy, steal = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        out["cpu_steal_percent"] = round(100.0 * steal / max(1, busy + steal), 1)
    return out


def _cpu_times() -> tuple[int, int] | None:
    """(busy, stolen) clock ticks of the whole machine so far, from Linux's /proc/stat;
    None elsewhere. A virtual machine whose host is busy loses ticks to "steal", and its
    latencies grow with it."""
    try:
        with open("/proc/stat") as fh:
            f = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    if len(f) < 8:
        return None
    return f[0] + f[1] + f[2] + f[5] + f[6], f[7]


if __name__ == "__main__":
    if sys.argv[1:2] in (["--watchers"], ["--child"]):
        from tongiaki_lan.lifeline import exit_with_parent

        exit_with_parent()  # (a bench killed outright leaves no node computing)
        # Ctrl-C reaches the terminal's whole process group: the bench ends its nodes
        # itself, and each printed a KeyboardInterrupt traceback first
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if len(sys.argv) == 4 and sys.argv[1] == "--watchers":
        asyncio.run(_watchers_main(int(sys.argv[2]), Path(sys.argv[3])))
    elif len(sys.argv) in (4, 5) and sys.argv[1] == "--child":
        asyncio.run(_child_main(int(sys.argv[2]), Path(sys.argv[3]),
                                float(sys.argv[4]) if len(sys.argv) == 5 else 0.0))
    else:
        print(json.dumps(run_bench_net(int(sys.argv[1]) if len(sys.argv) > 1 else 6,
                                       int(sys.argv[2]) if len(sys.argv) > 2 else 300)))

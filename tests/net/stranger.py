"""A stranger's laptop on the LAN, for the real-socket replay test (`test_netns_replay.py`).

Run as root inside its own network namespace, on a LAN whose switch floods every frame
(a Wi-Fi, where anyone in range hears everything): `python -m tests.net.stranger --member
IP --own IP`. It keeps every UDP datagram the member at IP sends (the bytes, where they
went), and says on stdout, one JSON line each:

- `{"event": "capturing"}` once it listens, then `{"event": "captured", "n", "no_run"}`
  each second while the count grows (`no_run`: how many name no run of their receiver,
  `dest_inc` 0 — a JOIN, a restarted node's first words);
- on SIGUSR1, it sends every kept datagram, unchanged, to every address the member sent
  to (the one it was for, and every other), once from its own address and once with the
  member's own address forged as the source, then `{"event": "replayed", "n"}`;
- every datagram that reaches its own address: `{"event": "to_stranger", "from", "type",
  "seq", "dest_inc"}` (the envelope as it reads without any key).

It has no key of anyone's and changes no byte: what any stranger on a LAN can do.
"""

from __future__ import annotations

import argparse
import json
import signal
import socket
import struct
import sys
import threading
import time

ETH_P_ALL = 0x0003


def say(obj: dict) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def udp_of(frame: bytes) -> tuple[str, int, str, int, bytes] | None:
    """(source ip, port, destination ip, port, payload) of an Ethernet frame carrying
    IPv4/UDP, else None."""
    if len(frame) < 14 + 20 + 8 or frame[12:14] != b"\x08\x00":
        return None
    ip = frame[14:]
    ihl = (ip[0] & 0x0F) * 4
    if ip[0] >> 4 != 4 or ip[9] != 17 or len(ip) < ihl + 8:
        return None
    total = struct.unpack("!H", ip[2:4])[0]
    src, dst = socket.inet_ntoa(ip[12:16]), socket.inet_ntoa(ip[16:20])
    sport, dport, length = struct.unpack("!HHH", ip[ihl:ihl + 6])
    payload = ip[ihl + 8:min(total, ihl + length)]
    return src, sport, dst, dport, bytes(payload)


def forged(payload: bytes, src: tuple[str, int], dst: tuple[str, int]) -> bytes:
    """An IPv4/UDP packet from `src` (not our address) to `dst`. The kernel fills in the
    IP checksum; a UDP checksum of 0 means none (IPv4)."""
    udp = struct.pack("!HHHH", src[1], dst[1], 8 + len(payload), 0) + payload
    head = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(udp), 0, 0, 64, 17, 0,
                       socket.inet_aton(src[0]), socket.inet_aton(dst[0]))
    return head + udp


def main() -> None:
    from tongiaki_lan.net.protocol.codec import peek_envelope

    ap = argparse.ArgumentParser()
    ap.add_argument("--member", required=True, help="the member whose datagrams to keep")
    ap.add_argument("--own", required=True, help="this laptop's address")
    ap.add_argument("--iface", default="eth0")
    args = ap.parse_args()

    sniff = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(ETH_P_ALL))
    sniff.bind((args.iface, 0))
    own = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    own.bind((args.own, 0))
    raw = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    kept: list[tuple[bytes, tuple[str, int]]] = []
    member_addr: list[tuple[str, int]] = []
    lock = threading.Lock()
    replay_asked = threading.Event()
    signal.signal(signal.SIGUSR1, lambda *_: replay_asked.set())

    def listen() -> None:
        while True:
            frame = sniff.recv(65535)
            got = udp_of(frame)
            if got is None:
                continue
            src, sport, dst, dport, payload = got
            if src == args.member and payload[:2] == b"TK":
                with lock:
                    kept.append((payload, (dst, dport)))
                    if not member_addr:
                        member_addr.append((src, sport))
            elif dst == args.own and payload[:2] == b"TK":
                try:
                    env = peek_envelope(payload)
                    say({"event": "to_stranger", "from": f"{src}:{sport}",
                         "type": type(env.message).__name__, "seq": env.seq,
                         "dest_inc": env.dest_inc})
                except Exception as exc:  # (anything at all that reaches us is reported)
                    say({"event": "to_stranger", "from": f"{src}:{sport}",
                         "type": f"unreadable: {exc}", "seq": -1, "dest_inc": -1})

    threading.Thread(target=listen, daemon=True).start()
    say({"event": "capturing"})
    told = 0
    while True:
        if replay_asked.wait(1.0):
            replay_asked.clear()
            with lock:
                batch = list(kept)
                source = member_addr[0] if member_addr else None
            targets = sorted({dest for _, dest in batch})
            n = 0
            for payload, _ in batch:
                for dest in targets:
                    own.sendto(payload, dest)
                    n += 1
                    if source is not None:
                        raw.sendto(forged(payload, source, dest), (dest[0], 0))
                        n += 1
                time.sleep(0.001)  # (a steady stream, not one burst the sockets drop)
            say({"event": "replayed", "n": n, "targets": [f"{h}:{p}" for h, p in targets]})
        with lock:
            n_kept = len(kept)
            no_run = sum(1 for payload, _ in kept if _no_run(payload, peek_envelope))
        if n_kept != told:
            told = n_kept
            say({"event": "captured", "n": n_kept, "no_run": no_run})


def _no_run(payload: bytes, peek) -> bool:
    try:
        return peek(payload).dest_inc == 0
    except Exception:
        return False


if __name__ == "__main__":
    main()

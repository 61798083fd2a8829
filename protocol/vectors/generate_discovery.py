"""Write discovery.json: `python protocol/vectors/generate_discovery.py`.

What a node publishes over mDNS (protocol/discovery.md): for a few adverts, the fields
it is built from, the service instance name, the SRV host name, the TXT properties in
the order written and the TXT record's bytes as zeroconf sends them, and what a browser
reads back from them; a doctor's advert; TXT records a browser must not list as games.
Regenerate it whenever discovery changes (tests/net/test_discovery_vectors.py runs this
script and compares, and checks both ways: the fields give these records, these records
read to these fields).
"""

from __future__ import annotations

import json
import socket
from pathlib import Path

from zeroconf.asyncio import AsyncServiceInfo

from tongiaki_lan.net.aio import discovery as D

PATH = Path(__file__).with_name("discovery.json")
A, B = bytes.fromhex("a0a1a2a3a4a5a6a7"), bytes.fromhex("b0b1b2b3b4b5b6b7")
GAME = bytes.fromhex("0123456789abcdef")

ADVERTS = [
    ("lobby", dict(peer=A, game_name="Friday night", game_id=GAME, phase="lobby", taken=1,
                   total=4, passphrase=False, player="Ana", port=40000)),
    ("playing-open-seat-passphrase-no-watchers",
     dict(peer=B, game_name="Tonga Cup", game_id=GAME, phase="playing", taken=3, total=3,
          passphrase=True, player="Ben", port=40001, open_seats=1, watchable=False)),
    # a game started a moment ago: the party that filled it may still be arriving
    ("playing-fresh",
     dict(peer=B, game_name="Tonga Cup", game_id=GAME, phase="playing", taken=2, total=2,
          passphrase=False, player="Ben", port=40004, fresh=True)),
    # the instance name is the node's, whatever characters the game's name holds
    ("name-with-other-characters",
     dict(peer=A, game_name="Café n°1 — 🎲", game_id=GAME, phase="starting", taken=2, total=2,
          passphrase=False, player="Aña", port=40002)),
    ("name-with-no-letter", dict(peer=A, game_name="🎲 🎲", game_id=GAME, phase="over",
                                 taken=6, total=6, passphrase=False, player="Ana", port=40003)),
]

# TXT records a browser lists no game for (protocol/discovery.md, TXT keys)
GOOD = D.advert_records(**ADVERTS[0][1])[1]
NOT_GAMES = [
    ("another-version", {**GOOD, "v": str(D.PROTOCOL_VERSION - 1)}),
    ("doctor", D.doctor_records(A, "Ana")[1]),
    ("short-id", {**GOOD, "id": "0123456789abcd"}),
    ("id-not-hex", {**GOOD, "id": "0123456789abcdeg"}),
    ("short-peer", {**GOOD, "peer": "a0a1a2a3"}),
    ("unknown-phase", {**GOOD, "phase": "paused"}),
    ("more-taken-than-total", {**GOOD, "seats": "5/4"}),
    ("seven-seats", {**GOOD, "seats": "7/7"}),
    ("seats-not-a-fraction", {**GOOD, "seats": "4"}),
    ("no-version", {k: v for k, v in GOOD.items() if k != "v"}),
]
# what a browser makes of optional or odd values
LENIENT = [
    ("no-open-no-watch", {k: v for k, v in GOOD.items() if k not in ("open", "watch")}),
    ("open-not-a-number", {**GOOD, "open": "x"}),
    ("open-above-6", {**GOOD, "open": "7"}),
    ("long-names", {**GOOD, "game": "A" * 30, "name": "B" * 30}),
    ("fresh-not-1", {**GOOD, "fresh": "yes"}),
]


def txt_bytes(props: dict[str, str]) -> bytes:
    """The TXT record's RDATA, as zeroconf writes it from the properties."""
    return AsyncServiceInfo(D.SERVICE_TYPE, f"x.{D.SERVICE_TYPE}", port=1, properties=props,
                            addresses=[socket.inet_aton("10.0.0.1")]).text


def read(props: dict[str, str]):
    fields = D.parse_txt({k.encode(): v.encode() for k, v in props.items()})
    if fields is None:
        return None
    return {k: (v.hex() if isinstance(v, bytes) else v) for k, v in fields.items()}


def build() -> str:
    adverts = []
    for name, fields in ADVERTS:
        instance, props = D.advert_records(**fields)
        adverts.append({
            "name": name,
            "fields": {k: (v.hex() if isinstance(v, bytes) else v) for k, v in fields.items()},
            "instance": instance, "host": D.host_name(fields["peer"]), "port": fields["port"],
            "txt": [[k, v] for k, v in props.items()], "txt_bytes": txt_bytes(props).hex(),
            "read": read(props)})
    instance, props = D.doctor_records(A, "Ana")
    out = {
        "about": "protocol/discovery.md: what a node advertises and what a browser reads",
        "service_type": D.SERVICE_TYPE,
        "protocol": D.PROTOCOL_VERSION,
        "adverts": adverts,
        "doctor": {"peer": A.hex(), "player": "Ana", "instance": instance,
                   "host": D.host_name(A), "txt": [[k, v] for k, v in props.items()],
                   "txt_bytes": txt_bytes(props).hex()},
        "not_games": [{"name": n, "txt": [[k, v] for k, v in p.items()]} for n, p in NOT_GAMES],
        "lenient": [{"name": n, "txt": [[k, v] for k, v in p.items()], "read": read(p)}
                    for n, p in LENIENT],
    }
    for v in out["not_games"]:
        assert read(dict(v["txt"])) is None, v["name"]
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def main() -> None:
    PATH.write_text(build(), encoding="utf-8")
    print(f"wrote {PATH}")


if __name__ == "__main__":
    main()

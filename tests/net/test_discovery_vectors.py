"""protocol/vectors/discovery.json both ways: a node's fields give exactly the advert it
holds (instance name, host name, TXT properties in order, the TXT record's bytes), and a
browser reads those TXT records back to the same fields, lists no game for the records it
must not, and reads odd optional values as the text says. The file is what
protocol/vectors/generate_discovery.py writes: regenerate it when discovery changes."""

from __future__ import annotations

import importlib.util
import json
import socket
from pathlib import Path

import pytest
from zeroconf.asyncio import AsyncServiceInfo

from tongiaki_lan.net.aio import discovery as D

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
V = json.loads((VECTORS / "discovery.json").read_text(encoding="utf-8"))


def _fields(v: dict) -> dict:
    f = dict(v["fields"])
    f["peer"], f["game_id"] = bytes.fromhex(f["peer"]), bytes.fromhex(f["game_id"])
    return f


def _read(txt: list) -> dict | None:
    fields = D.parse_txt({k.encode(): v.encode() for k, v in txt})
    return None if fields is None else {k: (v.hex() if isinstance(v, bytes) else v)
                                        for k, v in fields.items()}


def _from_bytes(rdata: bytes) -> list:
    """TXT RDATA back to [key, value] pairs (RFC 6763 §6: strings of a length byte and
    `key=value`), as a browser in any language reads them."""
    out, i = [], 0
    while i < len(rdata):
        n = rdata[i]
        key, _, value = rdata[i + 1:i + 1 + n].partition(b"=")
        out.append([key.decode(), value.decode()])
        i += 1 + n
    return out


def test_discovery_json_is_what_its_generator_writes():
    spec = importlib.util.spec_from_file_location("generate_discovery",
                                                  VECTORS / "generate_discovery.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.build() == (VECTORS / "discovery.json").read_text(encoding="utf-8"), (
        "discovery.json is stale: run protocol/vectors/generate_discovery.py")


@pytest.mark.parametrize("v", V["adverts"], ids=lambda v: v["name"])
def test_an_advert_is_built_from_its_fields_and_read_back(v):
    f = _fields(v)
    instance, props = D.advert_records(**f)
    assert instance == v["instance"] and D.host_name(f["peer"]) == v["host"]
    assert [[k, x] for k, x in props.items()] == v["txt"]
    text = AsyncServiceInfo(D.SERVICE_TYPE, instance, port=f["port"], properties=props,
                            addresses=[socket.inet_aton("10.0.0.1")]).text
    assert text.hex() == v["txt_bytes"]
    assert _from_bytes(bytes.fromhex(v["txt_bytes"])) == v["txt"]
    assert _read(v["txt"]) == v["read"]
    expected = {k: x for k, x in v["fields"].items() if k != "port"}
    expected.setdefault("open_seats", 0)
    expected.setdefault("watchable", True)
    expected.setdefault("fresh", False)
    assert v["read"] == expected
    assert v["read"]["total"] <= 6 and v["instance"].endswith(f"{D.SERVICE_TYPE}")


def test_a_doctors_advert_is_no_game():
    d = V["doctor"]
    instance, props = D.doctor_records(bytes.fromhex(d["peer"]), d["player"])
    assert instance == d["instance"] and [[k, x] for k, x in props.items()] == d["txt"]
    assert _from_bytes(bytes.fromhex(d["txt_bytes"])) == d["txt"]
    assert _read(d["txt"]) is None


@pytest.mark.parametrize("v", V["not_games"], ids=lambda v: v["name"])
def test_a_browser_lists_no_game_for_a_record_that_is_none(v):
    assert _read(v["txt"]) is None


@pytest.mark.parametrize("v", V["lenient"], ids=lambda v: v["name"])
def test_a_browser_reads_odd_optional_values_as_the_text_says(v):
    assert _read(v["txt"]) == v["read"]

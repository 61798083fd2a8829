"""Who may talk to the board page's server: the checks of its door, as plain functions.

A web server on a laptop answers anything that can reach its port: other programs on
the machine, and any web page the player has open in a browser, which can aim requests
at 127.0.0.1 or rebind a name of its own to it (DNS rebinding). So, like Jupyter's and
Bokeh's servers, ours lets in only requests that show three things:

* the **Host** header names this machine — `127.0.0.1:PORT`, `localhost:PORT`,
  `[::1]:PORT` or the host the server was bound to (`--board-host`); when bound to every
  address (`0.0.0.0`, `::`) any IP address with the port, never a name: a rebound
  name is what an attacker's page would send;
* a WebSocket's **Origin** is the page's own (`http://` and that same Host): another
  site's page cannot open one, even with the player's browser;
* the **token**: a random one per run (`secrets.token_urlsafe`), carried in the URL's
  fragment (`http://127.0.0.1:PORT/#TOKEN`, which browsers never send to a server nor
  put in a Referer) and presented by the page as a WebSocket subprotocol,
  `token.TOKEN` (how Bokeh carries its own). Without it no state leaves the server and
  no command reaches the game.

No I/O here, so each refusal is tested alone (tests/web/test_door.py) as well as
through the real server.
"""

from __future__ import annotations

import ipaddress
import secrets

PROTOCOL = "tongiaki"  # the subprotocol the server answers with
TOKEN_PREFIX = "token."
WILDCARDS = ("0.0.0.0", "::", "")


def new_token() -> str:
    return secrets.token_urlsafe(24)


def host_literal(host: str) -> str:
    """`host` as written in a URL or a Host header: an IPv6 address in brackets."""
    try:
        if ipaddress.ip_address(host).version == 6:
            return f"[{host}]"
    except ValueError:
        pass
    return host


def _split_host(header: str) -> tuple[str, int | None] | None:
    """A Host header's name and port (None when it names none); None if malformed."""
    header = header.strip().lower()
    if not header:
        return None
    if header.startswith("["):
        end = header.find("]")
        if end < 0:
            return None
        name, rest = header[:end + 1], header[end + 1:]
    else:
        name, sep, port_text = header.partition(":")
        rest = f":{port_text}" if sep else ""
    if not rest:
        return name, None
    if not rest.startswith(":") or not rest[1:].isdigit() or len(rest) > 6:
        return None
    return name, int(rest[1:])


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name[1:-1] if name.startswith("[") else name)
    except ValueError:
        return False
    return True


def host_allowed(header: str | None, bound: str, port: int) -> bool:
    """Whether a request's Host header names this server (module docstring)."""
    if header is None:
        return False
    parsed = _split_host(header)
    if parsed is None:
        return False
    name, given = parsed
    if given is None:
        given = 80  # a browser leaves out the default port
    if given != port:
        return False
    local = {"127.0.0.1", "localhost", "[::1]"}
    if bound.lower() not in WILDCARDS:
        local.add(host_literal(bound.lower()))
        return name in local
    return name in local or _is_ip(name)


def origin_allowed(origin: str | None, host_header: str | None) -> bool:
    """A WebSocket's Origin must be the page's own: `http://` and the Host it was
    served under (already checked by `host_allowed`)."""
    if not origin or not host_header:
        return False
    return origin.strip().lower() == f"http://{host_header.strip().lower()}"


def offered_token(protocols_header: str | None) -> str | None:
    """The token a WebSocket request presents among its subprotocols, if any."""
    if not protocols_header:
        return None
    for item in protocols_header.split(","):
        item = item.strip()
        if item.startswith(TOKEN_PREFIX):
            return item[len(TOKEN_PREFIX):]
    return None


def token_matches(given: str | None, token: str) -> bool:
    """Compared in constant time: how long a wrong guess took says nothing."""
    return given is not None and secrets.compare_digest(given.encode(), token.encode())

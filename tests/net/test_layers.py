"""net/ shows its floors: the sans-I/O protocol, the asyncio glue, the lab tools.

A newcomer should be able to trust the folder names: if a module under net/protocol/ started
to open sockets or files, its tests on a virtual clock would no longer say anything about it.
"""

import ast
import pathlib

import tongiaki_lan.net

NET = pathlib.Path(tongiaki_lan.net.__file__).parent
# What a sans-I/O module may not reach for: the event loop, sockets, the terminal, zeroconf,
# files of the node, or the floors above it.
FORBIDDEN = ("asyncio", "socket", "selectors", "zeroconf", "asyncio_dgram", "prompt_toolkit",
             "tongiaki_lan.net.aio", "tongiaki_lan.net.lab", "tongiaki_lan.console",
             "tongiaki_lan.cli", "tongiaki_lan.records", "tongiaki_lan.files")


def imported_modules(path: pathlib.Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_the_protocol_core_imports_no_event_loop_socket_or_upper_floor():
    offenders = []
    for path in sorted((NET / "protocol").glob("*.py")):
        for name in imported_modules(path):
            if any(name == f or name.startswith(f + ".") for f in FORBIDDEN):
                offenders.append(f"{path.name} imports {name}")
    assert offenders == []


def test_the_glue_never_imports_the_lab():
    offenders = []
    for path in sorted((NET / "aio").glob("*.py")):
        for name in imported_modules(path):
            if name.startswith("tongiaki_lan.net.lab"):
                offenders.append(f"{path.name} imports {name}")
    assert offenders == []


def test_every_module_lives_on_a_floor():
    loose = sorted(p.name for p in NET.glob("*.py") if p.name != "__init__.py")
    assert loose == []

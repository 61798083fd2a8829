"""console/ keeps its layers: what a player sees is told once (the story, the seats' words,
the state, the model and the input path) and drawn by views; the network is read by the
LAN feed and the lobby's network side alone. A second view (the board page, the line
mode) then reuses the words and the rules of the first instead of copying them.

Read from the source (`layers.py`): an import inside a function ties two modules as
much as one at the top."""

from __future__ import annotations

from pathlib import Path

from .layers import CONSOLE, circles, graph, imports_of, modules

PREFIX = "tongiaki_lan.console."


def _reach(g: dict[str, set[str]], start: str) -> set[str]:
    """The console modules `start` imports, directly or through others."""
    seen, todo = set(), [start]
    while todo:
        for nxt in g.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _is_view(mod: str) -> bool:
    """The terminal's own modules, which may draw with prompt_toolkit (and the screen's
    bench, which times them)."""
    short = mod.removeprefix(PREFIX)
    return short.startswith("terminal") or short in VIEWS


# outside terminal/, the one module that drives the terminal view: `bench` times its drawing
VIEWS = {"bench"}
# the modules that may speak to the network: the LAN feed and the lobby's network side
NET = {"networds", "feeds.lan", "feeds.lanstory", "feeds.lanfacts", "lobbynet"}
# what every view reads: none of it may import prompt_toolkit or the network, even
# through another module
CORE = {"state", "seats", "phrases", "story", "departures", "words", "rules", "final",
        "seatmarks", "wakestory", "model", "input", "status", "feeds.base", "feeds.solo",
        "feeds.replay", "lobbymodel"}


def test_console_has_no_import_circle():
    assert circles(graph()) == []


def test_the_check_finds_a_circle(tmp_path):
    """The circle check can fail: two modules that import each other are one circle."""
    pkg = tmp_path / "tongiaki_lan" / "console"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("def f():\n    from tongiaki_lan.console.a import y\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert circles(graph(pkg)) == [["tongiaki_lan.console.a", "tongiaki_lan.console.b"]]


def test_the_model_the_input_the_story_and_the_state_draw_nothing():
    """No module outside the terminal view reaches prompt_toolkit, directly or through a
    console module that does (the model, the input, the feeds, the story, the lobby's
    model, network side and commands); each of CORE exists (a renamed module must be
    renamed here too, not silently skipped)."""
    mods = modules()
    g = graph()
    present = {m.removeprefix(PREFIX) for m in mods}
    assert CORE <= present, CORE - present
    for mod in sorted(mods):
        if _is_view(mod):
            continue
        for reached in [mod, *_reach(g, mod)]:
            found = {i for i in imports_of(mods[reached]) if i.startswith("prompt_toolkit")}
            assert not found, f"{mod} reaches prompt_toolkit through {reached}: {found}"


def test_only_the_lan_feed_and_the_lobby_speak_to_the_network():
    mods = modules()
    g = graph()
    for mod, path in mods.items():
        short = mod.removeprefix(PREFIX)
        if short in NET or _is_view(mod):
            continue
        found = {i for i in imports_of(path) if i.startswith("tongiaki_lan.net")}
        assert not found, f"{short} imports the network: {sorted(found)}"
    for short in sorted(CORE):
        mod = PREFIX + short
        if mod in mods:
            reached = {r.removeprefix(PREFIX) for r in _reach(g, mod)} & NET
            assert not reached, f"{short} reaches the network through {reached}"


def test_the_engine_never_imports_the_console():
    engine = Path(CONSOLE).parent / "engine"
    for path in sorted(engine.rglob("*.py")):
        found = {i for i in imports_of(path) if "console" in i.split(".")}
        assert not found, f"{path.name} imports {found}"

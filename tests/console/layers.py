"""How console/ is put together, read from its source: which of its modules import which
(at module level or inside a function: both tie two modules together), the circles among
them, and its largest classes. `tests/console/test_layers.py` checks the layers with it;
run it to print the figures (`python -m tests.console.layers`).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "tongiaki_lan"
CONSOLE = PACKAGE / "console"


def module_name(path: Path, top: Path = PACKAGE.parent) -> str:
    rel = path.relative_to(top).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path = CONSOLE) -> dict[str, Path]:
    return {module_name(p, root.parents[1]): p for p in sorted(root.rglob("*.py"))}


def imports_of(path: Path, top: Path = PACKAGE.parent) -> set[str]:
    """Every module `path` imports, absolute names (relative imports resolved); a name
    imported from a package counts as its submodule when there is one."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = module_name(path, top).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                mod = ".".join([*base, node.module] if node.module else base)
            else:
                mod = node.module or ""
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
    return out


def graph(root: Path = CONSOLE) -> dict[str, set[str]]:
    """console module -> the console modules it imports."""
    mods = modules(root)
    return {m: {i for i in imports_of(p, root.parents[1]) if i in mods and i != m}
            for m, p in mods.items()}


def circles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return sorted(found)


def classes(root: Path = CONSOLE) -> list[tuple[int, str]]:
    """(lines, module.Class) of every class in console/, largest first."""
    out = []
    for mod, path in modules(root).items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                out.append((node.end_lineno - node.lineno + 1, f"{mod}.{node.name}"))
    return sorted(out, reverse=True)


def line_counts(root: Path = CONSOLE) -> list[tuple[int, str]]:
    return [(len(p.read_text(encoding="utf-8").splitlines()), str(p.relative_to(PACKAGE)))
            for p in sorted(root.rglob("*.py"))]


def main() -> int:
    counts = line_counts()
    for n, name in counts:
        print(f"{n:6}  {name}")
    print(f"{sum(n for n, _name in counts):6}  total in {len(counts)} files")
    print("\nlargest classes:")
    for n, name in classes()[:8]:
        print(f"{n:6}  {name}")
    print("\nimport circles:", circles(graph()) or "none")
    return 0


if __name__ == "__main__":
    sys.exit(main())

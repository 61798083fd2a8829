"""Maintaining the translation catalogues: extract, update, compile, check.

    python -m tongiaki_lan.i18n.catalog update    # new English texts into every .po
    python -m tongiaki_lan.i18n.catalog compile   # every .po -> its .mo
    python -m tongiaki_lan.i18n.catalog check     # what the test checks, as a report

Written here rather than taken from GNU gettext's tools so that a fresh clone needs
nothing but Python: the texts are found by reading the source (any module that imports
`tongiaki_lan.i18n`) for `_("…")`, `N_("…")` and `ngettext("…", "…", n)` with literal
arguments, and the `.mo` files are written in the format `gettext` reads. Compiling is
deterministic (entries sorted, no hash table), so a `.mo` can be checked against its
`.po` byte for byte.
"""

from __future__ import annotations

import ast
import re
import string
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tongiaki_lan.files import write_text_atomic
from tongiaki_lan.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

PACKAGE = LOCALE_DIR.parent
PLURAL_FORMS = {  # gettext's header: how many forms and which one n takes
    "it": "nplurals=2; plural=(n != 1);",
    "fi": "nplurals=2; plural=(n != 1);",
    "fr": "nplurals=2; plural=(n > 1);",
    "de": "nplurals=2; plural=(n != 1);",
}


@dataclass
class Entry:
    msgid: str
    plural: str = ""
    msgstr: list[str] = field(default_factory=list)  # one per plural form (one if none)
    places: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str]:
        return self.msgid, self.plural


# ------------------------------------------------------------------ extraction


def _uses_i18n(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "tongiaki_lan.i18n":
            return True
        if isinstance(node, ast.ImportFrom) and node.level and node.module in ("i18n", None) \
                and any(a.name in ("_", "N_", "ngettext") for a in node.names):
            return True
        # the engine marks its reasons with a no-op N_ of its own (engine/errors.py): it
        # must not depend on the i18n package, but its texts are shown translated
        if isinstance(node, ast.ImportFrom) and node.level and node.module == "errors" \
                and any(a.name == "N_" for a in node.names):
            return True
    return False


def _literal(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def extract(root: Path = PACKAGE) -> dict[tuple[str, str], Entry]:
    """Every translatable text of the package, keyed by (msgid, plural), in source order."""
    found: dict[tuple[str, str], Entry] = {}
    for path in sorted(root.rglob("*.py")):
        if "i18n" in path.relative_to(root).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if not _uses_i18n(tree):
            continue
        where = path.relative_to(root.parent).as_posix()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            if name in ("_", "N_") and node.args:
                msgid, plural = _literal(node.args[0]), ""
            elif name == "ngettext" and len(node.args) >= 2:
                msgid, plural = _literal(node.args[0]), _literal(node.args[1]) or ""
                if not plural:
                    raise SystemExit(f"{where}:{node.lineno}: ngettext needs two literals")
            else:
                continue
            if msgid is None:
                if name == "N_":
                    raise SystemExit(f"{where}:{node.lineno}: N_() needs a literal text")
                continue  # _(variable): a text marked with N_() where it was written
            entry = found.setdefault((msgid, plural), Entry(msgid, plural))
            entry.places.append(f"{where}:{node.lineno}")
    return found


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


def _binds_underscore(scope: ast.AST) -> bool:
    """Whether `_` is a local name of this function (assigned, looped over, a nested
    `def _`, an argument…), which would hide the translation function inside it."""
    args = scope.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    if any(a is not None and a.arg == "_" for a in every):
        return True
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (*_SCOPES, ast.ClassDef)):
            if getattr(node, "name", None) == "_":
                return True
            continue  # a nested scope binds its own names
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == "_":
            return True
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any(
                (a.asname or a.name) == "_" for a in node.names):
            if not (isinstance(node, ast.ImportFrom) and node.module == "tongiaki_lan.i18n"):
                return True
        todo.extend(ast.iter_child_nodes(node))
    return False


def _calls_underscore(scope: ast.AST) -> int | None:
    """Line of a `_(...)` call that would resolve to this scope's `_`, if any."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES) and _binds_underscore(node):
            continue  # it has its own `_`, checked on its own
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_":
            return node.lineno
        todo.extend(ast.iter_child_nodes(node))
    return None


def hidden_translations(root: Path = PACKAGE) -> list[str]:
    """Calls to `_()` that would call something else: a function that both uses the
    translation function and binds `_` itself (`word, _, rest = …`, a key handler
    named `_`) breaks only when that line runs, in some language, in some state."""
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        if not _uses_i18n(tree):
            continue
        for node in ast.walk(tree):
            if isinstance(node, _SCOPES) and _binds_underscore(node):
                line = _calls_underscore(node)
                if line is not None:
                    where = path.relative_to(root.parent).as_posix()
                    out.append(f"{where}:{line}: _() here is not the translation function: "
                               f"the enclosing function binds `_` itself (line {node.lineno})")
    return out


# ------------------------------------------------------------------ .po files


def _quote(text: str) -> str:
    return '"' + (text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                  .replace("\t", "\\t")) + '"'


_UNESCAPE = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _unquote(text: str, where: str) -> str:
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise ValueError(f"{where}: expected a quoted string, got {text!r}")
    return re.sub(r"\\(.)", lambda m: _UNESCAPE.get(m.group(1), m.group(0)), text[1:-1])


def read_po(path: Path) -> tuple[dict[str, str], dict[tuple[str, str], Entry]]:
    """(header fields, entries) of a .po file as this module writes them."""
    entries: dict[tuple[str, str], Entry] = {}
    current: Entry | None = None
    field_name = ""
    header: dict[str, str] = {}

    def close() -> None:
        nonlocal current
        if current is None:
            return
        if current.msgid == "" and not current.plural:
            for line in (current.msgstr[0] if current.msgstr else "").splitlines():
                k, _, v = line.partition(":")
                header[k.strip()] = v.strip()
        else:
            entries[current.key] = current
        current = None

    for n, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path}:{n}"
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                close()
            continue
        if line.startswith("msgid "):
            close()
            current = Entry(_unquote(line[6:], where))
            field_name = "msgid"
        elif line.startswith("msgid_plural "):
            current.plural = _unquote(line[13:], where)
            field_name = "plural"
        elif line.startswith("msgstr["):
            current.msgstr.append(_unquote(line.split("]", 1)[1], where))
            field_name = "msgstr"
        elif line.startswith("msgstr "):
            current.msgstr = [_unquote(line[7:], where)]
            field_name = "msgstr"
        elif line.startswith('"') and current is not None:
            more = _unquote(line, where)
            if field_name == "msgid":
                current.msgid += more
            elif field_name == "plural":
                current.plural += more
            else:
                current.msgstr[-1] += more
        else:
            raise ValueError(f"{where}: cannot read {line!r}")
    close()
    return header, entries


def write_po(path: Path, language: str, entries: list[Entry]) -> None:
    lines = [
        f"# {LANGUAGES[language]} texts of tongiaki-lan. Edit the msgstr lines; then run",
        "# python -m tongiaki_lan.i18n.catalog compile",
        'msgid ""',
        'msgstr ""',
        _quote(f"Language: {language}\n"),
        _quote("MIME-Version: 1.0\n"),
        _quote("Content-Type: text/plain; charset=UTF-8\n"),
        _quote("Content-Transfer-Encoding: 8bit\n"),
        _quote(f"Plural-Forms: {PLURAL_FORMS[language]}\n"),
        "",
    ]
    for e in entries:
        lines += [f"#: {p}" for p in e.places[:3]]
        lines.append(f"msgid {_quote(e.msgid)}")
        if e.plural:
            lines.append(f"msgid_plural {_quote(e.plural)}")
            forms = e.msgstr + [""] * (2 - len(e.msgstr))
            lines += [f"msgstr[{i}] {_quote(s)}" for i, s in enumerate(forms)]
        else:
            lines.append(f"msgstr {_quote(e.msgstr[0] if e.msgstr else '')}")
        lines.append("")
    # bytes with \n line ends on every OS: a Windows text-mode write would turn every line
    # of the catalogues into \r\n and show as a change of every line
    write_text_atomic(path, "\n".join(lines))


def po_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def update() -> None:
    """Bring every .po in line with the source: new texts added (untranslated), texts
    no longer in the source dropped, translations of the others kept."""
    source = extract()
    for language in PLURAL_FORMS:
        path = po_path(language)
        old = read_po(path)[1] if path.exists() else {}
        merged = []
        for key, entry in source.items():
            merged.append(Entry(entry.msgid, entry.plural,
                                list(old[key].msgstr) if key in old else [], entry.places))
        write_po(path, language, merged)


# ------------------------------------------------------------------ .mo files


def compile_po(path: Path) -> bytes:
    """The .mo bytes of a .po: header entry plus every translated entry, sorted."""
    header, entries = read_po(path)
    head = "".join(f"{k}: {v}\n" for k, v in header.items())
    pairs = [(b"", head.encode())]
    for e in entries.values():
        if not any(e.msgstr):
            continue
        key = e.msgid + ("\0" + e.plural if e.plural else "")
        pairs.append((key.encode(), "\0".join(e.msgstr).encode()))
    pairs.sort()
    n = len(pairs)
    origs_at = 28
    trans_at = origs_at + 8 * n
    data_at = trans_at + 8 * n
    table_o, table_t, blob = [], [], b""
    for key, _ in pairs:
        table_o.append((len(key), data_at + len(blob)))
        blob += key + b"\0"
    for _, value in pairs:
        table_t.append((len(value), data_at + len(blob)))
        blob += value + b"\0"
    out = struct.pack("<7I", 0x950412DE, 0, n, origs_at, trans_at, 0, data_at)
    out += b"".join(struct.pack("<2I", *t) for t in table_o)
    out += b"".join(struct.pack("<2I", *t) for t in table_t)
    return out + blob


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def compile_all() -> None:
    for language in PLURAL_FORMS:
        mo_path(language).write_bytes(compile_po(po_path(language)))


# ------------------------------------------------------------------ checking


def fields(text: str) -> list[str]:
    """The named placeholders of a text, sorted: a translation must use the same ones."""
    return sorted({f for _, f, _, _ in string.Formatter().parse(text) if f is not None})


def problems(language: str) -> list[str]:
    """Everything wrong with one language's catalogue (empty = complete and compiled)."""
    path = po_path(language)
    if not path.exists():
        return [f"{path} is missing"]
    out = []
    try:
        header, entries = read_po(path)
    except ValueError as exc:
        return [str(exc)]
    if header.get("Plural-Forms") != PLURAL_FORMS[language]:
        out.append(f"{path}: Plural-Forms should be {PLURAL_FORMS[language]!r}")
    source = extract()
    for key in source:
        if key not in entries:
            out.append(f"{language}: not in the catalogue (run update): {key[0]!r}")
    for key, e in entries.items():
        if key not in source:
            out.append(f"{language}: no longer in the source (run update): {key[0]!r}")
            continue
        want = 2 if e.plural else 1
        if len(e.msgstr) != want or not all(s.strip() for s in e.msgstr):
            out.append(f"{language}: untranslated: {e.msgid!r}")
            continue
        try:
            expected = fields(e.msgid) if not e.plural else fields(e.plural)
            for s in e.msgstr:
                got = fields(s)
                if got != expected and not (e.plural and set(got) <= set(expected)):
                    out.append(f"{language}: placeholders {got} instead of {expected} in "
                               f"the translation of {e.msgid!r}")
        except ValueError as exc:
            out.append(f"{language}: bad braces in the translation of {e.msgid!r}: {exc}")
    mo = mo_path(language)
    if not mo.exists() or mo.read_bytes() != compile_po(path):
        out.append(f"{mo} does not match its .po (run compile)")
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    command = argv[0] if argv else "check"
    if command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "check":
        found = hidden_translations()
        found += [p for language in PLURAL_FORMS for p in problems(language)]
        print("\n".join(found) or "all catalogues complete and compiled")
        return 1 if found else 0
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

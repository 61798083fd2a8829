"""The player's language: gettext catalogues chosen from --lang or the environment.

English is the source language: every text a player reads is written in English in the
code, wrapped in `_()` (or `ngettext()` when it depends on a number), and looked up at
the moment it is shown — never at import time — so that switching languages (the tests
render one screen in five) needs no reload. Texts kept in tables are marked with `N_()`
and translated where they are used.

Placeholders are named (`{who}`), never positional, so that a translation may put them
in its own order. Move commands (`sail`, `land 1:BR`), tile names and colour letters
stay as they are in every language: they are what the record and the other players'
laptops understand.

The catalogues are `tongiaki_lan/locale/<lang>/LC_MESSAGES/tongiaki_lan.po`, compiled to
`.mo` beside them by `python -m tongiaki_lan.i18n.catalog compile` (docs/languages.md).
"""

from __future__ import annotations

import gettext
import os
import re
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

DOMAIN = "tongiaki_lan"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = {"en": "English", "it": "Italiano", "fi": "Suomi", "fr": "Français", "de": "Deutsch"}

_active: gettext.NullTranslations = gettext.NullTranslations()
_code = "en"


def language_from_environment() -> str:
    """The first supported language named by LANGUAGE, LC_ALL, LC_MESSAGES or LANG, in the
    order gettext itself reads them; English when none is supported (or it is C/POSIX)."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = normalise(item)
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":  # the first of the LC_* / LANG variables that is set decides
            return "en"
    return "en"


def normalise(name: str) -> str:
    """'it_IT.UTF-8' -> 'it'; '' and 'C' -> ''."""
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_")
    return base.split("_")[0].lower() if base not in ("C", "POSIX") else ""


def use(language: str | None = None) -> str:
    """Switch the language of everything shown from now on; returns the code in use.

    `language` is a code or locale name (`it`, `fr_FR.UTF-8`); None reads the
    environment. An unsupported language raises ValueError naming the supported ones.
    """
    global _active, _code
    code = normalise(language) if language else language_from_environment()
    if code not in LANGUAGES:
        known = ", ".join(f"{c} ({n})" for c, n in LANGUAGES.items())
        raise ValueError(f"unknown language {language!r}; choose one of: {known}")
    if code == "en":
        _active = gettext.NullTranslations()
    else:
        _active = gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)
    _code = code
    return code


def current() -> str:
    return _code


def _(message: str) -> str:
    return _active.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a text for translation where it is defined; `_()` translates it where shown."""
    return message


# Values that are words of ours, not names: a console translates them inside a reason.
_WORD_FIELDS = ("phase",)


@lru_cache(maxsize=256)
def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(\w+)\}", template)
    regex = "".join(re.escape(p) if i % 2 == 0 else f"(?P<{p}>.+?)"
                    for i, p in enumerate(parts))
    return re.compile(f"^{regex}$", re.DOTALL)


def translate_known(text: str, templates: Iterable[str]) -> str:
    """`text`, if it was made by formatting one of `templates` (English, marked with
    `N_()`), in the player's language with the same values; any other text as it is.

    This is how a reason that crossed the network (a REFUSE's English text, which every
    peer and script reads the same) is shown translated: the wire needs no codes, and a
    reason from a peer that words it differently simply stays English. Of several
    matching templates the one with the most fixed text wins.
    """
    if _code == "en":
        return text
    best: tuple[int, str, dict[str, str]] | None = None
    for template in templates:
        m = _pattern(template).match(text)
        if m is None:
            continue
        fixed = len(re.sub(r"\{\w+\}", "", template))
        if best is None or fixed > best[0]:
            best = (fixed, template, m.groupdict())
    if best is None:
        return text
    _fixed, template, values = best
    values = {k: (_(v) if k in _WORD_FIELDS else v) for k, v in values.items()}
    return _(template).format(**values)

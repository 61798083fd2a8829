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
import sys
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

DOMAIN = "tongiaki_lan"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
LANGUAGES = {"en": "English", "it": "Italiano", "fi": "Suomi", "fr": "Français", "de": "Deutsch"}

_active: gettext.NullTranslations = gettext.NullTranslations()
_code = "en"


def language_from_environment(platform: str | None = None) -> str:
    """The player's language when --lang does not say: the POSIX variables first (gettext's
    order: the first supported language in LANGUAGE, else the first of LC_ALL, LC_MESSAGES,
    LANG that is set — C/POSIX or an unsupported language mean English); when none is set,
    the OS's own setting (Windows: the user's display language; macOS: the user's
    preferred languages, in order); English when nothing names a supported language."""
    chosen = _language_from_variables()
    if chosen is not None:
        return chosen
    platform = platform or sys.platform
    for name in system_languages(platform):
        code = normalise(name)
        if code in LANGUAGES:
            return code
    return "en"


def _language_from_variables() -> str | None:
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
    return None


def system_languages(platform: str) -> list[str]:
    """The languages the OS user chose, most preferred first, as locale names ('it_IT',
    'fr-CA'); empty when the OS has no such setting or asking it fails (never raises:
    a language is not worth a crash)."""
    try:
        if platform == "win32":
            return _windows_ui_languages()
        if platform == "darwin":
            return _macos_preferred_languages()
    except Exception:  # noqa: BLE001 - no API, no `defaults`, a timeout: the variables decide
        return []
    return []


def _windows_ui_languages() -> list[str]:
    """The Windows user's display language: GetUserDefaultUILanguage gives its language id
    (an LCID such as 0x0410), which Python's own table turns into 'it_IT'."""
    import ctypes
    import locale

    lang_id = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
    name = locale.windows_locale.get(int(lang_id))
    return [name] if name else []


def _macos_preferred_languages() -> list[str]:
    """The macOS user's preferred languages (System Settings > General > Language &
    Region), as `defaults read -g AppleLanguages` prints them: ( "it-IT", "en-US" )."""
    import subprocess

    out = subprocess.run(["defaults", "read", "-g", "AppleLanguages"], capture_output=True,
                         text=True, timeout=3, check=False)
    if out.returncode != 0:
        return []
    return re.findall(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]+)*", out.stdout)


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


# languages that write a decimal comma (3,5 h); English writes a point
_DECIMAL_COMMA = ("it", "fi", "fr", "de")


def decimal(value: float, places: int = 1, *, sign: bool = False) -> str:
    """A number with `places` decimals as the console's language writes it: `doctor`
    showed a German player "Uhr +18000.0 s" and "10.9 ms" (a playtest)."""
    text = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    return text.replace(".", ",") if _code in _DECIMAL_COMMA else text


def _(message: str) -> str:
    return _eliding(_active.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    return _eliding(_active.ngettext(singular, plural, n))


# French elides "de" and "que" before a vowel: "l'ordinateur d'Ana", not "de Ana". The
# catalogue cannot say so, since the word that follows is a name only known when the text
# is formatted; the template therefore comes back as a str whose format() elides.
_ELIDABLE = re.compile(r"\b([dD]e|[qQ]ue) \{(\w+)\}")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


class _ElidingTemplate(str):
    """A French template with "de {x}" or "que {x}" in it (why: above)."""

    __slots__ = ()

    def format(self, *args: object, **values: object) -> str:
        def elide(m: re.Match[str]) -> str:
            value = values.get(m.group(2))
            if isinstance(value, str) and value[:1].lower() in _VOWELS:
                return f"{m.group(1)[:-1]}'{{{m.group(2)}}}"
            return m.group(0)

        return str.format(_ELIDABLE.sub(elide, self), *args, **values)


def _eliding(text: str) -> str:
    return _french_template(text) if _code == "fr" else text


@lru_cache(maxsize=2048)
def _french_template(text: str) -> str:
    """(Once per text: `_()` runs many times on every redraw.)"""
    return _ElidingTemplate(text) if _ELIDABLE.search(text) else text


def N_(message: str) -> str:
    """Marks a text for translation where it is defined; `_()` translates it where shown."""
    return message


# Values that are words of ours, not names: a console translates them inside a reason.
_WORD_FIELDS = ("phase", "colour")  # (a seat's colour: "rosso non è un posto…", not "red")


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

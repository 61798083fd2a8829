"""The player's profile: the name the others see, asked once on the first run and kept in
the platform's config directory (places.py) beside — not inside — the identity keys.

The first suggestion is the name the OS knows the user by: the full name when the system
has one (the account's display name on Windows, the passwd entry's on macOS and Linux),
else the login name. `--name` overrides it for one run; the lobby's `name NEW` changes it
for good.
"""

from __future__ import annotations

import contextlib
import getpass
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from tongiaki_lan.files import write_text_atomic

PROFILE_FORMAT = 1
MAX_NAME = 16  # what a seat shows (the lobby's `name` command cuts there too)
# what every laptop takes in a name on the wire: a field of 24 characters holds at most 48
# bytes of UTF-8 (protocol/wire.md, Text). Sixteen emoji are 64: the others refused every
# word of that player's table, and a friend's `join` waited in silence for ever.
MAX_NAME_BYTES = 48


def fits_the_wire(text: str, longest: int) -> bool:
    """Whether `text` is at most `longest` characters and MAX_NAME_BYTES of UTF-8."""
    return len(text) <= longest and len(text.encode("utf-8", "surrogatepass")) <= MAX_NAME_BYTES


class ProfileError(ValueError):
    """A profile file that cannot be read; the message names the file and the way out."""


@dataclass(frozen=True, slots=True)
class Profile:
    name: str


def clean_name(text: str) -> str:
    """A name as a seat shows it: one line, no surrounding spaces, at most 16 characters
    (fewer when they are emoji: `fits_the_wire`)."""
    name = " ".join(text.split())[:MAX_NAME]
    while not fits_the_wire(name, MAX_NAME):
        name = name[:-1]
    return name.rstrip()


def load_profile(path: str | os.PathLike) -> Profile | None:
    """The saved profile, or None on the first run."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ProfileError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(raw.decode("utf-8"))
        name = data["name"]
        if not isinstance(name, str) or not name.strip():
            raise ValueError("no name")
    except (ValueError, KeyError, TypeError, UnicodeDecodeError):
        raise ProfileError(f"{path} is damaged; it will be written again when you give "
                           "your name") from None
    return Profile(clean_name(name))  # (one saved before names had to fit the wire)


def save_profile(path: str | os.PathLike, *, name: str) -> Path:
    data = {"format": PROFILE_FORMAT, "name": name}
    return write_text_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n",
                             private=True)


def _windows_display_name() -> str:
    import ctypes

    size = ctypes.c_ulong(0)
    secur32 = ctypes.windll.secur32  # type: ignore[attr-defined]
    name_display = 3  # EXTENDED_NAME_FORMAT.NameDisplay
    secur32.GetUserNameExW(name_display, None, ctypes.byref(size))
    if not size.value:
        return ""
    buf = ctypes.create_unicode_buffer(size.value)
    if not secur32.GetUserNameExW(name_display, buf, ctypes.byref(size)):
        return ""
    return buf.value


def _posix_full_name() -> str:
    import pwd

    return pwd.getpwuid(os.getuid()).pw_gecos.split(",")[0]


def os_user_name(platform: str | None = None) -> str:
    """The OS user's full name, else the login name (capitalised), else 'You'."""
    platform = platform or sys.platform
    try:
        full = _windows_display_name() if platform == "win32" else _posix_full_name()
    except Exception:  # noqa: BLE001 - no such API, no passwd entry (containers): login name
        full = ""
    try:
        login = getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name at all (some containers)
        login = ""
    if clean_name(full) and full.strip().casefold() != login.casefold():
        return clean_name(full)  # a real full name, not the login name again ("root")
    return clean_name(login.capitalize()) or "You"


def ask_name(path: str | os.PathLike, *, ask=input, say=print) -> str:
    """The first run's question; the answer (or the suggestion, on Enter) is saved."""
    from tongiaki_lan.i18n import _

    suggestion = os_user_name()
    question = _("Your name for the other players [{name}]: ").format(name=suggestion)
    try:
        answer = ask(question)
        if _looks_like_a_command(answer):  # (a playtest: `watch motu` became a name)
            answer = ask(_("'{answer}' looks like a command: the lobby opens after this "
                           "question. Type it again to be called that. ").format(
                answer=clean_name(answer)) + question)
    except EOFError:
        answer = ""
    name = clean_name(answer) or suggestion
    try:
        save_profile(path, name=name)
    except OSError as exc:
        say(_("Could not save your name in {path}: {reason}").format(
            path=path, reason=exc.strerror or exc))
    return name


# the lobby's commands that a first answer may be meant as (English, as typed anywhere)
_COMMAND_WORDS = ("create", "join", "watch", "solo", "help", "quit", "list", "doctor",
                  "name", "colour", "color", "replay", "records", "lobby")


def _looks_like_a_command(answer: str) -> bool:
    words = answer.split()
    return bool(words) and words[0].casefold() in _COMMAND_WORDS


def player_name(path: str | os.PathLike, given: str | None, *, interactive: bool,
                ask=input, say=print) -> str:
    """Who plays: `--name` if given; else the saved profile; else, on the first run, asked
    (interactive) or the OS user's name (not interactive, not saved). A `--name` given at
    a terminal on the first run is kept as that run's answer would be: the next start
    asked the question all the same, and took the command typed into it for a name."""
    if given and clean_name(given):
        name = clean_name(given)  # (as the first run's answer: `--name 'ana '` is "ana")
        if interactive and not Path(path).exists():
            with contextlib.suppress(OSError):
                save_profile(path, name=name)
        return name
    try:
        profile = load_profile(path)
    except ProfileError as exc:
        say(f"tongiaki-lan: {exc}")
        profile = None
    if profile is not None:
        return profile.name
    if interactive:
        return ask_name(path, ask=ask, say=say)
    return os_user_name()

"""Where this program keeps its files on each platform (docs/files.md has the table).

- data: the game records and, beside them, each player's identity key (records/);
- config: the player's profile (the name asked on the first run);
- logs: the rotating log of the full-screen console.

Each comes from platformdirs, so a player finds them where their OS keeps such things:
%LOCALAPPDATA%\\tongiaki-lan on Windows, ~/Library/Application Support/tongiaki-lan (and
~/Library/Logs) on macOS, the XDG base directories elsewhere. One environment variable,
TONGIAKI_LAN_HOME, puts everything under one directory instead (a USB stick, a test); the
`--records DIR` option moves the records (and the identities that play them) only.

Earlier versions used ~/.local/share/tongiaki-lan (or $XDG_DATA_HOME/tongiaki-lan) on every
OS. On Linux that is where platformdirs points anyway; elsewhere `settle_legacy` moves those
records once to the new place and says so, or keeps using them where they are if they
cannot be moved.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

APP = "tongiaki-lan"
HOME_ENV = "TONGIAKI_LAN_HOME"
RECORDS = "records"
PROFILE_NAME = "profile.json"


@dataclass(frozen=True, slots=True)
class Places:
    data: Path
    config: Path
    logs: Path

    @property
    def records(self) -> Path:
        return self.data / RECORDS

    @property
    def profile(self) -> Path:
        return self.config / PROFILE_NAME


def platform_places(dirs=None) -> Places:
    """The platform's directories (`dirs`: a platformdirs object, for tests of another
    platform's rules; default: this platform's)."""
    if dirs is None:
        import platformdirs

        dirs = platformdirs.PlatformDirs(APP, appauthor=False)
    return Places(Path(dirs.user_data_dir), Path(dirs.user_config_dir),
                  Path(dirs.user_log_dir))


def places(dirs=None, env=None) -> Places:
    """Where things go now: under $TONGIAKI_LAN_HOME when it is set, else the platform's."""
    env = os.environ if env is None else env
    home = env.get(HOME_ENV, "").strip()
    if home:
        base = Path(home).expanduser()
        return Places(base, base, base / "logs")
    found = platform_places(dirs)
    legacy = legacy_records(env)
    if legacy is not None and legacy != found.records and not found.records.exists() \
            and legacy.is_dir():
        # an older version's records that could not be moved: keep using them there
        return Places(legacy.parent, found.config, found.logs)
    return found


def legacy_records(env=None) -> Path | None:
    """Where versions before platformdirs kept records on every OS (None if no home)."""
    env = os.environ if env is None else env
    base = env.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        try:
            base = os.path.join(Path.home(), ".local", "share")
        except RuntimeError:  # no home directory at all
            return None
    return Path(base) / APP / RECORDS


def settle_legacy(dirs=None, env=None) -> str | None:
    """Move an older version's records (and identities, which lie beside them) to this
    platform's place, once; returns the sentence to tell the player, or None when there was
    nothing to do. If the move fails (another disk, a file in use) `places` keeps finding
    them where they are, and the sentence says so."""
    env = os.environ if env is None else env
    if env.get(HOME_ENV, "").strip():
        return None
    new = platform_places(dirs).records
    old = legacy_records(env)
    if old is None or old == new or new.exists() or not old.is_dir():
        return None
    try:
        new.parent.mkdir(parents=True, exist_ok=True)
        os.replace(old, new)
    except OSError as exc:
        return (f"tongiaki-lan: your records stay in {old} (moving them to {new} failed: "
                f"{exc.strerror or exc})")
    return f"tongiaki-lan: moved your records and identities from {old} to {new}"

"""Each platform's places for records, profile and log, through platformdirs' own rules
(its documented environment overrides: XDG_* on Linux, WIN_PD_OVERRIDE_* on Windows, the
home directory on macOS), TONGIAKI_LAN_HOME over all of them, and the records of earlier
versions found again."""

from __future__ import annotations

import ntpath
import os

import platformdirs
import platformdirs.windows
import pytest
from platformdirs.macos import MacOS
from platformdirs.unix import Unix
from platformdirs.windows import Windows

from tongiaki_lan.places import APP, HOME_ENV, places, platform_places, settle_legacy

XDG = ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME")


@pytest.fixture
def home(monkeypatch, tmp_path):
    monkeypatch.delenv(HOME_ENV, raising=False)
    for var in XDG:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def test_linux_follows_the_xdg_base_directories(home, monkeypatch, tmp_path):
    p = platform_places(Unix(APP, appauthor=False))
    assert p.records == home / ".local/share/tongiaki-lan/records"
    assert p.profile == home / ".config/tongiaki-lan/profile.json"
    assert p.logs == home / ".local/state/tongiaki-lan/log"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "conf"))
    p = platform_places(Unix(APP, appauthor=False))
    assert p.records == tmp_path / "data/tongiaki-lan/records"
    assert p.profile == tmp_path / "conf/tongiaki-lan/profile.json"


def test_macos_uses_application_support_and_library_logs(home):
    p = platform_places(MacOS(APP, appauthor=False))
    assert p.records == home / "Library/Application Support/tongiaki-lan/records"
    assert p.profile == home / "Library/Application Support/tongiaki-lan/profile.json"
    assert p.logs == home / "Library/Logs/tongiaki-lan"


def test_windows_uses_local_appdata_never_the_roaming_profile(home, monkeypatch):
    local = "C:\\Users\\Ana\\AppData\\Local"
    monkeypatch.setenv("WIN_PD_OVERRIDE_LOCAL_APPDATA", local)
    monkeypatch.setenv("WIN_PD_OVERRIDE_APPDATA", "C:\\Users\\Ana\\AppData\\Roaming")
    try:
        honoured = platformdirs.windows.get_win_folder("CSIDL_LOCAL_APPDATA") == local
    except (NotImplementedError, OSError, ValueError):  # no Windows shell to ask
        honoured = False
    if not honoured:
        pytest.skip(f"platformdirs {platformdirs.__version__} has no WIN_PD_OVERRIDE_*")
    d = Windows(APP, appauthor=False)
    # paths as Windows writes them (this test may run on any OS)
    assert ntpath.normpath(d.user_data_dir) == local + "\\tongiaki-lan"
    assert ntpath.normpath(d.user_config_dir) == local + "\\tongiaki-lan"
    assert ntpath.normpath(d.user_log_dir) == local + "\\tongiaki-lan\\Logs"


def test_tongiaki_lan_home_puts_everything_in_one_directory(home, monkeypatch, tmp_path):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "stick"))
    p = places(MacOS(APP, appauthor=False))
    assert (p.records, p.profile, p.logs) == (
        tmp_path / "stick/records", tmp_path / "stick/profile.json", tmp_path / "stick/logs")


def test_records_of_an_earlier_version_move_once_with_a_message(home):
    old = home / ".local/share/tongiaki-lan/records"
    old.mkdir(parents=True)
    (old / "solo-1.tgrec").write_bytes(b"x")
    (old / "Ana.identity").write_bytes(bytes(32))
    mac = MacOS(APP, appauthor=False)
    assert places(mac).records == old  # found and used until moved
    said = settle_legacy(mac)
    new = home / "Library/Application Support/tongiaki-lan/records"
    assert said == f"tongiaki-lan: moved your records and identities from {old} to {new}"
    assert sorted(p.name for p in new.iterdir()) == ["Ana.identity", "solo-1.tgrec"]
    assert not old.exists() and places(mac).records == new
    assert settle_legacy(mac) is None  # once


def test_on_linux_the_earlier_place_is_the_place(home):
    old = home / ".local/share/tongiaki-lan/records"
    old.mkdir(parents=True)
    linux = Unix(APP, appauthor=False)
    assert settle_legacy(linux) is None and places(linux).records == old


def test_records_that_cannot_be_moved_stay_in_use_and_the_player_is_told(home, monkeypatch):
    old = home / ".local/share/tongiaki-lan/records"
    old.mkdir(parents=True)
    mac = MacOS(APP, appauthor=False)

    def refuse(src, dst):
        raise OSError(18, "Invalid cross-device link")

    monkeypatch.setattr(os, "replace", refuse)
    said = settle_legacy(mac)
    assert said.startswith(f"tongiaki-lan: your records stay in {old}")
    assert places(mac).records == old

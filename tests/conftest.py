"""Settings for the whole suite.

The console speaks the language of the environment (LANGUAGE, LC_ALL, LC_MESSAGES,
LANG, or the OS's own setting on Windows and macOS). Tests that start `tongiaki-lan` read
English words off its screen, so the suite runs in English whatever the developer's or CI
machine's locale; tests of other languages ask for theirs explicitly (tests/i18n).

Nothing the suite starts writes into the developer's own profile: TONGIAKI_LAN_HOME points
records, profile and log at a directory of this run (tests of the platform's places remove
it for themselves).

The Linux lab (network namespaces and iptables, marked `netns`; a real terminal in tmux,
marked `tmux`) exists on Linux only: elsewhere those tests are skipped with the reason, so
that the portable rest of the suite runs on Windows and macOS (.github/workflows/ci.yml).
"""

import os
import shutil
import sys
import tempfile

import pytest

os.environ["LANGUAGE"] = "en"
os.environ["TONGIAKI_LAN_HOME"] = tempfile.mkdtemp(prefix="tongiaki-lan-tests-")

LINUX = sys.platform.startswith("linux")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if not item.get_closest_marker("netns"):
            # With `-n N --dist loadgroup` (the README's command) one worker runs all of
            # these in turn: many start nodes whose discovery shares this machine's
            # loopback, where tables of tests run side by side would see each other's
            # adverts. Each namespace test has a network of its own, and mostly waits on
            # the clock (a lid closed 30 s): those run on the other workers meanwhile.
            item.add_marker(pytest.mark.xdist_group("one-network"))
        if item.get_closest_marker("netns") and not LINUX:
            item.add_marker(pytest.mark.skip(
                reason="network namespaces and iptables are Linux's (the Linux lab)"))
        if item.get_closest_marker("tmux"):
            if not LINUX:
                item.add_marker(pytest.mark.skip(
                    reason="the end-to-end terminal tests drive tmux, run on Linux"))
            elif shutil.which("tmux") is None:
                item.add_marker(pytest.mark.skip(
                    reason="tmux is not installed (apt-get install tmux)"))

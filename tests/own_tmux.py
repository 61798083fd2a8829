"""A real terminal for end-to-end tests, on a tmux server of the test's own (`-L`), so that
nothing else running tmux on the machine is touched and teardown kills only ours."""

from __future__ import annotations

import os
import shutil
import subprocess
import time

TMUX = shutil.which("tmux")


class Terminal:
    def __init__(self, name: str, command: str, env: dict, cwd: str, width: int = 100,
                 height: int = 30):
        self.socket = f"tongiaki-{name}-{os.getpid()}"
        self.env = env
        self._tmux("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height),
                   "-c", cwd, command)

    def _tmux(self, *args: str) -> str:
        return subprocess.run([TMUX, "-L", self.socket, *args], capture_output=True, text=True,
                              env=self.env, check=True).stdout

    def screen(self) -> str:
        """What the terminal shows, wrapped lines joined (-J)."""
        return self._tmux("capture-pane", "-p", "-J", "-t", "t")

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def wait_for(self, predicate, what: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if predicate(screen):
                return screen
            assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{screen}"
            time.sleep(0.02)  # polling interval of a condition, not a synchronisation sleep

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True)

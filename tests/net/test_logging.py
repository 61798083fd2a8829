"""Under the full-screen console nothing may be printed on the terminal: log records go
to a file next to the records, and the network layer's warnings reach the player as
`Notice` events (the console's log pane)."""

from __future__ import annotations

import logging

import pytest

from tongiaki_lan.logfile import LOG_NAME, log_to_file
from tongiaki_lan.net import Node, Notice


@pytest.fixture
def root_logger():
    """The root logger, given back after the test as it was: the handlers a test's
    `log_to_file` added closed and removed, the earlier ones and the level restored."""
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    yield root
    for h in list(root.handlers):
        root.removeHandler(h)
        h.close()
    for h in saved[0]:
        root.addHandler(h)
    root.setLevel(saved[1])


async def test_warnings_go_to_the_log_file_and_the_log_pane_never_to_the_terminal(
        tmp_path, capfd, root_logger):
    node = Node("Ana", host="127.0.0.1", record_dir=tmp_path)
    try:
        path = log_to_file(tmp_path)
        await node.start()
        seen = []
        node.add_listener(lambda ev: seen.append(ev) if isinstance(ev, Notice) else None)
        logging.getLogger("tongiaki_lan.net.aio.discovery").warning("zeroconf publish failed: %s",
                                                                "no route")
        await node.wait_for(lambda: seen, 5)
        assert seen[0].text == "zeroconf publish failed: no route"
        assert seen[0].to_json() == {"event": "warning", "text": seen[0].text}
        logging.getLogger("asyncio").error("Task exception was never retrieved")
        for h in root_logger.handlers:
            h.flush()
        text = path.read_text()
        assert path.name == LOG_NAME and path.parent == tmp_path
        assert "zeroconf publish failed: no route" in text and "never retrieved" in text
        out, err = capfd.readouterr()
        assert out == "" and err == ""
    finally:
        await node.close()


def test_the_log_file_is_bounded_old_lines_move_to_numbered_files(tmp_path, root_logger):
    path = log_to_file(tmp_path, max_bytes=4000)
    for i in range(400):
        logging.getLogger("tongiaki_lan.test").warning("line %d — ünïcödé", i)
    for h in root_logger.handlers:
        h.flush()
    logs = sorted(p.name for p in tmp_path.iterdir())
    assert logs == [LOG_NAME, f"{LOG_NAME}.1", f"{LOG_NAME}.2", f"{LOG_NAME}.3"]
    assert all((tmp_path / n).stat().st_size <= 4000 for n in logs)
    assert "line 399 — ünïcödé" in path.read_text(encoding="utf-8")


def test_a_log_directory_that_cannot_be_written_leaves_the_console_quiet_not_broken(
        tmp_path, capfd, root_logger):
    """A read-only home (a school laptop, a full disk, `TONGIAKI_LAN_HOME` on a read-only
    stick): the lobby opened with a traceback from making the log directory. Now there is
    no log file, and still nothing reaches the terminal the console draws on."""
    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    assert log_to_file(blocked / "logs") is None
    logging.getLogger("tongiaki_lan.net.aio.discovery").warning("zeroconf publish failed")
    logging.getLogger("asyncio").error("Task exception was never retrieved")
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert not (blocked / "logs").exists()

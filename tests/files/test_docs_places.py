"""The docs name the files where the code puts them. They named the console's identity
key `NAME.identity` while the console wrote `player.identity`, and docs/network.md put the
console's log in the records directory, where a player looked for it in vain."""

from __future__ import annotations

import re
from pathlib import Path

from tongiaki_lan.logfile import LOG_NAME
from tongiaki_lan.net.aio.identity_file import PLAYER_IDENTITY, player_identity_path
from tongiaki_lan.places import places

REPO = Path(__file__).resolve().parents[2]
DOCS = sorted([*REPO.glob("docs/*.md"), REPO / "README.md", *REPO.glob("protocol/*.md")])


def test_the_identity_keys_are_named_as_the_console_and_a_headless_node_write_them(tmp_path):
    from tongiaki_lan.net.aio.node import Node

    assert player_identity_path(tmp_path, "Ana") == tmp_path / PLAYER_IDENTITY
    headless = Node("Ana B", host="127.0.0.1", record_path=tmp_path / "deck" / "x.tgrec")
    assert headless.profile == tmp_path / "deck" / "Ana_B.identity"  # beside its record
    for doc in ("docs/files.md", "docs/network.md", "protocol/security.md"):
        text = (REPO / doc).read_text(encoding="utf-8")
        assert PLAYER_IDENTITY in text, doc
        # a name's key is said to be the headless node's, beside its record
        for said in re.finditer(r"(NAME|<name>)\.identity", text):
            around = text[max(0, said.start() - 300):said.end() + 300]
            assert "headless" in around and "record" in around, (doc, around)


def test_no_doc_puts_the_log_in_the_records_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("TONGIAKI_LAN_HOME", str(tmp_path))
    assert places().logs != places().records
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for said in re.finditer(re.escape(LOG_NAME), text):
            line = text[text.rfind("\n", 0, said.start()) + 1:said.end()]
            assert not re.search(r"records?[ _]?(dir|directory)?>?[/\\]" + re.escape(LOG_NAME),
                                 line), (doc.name, line)
    files_md = (REPO / "docs/files.md").read_text(encoding="utf-8")
    assert f"`{LOG_NAME}`" in files_md and "DIR/logs" in files_md

"""`tongiaki-lan records`: the games recorded on this laptop, newest first, numbered as
`replay N` takes them. A player after a party wanted "the game with Dee" and had only a
directory of file names to guess from (and typed `tongiaki-lan records`, which did not
exist)."""

from __future__ import annotations

import argparse
import contextlib
import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

SHOWN = 20  # the newest records listed unless --all


def configure(p: argparse.ArgumentParser) -> None:
    from tongiaki_lan.cli import lang_option
    from tongiaki_lan.cli.optiontypes import directory

    p.add_argument("--records", type=directory("a directory of records"), default=None,
                   metavar="DIR",
                   help="where the records are (default: this system's place for records, "
                        "`tongiaki-lan --help` prints it)")
    p.add_argument("--all", action="store_true", help=f"every record, not the newest {SHOWN}")
    p.add_argument("--json", action="store_true", help="one JSON object per record")
    lang_option(p)


def summaries(directory: Path, limit: int | None = SHOWN,
              level: Callable[[str], str] | None = None) -> list[dict]:
    """One summary per record, newest first: numbered from 1, as `replay N` counts. A
    damaged record is listed with what is wrong with it, not left out: its number must
    not shift the others'. `level` says a table bot's level in the reader's language
    ("Maui (normale)"): the record keeps the name the table gave it, "Maui (normal)",
    which an Italian list showed in English among Italian words (a playtest)."""
    from tongiaki_lan.net.aio.sidecar import has_sidecar, read_sidecar
    from tongiaki_lan.records import newest_records, read_record, replay_record

    out = []
    for n, path in enumerate(newest_records(directory)[:limit], 1):
        entry: dict = {"n": n, "path": str(path)}
        try:
            record = read_record(path)
            game = replay_record(record)
            modified = datetime.fromtimestamp(path.stat().st_mtime)
        except (OSError, ValueError) as exc:  # (damaged, or gone since it was listed)
            entry["error"] = str(exc)
            out.append(entry)
            continue
        shown = _leveled(record.header.seats, level) if level is not None else {}
        names = tuple(shown.get(n, n) for n in record.seat_names())
        by_colour = {}
        for seat, name in zip(record.header.seats, names, strict=True):
            by_colour.setdefault(seat.colour, name)
        # every seat's players in turn, "Ben → Émile" where a newcomer took it over: the
        # list named only those of the end, and the player who started with Ben wondered
        histories: list[list[str]] = [[s.name] for s in record.header.seats]
        for _index, changed in record.names:
            for history, name in zip(histories, changed, strict=False):
                if history[-1] != name:
                    history.append(name)
        histories = [[shown.get(n, n) for n in h] for h in histories]
        players = list(dict.fromkeys(" → ".join(h) for h in histories))  # (V1: once)
        helped = [shown.get(n, n) for n in _helped(record)]
        left = False
        if has_sidecar(path):  # (this laptop's seat: resume data beside the record)
            with contextlib.suppress(Exception):
                left = read_sidecar(path)["left"]
        entry.update({
            "game": record.header.game_name,
            # said goodbye for good; watched only (a watcher who took a seat has resume data)
            "left": left, "watched": record.header.watched and not has_sidecar(path),
            "created": record.header.created,
            "modified": modified.isoformat(timespec="minutes"),
            "players": players,
            "bot_played_for": helped,
            "moves": len(record.moves),
            "undos": len(record.undos),  # (a solo game: moves taken back, replay says where)
            "over": game.is_over,
            "winners": (list(dict.fromkeys(by_colour.get(c, c) for c in game.winners()))
                        if game.is_over else []),
        })
        out.append(entry)
    return out


def _leveled(seats, level: Callable[[str], str]) -> dict[str, str]:
    """The table bots' names as shown, their level said by `level` (`{"Maui (normal)":
    "Maui (normale)"}`): a seat's first name that ends with its level in brackets, as the
    table names its bots."""
    return {s.name: f"{s.name.removesuffix(f' ({s.kind})')} ({level(s.kind)})"
            for s in seats if s.kind != "human" and s.name.endswith(f" ({s.kind})")}


def _helped(record) -> list[str]:
    """Whose seat a bot played some turns of (away, or gone for good: replay tells), named
    as the bot took the seat over: a newcomer who took a seat a bot still played was
    listed among those the bot played for (a playtest). A bot's own seat is left out
    (a table's bot, or a laptop that plays its seat with one, `play --headless --bot`):
    "(a bot played some turns for Kai)" of a bot laptop away for a while read as if a
    person had been helped (a LAN playtest). Who took a seat mid-game is taken for a
    person: the record names them, not what plays them."""
    seats = record.header.seats
    names: list[str] = []
    before: tuple[str, ...] = ("",) * len(seats)
    for i, bots in record.bots:
        now = record.seat_names(i)
        for s, bot in enumerate(bots):
            if bot and not before[s] and not _a_bot_plays(record, s, i):
                names.append(now[s])
        before = bots
    return list(dict.fromkeys(names))


def _a_bot_plays(record, seat: int, index: int) -> bool:
    """Whether seat `seat` is a bot's for good before move `index`: its first player
    is a bot (the header's kind) and nobody took it over since."""
    first = record.header.seats[seat]
    return first.kind != "human" and all(
        names[seat] == first.name for at, names in record.names if at < index)


def run(args) -> int:
    from tongiaki_lan.cli import use_language

    if not use_language(args):
        return 2
    from tongiaki_lan.console.seats import kind_label
    from tongiaki_lan.i18n import _, ngettext
    from tongiaki_lan.records import default_record_dir

    directory = args.records or default_record_dir()
    found = summaries(directory, None if args.all else SHOWN,
                      None if args.json else kind_label)
    if args.json:
        for entry in found:
            print(json.dumps(entry))
        return 0
    if not found:
        print(_("No recorded game in {dir}.").format(dir=directory))
        return 0
    for e in found:
        if "error" in e:
            print(f"{e['n']:>3}. {_('damaged: {reason}').format(reason=e['error'])}")
        else:
            title = e["game"] or _("solo")
            moves = ngettext("{n} move", "{n} moves", e["moves"]).format(n=e["moves"])
            if e["undos"]:  # (moves taken back against the bots: replay says where)
                moves += " " + ngettext("({n} undo)", "({n} undos)", e["undos"]).format(
                    n=e["undos"])
            if e["over"]:
                state = _("won by {names}").format(names=" & ".join(e["winners"]))
            elif e["left"]:
                state = _("left for good")
            elif e["watched"]:
                state = _("watched, not to the end")
            else:
                state = _("unfinished")
            if e["watched"]:
                title = _("{game} (watched)").format(game=title)
            when = e["modified"].replace("T", " ")
            players = ", ".join(e["players"])
            print(f"{e['n']:>3}. {when}  {title} · {players} · {moves} · {state}")
            if e["bot_played_for"]:  # (its own line: in the line above it made 94 columns)
                print("     " + _("(a bot played some turns for {names})").format(
                    names=" & ".join(e["bot_played_for"])))
        print(f"     {e['path']}")
    print(_("replay N shows game N of this list; verify PATH checks a record."))
    return 0

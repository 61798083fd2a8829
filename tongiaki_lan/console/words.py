"""Words for what the game is waiting for, and the help a player can ask for."""

from __future__ import annotations

from tongiaki_lan.engine import LETTERS, ChooseBeaches, Game, Move, Sail
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES
from tongiaki_lan.i18n import N_, _, ngettext
from tongiaki_lan.i18n.islands import island_name, shown_island

from .phrases import final_words, numbers_text, ships_text, tile_label


def _unbroken_tail(text: str) -> str:
    """The closing "(lobby: the next game · quit leaves)" held together with no-break
    spaces: at 80 columns it wrapped as "(lobby: the next game" / "· quit leaves)"."""
    head, sep, tail = text.rpartition(" (")
    return head + sep + tail.replace(" ", "\u00a0") if sep else text


# What the line holds at our own landing decision (`pending_text`'s `landing`)
LANDING_HINTED = "hinted"  # the hint's landing: Enter plays what `hint` recommends
LANDING_THINKING = "thinking"  # nothing yet: the hint is choosing
LANDING_PLAIN = "plain"  # the engine's default_landing (the hint failed): no advice
# something else typed over the offer: Enter plays that, not the offer
LANDING_TYPED = "typed"


def pending_text(game: Game, names: list[str], local: set[int],
                 lobby: bool = False, labels: list[str] | None = None,
                 replay: bool = False, landing: str = LANDING_HINTED,
                 line: bool = True, tab: bool = True) -> tuple[str, str]:
    """(style, text) for the status line: the pending decision and whose it is.
    `lobby`: the game was started from the lobby, which `lobby` goes back to; `labels`
    name the seats in the result (`Maui — bot (search)`). `replay`: nobody is thinking
    or waited for, the decision is only named (`Kupe — bot (search) (Y): placing…`).
    `landing`: what the line holds at our own landing (`LANDING_*`): the hint's landing,
    nothing yet while the hint thinks, the engine's plain one if the hint failed, or
    what the player typed over the offer (Enter plays that, not the hint). A
    newcomer read "Enter takes the offer" as advice, and the engine's first landing was
    often not the one `hint` recommended. `line`: as a view with a command line says it
    (what to type, what Enter does); else in words any view can show (the board page has
    no Enter: it offers buttons and marks what can be clicked). `tab`: the line is the
    terminal's, where Tab completes (the line mode has no Tab: it lists the moves)."""
    p = game.pending
    if p is None:
        result = final_words(game, labels or names)
        if not line:
            return "class:status.over", _("Game over. {result}").format(result=result)
        if lobby:
            text = _("Game over. {result}  (lobby: the next game · quit leaves)").format(
                result=result)
        else:
            text = _("Game over. {result}  (quit to leave)").format(result=result)
        return "class:status.over", _unbroken_tail(text)
    if p.seat is None:  # a tile reveal: chance's decision, dealt in a moment
        return "class:status", _("A tile is being revealed…")
    mine = p.seat in local
    who = f"{names[p.seat]} ({LETTERS[game.colour_ids()[p.seat]]})"
    island = island_name(p.island) if p.island is not None else ""
    if mine and not line:
        text = _neutral_text(game, p, landing)
    if mine and line:  # short enough for an 80-column status line; the panel says who you are
        tile = tile_label(p.tile) if p.tile is not None else ""
        text = {
            D.SETUP: _("put a ship on Tonga — place Tonga BEACH"),
            D.ACTION: _action_text(game, p.seat),
            D.EXPAND_BEACHES: ngettext("{n} new ship on {island} — beaches BEACH (its number)",
                                       "{n} new ships on {island} — beaches BEACH… ({n} beach "
                                       "numbers)", p.count or 0),
            D.T1A_SOURCE: _("reserve empty: bring a ship to {island} — take ISLAND BEACH"),
            D.DEPARTURE: "{departure}",
            D.LANDING: {
                LANDING_HINTED: _("{ships} reach {island}: Enter takes the hint"),
                LANDING_THINKING: _("{ships} reach {island}: a hint is on its way…"),
                LANDING_PLAIN: _("{ships} reach {island}: Enter lands them in beach order"),
                LANDING_TYPED: _("{ships} reach {island} — land BEACH:COLOURS …"),
            }[landing],
            D.COLONY_TILE: _("New Colony: place {tile} — tile Q,R DIR (its red mark)"),
            D.COLONY_SHIP: _("New Colony: a ship on {island} — place {island} BEACH"),
        }[p.kind].format(island=island, n=p.count, ships=ships_text(p.group), tile=tile,
                         departure=_departure_text(game, tab=tab) if p.kind == D.DEPARTURE
                         else "")
    if mine:
        if game.owners is not None:  # two colours each (V1): which of your two colours
            return "class:status.mine", _("Your decision ({letter}): {text}").format(
                letter=LETTERS[game.colour_ids()[p.seat]], text=text)
        return "class:status.mine", _("Your decision: {text}").format(text=text)
    doing = {
        D.SETUP: _("placing a ship on Tonga"),
        D.ACTION: _("choosing an action"),
        D.EXPAND_BEACHES: _("choosing beaches on {island}"),
        D.T1A_SOURCE: _("choosing a ship to bring to {island}"),
        D.DEPARTURE: _("choosing the next departure"),
        D.LANDING: _("landing {ships} on {island}"),
        D.COLONY_TILE: _("placing a New Colony tile"),
        D.COLONY_SHIP: _("putting a ship on {island}"),
    }[p.kind].format(island=island, ships=ships_text(p.group))
    if labels is not None and labels[p.seat] != names[p.seat]:  # a bot decides
        who = f"{labels[p.seat]} ({LETTERS[game.colour_ids()[p.seat]]})"
        if not replay:
            return "class:status", _("{who} is thinking: {doing}…").format(who=who,
                                                                           doing=doing)
    if replay:
        return "class:status", _("{who}: {doing}").format(who=who, doing=doing)
    return "class:status", _("Waiting for {who}: {doing}…").format(who=who, doing=doing)


def move_preview(game: Game, move: Move | None) -> str:
    """What a move sets off, where that can be seen before it is played: a departure's
    destination, or the beach a choice of beaches fills (whose ships then sail at once);
    "" for the rest."""
    if isinstance(move, Sail):
        return preview_text(game, move)
    if isinstance(move, ChooseBeaches):
        return fill_text(game, move)
    return ""


def fill_text(game: Game, move: ChooseBeaches) -> str:
    """T2 after an expansion: a beach the new ships fill sails at once. A newcomer's
    first `beaches 1 6` filled beach 1 and sent three ships to be wrecked with no word
    before it (a playtest); Tab and the status line now say it, as they do for `sail`.
    Played on a copy up to the first departure or the next decision (no tile is drawn:
    the copy stops where a tile would be revealed)."""
    trial = game.copy(undo=False)
    start = len(trial.events)
    trial.apply(move)
    departs = [e.data for e in trial.events[start:] if e.kind == "depart"]
    if departs:
        _island, beach, pier, group = departs[0]
        return _("→ beach {beach} fills: {ships} sail {pier}").format(
            beach=beach + 1, ships=ships_text(group), pier=DIRECTION_NAMES[pier])
    p = trial.pending
    if p is not None and p.kind == D.DEPARTURE:  # the player picks: which beach, or a pier
        # (one full beach with a choice of piers read "beaches 1 fill: you choose which
        # sails first", though there was nothing to choose between beaches)
        full = sorted({m.beach for m in trial.legal_moves() if isinstance(m, Sail)})
        return ngettext("→ beach {beaches} fills: you choose the pier it sails by",
                        "→ beaches {beaches} fill: you choose which sails first",
                        len(full)).format(beaches=numbers_text(full))
    return ""


def preview_text(game: Game, move: Sail) -> str:
    """Where a departure goes over the tiles already placed, in a few words."""
    pv = game.preview(move)
    if pv.outcome == "land":
        return _("→ lands on {island}").format(island=island_name(pv.island))
    if pv.outcome == "back":
        if pv.royal is not None:
            return _("→ turned back by the Royal Island {royal} to {island}").format(
                royal=island_name(pv.royal), island=island_name(pv.island))
        return _("→ leads back to {island}").format(island=island_name(pv.island))
    if pv.outcome == "fail":
        cell = game.tile_at(pv.hex)
        where = island_name(cell[0]) if cell else f"{pv.hex[0]},{pv.hex[1]}"
        return ngettext("→ wrecked at {where}: danger {danger}, the group has {colours} colour",
                        "→ wrecked at {where}: danger {danger}, the group has {colours} colours",
                        pv.colours).format(where=where, danger=pv.danger, colours=pv.colours)
    if pv.outcome == "lost":  # (after the last island tile: sea tiles may be left, E2)
        return _("→ lost at sea: no tile is drawn after the last island tile")
    return _("→ reveals a tile at {hex}").format(hex=f"{pv.hex[0]},{pv.hex[1]}")


def _neutral_text(game: Game, p, landing: str) -> str:
    """Our decision in words that hold no typing and no key: the board page's (it marks
    what may be clicked and offers the rest as buttons)."""
    island = island_name(p.island) if p.island is not None else ""
    if p.kind == D.SETUP:
        return _("put a ship on Tonga")
    if p.kind == D.ACTION:
        if any(str(m).startswith("expand") for m in game.legal_moves()):
            return _("your turn — expand an island, found a Royal Island, or start a New "
                     "Colony")
        return _("your turn, no ships out — put ships on an island, or start a New Colony")
    if p.kind == D.EXPAND_BEACHES:
        return ngettext("{n} new ship on {island} — choose its beach",
                        "{n} new ships on {island} — choose {n} beaches",
                        p.count or 0).format(n=p.count, island=island)
    if p.kind == D.T1A_SOURCE:
        return _("reserve empty: bring a ship to {island} — choose the beach it comes "
                 "from").format(island=island)
    if p.kind == D.DEPARTURE:
        full = {(m.island, m.beach) for m in game.legal_moves() if isinstance(m, Sail)}
        where = _departure_text(game, words=True)
        if len(full) == 1:
            return _("{beach} is full: choose the pier it sails from").format(beach=where)
        return _("full: {beaches} — choose which sails first, and by which pier").format(
            beaches=where)
    if p.kind == D.LANDING:
        ships = ships_text(p.group)
        return {
            LANDING_HINTED: _("{ships} reach {island}: the hint's landing is offered"),
            LANDING_THINKING: _("{ships} reach {island}: a hint is on its way…"),
            LANDING_PLAIN: _("{ships} reach {island}: the offer lands them in beach order"),
        }[landing].format(ships=ships, island=island)
    if p.kind == D.COLONY_TILE:
        tile = tile_label(p.tile) if p.tile is not None else ""
        return _("New Colony: place {tile} — choose its place and where its red mark "
                 "points").format(tile=tile)
    return _("New Colony: a ship on {island} — choose its beach").format(island=island)


def _action_text(game: Game, seat: int) -> str:
    moves = game.legal_moves()
    kinds = {str(m).split()[0] for m in moves}
    if "expand" in kinds:
        return _("your turn — expand ISLAND, royal ISLAND or colony")
    return _("your turn, no ships out — place ISLAND BEACH [BEACH] or colony")


def _departure_text(game: Game, words: bool = False, tab: bool = True) -> str:
    """Which beaches are full (`Nauru 1`), so the player need not look for them: the
    status line said only "a beach is full", and two full beaches still "a beach".
    `words`: only where they are (`Nauru 1, Tonga 3`), for `_neutral_text`. `tab`: a
    single beach's line says that Tab tells where each pier goes; the line mode has no
    Tab (it said "(Tab: where it goes)" to a listener) and says where each goes with the
    legal moves that follow."""
    islands: dict[int, list[str]] = {}  # island -> its full beaches, in the moves' order
    for m in game.legal_moves():
        if isinstance(m, Sail):
            beaches = islands.setdefault(m.island, [])
            if str(m.beach + 1) not in beaches:
                beaches.append(str(m.beach + 1))
    parts = [f"{island_name(t)} {', '.join(bs)}" for t, bs in islands.items()]
    while len(parts) > 1 and len(", ".join(parts)) > 28:  # (an 80-column status line)
        parts[-2:] = [parts[-2] + " …"]
    where = ", ".join(parts)
    if words:
        return where
    if sum(len(bs) for bs in islands.values()) == 1:
        if not tab:
            return _("{beach} is full: sail ISLAND BEACH PIER").format(beach=where)
        return _("{beach} is full: sail ISLAND BEACH PIER (Tab: where it goes)").format(
            beach=where)
    return _("full: {beaches} — sail ISLAND BEACH PIER").format(beaches=where)


# the help's lines that only a game under way takes (a replay's help leaves them out: a
# playtest's replay listed `hint` and "Type a move"; its keys step through the moves)
_TYPING = [
    N_("Type a move in its short form; Tab lists exactly the legal ones. Other commands:"),
    N_("  hint — a bot's suggestion (put on the line: Enter plays it) · moves — list legal "
       "moves"),
]
_GAME_KEYS = [
    N_("Keys: arrows pan the map while the line is empty (Shift+arrows always), Home "
       "re-centres,"),
    N_("  PgUp/PgDn scroll the log (End: the newest), Tab completes (a sail says where it "
       "goes),"),
    N_("  Ctrl-C or Ctrl-D leaves. Text put on the line for you is replaced by what you type."),
    N_("Mouse: click a beach, an island, a pier or a free hex to put its move on the line."),
]

_CENTRE = N_("  rules — the rule behind the pending decision · help [MOVE] · centre [ISLAND] "
             "— re-centre the map (on an island)")
_MAP = N_("  map — at the end, switch between the final table and the map")

GENERAL_HELP = [
    N_("Goal: most points at the end; an island scores for each player with a ship or king "
       "on it (rules scoring)."),
    *_TYPING,
    _CENTRE,
    N_("  quit — leave (the record is saved)"),  # (`QUIT_LINES` says it as it is)
    N_("  position — the whole position as one line of text (paste it into a bug report)"),
    N_("  board — the board in your browser, live, played by clicking"),
    _MAP,
    *_GAME_KEYS,
    N_("Map: a beach is its number, ships as colour letters, · a free berth, then its piers"),
    N_("  (N NE SE S SW NW). Sea: 'N-S 4' is a route from N to S with danger 4 (needs 4"),
    N_("  colours in the group); no number = any group crosses."),
    N_("  On Tonga a beach starts with its pier: SW2B·· is beach 2, pier SW, a blue ship."),
    # (the panel's heads are four-letter words: nothing said what `brd` or `K/2` were, nor
    # the `*` against the player whose turn it is while another decides)
    N_("Panel: ▶ decides now, * has the turn; res ships in reserve, brd ships on beaches,"),
    # (`isl` counts an island where only your king stands, as E4 does: "with your ships"
    # left the king out)
    N_("  isl islands with a ship or king of yours, pts points, K/2 Royal Islands founded "
       "(2 at most)."),
]

# Move words stay English in every language: they are the moves' text form, the same on
# every laptop at the table and in the record.
MOVE_HELP = {
    "place": N_("place ISLAND BEACH [BEACH] — setup (S3: one ship on Tonga), X1 with no ships "
                "on the board (2 on Tonga or 1 elsewhere), or the New Colony ship (C3)"),
    "expand": N_("expand ISLAND — T1: add as many ships as you have there (one per free "
                 "beach)"),
    "royal": N_("royal ISLAND — K1: all ships there are yours; they go home but one, the king"),
    "colony": N_("colony — C1: take all your ships home and discover tiles until an island"),
    "beaches": N_("beaches BEACH … — T1: which beaches of the expanded island get the new ships"),
    "take": N_("take ISLAND BEACH — T1a: with an empty reserve, the ship you bring over ('take "
               "nothing' brings none)"),
    "sail": N_("sail ISLAND BEACH PIER — M1: which full beach departs next and by which pier"),
    "land": N_("land BEACH:COLOURS … — L1: e.g. 'land 1:BR 3:Y'; every beach with a free "
               "berth first gets one ship; ships without a berth go home. The line offers the "
               "hint's landing: Enter plays it."),
    "tile": N_("tile Q,R DIR — C2: the hex (shown on the map) and where the tile's red mark "
               "(its S edge as shown in the side panel) points"),
}


PLAYING_ONLY = frozenset([*_TYPING, *_GAME_KEYS])
# `quit` as it is: "the record is saved" stood in the help of a game played with
# --no-record, whose own question to leave said "this game is not recorded"
QUIT_LINES = {
    "recorded": GENERAL_HELP[GENERAL_HELP.index(N_("  quit — leave (the record is saved)"))],
    "unrecorded": N_("  quit — leave (this game is not recorded)"),
    "replay": N_("  quit — leave the replay"),
}
# a replay's keys instead (PgUp/PgDn step through the moves there, not the log)
REPLAY_KEYS = [
    N_("Keys: PgDn/PgUp step a move forwards/back (PgDn reads on a log scrolled back),"),
    N_("  End shows the newest lines, arrows pan the map, Ctrl-C or Ctrl-D leaves."),
]


# what the line mode says in their place: it has no Tab and no map to re-centre or switch
# to (a listener heard "Tab lists exactly the legal ones" and went looking for it)
_LINE_MODE = {
    _TYPING[0]: N_("Type a move in its short form; moves lists exactly the legal ones. Other "
                   "commands:"),
    _CENTRE: N_("  rules — the rule behind the pending decision · help [MOVE]"),
    _MAP: None,
}


def help_lines(topic: str = "", replay: bool = False, recorded: bool = True,
               tab: bool = True) -> list[str]:
    """`help` (the general lines and the moves' words) or `help MOVE`; `replay`: without
    what only a game under way takes; `recorded`: the game is written to a record; `tab`:
    the view has the terminal's Tab and map (else the line mode's words)."""
    topic = topic.strip().lower()
    if topic in MOVE_HELP:
        return [_(MOVE_HELP[topic])]
    if topic:
        return [_("no help on {topic}; try: {topics}").format(topic=repr(topic),
                                                            topics=", ".join(MOVE_HELP))]
    moves = " · ".join(_(MOVE_HELP[k]).split(" — ")[0] for k in MOVE_HELP)
    quit_line = QUIT_LINES["replay" if replay else "recorded" if recorded else "unrecorded"]
    lines = [quit_line if line == QUIT_LINES["recorded"] else line for line in GENERAL_HELP]
    if not tab:
        lines = [_LINE_MODE.get(line, line) for line in lines]
        lines = [line for line in lines if line is not None]
    if replay:  # (the goal first, as in a game; the moves' words are not typed here)
        kept = [_(line) for line in lines if line not in PLAYING_ONLY]
        return [kept[0], _("Commands of every game screen:"), *kept[1:],
                *(_(line) for line in REPLAY_KEYS)]
    return [_(line) for line in lines] + [_("Moves: {moves}").format(moves=moves)]


def engine_reason(reason: object) -> str:
    """A reason the engine gave (a refused move, a move that does not parse) in the
    player's language: the engine makes them as `Reason`s, an English template and its
    values, so the template is translated and filled in again. Any other text as it is."""
    from tongiaki_lan.engine.errors import Reason

    if isinstance(reason, BaseException):
        reason = reason.args[0] if len(reason.args) == 1 else str(reason)
    if isinstance(reason, Reason):
        # a value is what was typed (`no island named '…'`): a pasted page is cut short
        values = {k: (v if not isinstance(v, str) or len(v) <= 24 else v[:23] + "…")
                  for k, v in reason.values.items()}
        if isinstance(values.get("island"), str):  # as printed (`Fidschi`): as the map says
            values["island"] = shown_island(values["island"])
        return _(reason.template).format(**values)
    text = str(reason)
    return text if len(text) <= 200 else text[:199] + "…"

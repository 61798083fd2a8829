"""The engine's events told as a story: one line of words per fact.

The engine records facts with colour ids and tile ids only; this module is where
they become "Ana's group (B R) crosses S07: danger 3 against 2 colours — wrecked".
A `Narrator` keeps the little context a story needs across events (who is on
turn, whether this departure is a chain reaction, where the group came from).
"""

from __future__ import annotations

from collections.abc import Sequence

from tongiaki_lan.engine import COLOURS, LETTERS, TILES, Event, Game
from tongiaki_lan.engine.hexgrid import DIRECTION_NAMES

END_REASONS = {
    "E1": "the last island or the last sea tile has been revealed",
    "X3": "the turn limit was reached",
}

# (style, text): style is one of "", "turn", "good", "bad", "info"
Line = tuple[str, str]


def tile_label(tid: int) -> str:
    tile = TILES[tid]
    if tile.is_sea:
        return f"sea {tile.name}"
    return tile.name if tid == 0 else f"{tile.name} ({tile.value})"


def ships_text(colours: Sequence[int]) -> str:
    return " ".join(LETTERS[c] for c in colours) if colours else "no ships"


def beaches_text(beaches: Sequence[int]) -> str:
    bs = [str(b + 1) for b in beaches]
    if len(bs) == 1:
        return f"beach {bs[0]}"
    return "beaches " + ", ".join(bs[:-1]) + " and " + bs[-1]


class Narrator:
    """Turns events into lines; call `tell` with every event, in order."""

    def __init__(self, game: Game, names: Sequence[str]):
        self.names = list(names)
        self.colour_ids = game.colour_ids()
        self.colours = game.colours
        self._departures_this_turn = 0
        self._group_colours = 0
        self._turns = 0

    def who(self, cid: int) -> str:
        seat = self.colour_ids.index(cid) if cid in self.colour_ids else -1
        name = self.names[seat] if 0 <= seat < len(self.names) else COLOURS[cid]
        return f"{name} ({LETTERS[cid]})"

    def seat_name(self, seat: int) -> str:
        return f"{self.names[seat]} ({LETTERS[self.colour_ids[seat]]})"

    def tell(self, ev: Event, game: Game | None = None) -> Line | None:
        k, d = ev.kind, ev.data
        if k == "turn":
            self._turns += 1
            self._departures_this_turn = 0
            return ("turn", f"── turn {self._turns}: {self.seat_name(d[0])} ──")
        if k == "setup":
            return ("", f"{self.who(d[0])} puts a ship on Tonga {beaches_text([d[2]])}.")
        if k == "expand":
            if not d[2]:
                return ("", f"{self.who(d[0])} expands on {TILES[d[1]].name}, "
                            "but has no ship to add.")
            return ("", f"{self.who(d[0])} expands on {TILES[d[1]].name}: "
                        f"new ships on {beaches_text(d[2])}.")
        if k == "take":
            return ("", f"{self.who(d[0])} brings a ship over from "
                        f"{TILES[d[1]].name} {beaches_text([d[2]])}.")
        if k == "place":
            n = len(d[2])
            what = "a ship" if n == 1 else f"{n} ships"
            return ("", f"{self.who(d[0])} places {what} on {TILES[d[1]].name} "
                        f"{beaches_text(sorted(set(d[2])))}.")
        if k == "royal":
            return ("good", f"{self.who(d[0])} founds the Royal Island of "
                            f"{tile_label(d[1])}!")
        if k == "colony":
            back = f", taking {d[1]} ship(s) back home" if d[1] else ""
            return ("info", f"{self.who(d[0])} sets out for a New Colony{back}.")
        if k == "depart":
            island, beach, pier, group = d
            self._departures_this_turn += 1
            self._group_colours = len(set(group))
            chain = "Chain reaction! " if self._departures_this_turn > 1 else ""
            return ("info", f"{chain}{TILES[island].name} beach {beach + 1} is full: "
                            f"{ships_text(group)} sail {DIRECTION_NAMES[pier]}.")
        if k == "reveal":
            tid, q, r, _rot = d
            style = "good" if TILES[tid].is_island else ""
            return (style, f"Discovered at {q},{r}: {tile_label(tid)}.")
        if k == "cross":
            tid, danger, ncol = d
            if not danger:
                return ("", f"They cross {TILES[tid].name} (no danger).")
            return ("good", f"They cross {TILES[tid].name}: danger {danger}, "
                            f"{ncol} colour(s) in the group — safe.")
        if k == "fail":
            tid, danger, ncol, group = d
            return ("bad", f"Wrecked on {TILES[tid].name}: danger {danger} needs {danger} "
                           f"colours, the group has {ncol}; {ships_text(group)} go home.")
        if k == "turn_back":
            return ("info", f"{TILES[d[0]].name} is a Royal Island: the group turns back "
                            f"to {TILES[d[1]].name}.")
        if k == "land":
            island, placements, returned = d
            parts = [f"{b + 1}:{''.join(LETTERS[c] for c in cs)}" for b, cs in placements]
            where = ", ".join(parts) if parts else "no free berth"
            back = f"; {ships_text(returned)} go home" if returned else ""
            return ("", f"They land on {TILES[island].name} ({where}){back}.")
        if k == "lost":
            return ("bad", f"No tiles are left to discover: {ships_text(d[0])} are lost "
                           "at sea and go home.")
        if k == "closed":
            names = ", ".join(TILES[t].name for t in d)
            return ("bad", f"Closed path: {names} leave(s) the game.")
        if k == "removed":
            return ("bad", f"{TILES[d[0]].name} is removed; {ships_text(d[1])} go home.")
        if k == "colony_tile":
            tid, q, r, rot = d
            return ("info", f"The colony tile {tile_label(tid)} goes to {q},{r} "
                            f"(red mark {DIRECTION_NAMES[rot]}).")
        if k == "game_over":
            reason = END_REASONS.get(d[0], d[0])
            text = f"Game over: {reason}."
            if game is not None:
                text += " " + final_words(game, self.names)
            return ("good", text)
        return None


def final_words(game: Game, names: Sequence[str]) -> str:
    scores = game.scores()
    order = sorted(range(game.n_seats), key=lambda s: game.ranking_keys()[game.colours[s]],
                   reverse=True)
    parts = [f"{names[s]} {scores[game.colours[s]]}" for s in order]
    winners = [names[game.colours.index(c)] for c in game.winners()]
    return "Scores: " + ", ".join(parts) + ". Winner: " + " & ".join(winners) + "."


def tell_all(game: Game, names: Sequence[str], events: Sequence[Event]) -> list[Line]:
    narrator = Narrator(game, names)
    out = []
    for ev in events:
        line = narrator.tell(ev, game)
        if line:
            out.append(line)
    return out

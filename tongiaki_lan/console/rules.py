"""`rules`: the rule behind the pending decision, in the player's language.

The texts are our own short wording of docs/rules.md (rules version 2 for X2, E2 and
T1a), each under its clause id so that a player can look the full text up and a refusal
("not allowed by S3") points at something readable.
"""

from __future__ import annotations

from tongiaki_lan.engine import Game
from tongiaki_lan.engine import decisions as D
from tongiaki_lan.i18n import N_, _

CLAUSES: dict[str, str] = {
    "S3": N_("Setup: going round the table twice from the first seat, each player puts one "
             "ship from their reserve on a free berth of Tonga. No placement may take the last "
             "free berth of a Tonga beach."),
    "T0": N_("On your turn you do exactly one thing: expand (a normal turn), found a Royal "
             "Island, or start a New Colony."),
    "T1": N_("Expand: choose an island where you have ships (not a Royal Island). With n of "
             "your ships there you add k ships, k being the smallest of n, the beaches with a "
             "free berth and your reserve: one per beach, all k of them. When more beaches "
             "are free than k, you choose which get one."),
    "T1a": N_("With an empty reserve you may instead move one of your ships from another "
              "island (not a Royal Island) to a beach of the chosen island, or move none."),
    "T2": N_("If no beach on the board is full afterwards, your turn ends; otherwise every "
             "full beach must sail (M1)."),
    "K1": N_("Royal Island: instead of expanding, when every ship on an island is yours (not "
             "Tonga, not royal already) you may make it a Royal Island. Two at most per "
             "player and game."),
    "K2": N_("All your ships there go home except one, which becomes the king: it scores the "
             "island for you until the end (K4). Your turn ends."),
    "K3": N_("Nobody expands on, lands on or sails through a Royal Island: a group whose route "
             "runs into one turns back to the island it left and lands there."),
    "K4": N_("The king stays until the end of the game and scores its island for its owner "
             "(E3); in a tie-break it counts as one ship on the board (E4)."),
    "C1": N_("New Colony: instead of a normal turn you may always take all your ships off the "
             "beaches back into your reserve (kings stay where they are)."),
    "C2": N_("Then tiles are revealed one by one and you place each on any empty hex next to "
             "the board, turned as you like, until an island comes out; it is placed the same "
             "way."),
    "C3": N_("You put one ship from your reserve on any beach of that island. Your turn "
             "ends."),
    "X1": N_("With no ship on any beach at the start of your turn (kings do not count) you do "
             "not expand: you put 2 ships on free berths of Tonga, or 1 ship on a free berth "
             "of another island that is not royal, or you start a New Colony."),
    "M1": N_("Every full beach must sail. You choose which full beach goes next and through "
             "which of its piers, before any tile is revealed for it."),
    "M2": N_("All ships of that beach sail together as one group. Across the pier: an empty "
             "hex gets the next tile of the stack with its red mark towards the group; an "
             "island means landing (L1); a sea tile means a voyage along the route that starts "
             "where the group enters."),
    "M3": N_("A route with a danger number d is crossed only by a group of at least d "
             "different colours (no number: any group). A group that cannot cross is wrecked "
             "and its ships go back to their owners' reserves. The other full beaches still "
             "sail."),
    "M4": N_("After each departure, if a beach is full again (a chain reaction), you choose "
             "the next departure. The turn ends when no beach on the board is full."),
    "L1": N_("Landing: first one ship on every beach with a free berth (if the group is "
             "smaller, you choose which beaches), then the rest on any free berths, several of "
             "one colour together if you like. Ships that find no berth go home; you choose "
             "which."),
    "X2a": N_("An option leads back when its group, over the tiles already placed, would "
              "come back to its own island (directly or turned back by a Royal Island). When "
              "some option does not lead back, only such options may be chosen (rules "
              "version 2)."),
    "X2b": N_("An island whose every pier returns to it (dangers ignored, a Royal Island "
              "counting as returning) is closed: if it has a full beach it leaves the game "
              "and its ships go home (rules version 2)."),
    "X2d": N_("In a position already seen this turn, an option already chosen there cannot be "
              "chosen again; when none is left the chain is endless: the ships of every full "
              "beach go home and the turn ends (rules version 2)."),
    "E1": N_("The game ends when the last island tile (the 15th) or the last sea tile (the "
             "16th) has been placed."),
    "E2": N_("Nothing is revealed after the last tile. If it is an island, the group lands "
             "and the turn goes on over placed tiles only; a group that would need a new tile "
             "is lost. If it is a sea tile, the sailing group is lost and the game ends at "
             "once (rules version 2)."),
    "E3": N_("Each player scores the value of every island where they have at least one ship "
             "or their king. Tonga is worth nothing."),
    "E4": N_("Most points wins; then presence on more islands; then fewer ships on the board "
             "(a king counts as one); otherwise the win is shared."),
    "U1": N_("Undo, in a game against bots only: undo takes back your last decision and the "
             "bots' moves after it, and typed again the decision before, one at a time. "
             "Never across a tile reveal: a revealed tile stays revealed. A LAN table has "
             "no undo: every laptop has played the move."),
}

_BY_KIND: dict[str, tuple[str, tuple[str, ...]]] = {
    D.SETUP: (N_("putting the first ships on Tonga"), ("S3",)),
    D.ACTION: (N_("choosing what to do this turn"), ("T0", "T1", "T1a", "K1", "K2", "C1")),
    D.EXPAND_BEACHES: (N_("choosing the beaches that get new ships"), ("T1", "T2")),
    D.T1A_SOURCE: (N_("bringing a ship over with an empty reserve"), ("T1a", "T2")),
    D.DEPARTURE: (N_("choosing the next departure"),
                  ("M1", "M2", "M3", "K3", "X2a", "X2b", "X2d", "M4")),
    D.LANDING: (N_("sharing a landing group out over the beaches"), ("L1", "M4")),
    D.COLONY_TILE: (N_("placing a tile for a New Colony"), ("C2", "E2")),
    D.COLONY_SHIP: (N_("putting the New Colony ship on its island"), ("C3",)),
    "reveal": (N_("a tile being revealed"), ("M2", "E1")),
}


def _needs_x1(game: Game) -> bool:
    return not any(str(m).startswith("expand") for m in game.legal_moves())


# what a newcomer types to learn how the game is won: the end and the score
SCORING_WORDS = ("score", "scoring", "points", "goal", "win", "end")


def _topic_clauses(topic: str) -> list[str]:
    """The clauses `rules TOPIC` shows: one by its id (`M3`), a family by its letter or
    prefix (`E`, `X2`), every one (`all`), or the end and the score (`scoring`, or the
    player's word for it)."""
    word = topic.casefold()
    if word == "all" or word == _("all").casefold():
        return list(CLAUSES)
    if word in SCORING_WORDS or word == _("scoring").casefold():
        return ["E1", "E3", "E4", "K4"]
    exact = [k for k in CLAUSES if k.casefold() == word]
    if exact:
        return exact
    family = [k for k in CLAUSES if k.casefold().startswith(word)]
    return sorted(family) if word[:1].isalpha() and family and len(word) <= 2 else []


def rules_lines(game: Game, topic: str = "") -> list[str]:
    """The rules behind the pending decision (or one clause: `rules M3`), one per line."""
    topic = topic.strip()
    if topic:
        keys = _topic_clauses(topic)
        if not keys:
            return [_("no rule {topic}; the clauses are: {ids}").format(
                topic=repr(topic), ids=" ".join(CLAUSES)),
                _("rules all shows every clause; rules E the end of the game and the score")]
        return [f"{key}  {_(CLAUSES[key])}" for key in keys]
    p = game.pending
    if p is None:
        what, ids = N_("the end of the game"), ("E1", "E3", "E4")
    else:
        what, ids = _BY_KIND.get(p.kind, (N_("this decision"), ()))
        if p.kind == D.ACTION and _needs_x1(game):
            ids = ("X1", "T0", "C1")
    # (a player has the program, not our docs/: the way to more is a command)
    lines = [_("Rules for {what} (rules and a clause id, as in rules E4, shows any "
               "other):").format(what=_(what))]
    lines += [f"{k}  {_(CLAUSES[k])}" for k in ids]
    return lines


def clause_text(clause: str) -> str:
    """One clause in the player's language, or '' if it is not one we describe."""
    return _(CLAUSES[clause]) if clause in CLAUSES else ""

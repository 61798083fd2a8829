"""The board page's own words (headings, buttons, connection notes), in the player's
language.

Everything else the page shows comes in the `TableState` already in words (the
decision, the story, the seats' labels); these few are the page's frame. They travel
with each state (`payload.py`), so the page is one static file for every language and
changes language with the table, and a translation lives in the project's catalogues
like every other text (docs/languages.md). Move and command words (`undo`, `goto 5`)
are what the page sends and stay as they are.
"""

from __future__ import annotations

from tongiaki_lan.i18n import N_, _

WORDS: dict[str, str] = {
    "players": N_("Players"),
    "story": N_("Story"),
    "decision": N_("Decision"),
    "your_move": N_("Your move"),
    "click_hint": N_("Click a marked place on the board, or choose below."),
    # (nothing but Hint below: "or choose below" sent the player looking for a list)
    "click_only": N_("Click a marked place on the board."),
    "nothing_there": N_("No move of yours there: the marked places on the board can be "
                        "played."),
    "choose": N_("Choose a move"),
    "cancel": N_("Cancel"),
    "undo": N_("Undo"),
    "undo_title": N_("Take back your last decision and the bots' after it"),
    "hint": N_("Hint"),
    "offer": N_("Play the offer"),
    "replay": N_("Replay"),
    "first": N_("First"),
    "back": N_("Back"),
    "forward": N_("Forward"),
    "last": N_("Last"),
    "move_of": N_("move {index} of {total}"),
    "live": N_("Live"),
    "live_now": N_("the game as it goes on"),
    "waiting": N_("Waiting for the game to start…"),
    "points": N_("points"),
    "reserve": N_("in reserve"),
    "you": N_("you"),
    # (a bot laptop's page: its seat, played by its bot, was marked as nobody's)
    "this_laptop": N_("this laptop"),
    "away": N_("away"),
    "left": N_("left the table"),
    # (an expelled laptop's seat read "left the table", as if its player had gone home)
    "expelled": N_("its laptop was expelled"),
    "watching": N_("Watching"),
    "open_seats": N_("Open seats"),
    "final": N_("Final scores"),
    "player": N_("player"),
    "island": N_("Island"),
    "winner": N_("winner"),
    "over": N_("The game is over."),
    "sending": N_("Sending…"),
    "connecting": N_("Connecting to the game…"),
    "reconnecting": N_("Connection lost: reconnecting…"),
    "closed": N_("The game has closed this page: it shows the board as it last was."),
    # (a game whose program crashed or was killed left "reconnecting…" on for good)
    "gone": N_("The game does not answer any more (its program ended or stopped?): the "
               "page shows the board as it last was, and comes back by itself if the game "
               "does."),
    "no_key": N_("This link has no key: open the board with the whole link the game "
                 "printed (it ends with #…)."),
    "refused": N_("The game does not answer this link: it may have ended, or the link's "
                  "key is not this game's. Open the link the game printed."),
    "seconds": N_("{n} s"),
    "zoom_in": N_("Closer (+, or the mouse wheel)"),
    "zoom_out": N_("Farther (−)"),
    "zoom_fit": N_("The whole board (0, or a double click)"),
}


def page_words() -> dict[str, str]:
    """The page's words in the language in use (i18n.use)."""
    return {key: _(text) for key, text in WORDS.items()}

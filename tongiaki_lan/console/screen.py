"""The old home of the game screen, kept while callers and tests move: the terminal view
is console/terminal/screen.py, what is typed goes through console/input.py."""

from tongiaki_lan.i18n.islands import shown_move

from .input import (
    BACK_TO_LOBBY,
    WATCHER_ALSO,
    WATCHER_WORDS,
    hint_reason,
    refusal_text,
    typed_shortly,
    without_verb,
)
from .model import META, decision_island
from .terminal.completion import COMPLETION_LIMIT, MoveCompleter
from .terminal.screen import MIN_COLUMNS, MIN_ROWS, GameScreen, run_game_screen
from .terminal.widgets import CanvasControl, wrap_fragments, wrap_words

__all__ = ["BACK_TO_LOBBY", "COMPLETION_LIMIT", "META", "MIN_COLUMNS", "MIN_ROWS",
           "WATCHER_ALSO", "WATCHER_WORDS", "CanvasControl", "GameScreen", "MoveCompleter",
           "decision_island", "hint_reason", "refusal_text", "run_game_screen",
           "shown_move", "typed_shortly", "without_verb", "wrap_fragments", "wrap_words"]

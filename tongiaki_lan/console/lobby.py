"""The old home of the lobby, kept while callers and tests move: the lobby is its model
(lobbymodel.py), its network side (lobbynet.py), its commands (lobbyinput.py) and its
terminal screen (terminal/lobby.py)."""

from .lobbyinput import COMMANDS, MORE_COMMANDS
from .lobbymodel import (
    COLOUR_NAMES,
    PHASE_NAMES,
    LobbyModel,
    WrongPassphrase,
    colour_key,
    level_key,
    shown_colours,
)
from .lobbynet import DEFAULT_DRAW_WAIT, RECLAIM_WAIT_S, SUGGEST_DOCTOR_AFTER_S, TWIN_S
from .terminal.lobby import LobbyScreen

__all__ = ["COLOUR_NAMES", "COMMANDS", "DEFAULT_DRAW_WAIT", "MORE_COMMANDS", "PHASE_NAMES",
           "RECLAIM_WAIT_S", "SUGGEST_DOCTOR_AFTER_S", "TWIN_S", "LobbyModel", "LobbyScreen",
           "WrongPassphrase", "colour_key", "level_key", "shown_colours"]

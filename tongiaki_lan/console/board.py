"""The old home of the terminal's map, kept while callers and tests move:
console/terminal/board.py."""

from .terminal.board import *  # noqa: F403

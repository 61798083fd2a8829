"""The old home of the terminal's colours, kept while callers and tests move:
console/terminal/theme.py."""

from .terminal.theme import *  # noqa: F403

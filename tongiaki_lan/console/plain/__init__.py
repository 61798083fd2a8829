"""The plain line mode (`--plain`): the table model told line by line, for screen readers
and pipes.

`lines.py` turns each new `TableState` into the lines worth saying (what is new in the
story, the decision when it is this keyboard's, a countdown as it starts, a notice);
`stdin.py` reads the player's lines without blocking the game; `run.py` ties them to the
table model and the input path that the full-screen console uses, so a typed move, `hint`
or `undo` means the same in both.
"""

from .run import PlainRun, run_plain

__all__ = ["PlainRun", "run_plain"]

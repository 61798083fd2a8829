"""What a player sees of a game, and the ways they act on it.

One table model per game (model.py, drawing `state.TableState`), fed by a source of the
game's facts (feeds/: solo, replay, a LAN seat or watcher); one input path for what is
typed or clicked (input.py); views that draw the state: the terminal (terminal/) and
others beside it. docs/console.md, Design notes, maps the package.
"""

"""The terminal view of a game and of the lobby, drawn with prompt_toolkit: the game
screen (screen.py: layout, keys, pan and scroll), its map (board.py), side panel
(panel.py), completion over the legal moves (completion.py) and shared widgets
(widgets.py); the lobby's screen (lobby.py). Each draws a model (console/model.py, the
lobby's) and hands what is typed to the input path (console/input.py)."""

"""Where a game's facts come from: a solo game on this machine (solo.py), a record
stepped through (replay.py), a LAN table played or watched through the network node
(lan.py). Each feeds the table model (console/model.py) through one shape: the game,
its seats, its story, `changed()`, `submit(move)`, `hint()`, `commands()`, `close()`."""

"""The board in the browser: a live page of the game, served from the node's own loop.

`server.BoardServer` serves it, `payload` turns the table's state into what the page
draws, `door` holds the checks every request passes, `pagewords` the page's own words;
the page itself (HTML, CSS and script, no build step, nothing fetched from elsewhere) is
in `static/`. docs/board.md tells it from the player's side.
"""

from .server import BoardServer, BoardServerError

__all__ = ["BoardServer", "BoardServerError"]

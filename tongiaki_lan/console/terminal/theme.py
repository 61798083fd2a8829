"""Colours of the console, in one place so the board, panel and log agree.

Ship colours are the player colours of the engine, painted as on the board page and the
exported picture (`tongiaki_lan.palette`, Okabe and Ito's colour-blind-safe six); a ship
is always drawn as its colour letter as well (B R G Y O P), so the map reads the same
without colour and matches what a player types in `land 1:BR`.

A player's letter (and name, in the lobby) is written on a chip of its colour in that
colour's own ink, not in the colour on the terminal's background: no one colour reads on
both a dark and a light terminal (yellow on white, blue on black), while a chip carries
its own background and stays as readable on either.
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

from tongiaki_lan.engine import COLOURS
from tongiaki_lan.palette import PLAYER_PAINT

# Each player's colour (the chip under its letter) and the ink the letter is written in.
PLAYER_FG: dict[str, str] = {name: fill for name, (fill, _ink) in PLAYER_PAINT.items()}
PLAYER_INK: dict[str, str] = {name: ink for name, (_fill, ink) in PLAYER_PAINT.items()}


def ship_style(cid: int) -> str:
    return f"class:ship.{COLOURS[cid]}"


def king_style(cid: int) -> str:
    return f"class:king.{COLOURS[cid]}"


def player_style(colour: str) -> str:
    return f"class:ship.{colour}"


def build_style() -> Style:
    rules: list[tuple[str, str]] = [
        ("hex", "#5f8787"),
        ("hex.island", "#87af5f"),
        ("hex.tonga", "#d7af5f bold"),
        ("hex.focus", "#ffffff bold"),
        ("hex.frontier", "#4e4e4e"),
        ("title", "#d7d7af bold"),
        ("title.tonga", "#ffd787 bold"),
        ("title.sea", "#5fafd7"),
        ("beach", "#bcbcbc bold"),
        ("beach.full", "#000000 bg:#ffd75f bold"),
        ("berth", "#6c6c6c"),
        ("pier", "#87afd7"),
        ("route", "#5fafd7"),
        ("danger", "#ff875f bold"),
        ("coord", "#808080"),
        ("royal", "bold"),
        ("panel", ""),
        ("panel.head", "#8a8a8a"),
        ("panel.turn", "bold reverse"),
        ("panel.away", "#808080 italic"),
        ("panel.me", "underline"),
        ("log", ""),
        ("log.turn", "#8a8a8a"),
        ("log.bad", "#ff875f"),
        ("log.good", "#87d787"),
        ("log.info", "#87afd7"),
        ("log.summary", "#ffd787"),
        ("log.void", "#808080 strike"),
        ("status", "reverse"),
        ("status.mine", "bg:#005f00 #ffffff bold"),
        ("status.over", "bg:#5f005f #ffffff bold"),
        ("message", "#ffaf5f"),
        ("message.error", "#ff5f5f bold"),
        ("prompt", "bold"),
        ("rule", "#4e4e4e"),
        ("lobby.head", "bold underline"),
        ("lobby.sel", "reverse"),
        ("offer", "underline"),
        ("final", "#d7d7af"),
        ("final.head", "#d7d7af bold"),
    ]
    for name, fill in PLAYER_FG.items():
        ink = PLAYER_INK[name]
        rules.append((f"ship.{name}", f"bg:{fill} {ink} bold"))
        # a king: the chip underlined, apart from a ship's letter where both are shown
        rules.append((f"king.{name}", f"bg:{fill} {ink} bold underline"))
    return Style(rules)

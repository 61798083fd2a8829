"""The six player colours, as every view paints them: the board picture (export and page)
and the console.

Okabe and Ito's palette ("Color Universal Design", 2002) keeps the six apart for people
with any of the common colour-vision deficiencies, where the usual red, green and orange
run together. The engine's colour names stay what they are (they are typed, recorded and
sent); only their paint is chosen here. Each colour comes with the ink its letter is
written in: a letter (B R G Y O P) is drawn on or beside every colour, so that no one has
to tell colours apart to read the board, and the ink is the one of black and white that
stands out more (at least 5:1 against the fill; tests/web/test_palette.py).

One place for the paint, because a player moving from the console to the page (or to an
exported picture) must see the same colour for the same player.
"""

from __future__ import annotations

# colour -> (fill, ink of the letter written on it)
PLAYER_PAINT: dict[str, tuple[str, str]] = {
    "blue": ("#0072b2", "#ffffff"),  # Okabe-Ito blue
    "red": ("#d55e00", "#000000"),  # vermilion
    "green": ("#009e73", "#000000"),  # bluish green
    "yellow": ("#f0e442", "#000000"),
    "orange": ("#e69f00", "#000000"),
    "purple": ("#cc79a7", "#000000"),  # reddish purple
}


def luminance(colour: str) -> float:
    """The relative luminance of a `#rrggbb` colour (WCAG 2)."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)

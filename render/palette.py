"""Player colours safe for colour-blind players (Okabe-Ito) and the second cue every piece carries.

Colour is never the only cue: every piece shows its owner's mark (the initial of the name, or the seat number
when two players share an initial) and the side panel pairs each mark and colour with the name.
"""

from __future__ import annotations

from typing import Final

from render import fonts

RGB = tuple[int, int, int]

# Okabe & Ito (2008), "Color Universal Design": distinguishable under the common colour-vision deficiencies.
VERMILLION: Final = (213, 94, 0)
BLUE: Final = (0, 114, 178)
BLUISH_GREEN: Final = (0, 158, 115)
ORANGE: Final = (230, 159, 0)
REDDISH_PURPLE: Final = (204, 121, 167)
SKY_BLUE: Final = (86, 180, 233)
YELLOW: Final = (240, 228, 66)

PLAYER_COLOURS: Final[tuple[RGB, ...]] = (VERMILLION, BLUE, BLUISH_GREEN, ORANGE, REDDISH_PURPLE, SKY_BLUE)

INK: Final = (28, 30, 36)
PAPER: Final = (250, 247, 240)


def player_colour(seat: int) -> RGB:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def text_on(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = colour
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 140 else PAPER


def marks(names: list[str]) -> list[str]:
    """One short mark per seat: the first drawable letter of the name, upper-cased; the seat number if taken."""
    out: list[str] = []
    for seat, name in enumerate(names):
        text = fonts.clean(name, bold=True)
        mark = next((ch.upper() for ch in text if ch.isalnum()), "")
        if not mark or mark in out:
            mark = str(seat + 1)
        out.append(mark)
    return out


def darker(colour: RGB, factor: float = 0.6) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


def lighter(colour: RGB, amount: float = 0.5) -> RGB:
    return (
        round(colour[0] + (255 - colour[0]) * amount),
        round(colour[1] + (255 - colour[1]) * amount),
        round(colour[2] + (255 - colour[2]) * amount),
    )

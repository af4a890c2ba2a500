"""Player colours safe for colour-blind players (Okabe-Ito) and the second cue every piece carries.

Colour is never the only cue: every piece shows its owner's mark (the initial of the name, with the seat number
added for every player who shares an initial) and the side panel pairs each mark and colour with the name.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
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


def initial(name: str) -> str:
    """The first visible character of ``name`` (a letter, digit, emoji or other symbol; punctuation only when the
    name has nothing else), upper-cased; "" for a name with nothing visible."""
    parts = [c for c in fonts.clusters(name) if not c.isspace()]
    chosen = next((c for c in parts if unicodedata.category(c[0])[0] in "LNS"), parts[0] if parts else "")
    upper = chosen.upper()
    return upper if len(upper) == len(chosen) else chosen


def marks(names: list[str]) -> list[str]:
    """One short mark per seat, the same rule for everyone: the initial of the name; players who share an initial
    all add their seat number to it ("P1", "P2" for P1 and P2; "A1", "A3" for Anna and Alex in seats 1 and 3);
    the seat number alone for a name with nothing visible."""
    firsts = [initial(name) for name in names]
    shared = Counter(firsts)
    return [
        str(seat + 1) if not first else f"{first}{seat + 1}" if shared[first] > 1 else first
        for seat, first in enumerate(firsts)
    ]


def darker(colour: RGB, factor: float = 0.6) -> RGB:
    return (round(colour[0] * factor), round(colour[1] * factor), round(colour[2] * factor))


def lighter(colour: RGB, amount: float = 0.5) -> RGB:
    return (
        round(colour[0] + (255 - colour[0]) * amount),
        round(colour[1] + (255 - colour[1]) * amount),
        round(colour[2] + (255 - colour[2]) * amount),
    )

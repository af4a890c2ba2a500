"""Labels with a player's name in them, kept within Discord's limits by shortening the name, never the label.

Cutting the end of "Tower (3, -11) → (4, -11): Alexandra's farmer on the field (north, east half)" would lose what
the option does or where; a name of 32 letters is shortened with an ellipsis instead and the rest stays whole.
"""

from __future__ import annotations

from bot.text.i18n import t

ELLIPSIS = "…"


def with_name(key: str, limit: int, field: str, name: str, /, **params: object) -> str:
    """``key`` filled with ``params`` and ``name`` as ``field``, at most ``limit`` characters long: a name that does
    not fit keeps its first letters and an ellipsis. Only a label longer than ``limit`` without any name is cut."""
    full = t(key, **{field: name}, **params)
    over = len(full) - limit
    if over <= 0:
        return full
    keep = len(name) - over - len(ELLIPSIS)
    if keep < 1:  # no room even for one letter: the label itself is too long (a catalogue fault the tests catch)
        return full[: limit - len(ELLIPSIS)] + ELLIPSIS
    return t(key, **{field: name[:keep].rstrip() + ELLIPSIS}, **params)

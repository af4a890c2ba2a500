"""Carcassonne custom ids (``bh:cc:{game}:{version}:{op}[:{arg}]``) and the cell values they carry."""

from __future__ import annotations

import re
from typing import Final

from bot.core import clicks
from engine.carcassonne import Carcassonne

SCOPE: Final = "cc"  # its click table's, in custom ids bh:cc:{game}:{version}:{op}[:{arg}]


# Its buttons and selects, for the modules that build messages (what each op does: bot/carcassonne/handlers.py).
BUILD: Final = clicks.Scope(SCOPE)
button = BUILD.button
select = BUILD.select


def ordered_cells(game: Carcassonne) -> list[tuple[int, int]]:
    """Legal cells in the order they are numbered on the preview (top row first, then left to right)."""
    return sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))


def cell_value(x: int, y: int) -> str:
    return f"{x},{y}"


def parse_cell(value: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", value)
    return None if match is None else (int(match[1]), int(match[2]))

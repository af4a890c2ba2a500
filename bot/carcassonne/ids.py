"""Carcassonne custom ids (``bh:cc:{game}:{version}:{op}[:{arg}]``) and the cell values they carry."""

from __future__ import annotations

import re
from typing import Final

from bot.core.components import make_custom_id
from engine.carcassonne import Carcassonne

PREFIX: Final = "bh:cc"
BUTTON_OPS: Final = ("rot", "spot", "pass", "top", "ransom", "page")
SELECT_OPS: Final = ("cell", "tower", "spots")
ID_TEMPLATE: Final = r"bh:cc:(?P<game>\d+):(?P<version>\d+):(?P<op>{ops})(?::(?P<arg>[^\s]*))?"


def custom_id(game_id: int, version: int, op: str, arg: str = "") -> str:
    return make_custom_id(PREFIX, game_id, version, op, arg)


def ordered_cells(game: Carcassonne) -> list[tuple[int, int]]:
    """Legal cells in the order they are numbered on the preview (top row first, then left to right)."""
    return sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))


def cell_value(x: int, y: int) -> str:
    return f"{x},{y}"


def parse_cell(value: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", value)
    return None if match is None else (int(match[1]), int(match[2]))

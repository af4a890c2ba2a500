"""Carcassonne custom ids (``bh:cc:{game}:{version}:{op}[:{arg}]``) and the cell values they carry."""

from __future__ import annotations

import re
from typing import Final

import discord

from bot.core import clicks
from bot.core.clicks import Control
from bot.core.components import GREY
from engine.carcassonne import Carcassonne

SCOPE: Final = "cc"  # its click table's, in custom ids bh:cc:{game}:{version}:{op}[:{arg}]


def button(
    game_id: int, version: int, op: str, arg: str = "", label: str = "", style: discord.ButtonStyle = GREY
) -> Control:
    """A button of the Carcassonne table (``bot/carcassonne/handlers.py``)."""
    return clicks.button(SCOPE, game_id, version, op, arg, label=label or op, style=style)


def select(
    game_id: int,
    version: int,
    op: str,
    arg: str = "",
    options: list[discord.SelectOption] | None = None,
    placeholder: str | None = None,
) -> Control:
    """A one-choice select of the Carcassonne table."""
    return clicks.select(SCOPE, game_id, version, op, arg, options=options or [], placeholder=placeholder)


def ordered_cells(game: Carcassonne) -> list[tuple[int, int]]:
    """Legal cells in the order they are numbered on the preview (top row first, then left to right)."""
    return sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))


def cell_value(x: int, y: int) -> str:
    return f"{x},{y}"


def parse_cell(value: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"\s*\(?\s*(-?\d+)\s*,\s*(-?\d+)\s*\)?\s*", value)
    return None if match is None else (int(match[1]), int(match[2]))

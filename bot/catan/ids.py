"""Catan custom ids: ``bh:ct:{game}:{version}:{op}[:{arg}]``; the buttons and selects of its click table."""

from __future__ import annotations

from typing import Final

import discord

from bot.core import clicks
from bot.core.clicks import Control
from bot.core.components import GREY

SCOPE: Final = "ct"  # its click table's, in custom ids bh:ct:{game}:{version}:{op}[:{arg}]


def button(
    game_id: int, version: int, op: str, arg: str = "", label: str = "", style: discord.ButtonStyle = GREY
) -> Control:
    """A button of the Catan table (``bot/catan/handlers.py``)."""
    return clicks.button(SCOPE, game_id, version, op, arg, label=label or op, style=style)


def select(
    game_id: int,
    version: int,
    op: str,
    arg: str = "",
    options: list[discord.SelectOption] | None = None,
    placeholder: str | None = None,
) -> Control:
    """A one-choice select of the Catan table."""
    return clicks.select(SCOPE, game_id, version, op, arg, options=options or [], placeholder=placeholder)

"""The process's log on stderr: discord.py's layout, in colour only on a terminal, without voice warnings.

discord.py colours its log whenever it finds ``/.dockerenv``, so a container's log file would be full of escape
codes; and every client it builds warns that PyNaCl and davey (voice) are missing, which this bot never uses.
"""

from __future__ import annotations

import logging
import os
import sys
from typing import TextIO

import discord

LAYOUT = "[{asctime}] [{levelname:<8}] {name}: {message}"  # discord.py's plain layout
DATES = "%Y-%m-%d %H:%M:%S"


def in_colour(stream: TextIO) -> bool:
    """Colour on a terminal only (and never with NO_COLOR set, https://no-color.org)."""
    return stream.isatty() and not os.environ.get("NO_COLOR")


def setup_logging(level: int, stream: TextIO | None = None) -> None:
    """The root logger writes to ``stream`` (stderr) at ``level``; voice's missing libraries go unmentioned."""
    # discord.py's own switch for its voice warnings: the bot joins no voice channel, so nothing is missing.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    handler = logging.StreamHandler(stream or sys.stderr)
    if in_colour(handler.stream):
        discord.utils.setup_logging(handler=handler, level=level)  # discord.py's colours
    else:
        discord.utils.setup_logging(handler=handler, formatter=logging.Formatter(LAYOUT, DATES, style="{"), level=level)

"""The timelapse of each finished game, drawn in the background once its final scores are posted (``bot.timelapse``)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import timelapse
from bot.host import Outcome

if TYPE_CHECKING:
    from bot.app import BoardHost


class Timelapse(commands.Cog):
    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot
        self.tasks: set[asyncio.Task[discord.Message | None]] = set()  # kept until done (the loop holds weak ones)

    @commands.Cog.listener()
    async def on_turn_posted(self, outcome: Outcome) -> None:
        timelapse.schedule(self.bot, outcome, self.tasks)

"""Direct messages when a turn starts, for players who asked for them: ``turn_posted`` heard, ``bot.notify`` sends."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot import notify
from bot.host import Outcome

if TYPE_CHECKING:
    from bot.app import BoardHost


class Notify(commands.Cog):
    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_turn_posted(self, outcome: Outcome) -> None:
        await notify.turn_posted(self.bot, outcome)

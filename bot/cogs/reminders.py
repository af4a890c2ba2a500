"""The reminder sweep: every few seconds (configurable), mention players who have kept a game waiting."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.core.funnel import survives
from bot.flows import reminders

if TYPE_CHECKING:
    from bot.core.host import Host


class Reminders(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    @survives("the reminder sweep")
    async def sweep(self) -> None:
        await reminders.sweep(self.bot)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

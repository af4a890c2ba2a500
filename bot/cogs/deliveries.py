"""The outbox sweep: every ``[reminders] check_every_seconds``, deliver what stored changes still owe Discord
(``bot.flows.outbox``: a process retries its own failures sooner); the first round, once connected, resumes everything a
crash or an outage left owed. A channel's update (permissions given back) wakes the games waiting on it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.core.funnel import survives

if TYPE_CHECKING:
    from bot.core.host import Host


class Deliveries(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    @survives("the outbox sweep")
    async def sweep(self) -> None:
        await self.bot.outbox.sweep()

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        # Permissions given back (or anything else changed): games waiting on the channel try again at once.
        await self.bot.outbox.channel_changed(after.id)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

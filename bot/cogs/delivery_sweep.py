"""The outbox sweep: every ``[reminders] check_every_seconds``, deliver what stored changes still owe Discord
(``bot.flows.outbox``: a process retries its own failures sooner); the first round, once connected, resumes everything a
crash or an outage left owed. A channel's update (permissions given back) wakes the games waiting on it."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot.core.sweeping import Sweep


class Deliveries(Sweep):
    what = "the outbox sweep"

    async def round(self) -> None:
        await self.bot.outbox.sweep()

    @commands.Cog.listener()
    async def on_guild_channel_update(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        # Permissions given back (or anything else changed): games waiting on the channel try again at once.
        await self.bot.outbox.channel_changed(after.id)

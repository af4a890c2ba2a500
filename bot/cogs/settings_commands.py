"""``/settings notifications`` (turn DMs, time zone, quiet hours) and ``/settings away``.

Declarations only: each command and autocomplete calls its flow in ``bot.flows.user_settings``; refusals reach the
funnel (``bot.core.funnel``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.core.funnel import autocomplete
from bot.flows import user_settings

if TYPE_CHECKING:
    from bot.core.host import Host


class SettingsCog(commands.Cog):
    settings = app_commands.Group(name="settings", description="Your boardhost settings")

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    @settings.command(
        name="notifications", description="Turn DMs, your time zone and quiet hours (nothing given: see them)"
    )
    @app_commands.describe(
        dm_on_turn="Get a direct message when a turn of yours starts",
        time_zone="Your time zone, such as Europe/Berlin",
        quiet_hours="When not to disturb you, your time, such as 23:00-07:00 (or off)",
    )
    async def notifications(
        self,
        interaction: discord.Interaction,
        dm_on_turn: bool | None = None,
        time_zone: str | None = None,
        quiet_hours: str | None = None,
    ) -> None:
        await user_settings.notifications(self.bot, interaction, dm_on_turn, time_zone, quiet_hours)

    @notifications.autocomplete("time_zone")
    @autocomplete
    async def time_zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return user_settings.zone_choices(current)

    @notifications.autocomplete("quiet_hours")
    @autocomplete
    async def quiet_hours_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return user_settings.quiet_choices(current)

    @settings.command(name="away", description="You are away until a day: your games wait, or a computer plays for you")
    @app_commands.describe(until="The day you are back, such as 2025-07-01")
    async def away(self, interaction: discord.Interaction, until: str) -> None:
        await user_settings.away(self.bot, interaction, until)

    @away.autocomplete("until")
    @autocomplete
    async def days(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await user_settings.day_choices(self.bot, interaction, current)

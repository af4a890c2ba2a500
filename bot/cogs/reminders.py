"""The reminder sweep: every few seconds (configurable), mention players who have kept a game waiting."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.host.service import waiting_for
from bot.reminders import due, mark_sent
from bot.text import listing, t
from bot.text.i18n import game_language, speaking

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.reminders")


def now() -> float:
    """Wall-clock seconds, through discord.py so that simulated time in tests moves it too."""
    return discord.utils.utcnow().timestamp()


class Reminders(commands.Cog):
    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    async def sweep(self) -> None:
        rows = await self.bot.games.with_status("active")
        for reminder in due(rows, now(), self.bot.config.reminder_after):
            if not await mark_sent(self.bot.games, reminder):
                continue  # the turn moved on while we looked
            row = reminder.row
            try:
                game = self.bot.service.game(row)
                channel = self.bot.get_channel(row.channel_id) or await self.bot.fetch_channel(row.channel_id)
                if not isinstance(channel, discord.abc.Messageable):
                    continue
                people = [s for s in waiting_for(game) if not row.seats[s].computer and s not in row.stand_ins]
                if not people:  # only computer players owe a decision: they move by themselves
                    continue
                hours = int(reminder.idle // 3600)
                with speaking(game_language(row.language)):  # posted in the channel: the game's language
                    who = listing(row.mention(s) for s in people)
                    params = {"who": who, "game": t(f"game.{row.game}"), "hours": hours, "count": hours}
                    if row.turn_limit:
                        limit = t("reminder.limit_hours", count=row.turn_limit // 3600)
                        text = t("reminder.turn_limit", limit=limit, **params)
                    else:
                        text = t("reminder.turn", **params)
                await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
            except discord.HTTPException as err:  # a deleted channel or lost permission: log, keep sweeping
                log.warning("reminder for game %s not delivered: %s", row.id, err)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

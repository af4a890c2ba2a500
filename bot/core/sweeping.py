"""The shape of every background sweep: a cog whose one round runs every ``[reminders] check_every_seconds`` once the
bot is connected; a round that raises is logged (``bot.core.funnel.survives``) and the next one runs as usual.

A sweep names what it does (``what``, for the log) and its ``round``; starting, stopping and waiting for the
connection are written once, here. Loops are ``discord.ext.tasks`` loops: simcord (the tests' simulated Discord)
runs their waits on its virtual clock, which a bare ``asyncio.sleep`` loop would not.
"""

from __future__ import annotations

from typing import ClassVar

from discord.ext import commands, tasks

from bot.core.funnel import survives
from bot.core.host import Host


class Sweep(commands.Cog):
    what: ClassVar[str] = "a sweep"

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.rounds = tasks.loop(seconds=bot.config.reminder_check)(self._round)
        self.rounds.before_loop(bot.wait_until_ready)

    async def cog_load(self) -> None:
        self.rounds.start()

    async def cog_unload(self) -> None:
        self.rounds.cancel()

    async def _round(self) -> None:
        with self.bot.languages.mentioning():  # the round's texts name commands as this bot does
            await survives(self.what)(type(self).round)(self)

    async def round(self) -> None:
        """One round of the sweep (each subclass's own)."""
        raise NotImplementedError

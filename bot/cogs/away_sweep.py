"""The away sweep: computers play for away people where the hosts chose it (after every posted turn, and every
``[reminders] check_every_seconds``), and hand the seats back once their people are back (``bot.flows.away``)."""

from __future__ import annotations

from discord.ext import commands

from bot.core.sweeping import Sweep
from bot.flows import away
from bot.host import Outcome


class Away(Sweep):
    what = "the away sweep"

    @commands.Cog.listener()
    async def on_turn_posted(self, outcome: Outcome) -> None:
        await away.turn_posted(self.bot, outcome)

    async def round(self) -> None:
        await away.sweep(self.bot)

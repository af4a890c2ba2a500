"""Computer players' registration: after every posted turn, and every sweep, their runners wake
(``bot.flows.computer_turns``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.core.funnel import survives
from bot.flows.computer_turns import WAKE_CHANNEL, ComputerPlayers
from bot.host import Outcome

if TYPE_CHECKING:
    from bot.core.host import Host


class Computers(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.players = ComputerPlayers(bot)
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()
        await self.bot.service.listen_to_processes(WAKE_CHANNEL, self.players.woken)

    async def cog_unload(self) -> None:
        self.sweep.cancel()
        self.players.stop()

    @commands.Cog.listener()
    async def on_turn_posted(self, outcome: Outcome) -> None:
        self.players.turn_posted(outcome)

    @tasks.loop(seconds=60)
    @survives("the computer players' sweep")
    async def sweep(self) -> None:
        await self.players.sweep()

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

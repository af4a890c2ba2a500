"""Computer players' registration: after every posted turn, and every sweep, their runners wake
(``bot.flows.computer_turns``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.core.sweeping import Sweep
from bot.flows.computer_turns import WAKE_CHANNEL, ComputerPlayers
from bot.host import Outcome

if TYPE_CHECKING:
    from bot.core.host import Host


class Computers(Sweep):
    what = "the computer players' sweep"

    def __init__(self, bot: Host) -> None:
        super().__init__(bot)
        self.players = ComputerPlayers(bot)

    async def cog_load(self) -> None:
        await super().cog_load()
        await self.bot.stand_ins.listen_to_processes(WAKE_CHANNEL, self.players.woken)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        await self.players.stop()

    @commands.Cog.listener()
    async def on_turn_posted(self, outcome: Outcome) -> None:
        self.players.turn_posted(outcome)

    async def round(self) -> None:
        await self.players.sweep()

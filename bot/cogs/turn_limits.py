"""The turn-limit sweep: a game whose host chose a turn limit does not wait longer than that for anyone.

Every few seconds (the reminder interval) the sweep reads the database for running games whose current wait
(``turn_started_at``, reset whenever the seats owing a decision change) has reached their ``turn_limit``, lets the
game host make the idle seats' decisions with the engine's timeout moves (``bot.flows.turn_limits``), and posts the next
turn. Everything it needs is stored, so a restart loses no limit; the version guard drops a timeout that a
last-second move beat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot.cogs.computers import Computers
from bot.core.funnel import each_game, survives
from bot.flows.reminders import now
from bot.flows.turn_limits import time_out
from bot.storage import GameRow

if TYPE_CHECKING:
    from bot.core.host import Host


class TurnLimits(commands.Cog):
    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    @survives("the turn-limit sweep")
    async def sweep(self) -> None:
        await self.bot.ownership.refresh()
        overdue = [row for row in await self.bot.service.overdue(now()) if self.bot.owns(row)]  # this process's
        await each_game(overdue, "its turn limit", self.time_out)

    async def time_out(self, row: GameRow) -> None:
        computers = self.bot.get_cog("Computers")  # the computer players take over idle seats when asked to
        await time_out(self.bot, row, computers.players if isinstance(computers, Computers) else None)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

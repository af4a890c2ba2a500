"""The turn-limit sweep: a game whose host chose a turn limit does not wait longer than that for anyone
(``bot.flows.turn_limits``)."""

from __future__ import annotations

from bot.cogs.computer_sweep import Computers
from bot.core.sweeping import Sweep
from bot.flows.turn_limits import sweep as sweep_turn_limits


class TurnLimits(Sweep):
    what = "the turn-limit sweep"

    async def round(self) -> None:
        computers = self.bot.get_cog("Computers")  # the computer players take over idle seats when asked to
        await sweep_turn_limits(self.bot, computers.players if isinstance(computers, Computers) else None)

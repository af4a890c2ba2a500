"""The turn-limit sweep: a game whose host chose a turn limit does not wait longer than that for anyone.

Every few seconds (the reminder interval) the sweep reads the database for running games whose current wait
(``turn_started_at``, reset whenever the seats owing a decision change) has reached their ``turn_limit``, lets the
game host make the idle seats' decisions with the engine's timeout moves, and posts the next turn. Everything it
needs is stored, so a restart loses no limit; the version guard drops a timeout that a last-second move beat.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.cogs.computers import Computers
from bot.cogs.reminders import now
from bot.funnel import each_game, survives
from bot.host import HostError
from bot.storage import GameRow
from bot.turns import announce
from engine import RuleError

if TYPE_CHECKING:
    from bot.app import BoardHost

log = logging.getLogger("boardhost.turn_limits")


class TurnLimits(commands.Cog):
    def __init__(self, bot: BoardHost) -> None:
        self.bot = bot
        self.sweep.change_interval(seconds=bot.config.reminder_check)

    async def cog_load(self) -> None:
        self.sweep.start()

    async def cog_unload(self) -> None:
        self.sweep.cancel()

    @tasks.loop(seconds=60)
    @survives("the turn-limit sweep")
    async def sweep(self) -> None:
        await each_game(await self.bot.service.overdue(now()), "its turn limit", self.time_out)

    async def time_out(self, row: GameRow) -> None:
        if row.takeover:  # the host's rule: a computer plays for the idle people until they come back
            computers = self.bot.get_cog("Computers")
            if isinstance(computers, Computers):
                await computers.take_over(row)
                return
        try:
            outcome = await self.bot.service.timeout(row.id, row.version)
        except HostError as err:  # "stale": somebody moved (or the game ended) since the sweep read it
            log.info("game %s: timeout skipped (%s)", row.id, err.key)
            return
        except RuleError as err:  # an engine whose timeout move is refused: a bug, but nothing was stored
            log.error("game %s: timeout move refused: %s", row.id, err.message)
            return
        log.info("game %s: timed out seats %s", row.id, outcome.before)
        try:
            await announce(self.bot, outcome)
        except discord.HTTPException as err:  # the move is stored; the next click or sweep shows it
            log.warning("game %s: turn after a timeout not posted: %s", row.id, err)

    @sweep.before_loop
    async def _ready(self) -> None:
        await self.bot.wait_until_ready()

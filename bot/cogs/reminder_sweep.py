"""The reminder sweep: every few seconds (configurable), mention players who have kept a game waiting."""

from __future__ import annotations

from bot.core.sweeping import Sweep
from bot.flows import reminders


class Reminders(Sweep):
    what = "the reminder sweep"

    async def round(self) -> None:
        await reminders.sweep(self.bot)

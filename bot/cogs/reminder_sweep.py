"""The reminder sweep: every few seconds (configurable), mention players who have kept a game waiting, and send the
turn DMs that waited for their readers' quiet hours to end."""

from __future__ import annotations

from bot.core.sweeping import Sweep
from bot.flows import reminders, turn_dms


class Reminders(Sweep):
    what = "the reminder sweep"

    async def round(self) -> None:
        await reminders.sweep(self.bot)
        await turn_dms.sweep(self.bot)

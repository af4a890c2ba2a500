"""Each person's own: turn DMs wanted or not, time zone and quiet hours, time away, turn DMs held for the end of
quiet hours, DMs that Discord refused; and the turn limits whose clocks stand still meanwhile."""

from __future__ import annotations

from typing import Final

from bot.host.hours import clock_ran
from bot.host.rows import GameRows
from bot.storage import GameRow, UserSettings
from bot.storage.held import Held, HeldDms
from bot.storage.settings import Availability

DMS_CLOSED_FOR: Final = 24 * 3600.0  # seconds a refused DM is not tried again (the channel is used instead)


class People:
    """People's settings and held turn DMs, over the database of the game rows (``bot.host.rows``)."""

    def __init__(self, rows: GameRows) -> None:
        self.rows = rows
        self.settings = UserSettings(rows.games.db)
        self.held = HeldDms(rows.games.db)  # turn DMs waiting for their readers' quiet hours to end

    async def dm_on_turn(self, user_id: int) -> bool:
        return await self.settings.dm_on_turn(user_id)

    async def set_dm_on_turn(self, user_id: int, enabled: bool) -> None:
        await self.settings.set_dm_on_turn(user_id, enabled)

    async def availability(self, user_ids: list[int]) -> dict[int, Availability]:
        """When each user may be disturbed: time zone, quiet hours, time away (one read)."""
        return await self.settings.many(user_ids)

    async def set_time_zone(self, user_id: int, time_zone: str) -> None:
        await self.settings.set_time_zone(user_id, time_zone)

    async def set_quiet(self, user_id: int, start: int | None, end: int | None) -> None:
        await self.settings.set_quiet(user_id, start, end)

    async def go_away(self, user_id: int, until: float) -> None:
        """The user is away from now until ``until`` (already away: from when they went, until the new day)."""
        known = await self.settings.availability(user_id)
        now = self.rows.clock()
        since = now
        if known.away_until is not None and known.away_until > now and known.away_since is not None:
            since = known.away_since
        await self.settings.set_away(user_id, since, until)

    async def end_away(self, user_id: int) -> bool:
        """The user is back now (their time away is kept as it was: a turn limit's clock stood still meanwhile);
        False when they were not away."""
        known = await self.settings.availability(user_id)
        now = self.rows.clock()
        if known.away_until is None or known.away_until <= now:
            return False
        await self.settings.set_away(user_id, known.away_since if known.away_since is not None else now, now)
        return True

    async def overdue(self, now: float) -> list[GameRow]:
        """Running games whose turn limit has run out by ``now``: its clock stands still while a person the game
        waits for is in their quiet hours or away (``bot.host.hours``)."""
        rows = await self.rows.games.overdue(now)  # every wait longer than its limit: pauses only make waits longer
        waiting = {row.id: self.rows.waiting_people(row) for row in rows}
        known = await self.settings.many(user for users in waiting.values() for user in users)
        return [
            row
            for row in rows
            if row.turn_started_at is not None
            and row.turn_limit is not None
            and clock_ran([known[u] for u in waiting[row.id]], row.turn_started_at, now) >= row.turn_limit
        ]

    async def hold_dm(self, held: Held) -> None:
        """A turn DM waits for its reader's quiet hours to end."""
        await self.held.hold(held)

    async def held_due(self) -> list[Held]:
        return await self.held.due(self.rows.clock())

    async def take_held(self, held: Held) -> bool:
        """Claim a held turn DM for sending: True for exactly one caller."""
        return await self.held.take(held)

    async def dms_closed(self, user_id: int) -> bool:
        """Whether Discord refused a DM to the user (DMs closed) within ``DMS_CLOSED_FOR``: not worth trying now."""
        since = await self.settings.dms_closed_since(user_id)
        return since is not None and self.rows.clock() - since < DMS_CLOSED_FOR

    async def note_dms(self, user_id: int, *, closed: bool) -> None:
        """Remember that the user's DMs are closed (or, after one was delivered, that they are open again)."""
        await self.settings.set_dms_closed(user_id, self.rows.clock() if closed else None)

"""Per-user settings (``/settings``): whether to get a direct message when a turn starts, the time zone and quiet
hours, time away; and what Discord told us: since when the user's DMs are closed to the bot."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.database import Database, Row

COLUMNS = "user_id, dm_on_turn, time_zone, quiet_from, quiet_to, away_since, away_until"


@dataclass(frozen=True, slots=True)
class Availability:
    """When a person may be disturbed: their IANA time zone, their quiet hours (minutes after local midnight, from
    and to; none when unset) and the time they are away (``away_until`` may be past: they are back)."""

    user_id: int
    dm_on_turn: bool = False
    time_zone: str | None = None
    quiet_from: int | None = None
    quiet_to: int | None = None
    away_since: float | None = None
    away_until: float | None = None

    @classmethod
    def from_row(cls, row: Row) -> Availability:
        return cls(
            int(row["user_id"]),
            bool(row["dm_on_turn"]),
            row["time_zone"],
            row["quiet_from"],
            row["quiet_to"],
            row["away_since"],
            row["away_until"],
        )


class UserSettings:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def dm_on_turn(self, user_id: int) -> bool:
        row = await self.db.fetchone("SELECT dm_on_turn FROM user_settings WHERE user_id = ?", (user_id,))
        return bool(row and row[0])

    async def set_dm_on_turn(self, user_id: int, enabled: bool) -> None:
        await self.db.execute(
            """INSERT INTO user_settings (user_id, dm_on_turn) VALUES (?, ?)
               ON CONFLICT(user_id) DO UPDATE SET dm_on_turn = excluded.dm_on_turn""",
            (user_id, int(enabled)),
        )

    async def dms_closed_since(self, user_id: int) -> float | None:
        row = await self.db.fetchone("SELECT dms_closed_at FROM user_settings WHERE user_id = ?", (user_id,))
        return None if row is None or row[0] is None else float(row[0])

    async def set_dms_closed(self, user_id: int, since: float | None) -> None:
        await self.db.execute(
            """INSERT INTO user_settings (user_id, dms_closed_at) VALUES (?, ?)
               ON CONFLICT(user_id) DO UPDATE SET dms_closed_at = excluded.dms_closed_at""",
            (user_id, since),
        )

    async def availability(self, user_id: int) -> Availability:
        return (await self.many([user_id]))[user_id]

    async def many(self, user_ids: Iterable[int]) -> dict[int, Availability]:
        """Each user's availability in one read (the defaults for a user who never set anything)."""
        wanted = list(dict.fromkeys(u for u in user_ids if u > 0))
        found = {user: Availability(user) for user in wanted}
        if wanted:
            marks = ", ".join("?" * len(wanted))
            rows = await self.db.fetchall(f"SELECT {COLUMNS} FROM user_settings WHERE user_id IN ({marks})", wanted)
            found.update({int(row["user_id"]): Availability.from_row(row) for row in rows})
        return found

    async def set_time_zone(self, user_id: int, time_zone: str) -> None:
        await self.db.execute(
            """INSERT INTO user_settings (user_id, time_zone) VALUES (?, ?)
               ON CONFLICT(user_id) DO UPDATE SET time_zone = excluded.time_zone""",
            (user_id, time_zone),
        )

    async def set_quiet(self, user_id: int, start: int | None, end: int | None) -> None:
        """Quiet hours from ``start`` to ``end`` (minutes after local midnight); None: no quiet hours."""
        await self.db.execute(
            """INSERT INTO user_settings (user_id, quiet_from, quiet_to) VALUES (?, ?, ?)
               ON CONFLICT(user_id) DO UPDATE SET quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to""",
            (user_id, start, end),
        )

    async def set_away(self, user_id: int, since: float, until: float) -> None:
        """Away from ``since`` to ``until`` (an end in the past or now: back)."""
        await self.db.execute(
            """INSERT INTO user_settings (user_id, away_since, away_until) VALUES (?, ?, ?)
               ON CONFLICT(user_id) DO UPDATE SET away_since = excluded.away_since, away_until = excluded.away_until""",
            (user_id, since, until),
        )

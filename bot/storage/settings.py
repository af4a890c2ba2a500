"""Per-user settings (``/settings``): whether to get a direct message when a turn starts; and what Discord told us:
since when the user's DMs are closed to the bot."""

from __future__ import annotations

from bot.storage.database import Database


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

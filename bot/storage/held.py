"""Turn DMs held back by their reader's quiet hours (``held_dms``): at most one per person and game, the newest;
sent once the hours end if the game still waits for the reader (``bot.flows.turn_dms``)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.database import Database


@dataclass(frozen=True, slots=True)
class Held:
    user_id: int
    game_id: int
    version: int  # the game's version the DM was owed for
    due_at: float


class HeldDms:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def hold(self, held: Held) -> None:
        await self.db.execute(
            """INSERT INTO held_dms (user_id, game_id, version, due_at) VALUES (?, ?, ?, ?)
               ON CONFLICT (user_id, game_id) DO UPDATE SET version = excluded.version, due_at = excluded.due_at""",
            (held.user_id, held.game_id, held.version, held.due_at),
        )

    async def due(self, now: float) -> list[Held]:
        rows = await self.db.fetchall(
            "SELECT user_id, game_id, version, due_at FROM held_dms WHERE due_at <= ? ORDER BY due_at", (now,)
        )
        return [Held(int(r[0]), int(r[1]), int(r[2]), float(r[3])) for r in rows]

    async def take(self, held: Held) -> bool:
        """Claim a held DM for sending (whoever deletes it sends it: once, whatever the processes)."""
        changed = await self.db.execute(
            "DELETE FROM held_dms WHERE user_id = ? AND game_id = ? AND version = ?",
            (held.user_id, held.game_id, held.version),
        )
        return changed == 1

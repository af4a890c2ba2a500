"""Slash command ids Discord returned on sync (name -> id, per guild or global), for command mentions."""

from __future__ import annotations

from collections.abc import Mapping

from bot.storage.database import Database

GLOBAL = 0  # guild_id of globally registered commands


class CommandIds:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def replace(self, guild_id: int | None, ids: Mapping[str, int]) -> None:
        """Forget the ids stored for ``guild_id`` (None: global) and store ``ids`` instead, in one transaction."""
        scope = guild_id or GLOBAL
        async with self.db.transaction() as tx:  # rare (a sync): several trips are fine
            await tx.execute("DELETE FROM command_ids WHERE guild_id = ?", (scope,))
            for name, command_id in ids.items():
                await tx.execute(
                    "INSERT INTO command_ids (guild_id, name, command_id) VALUES (?, ?, ?)", (scope, name, command_id)
                )

    async def load(self) -> dict[int | None, dict[str, int]]:
        """Every stored id: {None: global ids, guild_id: that guild's ids}."""
        result: dict[int | None, dict[str, int]] = {}
        for guild_id, name, command_id in await self.db.fetchall(
            "SELECT guild_id, name, command_id FROM command_ids ORDER BY guild_id, name"
        ):
            result.setdefault(int(guild_id) or None, {})[str(name)] = int(command_id)
        return result

"""Slash command ids Discord returned on sync (name -> id, per guild or global), for command mentions."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping

from bot.storage.database import Database

GLOBAL = 0  # guild_id of globally registered commands


class CommandIds:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def replace(self, guild_id: int | None, ids: Mapping[str, int]) -> None:
        """Forget the ids stored for ``guild_id`` (None: global) and store ``ids`` instead, in one transaction."""
        scope = guild_id or GLOBAL
        rows = [(scope, name, command_id) for name, command_id in ids.items()]

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM command_ids WHERE guild_id = ?", (scope,))
            conn.executemany("INSERT INTO command_ids (guild_id, name, command_id) VALUES (?, ?, ?)", rows)

        await self.db.run_transaction(write)

    async def load(self) -> dict[int | None, dict[str, int]]:
        """Every stored id: {None: global ids, guild_id: that guild's ids}."""
        result: dict[int | None, dict[str, int]] = {}
        for guild_id, name, command_id in await self.db.fetchall(
            "SELECT guild_id, name, command_id FROM command_ids ORDER BY guild_id, name"
        ):
            result.setdefault(int(guild_id) or None, {})[str(name)] = int(command_id)
        return result

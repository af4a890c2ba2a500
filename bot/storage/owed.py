"""The outbox: what each stored change still owes Discord, written in the change's own transaction (``Games``'s
``owe``) and deleted once delivered (``bot.flows.outbox`` delivers it)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Database, Executor
from bot.storage.games import SHOWN, shown_params


@dataclass(slots=True)
class OwedRow:
    """One change's debt to Discord: its game and version, what it owes (``owed``), the parts already delivered."""

    game_id: int
    version: int
    owed: dict[str, Any]
    done: list[str] = field(default_factory=list)
    attempts: int = 0
    next_at: float = 0.0
    problem: str | None = None
    created_at: float = 0.0


class OwedTable:
    """Queries of the ``outbox`` table (none of them is a game change: versions stay)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    def _row(row: Any) -> OwedRow:
        return OwedRow(
            game_id=int(row["game_id"]),
            version=int(row["version"]),
            owed=json.loads(row["owed"]),
            done=json.loads(row["done"] or "[]"),
            attempts=int(row["attempts"]),
            next_at=float(row["next_at"]),
            problem=row["problem"],
            created_at=float(row["created_at"]),
        )

    async def of_game(self, game_id: int) -> list[OwedRow]:
        """The game's undelivered changes, oldest first."""
        rows = await self.db.fetchall("SELECT * FROM outbox WHERE game_id = ? ORDER BY version", (game_id,))
        return [self._row(r) for r in rows]

    async def due(self, now: float, *, fresh_for: float = 0.0) -> list[int]:
        """The games with an undelivered change that may be tried now, in the order their debts began. A change never
        tried is left ``fresh_for`` seconds to the process that stored it (it is delivering it)."""
        rows = await self.db.fetchall(
            """SELECT game_id, MIN(created_at) AS since FROM outbox GROUP BY game_id
               HAVING MIN(CASE WHEN attempts = 0 THEN created_at + ? ELSE next_at END) <= ? ORDER BY since""",
            (fresh_for, now),
        )
        return [int(r["game_id"]) for r in rows]

    async def games(self) -> list[int]:
        """Every game with an undelivered change."""
        rows = await self.db.fetchall("SELECT DISTINCT game_id FROM outbox ORDER BY game_id")
        return [int(r["game_id"]) for r in rows]

    async def problem(self, game_id: int) -> str | None:
        """Why the game's oldest undelivered change waits (``None``: it does not, or only for a retry)."""
        row = await self.db.fetchone(
            "SELECT problem FROM outbox WHERE game_id = ? AND problem IS NOT NULL ORDER BY version LIMIT 1",
            (game_id,),
        )
        return None if row is None else str(row[0])

    async def progress(self, game_id: int, version: int, done: Sequence[str]) -> None:
        """The parts of the change delivered so far (a retry starts after them)."""
        await self.db.execute(
            "UPDATE outbox SET done = ? WHERE game_id = ? AND version = ?",
            (json.dumps(list(done)), game_id, version),
        )

    async def postpone(self, game_id: int, version: int, *, attempts: int, next_at: float, problem: str | None) -> None:
        """A part failed: try again at ``next_at``; ``problem`` says why it waits when it is not a passing fault."""
        await self.db.execute(
            "UPDATE outbox SET attempts = ?, next_at = ?, problem = ? WHERE game_id = ? AND version = ?",
            (attempts, next_at, problem, game_id, version),
        )

    async def delivered(self, game_id: int, version: int, *, shown: int | None = None) -> None:
        """The change is delivered: its row deleted. With ``shown`` (the id of the turn message it posted), that the
        channel shows its version is recorded in the same transaction (``Games.set_message``), one trip to the
        database instead of two."""
        if shown is None:
            await self.db.execute("DELETE FROM outbox WHERE game_id = ? AND version = ?", (game_id, version))
            return

        async def both(tx: Executor) -> None:
            await tx.execute(SHOWN, shown_params(game_id, shown, version))
            await tx.execute("DELETE FROM outbox WHERE game_id = ? AND version = ?", (game_id, version))

        await self.db.in_one_transaction(both)

    async def forget_game(self, game_id: int) -> None:
        """Drop everything a game owes (its channel is gone for good)."""
        await self.db.execute("DELETE FROM outbox WHERE game_id = ?", (game_id,))

    async def count(self) -> int:
        row = await self.db.fetchone("SELECT COUNT(*) FROM outbox")
        return int(row[0]) if row else 0

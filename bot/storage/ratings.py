"""The ratings tables (migration 8): each player's rating per server and game (``ratings``), every rated game's
placings with the ratings before and after (``rating_changes``), and a row per pool that each update locks
(``rating_pools``). What the numbers mean and how they move is ``bot.host.skill``'s; ``bot.host.standings`` runs
the updates, each in one transaction.

A pool is a server and a game: ``guild_id`` 0 holds the games played in direct messages. A player is a user id and a
level: a person has level ``''``, a computer player user id 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.storage.database import Database, Executor, Row

STANDING_COLUMNS: Final = ("user_id", "level", "mu", "sigma", "games", "wins", "streak", "rated_at")
CHANGE_COLUMNS: Final = (
    "game_id", "seat", "user_id", "level", "place", "won", "mu_before", "sigma_before", "mu", "sigma", "finished_at",
)  # fmt: skip
# The shown rating, in SQL: the same ``mu - 3 sigma`` as ``bot.host.skill.Standing.rating``.
RATING_SQL: Final = "(mu - 3 * sigma)"

Pool = tuple[int, str]  # (guild id, game)


class RatingRows:
    """Reads of the ratings tables, and the writes an update makes inside its transaction (``tx``)."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # -- inside an update's transaction ----------------------------------------------------------------------

    @staticmethod
    async def lock_pool(tx: Executor, pool: Pool) -> None:
        """Take the pool's row lock until the transaction ends: a second update of the pool (another process)
        waits for this one, then sees what it wrote. (SQLite's writer lock already serialises every write.)"""
        await tx.execute(
            """INSERT INTO rating_pools (guild_id, game, rated) VALUES (?, ?, 0)
               ON CONFLICT (guild_id, game) DO UPDATE SET rated = rating_pools.rated""",
            pool,
        )

    @staticmethod
    async def count(tx: Executor, pool: Pool) -> None:
        """The pool has one more game rated."""
        await tx.execute("UPDATE rating_pools SET rated = rated + 1 WHERE guild_id = ? AND game = ?", pool)

    @staticmethod
    async def is_rated(tx: Executor, game_id: int) -> bool:
        return bool(await tx.fetchall("SELECT 1 FROM rating_changes WHERE game_id = ? LIMIT 1", (game_id,)))

    @staticmethod
    async def rated_after(tx: Executor, pool: Pool, finished_at: float, game_id: int) -> bool:
        """Whether a game of the pool that ended after this one is rated already (this one comes late)."""
        rows = await tx.fetchall(
            """SELECT 1 FROM rating_changes WHERE guild_id = ? AND game = ?
                 AND (finished_at > ? OR (finished_at = ? AND game_id > ?)) LIMIT 1""",
            (*pool, finished_at, finished_at, game_id),
        )
        return bool(rows)

    @staticmethod
    async def standings_of(tx: Executor, pool: Pool, players: Sequence[tuple[int, str]]) -> list[Row]:
        """The stored standings of ``players`` (user id, level) in the pool; a player never rated has none."""
        found = []
        for user_id, level in sorted(set(players)):
            found += await tx.fetchall(
                "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ? AND level = ?",
                (*pool, user_id, level),
            )
        return found

    @staticmethod
    async def changes_in(tx: Executor, pool: Pool) -> list[Row]:
        """Every rated seat of the pool, its games in the order they ended."""
        return await tx.fetchall(
            "SELECT * FROM rating_changes WHERE guild_id = ? AND game = ? ORDER BY finished_at, game_id, seat", pool
        )

    @staticmethod
    async def clear_pool(tx: Executor, pool: Pool) -> None:
        await tx.execute("DELETE FROM rating_changes WHERE guild_id = ? AND game = ?", pool)
        await tx.execute("DELETE FROM ratings WHERE guild_id = ? AND game = ?", pool)

    @staticmethod
    async def clear_all(tx: Executor) -> None:
        for table in ("rating_changes", "ratings", "rating_pools"):
            await tx.execute(f"DELETE FROM {table}")

    @staticmethod
    async def set_count(tx: Executor, pool: Pool, rated: int) -> None:
        await tx.execute(
            """INSERT INTO rating_pools (guild_id, game, rated) VALUES (?, ?, ?)
               ON CONFLICT (guild_id, game) DO UPDATE SET rated = excluded.rated""",
            (*pool, rated),
        )

    @staticmethod
    async def save_standings(tx: Executor, pool: Pool, rows: Sequence[Sequence[Any]]) -> None:
        """Store standings (values in ``STANDING_COLUMNS`` order), replacing the players' old ones."""
        names = ", ".join(STANDING_COLUMNS)
        updates = ", ".join(f"{c} = excluded.{c}" for c in STANDING_COLUMNS[2:])
        for row in rows:
            await tx.execute(
                f"""INSERT INTO ratings (guild_id, game, {names}) VALUES (?, ?, {", ".join("?" * len(row))})
                    ON CONFLICT (guild_id, game, user_id, level) DO UPDATE SET {updates}""",
                (*pool, *row),
            )

    @staticmethod
    async def save_changes(tx: Executor, pool: Pool, rows: Sequence[Sequence[Any]]) -> None:
        """Store rated seats (values in ``CHANGE_COLUMNS`` order)."""
        names = ", ".join(CHANGE_COLUMNS)
        for row in rows:
            await tx.execute(
                f"INSERT INTO rating_changes (guild_id, game, {names}) VALUES (?, ?, {', '.join('?' * len(row))})",
                (*pool, *row),
            )

    # -- reads ---------------------------------------------------------------------------------------------

    async def leaderboard(self, pool: Pool, limit: int) -> list[Row]:
        """The pool's best ``limit`` players by the shown rating (ties: more games first)."""
        return await self.db.fetchall(
            f"""SELECT * FROM ratings WHERE guild_id = ? AND game = ?
                ORDER BY {RATING_SQL} DESC, games DESC, user_id, level LIMIT ?""",
            (*pool, limit),
        )

    async def players(self, pool: Pool) -> int:
        row = await self.db.fetchone("SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ?", pool)
        return int(row[0]) if row else 0

    async def standing(self, pool: Pool, user_id: int, level: str = "") -> Row | None:
        return await self.db.fetchone(
            "SELECT * FROM ratings WHERE guild_id = ? AND game = ? AND user_id = ? AND level = ?",
            (*pool, user_id, level),
        )

    async def above(self, pool: Pool, rating: float) -> int:
        """How many of the pool's players have a higher shown rating than ``rating``."""
        row = await self.db.fetchone(
            f"SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND {RATING_SQL} > ?", (*pool, rating)
        )
        return int(row[0]) if row else 0

    async def changes_of(self, pool: Pool, user_id: int, level: str = "") -> list[Row]:
        """A player's rated games in the pool, in the order they ended (one row per game: their first seat)."""
        rows = await self.db.fetchall(
            """SELECT * FROM rating_changes WHERE guild_id = ? AND game = ? AND user_id = ? AND level = ?
               ORDER BY finished_at, game_id, seat""",
            (*pool, user_id, level),
        )
        firsts: dict[int, Row] = {}
        for row in rows:
            firsts.setdefault(int(row["game_id"]), row)
        return list(firsts.values())

    async def pools_of(self, guild_id: int) -> list[str]:
        """The games rated in a server, by name."""
        rows = await self.db.fetchall(
            "SELECT game FROM rating_pools WHERE guild_id = ? AND rated > 0 ORDER BY game", (guild_id,)
        )
        return [str(r[0]) for r in rows]

    async def of_game(self, game_id: int) -> list[Row]:
        """A game's rated seats (none if it is not rated)."""
        return await self.db.fetchall("SELECT * FROM rating_changes WHERE game_id = ? ORDER BY seat", (game_id,))

    async def everything(self) -> tuple[list[Row], list[Row]]:
        """Every standing and every rated seat, in a stable order (to compare two databases' ratings)."""
        standings = await self.db.fetchall("SELECT * FROM ratings ORDER BY guild_id, game, user_id, level")
        changes = await self.db.fetchall("SELECT * FROM rating_changes ORDER BY game_id, seat")
        return standings, changes

"""SQLite: one aiosqlite connection in WAL mode; every game write is one trip to the SQLite thread."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import migrations
from bot.storage.database import Database, Row, UniqueViolation

T = TypeVar("T")


class SqliteTx:
    """The connection inside ``SqliteDatabase.transaction``."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cursor = await self.conn.execute(sql, tuple(params))
        return cursor.rowcount

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.execute_fetchall(sql, tuple(params)))


class SqliteDatabase(Database):
    """Owns the connection. Writers use ``run_transaction`` (one atomic commit in one trip to the SQLite thread);
    ``transaction()`` spans several trips and holds everyone else back meanwhile, so only migrations use it."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, path: Path) -> None:
        self.conn = conn
        self.path = path
        # One connection serves every coroutine. aiosqlite runs the calls it is given one after another on its own
        # thread, so a call that does all its work in one trip (a whole read, one statement, ``run_transaction``)
        # can never interleave with another and needs no lock. Only ``transaction()``, which spans several trips,
        # holds this lock; single trips wait for it only while such a transaction is open.
        self._lock = asyncio.Lock()

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # explicit BEGIN/COMMIT below
        conn.row_factory = aiosqlite.Row
        # Pragmas that answer with a row must be read to the end, or their statement stays open.
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await conn.execute_fetchall(f"PRAGMA {pragma}")
        return cls(conn, path)

    async def close(self) -> None:
        await self.conn.close()

    async def _trip(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the SQLite thread in one trip, after any open multi-trip transaction."""
        if self._lock.locked():
            async with self._lock:
                return await self._queue(fn, *args)
        # Not awaiting anything before the call queues the work: nothing can slip in between the check and it.
        return await self._queue(fn, *args)

    async def _queue(self, fn: Callable[..., T], *args: Any) -> T:
        # aiosqlite queues callables for its connection thread; there is no public name for it.
        return await self.conn._execute(fn, *args)  # type: ignore[no-untyped-call,no-any-return]

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        def read(conn: sqlite3.Connection) -> list[Row]:
            return conn.execute(sql, tuple(params)).fetchall()

        return await self._trip(read, self.conn._conn)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed on its own (autocommit: one trip to the SQLite thread); the rows it changed."""

        def write(conn: sqlite3.Connection) -> int:
            return conn.execute(sql, tuple(params)).rowcount

        return await self._trip(write, self.conn._conn)

    async def notify(self, channel: str, payload: str) -> None:
        """Nothing to do: one process owns a SQLite database, so nobody else listens."""

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Nothing comes: one process owns a SQLite database."""

    def migrations(self) -> Sequence[tuple[int, str]]:
        return migrations.SQLITE

    async def migrate(self) -> list[int]:
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        current = await self.check_schema()
        applied = []
        for number, sql in self.migrations():
            if number <= current:
                continue
            async with self.transaction() as conn:
                for statement in migrations.statements(sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", (number, time.time())
                )
            applied.append(number)
        return applied

    async def schema_version(self) -> int:
        exists = await self.fetchone("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        return await super().schema_version() if exists else 0

    async def run_transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` inside BEGIN IMMEDIATE ... COMMIT in one trip to the SQLite thread (rolled back if it raises).

        The hot paths use this: the lock is held for one trip instead of one per statement, each of which would
        wait behind every other ready task on a busy event loop.
        """

        def atomically(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return await self._trip(atomically, self.conn._conn)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield SqliteTx(self.conn)
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "AND name != 'schema_migrations'"
        )
        return migrations.ordered([r[0] for r in rows])

    async def columns(self, table: str) -> list[str]:
        return [r["name"] for r in await self.fetchall(f"PRAGMA table_info({table})")]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetchall(f"PRAGMA table_info({table})")
        keys = sorted((r["pk"], r["name"]) for r in rows if r["pk"])
        return [name for _, name in keys] or ["rowid"]

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        values = [tuple(r) for r in rows]

        def write(conn: sqlite3.Connection) -> None:
            conn.executemany(sql, values)

        await self.run_transaction(write)

    # -- the game writes ------------------------------------------------------------------------------------

    async def insert_game(self, columns: dict[str, Any]) -> Row:
        names = ", ".join(columns)
        marks = ", ".join("?" * len(columns))
        values = tuple(columns.values())

        def write(conn: sqlite3.Connection) -> Row:
            cur = conn.execute(f"INSERT INTO games ({names}) VALUES ({marks})", values)
            return conn.execute("SELECT * FROM games WHERE id = ?", (cur.lastrowid,)).fetchone()

        try:
            return await self.run_transaction(write)
        except sqlite3.IntegrityError as err:
            raise UniqueViolation(str(err)) from None

    async def guarded_write(
        self,
        game_id: int,
        expected: int,
        assignments: dict[str, Any],
        now: float,
        *,
        user_id: int | None = None,
        append: Sequence[str] = (),
        drop: int = 0,
        owe: str | None = None,
    ) -> Row | None:
        columns = "".join(f"{name} = ?, " for name in assignments)
        update = f"UPDATE games SET {columns}version = version + 1, updated_at = ? WHERE id = ? AND version = ?"
        values = (*assignments.values(), now, game_id, expected)

        def write(conn: sqlite3.Connection) -> Row | None:
            if conn.execute(update, values).rowcount != 1:
                return None
            if drop:
                conn.execute(
                    """DELETE FROM actions WHERE game_id = ? AND seq >= (
                           SELECT COUNT(*) FROM actions WHERE game_id = ?) - ?""",
                    (game_id, game_id, drop),
                )
            if append:
                seq = int(conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0])
                conn.executemany(
                    "INSERT INTO actions (game_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, seq + i, user_id, action, now) for i, action in enumerate(append)],
                )
            row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if owe is not None:
                conn.execute(
                    "INSERT INTO outbox (game_id, version, owed, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, row["version"], owe, now),
                )
            return row

        return await self.run_transaction(write)

"""The SQLite database: one aiosqlite connection in WAL mode, migrations, and transactions."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.migrations import MIGRATIONS

T = TypeVar("T")


class Database:
    """Owns the connection. Writers use ``run_transaction`` (one atomic commit in one trip to the SQLite thread);
    ``transaction()`` spans several trips and holds everyone else back meanwhile, so only migrations use it."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn
        # One connection serves every coroutine. aiosqlite runs the calls it is given one after another on its own
        # thread, so a call that does all its work in one trip (a whole read, one statement, ``run_transaction``)
        # can never interleave with another and needs no lock. Only ``transaction()``, which spans several trips,
        # holds this lock; single trips wait for it only while such a transaction is open.
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        conn = await aiosqlite.connect(str(path), isolation_level=None)  # explicit BEGIN/COMMIT below
        conn.row_factory = aiosqlite.Row
        # Pragmas that answer with a row must be read to the end, or their statement stays open.
        for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=5000"):
            await conn.execute_fetchall(f"PRAGMA {pragma}")
        db = cls(conn)
        await db.migrate()
        return db

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

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        def read(conn: sqlite3.Connection) -> list[aiosqlite.Row]:
            return conn.execute(sql, params).fetchall()

        return await self._trip(read, self.conn._conn)

    async def execute(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """One statement, committed on its own (autocommit: one trip to the SQLite thread); the rows it changed."""

        def write(conn: sqlite3.Connection) -> int:
            return conn.execute(sql, params).rowcount

        return await self._trip(write, self.conn._conn)

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> aiosqlite.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    async def migrate(self) -> list[int]:
        """Apply every migration newer than the database; returns the numbers applied."""
        await self.conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        current = await self.schema_version()
        applied = []
        for number, sql in MIGRATIONS:
            if number <= current:
                continue
            async with self.transaction() as conn:
                for statement in _statements(sql):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", (number, time.time())
                )
            applied.append(number)
        return applied

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
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""
        async with self._lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            await self.conn.execute("COMMIT")


def _statements(sql: str) -> list[str]:
    """Split a migration script on semicolons (our migrations hold no semicolons inside literals)."""
    lines = [line.split("--", 1)[0] for line in sql.splitlines()]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]

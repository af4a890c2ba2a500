"""PostgreSQL through an asyncpg connection pool, shared by every bot process that points at the same database.

LISTEN holds a connection of its own (``bot.storage.listener``), reopened whenever the server drops it. Each game
write is one statement (a data-modifying ``WITH``: the version-guarded UPDATE and the action log change
together), so it is one trip to the server and atomic on its own; a concurrent writer of the same version waits
for the row lock, then finds the version moved and changes nothing (the same clean "stale" as SQLite's).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Final

import asyncpg
from asyncpg import exceptions as pg

from bot.storage import migrations
from bot.storage.database import Database, GuardedWrite, Row, SchemaTooNew, UniqueViolation, describe
from bot.storage.health import Problem
from bot.storage.listener import Listener

log = logging.getLogger("boardhost.storage")

# pg_advisory_xact_lock key held while migrating, so that processes started together migrate one after another.
MIGRATION_LOCK: Final = 0x626F617264  # "board"
POOL_SIZE: Final = 10
CLOSE_TIMEOUT: Final = 10.0  # seconds for the pool's connections to end gracefully before they are dropped
# What a failed write means for the database (anything else, a constraint, is the caller's): by asyncpg's classes.
KINDS: Final[tuple[tuple[type[BaseException] | tuple[type[BaseException], ...], str], ...]] = (
    (pg.DiskFullError, "full"),
    (pg.ReadOnlySQLTransactionError, "readonly"),  # e.g. a standby after a failover
    ((pg.PostgresIOError, pg.DataCorruptedError, pg.IndexCorruptedError), "io"),
    ((pg.LockNotAvailableError, pg.DeadlockDetectedError), "busy"),
    (
        (
            pg.PostgresConnectionError,
            pg.AdminShutdownError,
            pg.CrashShutdownError,
            pg.CannotConnectNowError,
            OSError,
            asyncio.TimeoutError,
        ),
        "unreachable",
    ),
)


def problem_of(err: BaseException) -> Problem | None:
    """The database's problem behind a failed write, or None when the write itself was wrong (a constraint)."""
    for kinds, code in KINDS:
        if isinstance(err, kinds):
            sqlstate = getattr(err, "sqlstate", None)
            return Problem(code, f"{err} ({type(err).__name__}{f', SQLSTATE {sqlstate}' if sqlstate else ''})")
    return None


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2, ...`` (none inside quoted literals)."""
    out: list[str] = []
    count = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        if char == "?" and not quoted:
            count += 1
            out.append(f"${count}")
        else:
            out.append(char)
    return "".join(out)


async def _keep_session(conn: asyncpg.Connection) -> None:
    """Nothing to reset when a connection goes back to the pool (see ``PostgresDatabase.connect``)."""


def rowcount(status: str) -> int:
    """The rows a command changed, from its status ("UPDATE 1", "INSERT 0 3")."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class PostgresTx:
    """The connection inside ``PostgresDatabase.transaction``."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return rowcount(await self.conn.execute(numbered(sql), *params))

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.conn.fetch(numbered(sql), *params))


class PostgresDatabase(Database):
    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        super().__init__(url)
        self.pool = pool
        self.listener = Listener(url, describe(url))

    @classmethod
    async def connect(cls, url: str, *, size: int = POOL_SIZE, timeout: float = 60.0) -> PostgresDatabase:
        # Connections are not closed when idle (a timer per connection that a busy event loop serves late), and are
        # handed back to the pool without asyncpg's reset round trip: no query here leaves session state behind
        # (transactions end with their block; LISTEN holds its own connection until ``close``). ``timeout``: seconds
        # for each connection to be made.
        pool = await asyncpg.create_pool(
            url, min_size=1, max_size=size, max_inactive_connection_lifetime=0, reset=_keep_session, timeout=timeout
        )
        return cls(pool, url)

    async def close(self) -> None:
        """Close the LISTEN connection and the pool; never raises, whatever the server did to them."""
        await self.listener.close()
        try:
            await asyncio.wait_for(self.pool.close(), CLOSE_TIMEOUT)
        except Exception as err:
            log.info("database pool of %s closed abruptly (%s)", describe(self.listener.url), err)
            self.pool.terminate()

    @asynccontextmanager
    async def _writing(self) -> AsyncIterator[None]:
        """A write: its failure, if the database's, is the write problem; its success ends any."""
        try:
            yield
        except Exception as err:
            problem = problem_of(err)
            if problem is not None:
                self.watch.fail("write", problem)
            raise
        self.watch.ok("write")

    async def notify(self, channel: str, payload: str) -> None:
        await self.pool.execute("SELECT pg_notify($1, $2)", channel, payload)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        await self.listener.listen(channel, callback)

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.pool.fetch(numbered(sql), *params))

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._writing():
            return rowcount(await self.pool.execute(numbered(sql), *params))

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PostgresTx]:
        async with self._writing(), self.pool.acquire() as conn, conn.transaction():
            yield PostgresTx(conn)

    def migrations(self) -> Sequence[tuple[int, str]]:
        return migrations.POSTGRES

    async def schema_version(self) -> int:
        exists = await self.fetchone("SELECT to_regclass('schema_migrations') IS NOT NULL")
        return await super().schema_version() if exists and exists[0] else 0

    async def migrate(self) -> list[int]:
        applied: list[int] = []
        async with self.transaction() as tx:
            await tx.execute("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))
            await tx.execute(
                """CREATE TABLE IF NOT EXISTS schema_migrations (
                       version INTEGER PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"""
            )
            rows = await tx.fetchall("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            current = int(rows[0][0])
            if current > self.known_version():
                raise SchemaTooNew(current, self.known_version())
            for number, sql in self.migrations():
                if number > current:
                    await migrations.apply(tx, number, sql)
                    applied.append(number)
        return applied

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            """SELECT tablename FROM pg_tables WHERE schemaname = current_schema()
                   AND tablename != 'schema_migrations'"""
        )
        return migrations.ordered([r[0] for r in rows])

    async def columns(self, table: str) -> list[str]:
        rows = await self.fetchall(
            """SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position""",
            (table,),
        )
        return [r[0] for r in rows]

    async def primary_key(self, table: str) -> list[str]:
        rows = await self.fetchall(
            """SELECT a.attname FROM pg_index i
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
                WHERE i.indrelid = to_regclass(?) AND i.indisprimary
                ORDER BY array_position(i.indkey, a.attnum)""",
            (table,),
        )
        return [r[0] for r in rows]

    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})"
        identity = await self.fetchall(
            """SELECT column_name FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = ? AND is_identity = 'YES'""",
            (table,),
        )
        async with self._writing(), self.pool.acquire() as conn, conn.transaction():
            await conn.executemany(sql, [tuple(r) for r in rows])
            for (column,) in identity:  # the next id after the copied ones
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'), "
                    f"COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                )

    # -- the game writes ------------------------------------------------------------------------------------

    async def insert_game(self, columns: dict[str, Any], players: Sequence[int] = (), owe: str | None = None) -> Row:
        names = ", ".join(columns)
        marks = ", ".join(f"${i + 1}" for i in range(len(columns)))
        people = f"${len(columns) + 1}::bigint[]"
        outbox = (
            ""
            if owe is None
            else f", o AS (INSERT INTO outbox (game_id, version, owed, created_at)"
            f" SELECT g.id, g.version, ${len(columns) + 2}::text, g.created_at FROM g)"
        )
        try:
            async with self._writing():
                row = await self.pool.fetchrow(
                    f"WITH g AS (INSERT INTO games ({names}) VALUES ({marks}) RETURNING *),"
                    " p AS (INSERT INTO players (user_id, game_id)"
                    f" SELECT DISTINCT u, g.id FROM g, unnest({people}) AS u){outbox}"
                    " SELECT * FROM g",
                    *columns.values(),
                    list(players),
                    *(() if owe is None else (owe,)),
                )
        except asyncpg.UniqueViolationError as err:
            raise UniqueViolation(str(err)) from None
        assert row is not None
        return row

    async def guarded_write(self, change: GuardedWrite) -> Row | None:
        params: list[Any] = [*change.assignments.values(), change.now, change.game_id, change.expected]
        n = len(change.assignments)
        sets = "".join(f"{name} = ${i + 1}, " for i, name in enumerate(change.assignments))
        game = f"${n + 2}"
        sql = (
            f"WITH g AS (UPDATE games SET {sets}version = version + 1, updated_at = ${n + 1}"
            f" WHERE id = {game} AND version = ${n + 3} RETURNING *)"
        )
        if change.drop:
            params.append(change.drop)
            sql += (
                f", d AS (DELETE FROM actions WHERE game_id = {game} AND EXISTS (SELECT 1 FROM g)"
                f" AND seq >= (SELECT COUNT(*) FROM actions WHERE game_id = {game}) - ${len(params)}::bigint)"
            )
        if change.append:
            params += [change.user_id, list(change.append)]
            sql += (
                ", i AS (INSERT INTO actions (game_id, seq, user_id, action, created_at)"
                f" SELECT g.id, (SELECT COUNT(*) FROM actions WHERE game_id = {game}) + a.n - 1,"
                f" ${len(params) - 1}::bigint, a.action, g.updated_at"
                f" FROM g CROSS JOIN unnest(${len(params)}::text[]) WITH ORDINALITY AS a(action, n))"
            )
        if change.owe is not None:
            params.append(change.owe)
            sql += (
                ", o AS (INSERT INTO outbox (game_id, version, owed, created_at)"
                f" SELECT g.id, g.version, ${len(params)}::text, g.updated_at FROM g)"
            )
        if change.players is not None:
            # Disjoint sub-statements (one snapshot): the people no longer seated go, the others are upserted.
            params.append(list(dict.fromkeys(change.players)))
            people = f"${len(params)}::bigint[]"
            sql += (
                f", pd AS (DELETE FROM players WHERE game_id = {game} AND EXISTS (SELECT 1 FROM g)"
                f" AND user_id <> ALL({people}))"
                f", pi AS (INSERT INTO players (user_id, game_id) SELECT u, g.id FROM g, unnest({people}) AS u"
                " ON CONFLICT (user_id, game_id) DO NOTHING)"
            )
        sql += " SELECT * FROM g"
        async with self._writing():
            return await self.pool.fetchrow(sql, *params)

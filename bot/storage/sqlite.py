"""SQLite: a writer and a reader connection to one file in WAL mode, each on its own aiosqlite thread.

Every write is one trip to the writer's thread. Reads go to the reader's thread, so they never queue behind a write
that waits for the database lock (another process holding it, up to ``busy_timeout``): in WAL mode a reader sees
the last committed state while a writer works. The writer also watches the file: a failed write is named by its own
error (never by the rollback after it), and a WAL checkpoint every ``check_every`` writes says whether the WAL can
still be folded back into the database file (an immutable or read-only file, a full disk, or another connection
that keeps an old snapshot would otherwise let it grow without a word).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Final, TypeVar

import aiosqlite

from bot.storage import migrations
from bot.storage.database import Database, Executor, GuardedWrite, Row, UniqueViolation
from bot.storage.health import Problem

T = TypeVar("T")
log = logging.getLogger("boardhost.storage")

BUSY_TIMEOUT_MS: Final = 5000  # a write waits this long for another process's lock before it fails ("busy")
WAL_KEEP: Final = 8 << 20  # bytes of WAL file kept after a checkpoint empties it (a few automatic checkpoints' worth)
# synchronous=NORMAL is WAL's own recommendation: a commit survives the process crashing; only a power cut can lose
# the last few. The reader cannot write by mistake (query_only), which would make it queue for the lock.
WRITER_PRAGMAS: Final = (
    "journal_mode=WAL",
    "synchronous=NORMAL",
    "foreign_keys=ON",
    f"busy_timeout={BUSY_TIMEOUT_MS}",
    f"journal_size_limit={WAL_KEEP}",
)
READER_PRAGMAS: Final = (f"busy_timeout={BUSY_TIMEOUT_MS}", "query_only=ON")
CHECK_EVERY: Final = 50  # writes between two checkpoint checks
RECHECK_EVERY: Final = 5  # ... while a checkpoint problem stands (to see it end soon)
WAL_BACKLOG: Final = 32 << 20  # bytes of WAL a checkpoint cannot fold before that is a problem

# What a failed write's primary result code means for the database (anything else, a constraint, is the caller's).
KINDS: Final = {
    sqlite3.SQLITE_FULL: "full",
    sqlite3.SQLITE_READONLY: "readonly",
    sqlite3.SQLITE_PERM: "readonly",
    sqlite3.SQLITE_IOERR: "io",
    sqlite3.SQLITE_CANTOPEN: "io",
    sqlite3.SQLITE_PROTOCOL: "io",
    sqlite3.SQLITE_BUSY: "busy",
    sqlite3.SQLITE_LOCKED: "busy",
    sqlite3.SQLITE_CORRUPT: "corrupt",
    sqlite3.SQLITE_NOTADB: "corrupt",
}


def named(err: sqlite3.Error) -> str:
    """The error as SQLite names it: its message and its extended code ("database or disk is full (SQLITE_FULL)")."""
    name = getattr(err, "sqlite_errorname", None)
    return f"{err} ({name})" if name else str(err)


def problem_of(err: sqlite3.Error) -> Problem | None:
    """The database's problem behind a failed write, or None when the write itself was wrong (a constraint)."""
    code = getattr(err, "sqlite_errorcode", None)
    kind = None if code is None else KINDS.get(code & 0xFF)
    return None if kind is None else Problem(kind, named(err))


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back what a failed transaction left, if anything. SQLite rolls back by itself after some errors (a full
    disk, an I/O error): a ROLLBACK then fails with "no transaction is active", which must not hide the cause."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error as err:  # the first error is the one that matters: it is raised, this is only logged
        log.warning("rollback after a failed write failed too: %s", named(err))


def seat_players(conn: sqlite3.Connection, game_id: int, players: Sequence[int]) -> None:
    """The players index of a game: exactly ``players`` (inside the caller's transaction)."""
    conn.execute("DELETE FROM players WHERE game_id = ?", (game_id,))
    conn.executemany(
        "INSERT INTO players (user_id, game_id) VALUES (?, ?)", [(user, game_id) for user in dict.fromkeys(players)]
    )


def megabytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MB"


async def _open(path: Path, pragmas: Sequence[str]) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(str(path), isolation_level=None)  # explicit BEGIN/COMMIT below
    conn.row_factory = aiosqlite.Row
    try:
        # Pragmas that answer with a row must be read to the end, or their statement stays open.
        for pragma in pragmas:
            await conn.execute_fetchall(f"PRAGMA {pragma}")
    except BaseException:
        await conn.close()
        raise
    return conn


class _InTrip:
    """The connection inside ``SqliteDatabase.in_one_transaction``, on the writer's thread: its coroutines never
    suspend."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        return self.conn.execute(sql, tuple(params)).rowcount

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(self.conn.execute(sql, tuple(params)).fetchall())


def run_to_end(coroutine: Coroutine[Any, Any, T]) -> T:
    """A coroutine that never suspends, run to its end here (on the writer's thread, no event loop)."""
    try:
        coroutine.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]  # StopIteration.value is untyped
    coroutine.close()
    raise RuntimeError("a one-trip transaction awaited something other than its connection")


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
    """Owns the two connections. Writers use ``run_transaction`` (one atomic commit in one trip to the writer's
    thread); ``transaction()`` spans several trips and holds other writes back meanwhile, so only migrations and
    the rare command id sync use it."""

    dialect = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, reader: aiosqlite.Connection, path: Path) -> None:
        super().__init__(path)
        self.conn = conn  # the writer
        self.reader = reader
        self.path = path
        # aiosqlite runs the calls it is given one after another on the connection's own thread, so a write that
        # does all its work in one trip (one statement, ``run_transaction``) can never interleave with another and
        # needs no lock. Only ``transaction()``, which spans several trips, holds this lock; single writes wait for
        # it only while such a transaction is open. Reads never do: the reader sees the last commit before it.
        self._lock = asyncio.Lock()
        self.page_size = 4096
        self.check_every = CHECK_EVERY
        self.wal_backlog = WAL_BACKLOG
        self._writes = 0  # since the last checkpoint check

    @classmethod
    async def connect(cls, path: Path) -> SqliteDatabase:
        conn = await _open(path, WRITER_PRAGMAS)
        try:
            mode = next(iter(await conn.execute_fetchall("PRAGMA journal_mode")))[0]
            if mode != "wal":  # e.g. a database on read-only media that was never in WAL mode
                log.error("storage: %s is in journal mode %s, not WAL: reads will wait for writes", path, mode)
            reader = await _open(path, READER_PRAGMAS)
        except BaseException:
            await conn.close()
            raise
        db = cls(conn, reader, path)
        try:
            row = await db.fetchone("PRAGMA page_size")
            db.page_size = int(row[0]) if row else db.page_size
            await db.check_wal()  # a WAL an earlier run could not checkpoint is reported at once
        except BaseException:
            await db.close()
            raise
        return db

    async def close(self) -> None:
        try:
            await self.reader.close()
        finally:
            await self.conn.close()  # the last connection: SQLite checkpoints and removes the WAL

    async def _trip(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer's thread in one trip, after any open multi-trip transaction."""
        if self._lock.locked():
            async with self._lock:
                return await self._queue(self.conn, fn, *args)
        # Not awaiting anything before the call queues the work: nothing can slip in between the check and it.
        return await self._queue(self.conn, fn, *args)

    @staticmethod
    async def _queue(conn: aiosqlite.Connection, fn: Callable[..., T], *args: Any) -> T:
        # aiosqlite queues callables for its connection thread; there is no public name for it.
        return await conn._execute(fn, *args)  # type: ignore[no-untyped-call,no-any-return]

    async def _write(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn(connection)`` on the writer's thread; its failure, if the database's, is the write problem."""
        try:
            result = await self._trip(fn, self.conn._conn)
        except sqlite3.Error as err:
            self._failed(err)
            raise
        await self._stored()
        return result

    def _failed(self, err: sqlite3.Error) -> None:
        problem = problem_of(err)
        if problem is not None:
            self.watch.fail("write", problem)

    async def _stored(self) -> None:
        self.watch.ok("write")
        self._writes += 1
        if self._writes >= (RECHECK_EVERY if self.watch.failing("checkpoint") else self.check_every):
            await self.check_wal()

    async def check_wal(self) -> Problem | None:
        """Fold the WAL back into the database file as far as possible without waiting for anyone
        (``wal_checkpoint(PASSIVE)``) and judge the result: a checkpoint that fails (an immutable or read-only
        file, a full disk, an I/O error) or a backlog it cannot fold (another connection keeps an old snapshot
        open) is the checkpoint problem, until a checkpoint succeeds and keeps up again."""
        self._writes = 0

        def checkpoint(conn: sqlite3.Connection) -> tuple[int, int, int] | sqlite3.Error:
            try:
                busy, frames, folded = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            except sqlite3.Error as err:
                return err
            return int(busy), int(frames), int(folded)

        result = await self._trip(checkpoint, self.conn._conn)
        wal = self._wal_size()
        if isinstance(result, sqlite3.Error):
            detail = f"a WAL checkpoint failed: {named(result)}; the WAL file is {megabytes(wal)}"
            self.watch.fail("checkpoint", Problem("checkpoint", detail))
            return self.health()
        busy, frames, folded = result
        if busy:  # another connection is checkpointing right now: no verdict
            return self.health()
        backlog = max(frames - folded, 0) * self.page_size
        if backlog > self.wal_backlog:
            detail = (
                f"{megabytes(backlog)} of the WAL cannot be checkpointed (another connection keeps an old snapshot "
                f"open); the WAL file is {megabytes(wal)}"
            )
            self.watch.fail("checkpoint", Problem("wal_backlog", detail))
        else:
            self.watch.ok("checkpoint")
        return self.health()

    def _wal_size(self) -> int:
        try:
            return self.path.with_name(self.path.name + "-wal").stat().st_size
        except OSError:
            return 0

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one query, read on the reader's thread: never behind a write waiting for the lock."""

        def read(conn: sqlite3.Connection) -> list[Row]:
            return conn.execute(sql, tuple(params)).fetchall()

        return await self._queue(self.reader, read, self.reader._conn)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed on its own (autocommit: one trip to the writer's thread); the rows it changed."""

        def write(conn: sqlite3.Connection) -> int:
            return conn.execute(sql, tuple(params)).rowcount

        return await self._write(write)

    async def notify(self, channel: str, payload: str) -> None:
        """Nothing to do: one process owns a SQLite database, so nobody else listens."""

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Nothing comes: one process owns a SQLite database."""

    def migrations(self) -> Sequence[tuple[int, str]]:
        return migrations.SQLITE

    async def migrate(self) -> list[int]:
        await self.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at REAL NOT NULL)"
        )
        current = await self.check_schema()
        applied = []
        for number, sql in self.migrations():
            if number <= current:
                continue
            async with self.transaction() as conn:
                await migrations.apply(conn, number, sql)
            applied.append(number)
        return applied

    async def schema_version(self) -> int:
        exists = await self.fetchone("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
        return await super().schema_version() if exists else 0

    async def run_transaction(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work`` inside BEGIN IMMEDIATE ... COMMIT in one trip to the writer's thread (rolled back if it raises).

        The hot paths use this: the lock is held for one trip instead of one per statement, each of which would
        wait behind every other ready task on a busy event loop.
        """

        def atomically(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                rollback(conn)
                raise
            return result

        return await self._write(atomically)

    async def in_one_transaction(self, body: Callable[[Executor], Coroutine[Any, Any, T]]) -> T:
        """``body(tx)`` in one trip to the writer's thread (``run_transaction``): its statements run there as it
        awaits them, so no other write waits for the event loop to come back to it between two statements (a
        finished game's rating holds the writer for one trip, not a dozen)."""

        def work(conn: sqlite3.Connection) -> T:
            return run_to_end(body(_InTrip(conn)))

        return await self.run_transaction(work)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTx]:
        """BEGIN IMMEDIATE ... COMMIT, rolled back on any exception."""
        async with self._lock:
            try:
                await self.conn.execute("BEGIN IMMEDIATE")
                try:
                    yield SqliteTx(self.conn)
                    await self.conn.execute("COMMIT")
                except BaseException:
                    await self._queue(self.conn, rollback, self.conn._conn)
                    raise
            except sqlite3.Error as err:
                self._failed(err)
                raise
        await self._stored()

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

    async def insert_game(self, columns: dict[str, Any], players: Sequence[int] = (), owe: str | None = None) -> Row:
        names = ", ".join(columns)
        marks = ", ".join("?" * len(columns))
        values = tuple(columns.values())

        def write(conn: sqlite3.Connection) -> Row:
            cur = conn.execute(f"INSERT INTO games ({names}) VALUES ({marks})", values)
            seat_players(conn, int(cur.lastrowid or 0), players)
            row = conn.execute("SELECT * FROM games WHERE id = ?", (cur.lastrowid,)).fetchone()
            if owe is not None:
                conn.execute(
                    "INSERT INTO outbox (game_id, version, owed, created_at) VALUES (?, ?, ?, ?)",
                    (row["id"], row["version"], owe, row["created_at"]),
                )
            return row

        try:
            return await self.run_transaction(write)
        except sqlite3.IntegrityError as err:
            raise UniqueViolation(str(err)) from None

    async def guarded_write(self, change: GuardedWrite) -> Row | None:
        game_id, now = change.game_id, change.now
        columns = "".join(f"{name} = ?, " for name in change.assignments)
        update = f"UPDATE games SET {columns}version = version + 1, updated_at = ? WHERE id = ? AND version = ?"
        values = (*change.assignments.values(), now, game_id, change.expected)

        def write(conn: sqlite3.Connection) -> Row | None:
            if conn.execute(update, values).rowcount != 1:
                return None
            if change.drop:
                conn.execute(
                    """DELETE FROM actions WHERE game_id = ? AND seq >= (
                           SELECT COUNT(*) FROM actions WHERE game_id = ?) - ?""",
                    (game_id, game_id, change.drop),
                )
            if change.append:
                seq = int(conn.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (game_id,)).fetchone()[0])
                conn.executemany(
                    "INSERT INTO actions (game_id, seq, user_id, action, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, seq + i, change.user_id, action, now) for i, action in enumerate(change.append)],
                )
            if change.players is not None:
                seat_players(conn, game_id, change.players)
            row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if change.owe is not None:
                conn.execute(
                    "INSERT INTO outbox (game_id, version, owed, created_at) VALUES (?, ?, ?, ?)",
                    (game_id, row["version"], change.owe, now),
                )
            return row

        return await self.run_transaction(write)

"""The storage backends behind one interface: SQLite (one file, the default) or PostgreSQL (shared by processes).

``open_database(target)`` (``bot.storage.opening``) takes a path or a URL: ``sqlite:///relative.sqlite3``,
``sqlite:////absolute/path`` (or a plain path) for SQLite, ``postgresql://user:pass@host/db`` for PostgreSQL. Both
backends speak the same small interface: reads and single statements written with ``?`` placeholders, numbered
migrations (``migrate``) with a refusal to run against a schema newer than this code knows, and the game writes that
must be one version-guarded trip to the database (``insert_game``, ``guarded_write``). Each also keeps its
``health()``: None while it stores and keeps up, else the problem that stops it (``bot.storage.health``), logged once
when it starts and when it ends.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar

from bot.storage.health import Health, Problem

T = TypeVar("T")

# A result row: sqlite3.Row or asyncpg.Record; both are read by column name or by position.
Row: TypeAlias = Any

SQLITE_PREFIX = "sqlite:///"
POSTGRES_PREFIXES = ("postgresql://", "postgres://")


class SchemaTooNew(Exception):
    """The database was migrated by a newer boardhost than this one: running against it could corrupt games."""

    def __init__(self, found: int, known: int) -> None:
        super().__init__(
            f"the database schema is at version {found}, newer than this boardhost knows ({known}): "
            "upgrade boardhost before running it against this database"
        )
        self.found = found
        self.known = known


class UniqueViolation(Exception):
    """An insert broke a unique constraint (the same for both backends)."""


@dataclass(frozen=True, slots=True)
class GuardedWrite:
    """One change of a game, made only if the game is still at version ``expected``: its columns set to
    ``assignments`` and its version bumped, ``append`` (action JSON) added to its log as ``user_id`` or its last
    ``drop`` actions removed, and ``owe`` (JSON: what the change owes Discord) recorded in the outbox under the new
    version; ``now`` is the time of it all. ``players``: the people seated now (user ids), when the change moves the
    seats: the players index (``/game mine``) is rewritten to them in the same write."""

    game_id: int
    expected: int
    assignments: dict[str, Any]
    now: float
    user_id: int | None = None
    append: Sequence[str] = ()
    drop: int = 0
    owe: str | None = None
    players: Sequence[int] | None = None

    def __post_init__(self) -> None:
        if self.append and self.drop:
            raise ValueError("append and drop are separate writes")


class Executor(Protocol):
    """A connection inside an open transaction (``Database.transaction``)."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int: ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(POSTGRES_PREFIXES)


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite target: a path, or ``sqlite:///`` followed by one (``sqlite:////abs`` is absolute)."""
    if isinstance(target, Path):
        return target
    if target.startswith(SQLITE_PREFIX):
        return Path(target[len(SQLITE_PREFIX) :])
    if "://" in target:
        raise ValueError(f"unknown database URL {target!r}: use sqlite:///PATH or postgresql://...")
    return Path(target)


def describe(target: str | Path) -> str:
    """A target for logs: a SQLite file's absolute path, a PostgreSQL URL without its password."""
    if not is_postgres(target):
        return str(sqlite_path(target).absolute())
    text = str(target)
    scheme, rest = text.split("://", 1)
    if "@" in rest:
        login, host = rest.rsplit("@", 1)
        user = login.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in login else f"{scheme}://{login}@{host}"
    return text


class Database(ABC):
    """One open database (``bot.storage.opening.open_database`` picks the backend from the target)."""

    dialect: ClassVar[str]

    def __init__(self, target: str | Path) -> None:
        self.watch = Health(describe(target))

    def health(self) -> Problem | None:
        """None while the database stores every write and keeps its files in shape; else what is wrong now (a
        failing write until the next one succeeds, a WAL that cannot be checkpointed until one can)."""
        return self.watch.worst()

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        """Rows of one query (``?`` placeholders)."""

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement, committed on its own; the number of rows it changed."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Executor]:
        """A transaction over several trips (migrations, copies, tests): committed at the end, rolled back on error."""

    async def in_one_transaction(self, body: Callable[[Executor], Coroutine[Any, Any, T]]) -> T:
        """``body(tx)`` in one transaction, committed when it returns, rolled back if it raises. ``body`` awaits only
        ``tx``: SQLite runs it whole in one trip to its writer's thread (no other write waits on the event loop
        meanwhile); other backends in ``transaction()``."""
        async with self.transaction() as tx:
            return await body(tx)

    @abstractmethod
    def migrations(self) -> Sequence[tuple[int, str]]:
        """This backend's numbered migrations."""

    @abstractmethod
    async def migrate(self) -> list[int]:
        """Apply every migration newer than the database; returns the numbers applied."""

    @abstractmethod
    async def tables(self) -> list[str]:
        """The application's tables (not the migrations' bookkeeping), in an order that respects foreign keys."""

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        return int(row[0]) if row else 0

    def known_version(self) -> int:
        return max((number for number, _ in self.migrations()), default=0)

    async def check_schema(self) -> int:
        """The schema version; ``SchemaTooNew`` when a newer boardhost migrated the database."""
        found = await self.schema_version()
        if found > self.known_version():
            raise SchemaTooNew(found, self.known_version())
        return found

    # -- the game writes: each one trip to the database ---------------------------------------------------------

    @abstractmethod
    async def insert_game(self, columns: dict[str, Any], players: Sequence[int] = (), owe: str | None = None) -> Row:
        """Insert a game row, with ``players`` (user ids) in the players index and ``owe`` (JSON: what it owes
        Discord) in the outbox, and return it as stored; ``UniqueViolation`` if the channel has an open game."""

    @abstractmethod
    async def guarded_write(self, change: GuardedWrite) -> Row | None:
        """Make ``change`` atomically in one trip: the new row, or None when the game was not at the version it
        expects (nothing changed)."""

    # -- between processes -------------------------------------------------------------------------------------

    @abstractmethod
    async def notify(self, channel: str, payload: str) -> None:
        """Tell every process listening on ``channel``."""

    @abstractmethod
    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for every ``notify`` on ``channel`` from any process."""

    # -- copying ------------------------------------------------------------------------------------------------

    @abstractmethod
    async def columns(self, table: str) -> list[str]:
        """The columns of ``table`` in order."""

    @abstractmethod
    async def insert_rows(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Insert rows as they are (keeping their ids) in one transaction; identity counters follow."""

    async def stream(self, table: str, columns: Sequence[str], batch: int = 500) -> AsyncIterator[list[Row]]:
        """Every row of ``table`` in primary-key order, ``batch`` at a time."""
        names = ", ".join(columns)
        order = ", ".join(await self.primary_key(table))
        offset = 0
        while True:
            rows = await self.fetchall(
                f"SELECT {names} FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (batch, offset)
            )
            if not rows:
                return
            yield rows
            offset += len(rows)

    @abstractmethod
    async def primary_key(self, table: str) -> list[str]: ...

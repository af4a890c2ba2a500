"""Opening a database: the backend picked from the target, its migrations applied or its schema checked.

It lives apart from ``database`` (the interface both backends implement), so the base class never imports its own
subclasses.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.database import Database, is_postgres, sqlite_path
from bot.storage.sqlite import SqliteDatabase


async def open_database(target: str | Path, *, migrate: bool = True) -> Database:
    """Open ``target`` (a path or a URL: ``sqlite:///relative.sqlite3``, ``sqlite:////absolute/path``, or
    ``postgresql://user:pass@host/db``) and apply its pending migrations (or, with ``migrate=False``, only check the
    schema)."""
    db: Database
    if is_postgres(target):
        from bot.storage.postgres import PostgresDatabase  # lazy: asyncpg is loaded only for PostgreSQL

        db = await PostgresDatabase.connect(str(target))
    else:
        db = await SqliteDatabase.connect(sqlite_path(target))
    try:
        if migrate:
            await db.migrate()
        else:
            await db.check_schema()
    except BaseException:
        await db.close()
        raise
    return db

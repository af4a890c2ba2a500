"""Opening a database: the backend picked from the target, its migrations applied or its schema checked.

A target that cannot be used (a folder that does not exist, a file that is not a SQLite database, a PostgreSQL
server out of reach, a database nobody created, a URL of another kind) raises ``CannotOpen``, whose message is one
line naming the database and what is wrong, for the commands to print as it is.

It lives apart from ``database`` (the interface both backends implement), so the base class never imports its own
subclasses.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage.database import Database, SchemaTooNew, describe, is_postgres, sqlite_path
from bot.storage.sqlite import SqliteDatabase, named

CONNECT_TIMEOUT = 10.0  # seconds for a PostgreSQL server to answer before it counts as out of reach


class CannotOpen(Exception):
    """The database cannot be opened or brought up to date; the message says which and why, in one line."""


async def open_database(target: str | Path, *, migrate: bool = True, create: bool = True) -> Database:
    """Open ``target`` (a path or a URL: ``sqlite:///relative.sqlite3``, ``sqlite:////absolute/path``, or
    ``postgresql://user:pass@host/db``) and apply its pending migrations (or, with ``migrate=False``, only check the
    schema). ``create=False``: a SQLite file must exist already (a mistyped name is refused, never created).
    ``CannotOpen`` when the target cannot be used, ``SchemaTooNew`` when a newer boardhost migrated it."""
    db = await (_postgres(str(target)) if is_postgres(target) else _sqlite(target, create))
    try:
        if migrate:
            await db.migrate()
        else:
            await db.check_schema()
    except BaseException as err:
        await db.close()
        if not isinstance(err, Exception) or isinstance(err, SchemaTooNew):
            raise
        problem = _problem(err, describe(target), connecting=False)
        if problem is None:
            raise
        raise CannotOpen(problem) from None
    return db


def _file(target: str | Path, create: bool) -> Path:
    try:
        path = sqlite_path(target)
    except ValueError:
        raise CannotOpen(
            f"{target} is not a database boardhost can use: give a SQLite file (a path, or sqlite:///PATH) or a "
            "postgresql:// URL"
        ) from None
    path = path.absolute()
    where = f"the SQLite database {path}"
    if path.is_dir():
        raise CannotOpen(f"{where} is a folder: name a file (new or existing) in it")
    if not path.parent.is_dir():
        what = "is a file, not a folder" if path.parent.exists() else "does not exist"
        raise CannotOpen(f"{where} cannot be made: the folder {path.parent} {what} (create the folder first)")
    if not create and not path.exists():
        raise CannotOpen(f"{where} does not exist (check the name; nothing was created)")
    if not create and path.stat().st_size == 0:  # SQLite would write its header into it
        raise CannotOpen(f"{where} is an empty file, not a boardhost database")
    return path


async def _sqlite(target: str | Path, create: bool) -> SqliteDatabase:
    path = _file(target, create)
    try:
        return await SqliteDatabase.connect(path)
    except sqlite3.Error as err:
        problem = _problem(err, str(path), connecting=True)
        assert problem is not None
        raise CannotOpen(problem) from None


async def _postgres(url: str) -> Database:
    from bot.storage.postgres import PostgresDatabase  # lazy: asyncpg is loaded only for PostgreSQL

    try:
        return await PostgresDatabase.connect(url, timeout=CONNECT_TIMEOUT)
    except Exception as err:
        problem = _problem(err, describe(url), connecting=True)
        if problem is None:
            raise
        raise CannotOpen(problem) from None


def _problem(err: Exception, where: str, *, connecting: bool) -> str | None:
    """One line for a failure to open (``connecting``) or migrate ``where``; None for anything else (a bug, kept
    whole)."""
    text = " ".join(str(err).split())
    if isinstance(err, sqlite3.DatabaseError) and getattr(err, "sqlite_errorname", "") == "SQLITE_NOTADB":
        return f"{where} is not a SQLite database ({named(err)})"
    if isinstance(err, sqlite3.Error):
        return f"cannot use the SQLite database {where}: {named(err)}"
    if isinstance(err, TimeoutError):
        return f"no answer from PostgreSQL at {where} within {CONNECT_TIMEOUT:.0f} seconds"
    if isinstance(err, OSError):
        reason = err.strerror or text or type(err).__name__
        return f"cannot reach PostgreSQL at {where}: {reason} (is the server running there, on that port?)"
    if connecting and isinstance(err, ValueError):  # asyncpg reading the URL: a port that is not a number, ...
        return f"{where} is not a PostgreSQL URL boardhost can read: {text}"
    import asyncpg  # only PostgreSQL's own errors are left

    if isinstance(err, asyncpg.InvalidCatalogNameError):
        return f"{where}: {text}: create it first (createdb, or CREATE DATABASE on the server)"
    if isinstance(err, asyncpg.InvalidPasswordError | asyncpg.InvalidAuthorizationSpecificationError):
        return f"PostgreSQL at {where} refused the login: {text}"
    if isinstance(err, asyncpg.PostgresError | asyncpg.InterfaceError):
        return f"PostgreSQL at {where}: {text}"
    return None

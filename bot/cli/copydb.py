"""``python -m bot copy-db FROM TO``: every table of one database into an empty other (SQLite <-> PostgreSQL).

Rows are copied as they are (ids kept, JSON columns as text), table by table in batches; then the copy is checked
on the target: the same number of rows in every table, and every started game rebuilt from its action log equals
its stored state (``bot.host.rebuild``), so a game whose log and state disagree is reported and nothing is trusted.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.host.rebuild import load, rebuild
from bot.storage import Database, GameRow, Games
from bot.storage.database import SchemaTooNew, is_postgres, sqlite_path
from bot.storage.opening import CannotOpen, open_database
from engine import RuleError

BATCH = 500


class CopyError(Exception):
    pass


@dataclass
class Copied:
    rows: dict[str, int] = field(default_factory=dict)  # rows per table
    games_rebuilt: int = 0


async def copy_database(
    source: str | Path, target: str | Path, *, say: Callable[[str], None] = lambda _: None
) -> Copied:
    """Copy ``source`` (which must exist) into ``target`` (migrated here, and refused unless empty), then verify the
    copy. A SQLite target this made is removed again when the copy fails, so a failed copy leaves nothing behind."""
    if same_database(source, target):
        raise CopyError("FROM and TO are the same database: TO must be another, empty one")
    src = await _open(source, "FROM", migrate=False, create=False)
    try:
        if await src.schema_version() != src.known_version():
            wanted = src.known_version()
            raise CopyError(f"{source} is not at schema version {wanted}: run `python -m bot migrate` on it first")
        made = None if is_postgres(target) else _new_file(target)
        try:
            dst = await _open(target, "TO", migrate=True, create=True)
            try:
                return await _copy(src, dst, say)
            finally:
                await dst.close()
        except BaseException:
            if made is not None:
                for path in (made, made.with_name(made.name + "-wal"), made.with_name(made.name + "-shm")):
                    with contextlib.suppress(OSError):  # never made (its folder is missing), or gone already
                        path.unlink()
            raise
    finally:
        await src.close()


async def _open(target: str | Path, role: str, *, migrate: bool, create: bool) -> Database:
    try:
        return await open_database(target, migrate=migrate, create=create)
    except (CannotOpen, SchemaTooNew) as err:
        raise CopyError(f"{role}: {err}") from None


def same_database(source: str | Path, target: str | Path) -> bool:
    if is_postgres(source) or is_postgres(target):
        return str(source) == str(target)
    try:
        return sqlite_path(source).resolve() == sqlite_path(target).resolve()
    except ValueError:  # not a database URL: refused when it is opened
        return False


def _new_file(target: str | Path) -> Path | None:
    """The SQLite file ``target`` names if it does not exist yet (the copy then makes it)."""
    try:
        path = sqlite_path(target)
    except ValueError:
        return None
    return None if path.exists() else path


async def _copy(src: Database, dst: Database, say: Callable[[str], None]) -> Copied:
    tables = await src.tables()
    if set(tables) != set(await dst.tables()):
        raise CopyError(f"the databases have different tables: {sorted(tables)} and {sorted(await dst.tables())}")
    for table in tables:
        row = await dst.fetchone(f"SELECT COUNT(*) FROM {table}")
        if row is not None and row[0]:
            raise CopyError(f"the target is not empty: {table} has {row[0]} rows")
    copied = Copied()
    for table in tables:
        columns = await src.columns(table)
        if set(columns) != set(await dst.columns(table)):
            raise CopyError(f"{table} has different columns in the two databases")
        count = 0
        async for rows in src.stream(table, columns, BATCH):
            await dst.insert_rows(table, columns, [tuple(r) for r in rows])
            count += len(rows)
        copied.rows[table] = count
        say(f"{table}: {count} rows")
    for table in tables:
        row = await dst.fetchone(f"SELECT COUNT(*) FROM {table}")
        if row is None or row[0] != copied.rows[table]:
            raise CopyError(f"{table}: {copied.rows[table]} rows copied, {row[0] if row else 0} found on the target")
    copied.games_rebuilt = await verify_games(dst)
    say(f"{copied.games_rebuilt} games rebuilt from their logs on the target, each equal to its stored state")
    return copied


async def verify_games(db: Database) -> int:
    """Rebuild every started game from its action log; ``CopyError`` unless each equals its stored state."""
    games = Games(db)
    count = 0
    for raw in await db.fetchall("SELECT * FROM games WHERE state IS NOT NULL ORDER BY id"):
        row = GameRow.from_row(raw)
        try:
            rebuilt = rebuild(row, await games.actions(row.id)).to_json()
        except RuleError as err:
            raise CopyError(f"game {row.id}: its log does not replay ({err.code})") from None
        if json.dumps(rebuilt, sort_keys=True) != json.dumps(load(row).to_json(), sort_keys=True):
            raise CopyError(f"game {row.id}: rebuilt from its log, it differs from its stored state")
        count += 1
    return count

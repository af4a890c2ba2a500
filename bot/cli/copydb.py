"""``python -m bot copy-db FROM TO``: every table of one database into an empty other (SQLite <-> PostgreSQL).

Rows are copied as they are (ids kept, JSON columns as text), table by table in batches; then the copy is checked
on the target: the same number of rows in every table, and every started game rebuilt from its action log equals
its stored state (``bot.host.rebuild``), so a game whose log and state disagree is reported and nothing is trusted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.host.rebuild import load, rebuild
from bot.storage import Database, GameRow, Games
from bot.storage.opening import open_database
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
    """Copy ``source`` into ``target`` (migrated here, and refused unless empty), then verify the copy."""
    src = await open_database(source, migrate=False)
    try:
        if await src.schema_version() != src.known_version():
            wanted = src.known_version()
            raise CopyError(f"{source} is not at schema version {wanted}: run `python -m bot migrate` on it first")
        dst = await open_database(target)
        try:
            return await _copy(src, dst, say)
        finally:
            await dst.close()
    finally:
        await src.close()


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

"""``python -m bot backup TO``: a copy of the configured SQLite database in one file, consistent and complete even
while the bot runs and writes (SQLite's ``VACUUM INTO``: one read transaction, the WAL's pages included, the copy
compacted). It never overwrites a file and never creates the database it reads. PostgreSQL is backed up with its own
``pg_dump`` (README, "Backup and restore")."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


class BackupError(Exception):
    """Why no backup was made, in one line."""


def backup_sqlite(source: Path, target: Path) -> int:
    """Copy the database ``source`` into the new file ``target``; its size in bytes."""
    if not source.is_file():
        raise BackupError(f"no database at {source.resolve()}")
    if target.exists():
        raise BackupError(f"{target} exists already: name a new file")
    if not target.parent.resolve().is_dir():
        raise BackupError(f"no folder {target.parent.resolve()} for {target.name}")
    try:
        # Read-only (mode=ro): a backup never changes, or creates, the database it reads.
        with closing(sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)) as db:
            db.execute("VACUUM INTO ?", (str(target),))
        with closing(sqlite3.connect(f"{target.resolve().as_uri()}?mode=ro", uri=True)) as copy:
            (verdict,) = copy.execute("PRAGMA quick_check").fetchone()
    except sqlite3.Error as err:
        raise BackupError(f"{source}: {err}") from None
    if verdict != "ok":
        raise BackupError(f"the copy in {target} fails SQLite's check: {verdict}")
    return target.stat().st_size

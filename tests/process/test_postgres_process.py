"""README "One process or several", as processes: ``python -m bot migrate``, ``sync`` and ``python -m bot
--shard-count 2 --shard-ids 1`` on a PostgreSQL database against the fake Discord; and ``copy-db`` from the command
line."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.local.loopback import FakeDiscord
from bot.storage.migrations import SQLITE
from tests.process.conftest import Launcher

LATEST = len(SQLITE)  # the newest migration: the schema version a migrated database reaches
ALL = ", ".join(str(number) for number, _ in SQLITE)


def on_postgres(launcher: Launcher, url: str) -> Path:
    """The launcher's config with the database at ``url`` (which wins over the file's path)."""
    path = launcher.config()
    text = path.read_text(encoding="utf-8").replace("[database]\n", f'[database]\nurl = "{url}"\n', 1)
    path.write_text(text, encoding="utf-8")
    return path


async def test_a_sharded_process_on_postgresql_opens_a_lobby_and_stops_cleanly(
    launcher: Launcher, fake: FakeDiscord, postgres_url: str
) -> None:
    config = on_postgres(launcher, postgres_url)
    code, migrated = await launcher.run("migrate", config=config)
    assert code == 0, migrated.log
    assert f"schema version {LATEST} (applied {ALL})" in migrated.stdout and "***" not in migrated.stdout
    code, synced = await launcher.run("sync", "--guild", str(fake.guild_id), config=config)
    assert code == 0, synced.log

    bot = await launcher.start("--shard-count", "2", "--shard-ids", "1", config=config)
    await fake.wait_ready(timeout=30)
    alice = fake.add_user("Alice")
    asked = await fake.slash(alice, "carcassonne new")
    await fake.wait_answer(asked)
    await fake.wait_message(where=lambda m: bool(m.components))
    bot.terminate()
    assert await bot.wait(timeout=10) == 0
    bot.assert_no_traceback()
    assert not (launcher.tmp / "boardhost.sqlite3").exists(), "nothing went to the SQLite path"

    conn = await asyncpg.connect(postgres_url)
    try:
        games = await conn.fetch("SELECT game, status, host_id FROM games")
        ids = await conn.fetchval("SELECT COUNT(*) FROM command_ids WHERE guild_id = $1", fake.guild_id)
        leases = await conn.fetch("SELECT name FROM leases")
    finally:
        await conn.close()
    assert [(g["game"], g["status"]) for g in games] == [("carcassonne", "lobby")]
    assert ids >= 3, "sync stored the command ids in PostgreSQL"
    assert leases == [], "a clean stop hands its leases on"
    fake.check()


async def test_copy_db_from_the_command_line_copies_and_verifies(launcher: Launcher, postgres_url: str) -> None:
    source = launcher.tmp / "old.sqlite3"
    code, made = await launcher.run("migrate", config=_sqlite_config(launcher, source))
    assert code == 0, made.log
    with sqlite3.connect(source) as db:  # someone's /settings
        db.execute("INSERT INTO user_settings (user_id, dm_on_turn) VALUES (7, 1)")
    code, copied = await launcher.run("copy-db", f"sqlite:///{source}", postgres_url)
    assert code == 0, copied.log
    assert "user_settings: 1 rows" in copied.stdout and "0 games verified" in copied.stdout
    code, again = await launcher.run("copy-db", f"sqlite:///{source}", postgres_url)
    assert code == 1 and "copy-db: the target is not empty: user_settings has 1 rows" in again.log


def _sqlite_config(launcher: Launcher, path: Path) -> Path:
    config = launcher.tmp / "sqlite.toml"
    config.write_text(f'[database]\npath = "{path}"\n', encoding="utf-8")
    return config

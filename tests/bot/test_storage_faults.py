"""Storage that degrades honestly: another process holding SQLite's write lock, a full disk, a read-only or
immutable file, a reader that never lets go of its snapshot, a PostgreSQL server that drops the LISTEN connection
or restarts. Reads go on, a write that cannot be stored is refused with its real cause, and each problem is logged
once (and once more when it is over) and kept as the database's ``health()``."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import shutil
import sqlite3
import subprocess
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from bot.storage import Database, Games, UserSettings
from bot.storage.opening import open_database
from bot.storage.sqlite import SqliteDatabase
from engine.carcassonne import Carcassonne
from tests.bot.test_storage import started
from tests.postgres import Server, required, with_params

LOCK_HELD = 3.0  # seconds another process keeps the write lock
PROMPT = 1.0  # a read answers within this while the lock is held (a behaviour bound, not a benchmark)


async def move(games: Games, game_id: int, version: int, engine: Carcassonne, rng: random.Random) -> int:
    """One random move, stored; the new version."""
    action = engine.apply(engine.random_action(rng)).action
    row = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    return row.version


def storage_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "boardhost.storage" and r.levelno >= logging.ERROR]


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i``, what the tester did to the running bot's database (root with CAP_LINUX_IMMUTABLE, and a
    filesystem that has the flag); the test is skipped where it cannot be done."""
    chattr = shutil.which("chattr")
    done = subprocess.run([chattr, "+i", str(path)], capture_output=True, text=True) if chattr else None
    if done is None or done.returncode != 0:
        pytest.skip(f"cannot make {path} immutable: {done.stderr.strip() if done else 'no chattr'}")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


@contextmanager
def unwritable(path: Path) -> Iterator[None]:
    """A database file nobody may write: read-only for a user, immutable for root (who ignores permissions)."""
    if os.geteuid() == 0:
        with immutable(path):
            yield
        return
    mode = path.stat().st_mode
    path.chmod(0o444)
    try:
        yield
    finally:
        path.chmod(mode)


# -- reads never wait behind a queued write ----------------------------------------------------------------------


async def test_reads_answer_at_once_while_another_process_holds_the_write_lock(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    db = await open_database(path)
    games = Games(db)
    game_id, version, engine = await started(games)
    other = sqlite3.connect(path, isolation_level=None)  # another process, e.g. someone's sqlite3 shell
    other.execute("BEGIN IMMEDIATE")
    loop = asyncio.get_running_loop()
    released = loop.create_future()

    def release() -> None:
        other.execute("COMMIT")
        released.set_result(loop.time())

    loop.call_later(LOCK_HELD, release)
    try:
        queued = asyncio.create_task(move(games, game_id, version, engine, random.Random(1)))
        await asyncio.sleep(0.2)
        assert not queued.done(), "the move waits for the other process's lock"
        reads = {  # what /game board, /game status, /stats, an autocomplete and /settings read
            "game": games.get(game_id),
            "open game": games.open_in_channel(10),
            "log": games.actions(game_id),
            "stats": games.stats(5),
            "settings": UserSettings(db).dm_on_turn(1),
        }
        for what, read in reads.items():
            began = loop.time()
            await asyncio.wait_for(read, PROMPT * 2)
            assert loop.time() - began < PROMPT, f"reading the {what} waited behind the queued move"
        assert not released.done(), "every read answered while the lock was held"
        assert await queued == version + 1, "the move is stored once the lock is released (busy_timeout)"
        assert loop.time() >= released.result()
        row = await games.get(game_id)
        assert row is not None and row.version == version + 1 and len(await games.actions(game_id)) == 1
    finally:
        if not released.done():
            other.execute("ROLLBACK")
        other.close()
        await db.close()


async def test_both_connections_have_the_settings_wal_needs(tmp_path: Path) -> None:
    db = await open_database(tmp_path / "db.sqlite3")
    assert isinstance(db, SqliteDatabase)

    async def pragma(conn: Any, name: str) -> Any:
        return (await conn.execute_fetchall(f"PRAGMA {name}"))[0][0]

    for conn in (db.conn, db.reader):
        assert (await pragma(conn, "journal_mode"), await pragma(conn, "busy_timeout")) == ("wal", 5000)
    assert await pragma(db.conn, "synchronous") == 1  # NORMAL: a commit survives the process crashing
    assert await pragma(db.conn, "journal_size_limit") > 0  # the WAL file shrinks back after a checkpoint
    with pytest.raises(sqlite3.OperationalError, match="readonly"):  # a read cannot take the write lock by mistake
        await db.fetchall("UPDATE games SET version = version + 1")
    await db.close()


# -- a write that cannot be stored: refused, with its real cause logged once --------------------------------------


async def test_a_move_on_a_full_disk_is_refused_and_the_log_names_the_full_disk_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    db = await open_database(tmp_path / "db.sqlite3")
    games = Games(db)
    game_id, version, engine = await started(games)
    row = await db.fetchone("PRAGMA page_count")
    assert row is not None
    await db.execute(f"PRAGMA max_page_count = {row[0]}")  # the disk is full: not one page more
    rng = random.Random(2)
    for _ in range(200):  # moves fit into the pages' free space for a while (58 here)
        action = engine.apply(engine.random_action(rng)).action
        try:
            stored = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
        except sqlite3.OperationalError as err:
            refused = err
            break
        version = stored.version
    else:
        pytest.fail("the disk never filled")
    assert refused.sqlite_errorname == "SQLITE_FULL", "the caller gets the cause, so the player is told"
    problem = db.health()
    assert problem is not None and problem.code == "full"
    with pytest.raises(sqlite3.OperationalError, match="full"):  # the player tries again
        await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    row = await games.get(game_id)
    assert row is not None and row.version == version, "no refused move was stored"
    assert "cannot rollback" not in caplog.text
    errors = storage_errors(caplog)
    assert len(errors) == 1 and "database or disk is full (SQLITE_FULL)" in errors[0], errors

    await db.execute("PRAGMA max_page_count = 1073741823")  # space again: the third try is stored
    stored = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    assert stored.version == version + 1 and db.health() is None
    errors = storage_errors(caplog)
    assert len(errors) == 2 and "recovered" in errors[1] and "full" in errors[1], errors
    await db.close()


async def test_a_move_on_a_read_only_database_is_refused_and_the_log_names_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    path = tmp_path / "db.sqlite3"
    db = await open_database(path)
    game_id, version, engine = await started(Games(db))
    await db.close()
    with unwritable(path):
        db = await open_database(path)
        try:
            with pytest.raises(sqlite3.OperationalError) as refused:
                await move(Games(db), game_id, version, engine, random.Random(3))
            assert refused.value.sqlite_errorname == "SQLITE_READONLY"
            problem = db.health()
            assert problem is not None and problem.code == "readonly"
            errors = storage_errors(caplog)
            assert len(errors) == 1 and "attempt to write a readonly database (SQLITE_READONLY)" in errors[0], errors
            assert "cannot rollback" not in caplog.text
            row = await Games(db).get(game_id)
            assert row is not None and row.version == version, "reads go on"
        finally:
            await db.close()


# -- a WAL that cannot be checkpointed: reported, never growing in silence ---------------------------------------


async def test_a_database_made_immutable_while_running_is_reported_once_and_again_when_it_recovers(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The tester's ``chattr +i``: moves still reach the WAL, but no checkpoint can fold it into the file."""
    caplog.set_level(logging.WARNING)
    path = tmp_path / "db.sqlite3"
    db = await open_database(path)
    assert isinstance(db, SqliteDatabase)
    db.check_every = 5
    games = Games(db)
    game_id, version, engine = await started(games)
    rng = random.Random(4)
    with immutable(path):
        for _ in range(12):
            version = await move(games, game_id, version, engine, rng)  # stored: the WAL is writable
        problem = db.health()
        assert problem is not None and problem.code == "checkpoint" and "SQLITE_IOERR" in problem.detail, problem
        errors = storage_errors(caplog)
        assert len(errors) == 1 and "checkpoint" in errors[0], errors  # once, not per move
    for _ in range(6):
        version = await move(games, game_id, version, engine, rng)
    assert db.health() is None
    errors = storage_errors(caplog)
    assert len(errors) == 2 and "recovered" in errors[1], errors
    row = await games.get(game_id)
    assert row is not None and row.version == version and len(await games.actions(game_id)) == 18
    await db.close()


async def test_a_reader_that_never_lets_go_is_reported_before_the_wal_grows_without_bound(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    path = tmp_path / "db.sqlite3"
    db = await open_database(path)
    assert isinstance(db, SqliteDatabase)
    db.check_every, db.wal_backlog = 5, 256 << 10
    games = Games(db)
    game_id, version, engine = await started(games)
    other = sqlite3.connect(path, isolation_level=None)  # another process reads and never ends its transaction
    other.execute("BEGIN")
    other.execute("SELECT COUNT(*) FROM actions").fetchall()
    rng = random.Random(5)
    moves = 0
    while db.health() is None and moves < 300:
        version = await move(games, game_id, version, engine, rng)
        moves += 1
    problem = db.health()
    assert problem is not None and problem.code == "wal_backlog" and "old snapshot" in problem.detail, problem
    for _ in range(10):
        version = await move(games, game_id, version, engine, rng)
    assert len(storage_errors(caplog)) == 1, "logged once, not per move"
    other.execute("ROLLBACK")
    other.close()
    for _ in range(5):
        version = await move(games, game_id, version, engine, rng)
    assert db.health() is None
    errors = storage_errors(caplog)
    assert len(errors) == 2 and "recovered" in errors[1], errors
    await db.close()


# -- PostgreSQL ---------------------------------------------------------------------------------------------------


async def heard_again(notify: asyncpg.Connection, channel: str, heard: asyncio.Queue[str], payload: str) -> bool:
    """NOTIFY ``payload`` until the listener hears it (its connection is being reopened meanwhile)."""
    for _ in range(100):
        await notify.execute("SELECT pg_notify($1, $2)", channel, payload)
        try:
            if await asyncio.wait_for(heard.get(), 0.2) == payload:
                return True
        except TimeoutError:
            continue
    return False


async def listening(url: str, caplog: pytest.LogCaptureFixture) -> tuple[Database, str, asyncio.Queue[str]]:
    caplog.set_level(logging.INFO)
    db = await open_database(url)
    heard: asyncio.Queue[str] = asyncio.Queue()
    channel = f"wake_{uuid.uuid4().hex[:10]}"
    await db.listen(channel, heard.put_nowait)
    await db.listen(f"{channel}_2", heard.put_nowait)
    await db.notify(channel, "before")
    assert await asyncio.wait_for(heard.get(), 5) == "before"
    return db, channel, heard


async def terminate_listener(dsn: str, channel: str) -> None:
    """What an administrator's ``pg_terminate_backend`` (or a failover) does to the listening connection."""
    admin = await asyncpg.connect(dsn)
    try:
        killed = await admin.fetchval(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query LIKE $1", f'LISTEN "{channel}%'
        )
        assert killed == 1
    finally:
        await admin.close()


async def test_listen_comes_back_after_its_connection_is_terminated(
    postgres_url: str, postgres_server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    assert postgres_server.dsn is not None
    db, channel, heard = await listening(postgres_url, caplog)
    await terminate_listener(postgres_server.dsn, channel)
    other = await asyncpg.connect(postgres_url)  # another process
    try:
        assert await heard_again(other, channel, heard, "after")
        assert await heard_again(other, f"{channel}_2", heard, "and the other channel")
    finally:
        await other.close()
    assert "LISTEN connection" in caplog.text and f"listening on {channel}, {channel}_2 again" in caplog.text
    await db.close()


async def test_closing_never_raises_on_a_dead_listen_connection(
    postgres_url: str, postgres_server: Server, caplog: pytest.LogCaptureFixture
) -> None:
    assert postgres_server.dsn is not None
    db, channel, _ = await listening(postgres_url, caplog)
    await terminate_listener(postgres_server.dsn, channel)
    await asyncio.sleep(0.05)  # the client has seen the connection end, the new one is not open yet
    await db.close()


async def test_listen_comes_back_after_the_server_restarts(caplog: pytest.LogCaptureFixture) -> None:
    server = Server()  # its own server: restarting the shared one would cut the other tests' connections
    if server.dsn is not None:
        pytest.skip("BOARDHOST_TEST_POSTGRES names a server this test cannot restart")
    server.start()
    try:
        if server.dsn is None:
            if required():
                pytest.fail(server.why_not or "no PostgreSQL")
            pytest.skip(server.why_not or "no PostgreSQL")
        db, channel, heard = await listening(server.dsn, caplog)
        await asyncio.to_thread(server.restart)
        other = await asyncpg.connect(server.dsn)
        try:
            assert await heard_again(other, channel, heard, "after the restart")
        finally:
            await other.close()
        assert f"listening on {channel}, {channel}_2 again" in caplog.text
        await db.close()
    finally:
        server.stop()


async def test_a_write_to_a_read_only_postgresql_is_refused_and_reported_once(
    postgres_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A standby after a failover refuses writes the same way (SQLSTATE 25006)."""
    caplog.set_level(logging.WARNING)
    db = await open_database(postgres_url)
    game_id, version, engine = await started(Games(db))
    standby = await open_database(with_params(postgres_url, default_transaction_read_only="on"), migrate=False)
    games = Games(standby)
    rng = random.Random(6)
    for _ in range(2):
        with pytest.raises(asyncpg.ReadOnlySQLTransactionError):
            await move(games, game_id, version, engine, rng)
    problem = standby.health()
    assert problem is not None and problem.code == "readonly" and "25006" in problem.detail, problem
    errors = storage_errors(caplog)
    assert len(errors) == 1 and "read-only transaction" in errors[0], errors
    assert db.health() is None
    await move(Games(db), game_id, version, engine, rng)
    await standby.close()
    await db.close()

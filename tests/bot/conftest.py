"""Fixtures for bot tests: the real bot on a temporary database inside simcord's simulated Discord."""

from __future__ import annotations

import gc
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg
import pytest

from bot.app import BoardHost
from bot.core.config import Config
from bot.host import HostError, Services
from bot.storage import Games
from bot.storage.listener import Listener
from bot.storage.opening import open_database
from engine import RuleError
from tests.postgres import postgres_schema

BACKENDS = ("sqlite", "postgresql")
Target = str | Path  # what Database.open takes: a SQLite path or a PostgreSQL URL


@pytest.fixture(autouse=True)
async def close_databases() -> AsyncIterator[None]:
    """simcord stops the simulated Discord but never closes the bot, so close every database a bot (or a
    restarted bot) left open: an open aiosqlite worker thread would keep the test process from exiting. A bot freezes
    what it made at start (its connection among it) out of the collector's sight, and so out of ``gc.get_objects``:
    thaw it first."""
    yield
    gc.unfreeze()
    for obj in gc.get_objects():
        if isinstance(obj, aiosqlite.Connection) and obj._connection is not None:
            await obj.close()
        elif isinstance(obj, Listener):
            await obj.close()  # a bot's LISTEN connection (outside the pool)
        elif isinstance(obj, asyncpg.Pool) and not obj._closed:
            obj.terminate()  # close() would wait for connections still handed out


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Each storage and host test runs against SQLite and against a real PostgreSQL server."""
    return str(request.param)


@pytest.fixture
async def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> AsyncIterator[Target]:
    """Where the test's database lives: a SQLite file, or an empty PostgreSQL schema. Opening it again (a restart)
    finds the same data."""
    if backend == "sqlite":
        yield tmp_path / "db.sqlite3"
        return
    async for url in postgres_schema(request.getfixturevalue("postgres_server")):
        yield url


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    # Sweep reminders every half hour of simulated time: enough resolution for 12-hour delays, few DB trips. Images
    # are drawn in threads (no drawing processes to start for every test). Computer players move without the pause
    # that makes a channel read like a conversation: where a click's settling waits for a computer's move, simcord
    # waits for that pause in real time, and a few of them in one click ran into its 5 s limit on a busy machine
    # (tests of the pause set their own).
    config = Config(database=tmp_path / "bot.sqlite3", reminder_check=1800, render_processes=0, computer_pause=0)
    return BoardHost(config, rng=random.Random(1))


@dataclass
class World:
    env: Any
    bot: BoardHost
    channel: Any
    alice: Any
    bob: Any
    carol: Any


@pytest.fixture
async def world(simcord_env: Any, simcord_bot: BoardHost) -> AsyncIterator[World]:
    await simcord_bot.tree.sync()  # what `python -m bot sync` does; the bot never syncs on start
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("games")
    people = [guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob", "carol")]
    yield World(simcord_env, simcord_bot, channel, *people)


def reply(result: Any) -> Any:
    """The message a user saw for an interaction: the first follow-up after a deferral, else the response."""
    return result.followups[0] if result.followups else result.response


def flat(message: Any) -> list[dict[str, Any]]:
    """Components of a channel message (discord.Message) or a follow-up (raw payload) as dicts."""
    found: list[dict[str, Any]] = []
    for row in message.components:
        children = row["components"] if isinstance(row, dict) else [c.to_dict() for c in row.children]
        found += children
    return found


@pytest.fixture
async def service(database_url: Target) -> AsyncIterator[Services]:
    """The game host on a temporary database (each backend in turn), without Discord."""
    db = await open_database(database_url)
    yield Services.over(Games(db), random.Random(1))
    await db.close()


async def code(awaitable: object) -> str:
    """The stable code of the refusal ``awaitable`` ends in (a host error's key or a rule error's code)."""
    try:
        await awaitable  # type: ignore[misc]
    except HostError as err:
        return err.key
    except RuleError as err:
        return err.code
    raise AssertionError("not refused")


def sqlite_trips(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """From now on, every trip to SQLite's thread (each function aiosqlite hands it), in order: how many round trips
    a step of the bot makes to the database."""
    trips: list[object] = []
    execute = aiosqlite.Connection._execute

    async def counted(conn: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        trips.append(fn)
        return await execute(conn, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return trips

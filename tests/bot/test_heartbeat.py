"""The heartbeat behind Docker's HEALTHCHECK: a beat says whether the bot is connected and its database answers;
``check`` turns the last beat into healthy or not, with one line a host can read."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import discord

from bot.core.heartbeat import STALE_AFTER, check, problem, write
from bot.storage.health import Problem


class Socket:
    def __init__(self, open: bool) -> None:
        self.open = open


class Client:
    """What the heartbeat reads of a discord.py client."""

    def __init__(self, *, ready: bool = True, socket_open: bool = True) -> None:
        self.ready, self.ws = ready, Socket(socket_open)

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return False


class Database:
    def __init__(self, *, answer: str = "yes", refused: Problem | None = None) -> None:
        self.answer, self.refused = answer, refused

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any:
        if self.answer == "raises":
            raise OSError("unable to open database file")
        if self.answer == "hangs":
            await asyncio.sleep(3600)
        return (1,)

    def health(self) -> object | None:
        return self.refused


async def trouble(client: Client, database: Database) -> str | None:
    return await problem(cast(discord.Client, client), database)


async def test_a_connected_bot_whose_database_answers_has_no_problem() -> None:
    assert await trouble(Client(), Database()) is None


async def test_a_bot_not_yet_connected_or_whose_gateway_dropped_has_a_problem() -> None:
    assert await trouble(Client(ready=False), Database()) == "not connected to Discord yet"
    assert "gateway is down" in str(await trouble(Client(socket_open=False), Database()))


async def test_a_database_that_fails_hangs_or_refuses_writes_is_a_problem(monkeypatch: Any) -> None:
    monkeypatch.setattr("bot.core.heartbeat.ANSWER_WITHIN", 0.05)
    assert "unable to open database file" in str(await trouble(Client(), Database(answer="raises")))
    assert "did not answer" in str(await trouble(Client(), Database(answer="hangs")))
    full = Problem("full", "database or disk is full")
    assert (
        await trouble(Client(), Database(refused=full))
        == "the database refuses writes (full: database or disk is full)"
    )


def test_a_fresh_beat_without_a_problem_is_healthy(tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    write(beat, None, now=1000.0)

    healthy, line = check(beat, now=1004.0)

    assert healthy and "connected to Discord" in line and "4 seconds ago" in line
    assert [p.name for p in tmp_path.iterdir()] == ["heartbeat"]  # written whole, nothing left beside it


def test_a_beat_naming_a_problem_is_unhealthy_and_says_it(tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    write(beat, "the connection to Discord's gateway is down", now=1000.0)

    assert check(beat, now=1001.0) == (False, "the connection to Discord's gateway is down (1 seconds ago)")


def test_an_old_beat_means_a_stopped_or_stuck_bot(tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    write(beat, None, now=1000.0)

    assert check(beat, now=1000.0 + STALE_AFTER - 1)[0]
    healthy, line = check(beat, now=1000.0 + STALE_AFTER + 5)
    assert not healthy and "stopped or is stuck" in line


def test_no_beat_or_a_broken_one_is_unhealthy(tmp_path: Path) -> None:
    beat = tmp_path / "heartbeat"
    assert check(beat, now=0.0) == (
        False,
        f"no heartbeat in {beat}: the bot is not running, or has not opened its database yet",
    )
    beat.write_text("{", encoding="utf-8")
    assert not check(beat, now=0.0)[0]
    beat.write_text(json.dumps({"problem": None}), encoding="utf-8")
    healthy, line = check(beat, now=0.0)
    assert not healthy and "unreadable heartbeat" in line


class Shard:
    def __init__(self, closed: bool) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        return self.closed


class Sharded(discord.AutoShardedClient):
    """A sharded client's connections as the heartbeat reads them (nothing of discord.py's set-up)."""

    def __init__(self, *closed: bool) -> None:  # no super().__init__(): nothing here connects
        self._shards = {n: Shard(c) for n, c in enumerate(closed)}

    @property
    def shards(self) -> dict[int, Any]:  # plain stand-ins for ShardInfo
        return self._shards

    def is_ready(self) -> bool:
        return True

    def is_closed(self) -> bool:
        return False


async def test_a_sharded_bot_is_connected_only_while_every_shard_is() -> None:
    assert await problem(Sharded(False, False), Database()) is None
    assert "gateway is down" in str(await problem(Sharded(False, True), Database()))

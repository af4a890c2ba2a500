"""The bot's heartbeat: a small file saying, every few seconds, whether the bot is connected to Discord's gateway
and its database answers; ``python -m bot health`` reads it (Docker's HEALTHCHECK).

Written only where ``BOARDHOST_HEARTBEAT`` names a file (the image sets it). Each beat is one JSON object, replaced
atomically: the time, the process and the problem (``null`` when healthy). A beat is written every ``EVERY``
seconds and at once when the gateway connects, resumes or drops; the file is removed when the bot closes. ``check``
calls the bot unhealthy when the last beat names a problem, when it is older than ``STALE_AFTER`` (the process was
killed, or its event loop is stuck and writes nothing), or when there is none.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import discord
from discord.ext import commands

log = logging.getLogger("boardhost")

ENV = "BOARDHOST_HEARTBEAT"
EVERY = 10.0  # seconds between beats
STALE_AFTER = 35.0  # seconds after which a beat no longer vouches for the bot: three missed beats and some slack
ANSWER_WITHIN = 5.0  # seconds the database gets to answer ``SELECT 1``
NUDGED_BY = ("on_ready", "on_connect", "on_resumed", "on_disconnect")


class Answering(Protocol):
    """What the heartbeat asks of the database (``bot.storage.Database``)."""

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    def health(self) -> object | None: ...


def heartbeat_file() -> Path | None:
    """The file named by ``BOARDHOST_HEARTBEAT``, if any."""
    named = os.environ.get(ENV, "").strip()
    return Path(named) if named else None


def gateway_open(client: discord.Client) -> bool:
    """Whether every gateway connection of the client is up (each shard's, for a sharded bot)."""
    if not client.is_ready() or client.is_closed():
        return False
    if isinstance(client, discord.AutoShardedClient):
        return bool(client.shards) and not any(shard.is_closed() for shard in client.shards.values())
    ws = getattr(client, "ws", None)  # typed as never None, but None until the first socket opens
    return ws is not None and bool(ws.open)


async def problem(client: discord.Client, database: Answering) -> str | None:
    """What keeps the bot from playing now, in a few words; None when it is connected and its database answers."""
    if not client.is_ready():
        return "not connected to Discord yet"
    if not gateway_open(client):
        return "the connection to Discord's gateway is down"
    try:
        await asyncio.wait_for(database.fetchone("SELECT 1"), ANSWER_WITHIN)
    except TimeoutError:
        return f"the database did not answer within {ANSWER_WITHIN:.0f} seconds"
    except Exception as err:  # whatever the backend raises: the heartbeat says it, the bot goes on
        return f"the database does not answer ({type(err).__name__}: {err})"
    refused = database.health()
    if refused is not None:
        return f"the database refuses writes ({refused})"
    return None


def write(path: Path, trouble: str | None, now: float) -> None:
    """One beat, replacing the last one at once (a reader never sees half a file)."""
    part = path.with_name(f".{path.name}.{os.getpid()}")
    part.write_text(json.dumps({"at": now, "pid": os.getpid(), "problem": trouble}), encoding="utf-8")
    os.replace(part, path)


def check(path: Path, now: float, stale_after: float = STALE_AFTER) -> tuple[bool, str]:
    """Whether the bot whose heartbeat is ``path`` is healthy at ``now``, and one line saying why."""
    try:
        beat = json.loads(path.read_text(encoding="utf-8"))
        at, trouble = float(beat["at"]), beat["problem"]
    except FileNotFoundError:
        return False, f"no heartbeat in {path}: the bot is not running, or has not opened its database yet"
    except (OSError, ValueError, KeyError, TypeError) as err:
        return False, f"unreadable heartbeat in {path} ({type(err).__name__}: {err})"
    age = max(0.0, now - at)
    if age > stale_after:
        return False, f"the last heartbeat is {age:.0f} seconds old: the bot stopped or is stuck"
    if trouble:
        return False, f"{trouble} ({age:.0f} seconds ago)"
    return True, f"connected to Discord and the database answers ({age:.0f} seconds ago)"


class Heartbeat:
    """Writes the beats of one bot until ``stop``."""

    def __init__(self, bot: commands.Bot, database: Answering, path: Path, every: float = EVERY) -> None:
        self.bot, self.database, self.path, self.every = bot, database, path, every
        self._nudge = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        for event in NUDGED_BY:
            self.bot.add_listener(self.nudge, event)
        self._task = asyncio.create_task(self._beat(), name="boardhost-heartbeat")

    async def nudge(self, *_: object) -> None:
        self._nudge.set()

    async def _beat(self) -> None:
        while True:
            self._nudge.clear()
            try:
                write(self.path, await problem(self.bot, self.database), time.time())
            except OSError as err:  # a heartbeat that cannot be written is the health check's to report
                log.warning("heartbeat not written to %s: %s", self.path, err)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._nudge.wait(), self.every)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        with contextlib.suppress(OSError):
            self.path.unlink()


def start_heartbeat(bot: commands.Bot, database: Answering) -> Heartbeat | None:
    """The bot's heartbeat, beating, where ``BOARDHOST_HEARTBEAT`` names a file; else None."""
    path = heartbeat_file()
    if path is None:
        return None
    heartbeat = Heartbeat(bot, database, path)
    heartbeat.start()
    return heartbeat

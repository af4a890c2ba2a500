"""PostgreSQL LISTEN on a connection of its own that outlives the server going away.

When the connection is lost (the server restarted, an administrator's ``pg_terminate_backend``, the network), it
is reopened with a growing pause between attempts and every channel is listened to again; meanwhile the other
processes' wake-ups are missed, and the callers' periodic sweeps do that work late instead. ``close`` never raises,
whatever state the connection is in.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import asyncpg

log = logging.getLogger("boardhost.storage")

FIRST_PAUSE: Final = 0.2  # seconds before the second attempt to reopen; doubled after each failure
LONGEST_PAUSE: Final = 10.0
CLOSE_TIMEOUT: Final = 5.0
# Why a connection cannot be opened: the server down or starting (refused, "the database system is starting up").
UNREACHABLE: Final = (OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError)


class Listener:
    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name  # the database, as logs show it (no password)
        self._callbacks: dict[str, list[Callable[[str], None]]] = {}
        self._conn: Any = None  # asyncpg.Connection while open
        self._reopening: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def channels(self) -> list[str]:
        return list(self._callbacks)

    async def listen(self, channel: str, callback: Callable[[str], None]) -> None:
        """Call ``callback(payload)`` for every NOTIFY on ``channel``, over reconnections."""
        new = channel not in self._callbacks
        self._callbacks.setdefault(channel, []).append(callback)
        if self._reopening is not None:
            return  # the reopened connection listens to every channel, this one included
        if self._conn is None:
            self._conn = await self._open()  # the first connection: failing to open it is the caller's error
            return
        if new:
            conn = self._conn
            try:
                await conn.add_listener(channel, self._heard)
            except UNREACHABLE:
                if not conn.is_closed():
                    raise
                # lost meanwhile: the reopening listens to this channel too

    async def _open(self) -> Any:
        conn = await asyncpg.connect(self.url)
        try:
            for channel in self._callbacks:
                await conn.add_listener(channel, self._heard)
        except BaseException:
            conn.terminate()
            raise
        conn.add_termination_listener(self._lost)
        return conn

    def _heard(self, _conn: Any, _pid: int, channel: str, payload: str) -> None:
        for callback in self._callbacks.get(channel, ()):
            callback(payload)

    def _lost(self, conn: Any) -> None:
        """asyncpg's word that ``conn`` is closed (by the server or the network: ``close`` removes this first)."""
        if self._closed or conn is not self._conn:
            return
        self._conn = None
        log.warning("LISTEN connection to %s lost; reopening it (wake-ups from other processes wait meanwhile)",
                    self.name)  # fmt: skip
        self._reopening = asyncio.get_running_loop().create_task(self._reopen())

    async def _reopen(self) -> None:
        lost = time.monotonic()
        pause = FIRST_PAUSE
        attempts = 0
        while True:
            attempts += 1
            try:
                conn = await self._open()
            except UNREACHABLE as err:
                if attempts == 1:
                    log.warning("LISTEN connection to %s cannot be reopened yet (%s); trying again", self.name, err)
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
                continue
            break
        self._conn, self._reopening = conn, None
        log.warning("LISTEN connection to %s reopened after %.1f s (%d attempts): listening on %s again",
                    self.name, time.monotonic() - lost, attempts, ", ".join(self._callbacks))  # fmt: skip

    async def close(self) -> None:
        """Stop listening and close the connection; never raises (the connection may be dead already)."""
        self._closed = True
        if self._reopening is not None:
            reopening, self._reopening = self._reopening, None
            reopening.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reopening
        conn, self._conn = self._conn, None
        if conn is None:
            return
        conn.remove_termination_listener(self._lost)
        try:
            await asyncio.wait_for(conn.close(), CLOSE_TIMEOUT)
        except Exception as err:  # dead or unresponsive: drop it without a goodbye
            log.info("LISTEN connection to %s closed abruptly (%s)", self.name, err)
            conn.terminate()

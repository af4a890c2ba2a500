"""Gateway sessions as Discord keeps them: a session outlives its websocket, numbers its dispatches, and keeps them
so that a client coming back with RESUME (session id + the last sequence it saw) gets the ones it missed.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

REPLAY_EVENTS = 10_000  # dispatches kept for a resume; a client further behind must identify again


@dataclass
class Resume:
    """One successful RESUME: from which sequence, and the events replayed to it."""

    session_id: str
    seq: int
    replayed: list[str]


@dataclass
class Session:
    id: str = field(default_factory=lambda: secrets.token_hex(16))
    seq: int = 0
    ws: web.WebSocketResponse | None = None
    disconnected_at: float | None = None
    heartbeats: int = 0  # HEARTBEATs received over all its connections
    acks: int = 0  # HEARTBEAT_ACKs sent
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # frames go out in sequence order
    _sent: deque[tuple[int, str, str]] = field(default_factory=lambda: deque(maxlen=REPLAY_EVENTS))

    def frame(self, event: str, data: Any, *, keep: bool = True) -> str:
        """The next dispatch of this session, numbered, and kept for a replay unless not ``keep`` (RESUMED)."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        if keep:
            self._sent.append((self.seq, event, frame))
        return frame

    def since(self, seq: int) -> list[tuple[str, str]] | None:
        """(event, frame) of every dispatch after ``seq``; None when they are no longer all kept."""
        if self._sent and seq < self._sent[0][0] - 1:
            return None
        return [(event, frame) for s, event, frame in self._sent if s > seq]

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed

    def attach(self, ws: web.WebSocketResponse) -> None:
        self.ws, self.disconnected_at = ws, None

    def detach(self, ws: web.WebSocketResponse) -> None:
        if self.ws is ws:
            self.ws, self.disconnected_at = None, time.monotonic()

    def expired(self, window: float) -> bool:
        return self.disconnected_at is not None and time.monotonic() - self.disconnected_at > window

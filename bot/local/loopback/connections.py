"""The loopback Discord's gateway: connections, sessions (numbered dispatches, replayed on RESUME), heartbeats, and
the gateway's faults a test injects (dropped connections, invalid sessions, reconnect and heartbeat requests)."""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from bot.local.loopback import permissions
from bot.local.loopback.sessions import Resume, Session
from bot.local.loopback.store import Store


class Gateway:
    """Serves ``/gateway`` (``serve``) and sends the events of the store's sessions (``dispatch``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._sockets: dict[web.WebSocketResponse, web.Request] = {}
        # Transport compression a connection asked for (``?compress=zlib-stream``, as discord.py does by default):
        # one zlib stream for the connection's life, each payload ending in a sync flush, as Discord sends them.
        # zstd-stream (asked by discord.py where zstandard is installed) is answered uncompressed: it reads both.
        self._streams: dict[web.WebSocketResponse, Any] = {}
        self.compressed = 0  # connections that asked for zlib-stream
        self._open = asyncio.Event()  # cleared while the gateway is down: new connections wait for HELLO
        self._open.set()

    async def close(self) -> None:
        """Close every connection."""
        for ws in list(self._sockets):
            await ws.close()

    async def dispatch(self, event: str, data: Any) -> None:
        """An event for every session: sent to those connected, kept for those that will resume."""
        for session in list(self.store.sessions.values()):
            if session.expired(self.store.resume_window):
                del self.store.sessions[session.id]
            else:
                await self._send(session, event, data)

    async def _send(self, session: Session, event: str, data: Any, *, keep: bool = True) -> None:
        async with session.lock:  # in sequence order, and never in the middle of a replay
            frame = session.frame(event, data, keep=keep)
            if session.ws is not None:
                await self._send_str(session.ws, frame)

    async def _send_str(self, ws: web.WebSocketResponse, frame: str) -> bool:
        if ws.closed:
            return False
        stream = self._streams.get(ws)
        try:
            if stream is None:
                await ws.send_str(frame)
            else:
                await ws.send_bytes(stream.compress(frame.encode()) + stream.flush(zlib.Z_SYNC_FLUSH))
        except (ConnectionError, RuntimeError):  # closing meanwhile: the session keeps the frame for a resume
            return False
        return True

    async def _op(self, ws: web.WebSocketResponse, op: int, data: Any) -> bool:
        return await self._send_str(ws, json.dumps({"op": op, "d": data, "s": None, "t": None}))

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets[ws] = request
        if request.query.get("compress") == "zlib-stream":
            self._streams[ws] = zlib.compressobj()
            self.compressed += 1
        session: Session | None = None
        await self._open.wait()
        await self._op(ws, 10, {"heartbeat_interval": self.store.heartbeat_interval})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    self._heartbeat(ws, session)
                elif op in (2, 6) and data.get("token") != self.store.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                elif op in (2, 6) and session is not None:
                    await ws.close(code=4005, message=b"Already authenticated.")
                elif op == 2:
                    session = Session()
                    self.store.sessions[session.id] = session
                    session.attach(ws)
                    await self._ready(session)
                    self.store.identified += 1
                    await self.store.notify()
                elif op == 6:
                    session = await self._resume(ws, str(data.get("session_id")), int(data.get("seq") or 0))
                elif op not in (3, 4, 8):  # presence, voice state, member requests: accepted, unused
                    await ws.close(code=4001, message=b"Unknown opcode.")
        finally:
            del self._sockets[ws]
            self._streams.pop(ws, None)
            if session is not None:
                session.detach(ws)
        return ws

    def _heartbeat(self, ws: web.WebSocketResponse, session: Session | None) -> None:
        """One HEARTBEAT_ACK per HEARTBEAT, after a network round trip (see HEARTBEAT_ROUND_TRIP)."""
        self.store.heartbeats += 1
        if session is not None:
            session.heartbeats += 1
        self.store.spawn(self._ack(ws, session))

    async def _ack(self, ws: web.WebSocketResponse, session: Session | None) -> None:
        await asyncio.sleep(self.store.heartbeat_round_trip)
        if await self._op(ws, 11, None):
            self.store.heartbeat_acks += 1
            if session is not None:
                session.acks += 1

    async def _resume(self, ws: web.WebSocketResponse, session_id: str, seq: int) -> Session | None:
        """RESUME: the dispatches the client missed since ``seq``, then RESUMED; INVALID_SESSION (op 9, not
        resumable) when the session is gone or no longer holds them all; close 4007 for a sequence it never sent."""
        session = self.store.sessions.get(session_id)
        if session is not None and session.expired(self.store.resume_window):
            del self.store.sessions[session_id]
            session = None
        if session is not None and seq > session.seq:
            await ws.close(code=4007, message=b"Invalid seq.")
            return None
        missed = session.since(seq) if session is not None else None
        if session is None or missed is None:
            await self._op(ws, 9, False)
            return None
        async with session.lock:
            old = session.ws
            session.attach(ws)
            missed = session.since(seq) or []  # again: more may have come while waiting for the lock
            for _, frame in missed:
                await self._send_str(ws, frame)
            await self._send_str(ws, session.frame("RESUMED", {}, keep=False))
        if old is not None and old is not ws:
            await old.close(code=4000, message=b"Resumed elsewhere.")
        self.store.resumes.append(Resume(session.id, seq, [event for event, _ in missed]))
        self.store.resumed += 1
        await self.store.notify()
        return session

    async def _ready(self, session: Session) -> None:
        await self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": self.store.bot_user,
                "guilds": [{"id": str(self.store.guild_id), "unavailable": True}],
                "session_id": session.id,
                "resume_gateway_url": self.store.gateway_url,
                "relationships": [],
                "private_channels": [],
                "presences": [],
                "application": {"id": str(self.store.application_id), "flags": 0},
                "user_settings": {},
                "session_type": "normal",
                "auth": {},
                "geo_ordered_rtc_regions": [],
                "shard": [0, 1],
            },
        )
        await self._send(session, "GUILD_CREATE", guild_json(self.store))

    # --- faults ---------------------------------------------------------------------------------------------------

    async def drop_gateway(self, code: int | None = 4000, *, for_seconds: float | None = 0.0) -> int:
        """Close every gateway connection; their sessions stay resumable (discord.py RESUMEs and gets the events it
        missed), except after 4007 (invalid seq) or 4009 (session timed out), which end them as Discord does.
        ``code``: the close code (4000: unknown error); None cuts the connection without a close frame, as a network
        failure does. ``for_seconds``: the gateway stays down that long (None: until ``reopen_gateway()``): a client
        connecting meanwhile waits for its HELLO, and events meanwhile are kept for its RESUME. The number of
        connections closed."""
        if for_seconds != 0.0:
            self._open.clear()
            if for_seconds is not None:
                self.store.spawn(self._reopen_after(for_seconds))
        sockets = list(self._sockets.items())
        for ws, request in sockets:
            if code in (4007, 4009):
                for session in [s for s in self.store.sessions.values() if s.ws is ws]:
                    del self.store.sessions[session.id]
            if code is None:
                if request.transport is not None:
                    request.transport.abort()
            else:
                await ws.close(code=code, message=b"Closed by the test")
        return len(sockets)

    def reopen_gateway(self) -> None:
        self._open.set()

    async def _reopen_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.reopen_gateway()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send INVALID_SESSION (op 9) on every connection; unless ``resumable``, every session is forgotten, so a
        client must IDENTIFY again (also one disconnected now: its RESUME gets op 9)."""
        for ws in list(self._sockets):
            await self._op(ws, 9, resumable)
        if not resumable:
            self.store.sessions.clear()

    async def request_reconnect(self) -> None:
        """RECONNECT (op 7) on every connection: the client closes it and RESUMEs."""
        for ws in list(self._sockets):
            await self._op(ws, 7, None)

    async def request_heartbeat(self) -> None:
        """HEARTBEAT (op 1) from the server on every connection: the client heartbeats at once."""
        for ws in list(self._sockets):
            await self._op(ws, 1, None)


def guild_json(store: Store) -> dict[str, Any]:
    """The server as GUILD_CREATE shows it."""
    return {
        "id": str(store.guild_id),
        "name": store.guild_name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(next(iter(store.users), 1)),  # never the bot: an owner has every permission
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [
            {
                "id": str(store.guild_id),
                "name": "@everyone",
                "permissions": str(permissions.BOT),
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "large": False,
        "unavailable": False,
        "member_count": len(store.users) + 1,
        "members": [
            {
                "user": store.bot_user,
                "roles": [],
                "joined_at": "2024-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
            }
        ],
        "channels": [store.channel_json(c) for c in store.channels],
        "threads": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }

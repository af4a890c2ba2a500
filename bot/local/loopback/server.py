"""A loopback Discord: gateway v10 (JSON) and REST v10, enough for the unmodified discord.py client.

Strict where Discord is strict (see ``limits``): a request breaking a limit is answered 400 with Discord's error
shape and recorded in ``violations``, which ``check()`` turns into a test failure. Discord's failures can be
injected while a client runs (``faults``, ``sessions``, ``permissions``; the package's docstring lists them), and
every REST request is recorded in ``exchanges``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import mimetypes
import secrets
import time
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from bot.local.loopback import mentions, payloads, permissions
from bot.local.loopback.faults import Exchange, Fault, error_code, rate_limit_answer, server_error_body
from bot.local.loopback.sessions import Resume, Session

ANSWER_WITHIN = 3.0  # seconds Discord gives an interaction's first answer
RATE_MESSAGES, RATE_WINDOW = 5, 5.0  # messages per channel per window (seconds)
EPHEMERAL = 64
EVERYTHING = str(permissions.EVERYTHING)  # a person's permissions
HEARTBEAT_INTERVAL = 41250  # milliseconds, as Discord's HELLO says
# Discord's HEARTBEAT_ACK comes back after a network round trip. An instant one (loopback) races discord.py's
# keep-alive thread, which notes the time of its heartbeat only once the send has completed: when the ACK is handled
# first, the latency is measured from the previous heartbeat, a whole interval earlier ("Can't keep up ... 41.3s
# behind"). A realistic round trip lets the thread note it first.
HEARTBEAT_ROUND_TRIP = 0.05
NONCE_WINDOW = 180.0  # seconds a nonce with enforce_nonce finds its message again ("the past few minutes")
RESUME_WINDOW = 300.0  # seconds a disconnected session can still be resumed


def _json(data: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    """JSON with the bare content type discord.py looks for (aiohttp's own adds a charset)."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers, content_type="application/json")


@dataclass
class Violation:
    route: str
    body: dict[str, Any]
    detail: str


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None  # the alt text of an image


@dataclass
class Version:
    """What a message showed at one point of its history."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]
    attachments: list[str]  # file names
    flags: int
    pings: mentions.Pings = field(default_factory=mentions.Pings)  # whom the content pings (its allowed_mentions)
    at: float = field(default_factory=time.monotonic)  # when it was shown: orders creations and edits together


@dataclass
class Message:
    id: int
    channel_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    interaction_id: int | None = None
    edits: int = 0
    author_id: int | None = None  # a person who wrote it in the channel; None: the bot
    nonce: str | None = None
    deleted: bool = False
    created_at: float = field(default_factory=time.monotonic)
    versions: list[Version] = field(default_factory=list)  # as created, then after each edit
    allowed_mentions: dict[str, Any] | None = None  # as last sent (None: none was, so the content pings)

    def __post_init__(self) -> None:
        self.record()

    def record(self) -> None:
        self.versions.append(
            Version(
                self.content,
                list(self.embeds),
                list(self.components),
                [a.filename for a in self.attachments],
                self.flags,
                mentions.pings(self.content, self.allowed_mentions),
            )
        )

    @property
    def pings(self) -> mentions.Pings:
        """Whom the message pinged when it was created (an edit notifies nobody on Discord)."""
        return self.versions[0].pings

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", []) if "custom_id" in c]


@dataclass
class Interaction:
    id: int
    token: str
    kind: int
    user_id: int
    channel_id: int
    payload: dict[str, Any]
    sent_at: float
    answers: list[dict[str, Any]] = field(default_factory=list)  # callback bodies, in order
    answered_at: float | None = None
    original: Message | None = None
    followups: list[Message] = field(default_factory=list)

    @property
    def modal(self) -> dict[str, Any] | None:
        return next((a["data"] for a in self.answers if a.get("type") == 9), None)

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        return next((a["data"].get("choices", []) for a in self.answers if a.get("type") == 8), None)


EXCHANGE = web.RequestKey("exchange", Exchange)
BODY = web.RequestKey("body", tuple[dict[str, Any], list[Attachment]])


class FakeDiscord:
    """Start with ``await fake.start()``; point the bot at ``rest_url`` and ``gateway_url``."""

    def __init__(
        self,
        token: str = "fake-token",
        *,
        guild_id: int = 900_000_000_000_000_001,
        first_id: int = 1_100_000_000_000_000_000,
        channel_id: int | None = None,
    ) -> None:
        self.token = token
        self._ids = itertools.count(first_id)
        self.application_id = 800_000_000_000_000_001
        self.bot_user = {
            "id": str(self.application_id),
            "username": "boardhost",
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
        }
        self.guild_id = guild_id
        self.guild_name = "Fake server"
        self.channels: dict[int, dict[str, Any]] = {}
        self.users: dict[int, dict[str, Any]] = {}
        self.closed_dms: set[int] = set()
        self.dm_channels: dict[int, int] = {}  # channel id -> user id
        self.messages: dict[int, list[Message]] = {}  # channel id -> messages, oldest first
        self.interactions: dict[int, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global) -> commands
        self.violations: list[Violation] = []
        self.rate_limited: list[int] = []  # channel ids that got a 429
        self.identified = 0
        self.resumed = 0
        self.fail_commands: list[payloads.Problem] | None = None  # force a 50035 on the next bulk overwrite
        # REST: injected faults, and every request with its answer
        self.faults: list[Fault] = []
        self.exchanges: list[Exchange] = []
        self.nonce_window = NONCE_WINDOW
        self.denied: dict[int, int] = {}  # channel id -> permission bits taken from the bot
        self.deleted_channels: dict[int, dict[str, Any]] = {}
        self.deleted_messages: list[Message] = []
        self.attachments: dict[int, Attachment] = {}  # every upload, by id (served at its url)
        self.changes = 0  # counts the changes the fake noticed (every REST request, every interaction)
        # gateway
        self.heartbeat_interval = HEARTBEAT_INTERVAL
        self.heartbeat_round_trip = HEARTBEAT_ROUND_TRIP
        self.heartbeats = 0  # HEARTBEATs received, all connections together
        self.heartbeat_acks = 0
        self.resume_window = RESUME_WINDOW
        self.sessions: dict[str, Session] = {}
        self.resumes: list[Resume] = []
        self._posts: dict[int, deque[float]] = {}
        self._nonces: dict[str, Message] = {}
        self._sockets: dict[web.WebSocketResponse, web.Request] = {}
        self._gateway_open = asyncio.Event()  # cleared while the gateway is down: new connections wait for HELLO
        self._gateway_open.set()
        self._tasks: set[asyncio.Task[Any]] = set()  # heartbeat answers, and requests held by a hang
        self._held: set[asyncio.Task[Any]] = set()  # requests a hang holds before doing them
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.channel_id = self.add_channel("games", channel_id)

    # --- set-up -------------------------------------------------------------------------------------------------

    def next_id(self) -> int:
        return next(self._ids)

    def ids_above(self, used: int) -> None:
        """New ids from now on are above ``used`` (an id given out before, by an earlier run)."""
        following = next(self._ids)
        self._ids = itertools.count(max(following, used + 1))

    def add_channel(self, name: str, channel_id: int | None = None) -> int:
        channel_id = channel_id or self.next_id()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "guild_id": str(self.guild_id),
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        self.messages[channel_id] = []
        return channel_id

    def _channel_json(self, channel_id: int) -> dict[str, Any]:
        channel = self.channels.get(channel_id) or self.deleted_channels[channel_id]
        overwrites = permissions.overwrites(str(self.application_id), self.denied.get(channel_id, 0))
        return {**channel, "permission_overwrites": overwrites}

    def add_user(self, name: str, *, dms_closed: bool = False, user_id: int | None = None) -> int:
        user_id = user_id or self.next_id()
        self.users[user_id] = {
            "id": str(user_id),
            "username": name.lower()[:32],
            "global_name": name,
            "discriminator": "0",
            "avatar": None,
            "bot": False,
            "public_flags": 0,
        }
        if dms_closed:
            self.closed_dms.add(user_id)
        return user_id

    def register_commands(self, guild: int | None, body: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Store commands as a bulk overwrite does (ids kept for names already registered); what Discord answers."""
        stored = []
        old = {c["name"]: c["id"] for c in self.commands.get(guild, [])}
        for cmd in body:
            entry = {
                **cmd,
                "id": cmd.get("id") or old.get(cmd["name"]) or str(self.next_id()),
                "application_id": str(self.application_id),
                "version": str(self.next_id()),
                "type": cmd.get("type", 1),
                "default_member_permissions": cmd.get("default_member_permissions"),
                "dm_permission": cmd.get("dm_permission", True),
                "nsfw": cmd.get("nsfw", False),
            }
            if guild:
                entry["guild_id"] = str(guild)
            stored.append(entry)
        self.commands[guild] = stored
        return stored

    @property
    def rest_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self, port: int = 0) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        app.router.add_get("/attachments/{id}/{name}", self._attachment)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", port)
        await site.start()
        # aiohttp keeps the listening socket private (and typed as maybe absent): the port the system picked
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        self.reopen_gateway()
        for task in list(self._tasks):
            task.cancel()
        for ws in list(self._sockets):
            await ws.close()
        if self._runner:
            await self._runner.cleanup()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def check(self) -> None:
        """Fail the test on any request Discord would have refused."""
        if self.violations:
            raise AssertionError(
                "Discord would refuse: " + " | ".join(f"{v.route}: {v.detail}" for v in self.violations)
            )

    # --- waiting ------------------------------------------------------------------------------------------------

    async def _notify(self) -> None:
        async with self._changed:
            self.changes += 1
            self._changed.notify_all()

    async def notify(self) -> None:
        """Wake whoever waits for a change (``wait_for``, ``next_change``): something outside the fake changed."""
        await self._notify()

    async def next_change(self, seen: int, timeout: float) -> int:
        """The change count once it is past ``seen`` (or after ``timeout`` seconds, whatever it is then)."""
        async with self._changed:
            if self.changes == seen:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), timeout)
            return self.changes

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """The first truthy ``predicate()``, re-checked after every request the bot makes and every 50 ms (for
        what the fake does not see change: a client's cache, the bot's database)."""

        async def until() -> Any:
            async with self._changed:
                while not (result := predicate()):
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.05)
                return result

        return await asyncio.wait_for(until(), timeout)

    async def wait_ready(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: self.identified or self.resumed, timeout)

    async def wait_answer(self, interaction_id: int, timeout: float = 10.0) -> dict[str, Any]:
        """The first answer (callback body) to an interaction."""
        answers = self.interactions[interaction_id].answers
        answer: dict[str, Any] = await self.wait_for(lambda: answers[0] if answers else None, timeout)
        return answer

    async def wait_message(
        self,
        channel_id: int | None = None,
        *,
        after: int = 0,
        timeout: float = 10.0,
        where: Callable[[Message], bool] = lambda m: True,
    ) -> Message:
        """The first message in the channel (default: the game channel) with an id above ``after``."""
        channel = channel_id or self.channel_id
        found: Message = await self.wait_for(
            lambda: next((m for m in self.messages[channel] if m.id > after and where(m)), None), timeout
        )
        return found

    def dms(self, user_id: int) -> list[Message]:
        return [m for c, u in self.dm_channels.items() if u == user_id for m in self.messages[c]]

    # --- what happened ----------------------------------------------------------------------------------------

    def messages_in(self, channel_id: int | None = None, *, deleted: bool = False) -> list[Message]:
        """The channel's messages (default: the game channel), oldest first; with ``deleted``, the deleted ones too.
        Each message's ``versions`` is its history: as created, then after each edit."""
        channel = channel_id or self.channel_id
        found = list(self.messages.get(channel, []))
        if deleted:
            found += [m for m in self.deleted_messages if m.channel_id == channel]
        return sorted(found, key=lambda m: m.id)

    def exchanges_for(self, route: str) -> list[Exchange]:
        """Every REST request matching ``route`` (``"POST /channels/*/messages"``), in the order they came."""
        return [e for e in self.exchanges if e.matches(route)]

    # --- faults: REST -----------------------------------------------------------------------------------------

    def inject(self, fault: Fault) -> Fault:
        """Hit the requests matching the fault's route with it (the first active matching fault wins)."""
        self.faults.append(fault)
        return fault

    def fail(self, route: str, status: int = 500, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Answer the matching requests with a 5xx (Discord's body); nothing is done. discord.py retries 500, 502,
        504 and 524 by itself (5 tries, 1 + 2n seconds apart) and raises DiscordServerError at once on a 503."""
        if status < 500:
            raise ValueError("fail() is for Discord's 5xx; rate_limit() for 429, deny() and others for 4xx")
        return self.inject(Fault("error", route, status=status, times=times, for_seconds=for_seconds))

    def rate_limit(
        self,
        route: str,
        retry_after: float = 1.0,
        *,
        is_global: bool = False,
        times: int | None = 1,
        for_seconds: float | None = None,
    ) -> Fault:
        """Answer the matching requests 429 with ``retry_after`` (and ``global``); discord.py sleeps and retries."""
        return self.inject(
            Fault(
                "rate_limit", route, retry_after=retry_after, is_global=is_global, times=times, for_seconds=for_seconds
            )
        )

    def hang(self, route: str, delay: float, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Hold the matching requests ``delay`` seconds before doing anything (a slow Discord): a client that gives
        up first does not know whether they went through; they do, after the delay."""
        return self.inject(Fault("hang", route, delay=delay, times=times, for_seconds=for_seconds))

    def hang_after(self, route: str, delay: float, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Do the matching requests at once (the message is created, the event sent), but answer ``delay`` seconds
        later: a client timing out has lost an answer to something that happened."""
        return self.inject(Fault("hang_after", route, delay=delay, times=times, for_seconds=for_seconds))

    def lose_answer(self, route: str, *, times: int | None = 1, for_seconds: float | None = None) -> Fault:
        """Do the matching requests, then close the connection without answering (the client sees it cut)."""
        return self.inject(Fault("lose_answer", route, times=times, for_seconds=for_seconds))

    def clear_faults(self) -> None:
        self.faults.clear()

    def drop_held(self) -> int:
        """Forget the requests a ``hang`` holds before doing them, as if lost on the way: they are never done (their
        connections are closed unanswered). For a client killed meanwhile, whose request never reached Discord. The
        number dropped."""
        held = list(self._held)
        for task in held:
            task.cancel()
        return len(held)

    def _fault(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.active and fault.matches(method, path):
                fault.hits += 1
                return fault
        return None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hold(self, delay: float) -> None:
        """Sleep in a request's handler; ``stop()`` cuts it short."""
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await asyncio.sleep(delay)
        finally:
            self._tasks.discard(task)

    # --- faults: channels, messages, people -------------------------------------------------------------------

    async def deny(self, channel_id: int, *names: str) -> None:
        """Take permissions (``"view_channel"``, ``"send_messages"``, ``"embed_links"``, ``"attach_files"``,
        ``"read_message_history"``) from the bot in a channel: 403 50001 without view_channel, else 403 50013 for
        what needs them. Discord tells the bot with a CHANNEL_UPDATE carrying the overwrite."""
        if not names:
            raise ValueError("deny() needs the permissions to take away")
        self.denied[channel_id] = self.denied.get(channel_id, 0) | permissions.bits(names)
        await self.dispatch("CHANNEL_UPDATE", self._channel_json(channel_id))

    async def allow(self, channel_id: int, *names: str) -> None:
        """Give permissions back (all of them when none is named)."""
        keep = self.denied.get(channel_id, 0) & ~permissions.bits(names) if names else 0
        if keep:
            self.denied[channel_id] = keep
        else:
            self.denied.pop(channel_id, None)
        await self.dispatch("CHANNEL_UPDATE", self._channel_json(channel_id))

    def close_dms(self, user_id: int) -> None:
        """The person no longer accepts DMs from the bot: opening the DM channel works, sending gets 403 50007."""
        self.closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self.closed_dms.discard(user_id)

    async def delete_channel(self, channel_id: int) -> None:
        """Someone deleted the channel: CHANNEL_DELETE, then 404 10003 Unknown Channel for anything in it (its
        messages stay in ``messages`` for assertions)."""
        payload = self._channel_json(channel_id)
        self.deleted_channels[channel_id] = self.channels.pop(channel_id)
        await self.dispatch("CHANNEL_DELETE", payload)

    async def delete_message(self, message: Message | int) -> None:
        """Someone deleted the message: MESSAGE_DELETE, then 404 10008 Unknown Message for it."""
        if isinstance(message, int):
            message = next(m for ms in self.messages.values() for m in ms if m.id == message)
        await self._delete(message)

    async def _delete(self, msg: Message) -> None:
        for msgs in self.messages.values():
            if msg in msgs:
                msgs.remove(msg)
        if not msg.deleted:
            msg.deleted = True
            self.deleted_messages.append(msg)
        if msg.channel_id in self.channels and not msg.ephemeral:
            await self.dispatch(
                "MESSAGE_DELETE", {"id": str(msg.id), "channel_id": str(msg.channel_id), "guild_id": str(self.guild_id)}
            )

    # --- faults: gateway --------------------------------------------------------------------------------------

    async def drop_gateway(self, code: int | None = 4000, *, for_seconds: float | None = 0.0) -> int:
        """Close every gateway connection; their sessions stay resumable (discord.py RESUMEs and gets the events it
        missed), except after 4007 (invalid seq) or 4009 (session timed out), which end them as Discord does.
        ``code``: the close code (4000: unknown error); None cuts the connection without a close frame, as a network
        failure does. ``for_seconds``: the gateway stays down that long (None: until ``reopen_gateway()``): a client
        connecting meanwhile waits for its HELLO, and events meanwhile are kept for its RESUME. The number of
        connections closed."""
        if for_seconds != 0.0:
            self._gateway_open.clear()
            if for_seconds is not None:
                self._spawn(self._reopen_after(for_seconds))
        sockets = list(self._sockets.items())
        for ws, request in sockets:
            if code in (4007, 4009):
                for session in [s for s in self.sessions.values() if s.ws is ws]:
                    del self.sessions[session.id]
            if code is None:
                if request.transport is not None:
                    request.transport.abort()
            else:
                await ws.close(code=code, message=b"Closed by the test")
        return len(sockets)

    def reopen_gateway(self) -> None:
        self._gateway_open.set()

    async def _reopen_after(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        self.reopen_gateway()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send INVALID_SESSION (op 9) on every connection; unless ``resumable``, every session is forgotten, so a
        client must IDENTIFY again (also one disconnected now: its RESUME gets op 9)."""
        for ws in list(self._sockets):
            await self._op(ws, 9, resumable)
        if not resumable:
            self.sessions.clear()

    async def request_reconnect(self) -> None:
        """RECONNECT (op 7) on every connection: the client closes it and RESUMEs."""
        for ws in list(self._sockets):
            await self._op(ws, 7, None)

    async def request_heartbeat(self) -> None:
        """HEARTBEAT (op 1) from the server on every connection: the client heartbeats at once."""
        for ws in list(self._sockets):
            await self._op(ws, 1, None)

    # --- interactions ---------------------------------------------------------------------------------------------

    def _member(self, user_id: int) -> dict[str, Any]:
        return {
            "user": self.users[user_id],
            "roles": [],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "permissions": EVERYTHING,
        }

    async def _interact(
        self,
        kind: int,
        user_id: int,
        data: dict[str, Any],
        *,
        channel_id: int | None = None,
        message: Message | None = None,
        locale: str = "en-US",
    ) -> int:
        channel = channel_id or self.channel_id
        interaction_id = self.next_id()
        token = "itoken-" + secrets.token_hex(16)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel),
            "token": token,
            "version": 1,
            "locale": locale,
            "app_permissions": EVERYTHING,
            "entitlements": [],
            "attachment_size_limit": payloads.UPLOAD,
        }
        if channel in self.dm_channels:  # a click in a direct message: a user, no server
            payload["channel"] = {"id": str(channel), "type": 1, "last_message_id": None, "flags": 0}
            payload["user"] = self.users[user_id]
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
            payload["context"] = 1
        else:
            payload["channel"] = self._channel_json(channel)
            payload["app_permissions"] = str(permissions.effective(self.denied.get(channel, 0)))
            payload["guild_id"] = str(self.guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = self._member(user_id)
            payload["authorizing_integration_owners"] = {"0": str(self.guild_id)}
            payload["context"] = 0
        if message is not None:
            payload["message"] = self._message_json(message)
        self.interactions[interaction_id] = Interaction(
            interaction_id, token, kind, user_id, channel, payload, time.monotonic()
        )
        await self.dispatch("INTERACTION_CREATE", payload)
        await self._notify()
        return interaction_id

    def _command(self, path: list[str]) -> dict[str, Any] | None:
        for scope in (self.guild_id, None):
            for cmd in self.commands.get(scope, []):
                if cmd["name"] == path[0] and cmd.get("type", 1) == 1:
                    return cmd
        return None

    def _options(
        self, path: list[str], options: Mapping[str, Any], focused: str | None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The command's data (id, name, nested options) with each option typed as the registered command says."""
        cmd = self._command(path)
        resolved: dict[str, Any] = {}
        declared = cmd.get("options", []) if cmd else []
        holder: dict[str, Any] = {
            "id": cmd["id"] if cmd else "0",
            "name": path[0],
            "type": 1,
            "guild_id": str(self.guild_id),
        }
        node = holder
        for name in path[1:]:
            spec = next((o for o in declared if o["name"] == name), None)
            kind = spec["type"] if spec else (1 if name == path[-1] else 2)
            child: dict[str, Any] = {"name": name, "type": kind}
            node["options"] = [child]
            node = child
            declared = spec.get("options", []) if spec else []
        values = []
        for name, value in options.items():
            spec = next((o for o in declared if o["name"] == name), None)
            kind = (
                spec["type"]
                if spec
                else (
                    5
                    if isinstance(value, bool)
                    else 4
                    if isinstance(value, int)
                    else 10
                    if isinstance(value, float)
                    else 3
                )
            )
            if kind == 6:  # a user: Discord sends the id and the resolved user and member
                users = resolved.setdefault("users", {})
                members = resolved.setdefault("members", {})
                users[str(value)] = self.users[int(value)]
                members[str(value)] = {k: v for k, v in self._member(int(value)).items() if k != "user"}
                value = str(value)
            entry: dict[str, Any] = {"name": name, "type": kind, "value": value}
            if name == focused:
                entry["focused"] = True
            values.append(entry)
        node["options"] = values
        if resolved:
            holder["resolved"] = resolved
        return holder, resolved

    async def slash(
        self, user_id: int, command: str, /, *, channel_id: int | None = None, locale: str = "en-US", **options: Any
    ) -> int:
        """``/carcassonne start`` with options; the interaction's id."""
        data, _ = self._options(command.split(), options, None)
        return await self._interact(2, user_id, data, channel_id=channel_id, locale=locale)

    async def autocomplete(
        self,
        user_id: int,
        command: str,
        focused: str,
        /,
        *,
        channel_id: int | None = None,
        locale: str = "en-US",
        **options: Any,
    ) -> int:
        data, _ = self._options(command.split(), options, focused)
        return await self._interact(4, user_id, data, channel_id=channel_id, locale=locale)

    async def say(self, user_id: int, channel_id: int, content: str) -> Message:
        """A person writes ``content`` in a channel (MESSAGE_CREATE; the bot reads no message content, but it is there
        for the people at the table). Discord's limit on its length holds."""
        problems = payloads.check_message({"content": content})
        if problems or not content.strip():
            raise ValueError(payloads.describe(problems) or "an empty message")
        msg = Message(self.next_id(), channel_id, content, author_id=user_id)
        await self._post(msg)
        await self._notify()
        return msg

    def message(self, message_id: int) -> Message | None:
        """The message with this id wherever it is: a channel, a DM, an ephemeral answer (None when deleted)."""
        for msgs in self.messages.values():
            for msg in msgs:
                if msg.id == message_id:
                    return msg
        for inter in self.interactions.values():
            for answer in [inter.original, *inter.followups]:
                if answer is not None and answer.id == message_id and not answer.deleted:
                    return answer
        return None

    def find_message(self, custom_id: str) -> Message:
        """The newest message (channel, DM, ephemeral answer) holding a component with ``custom_id``."""
        everything = [m for ms in self.messages.values() for m in ms]
        for inter in self.interactions.values():
            everything += [m for m in [inter.original, *inter.followups] if m is not None]
        holders = [m for m in everything if custom_id in m.custom_ids()]
        if not holders:
            raise LookupError(f"no message has a component {custom_id!r}")
        return max(holders, key=lambda m: m.id)

    async def click(
        self, user_id: int, custom_id: str, *, message: Message | None = None, locale: str = "en-US"
    ) -> int:
        message = message or self.find_message(custom_id)
        return await self._interact(
            3,
            user_id,
            {"custom_id": custom_id, "component_type": 2},
            channel_id=message.channel_id,
            message=message,
            locale=locale,
        )

    async def select(
        self, user_id: int, custom_id: str, values: list[str], *, message: Message | None = None, locale: str = "en-US"
    ) -> int:
        message = message or self.find_message(custom_id)
        return await self._interact(
            3,
            user_id,
            {"custom_id": custom_id, "component_type": 3, "values": values},
            channel_id=message.channel_id,
            message=message,
            locale=locale,
        )

    async def submit(self, user_id: int, opened_by: int, values: Mapping[str, str], *, locale: str = "en-US") -> int:
        """Submit the modal that interaction ``opened_by`` was answered with; ``values``: input custom id -> text."""
        modal = self.interactions[opened_by].modal
        if modal is None:
            raise LookupError(f"interaction {opened_by} was not answered with a modal")
        rows = []
        for top in modal["components"]:
            if top["type"] == payloads.ROW:
                rows.append(
                    {
                        "type": 1,
                        "components": [
                            {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                            for c in top["components"]
                        ],
                    }
                )
            elif top["type"] == payloads.LABEL:
                inner = top["component"]
                rows.append(
                    {
                        "type": 18,
                        "component": {
                            "type": inner["type"],
                            "custom_id": inner["custom_id"],
                            "value": values.get(inner["custom_id"], ""),
                        },
                    }
                )
        source = self.interactions[opened_by]
        return await self._interact(
            5,
            user_id,
            {"custom_id": modal["custom_id"], "components": rows},
            channel_id=source.channel_id,
            locale=locale,
        )

    # --- gateway --------------------------------------------------------------------------------------------------

    async def dispatch(self, event: str, data: Any) -> None:
        """An event for every session: sent to those connected, kept for those that will resume."""
        for session in list(self.sessions.values()):
            if session.expired(self.resume_window):
                del self.sessions[session.id]
            else:
                await self._send(session, event, data)

    async def _send(self, session: Session, event: str, data: Any, *, keep: bool = True) -> None:
        async with session.lock:  # in sequence order, and never in the middle of a replay
            frame = session.frame(event, data, keep=keep)
            if session.ws is not None:
                await self._send_str(session.ws, frame)

    @staticmethod
    async def _send_str(ws: web.WebSocketResponse, frame: str) -> bool:
        if ws.closed:
            return False
        try:
            await ws.send_str(frame)
        except (ConnectionError, RuntimeError):  # closing meanwhile: the session keeps the frame for a resume
            return False
        return True

    async def _op(self, ws: web.WebSocketResponse, op: int, data: Any) -> bool:
        return await self._send_str(ws, json.dumps({"op": op, "d": data, "s": None, "t": None}))

    def _guild_json(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(next(iter(self.users), 1)),  # never the bot: an owner has every permission
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [
                {
                    "id": str(self.guild_id),
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
            "member_count": len(self.users) + 1,
            "members": [
                {
                    "user": self.bot_user,
                    "roles": [],
                    "joined_at": "2024-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "channels": [self._channel_json(c) for c in self.channels],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self._sockets[ws] = request
        session: Session | None = None
        await self._gateway_open.wait()
        await self._op(ws, 10, {"heartbeat_interval": self.heartbeat_interval})
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d")
                if op == 1:
                    self._heartbeat(ws, session)
                elif op in (2, 6) and data.get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                elif op in (2, 6) and session is not None:
                    await ws.close(code=4005, message=b"Already authenticated.")
                elif op == 2:
                    session = Session()
                    self.sessions[session.id] = session
                    session.attach(ws)
                    await self._ready(session)
                    self.identified += 1
                    await self._notify()
                elif op == 6:
                    session = await self._resume(ws, str(data.get("session_id")), int(data.get("seq") or 0))
                elif op not in (3, 4, 8):  # presence, voice state, member requests: accepted, unused
                    await ws.close(code=4001, message=b"Unknown opcode.")
        finally:
            del self._sockets[ws]
            if session is not None:
                session.detach(ws)
        return ws

    def _heartbeat(self, ws: web.WebSocketResponse, session: Session | None) -> None:
        """One HEARTBEAT_ACK per HEARTBEAT, after a network round trip (see HEARTBEAT_ROUND_TRIP)."""
        self.heartbeats += 1
        if session is not None:
            session.heartbeats += 1
        self._spawn(self._ack(ws, session))

    async def _ack(self, ws: web.WebSocketResponse, session: Session | None) -> None:
        await asyncio.sleep(self.heartbeat_round_trip)
        if await self._op(ws, 11, None):
            self.heartbeat_acks += 1
            if session is not None:
                session.acks += 1

    async def _resume(self, ws: web.WebSocketResponse, session_id: str, seq: int) -> Session | None:
        """RESUME: the dispatches the client missed since ``seq``, then RESUMED; INVALID_SESSION (op 9, not
        resumable) when the session is gone or no longer holds them all; close 4007 for a sequence it never sent."""
        session = self.sessions.get(session_id)
        if session is not None and session.expired(self.resume_window):
            del self.sessions[session_id]
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
        self.resumes.append(Resume(session.id, seq, [event for event, _ in missed]))
        self.resumed += 1
        await self._notify()
        return session

    async def _ready(self, session: Session) -> None:
        await self._send(
            session,
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "guilds": [{"id": str(self.guild_id), "unavailable": True}],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "relationships": [],
                "private_channels": [],
                "presences": [],
                "application": {"id": str(self.application_id), "flags": 0},
                "user_settings": {},
                "session_type": "normal",
                "auth": {},
                "geo_ordered_rtc_regions": [],
                "shard": [0, 1],
            },
        )
        await self._send(session, "GUILD_CREATE", self._guild_json())

    # --- REST -----------------------------------------------------------------------------------------------------

    def _refuse(self, route: str, problems: list[payloads.Problem]) -> web.Response:
        body = payloads.error_body(problems)
        self.violations.append(Violation(route, body, payloads.describe(problems)))
        return _json(body, status=400)

    @staticmethod
    def _error(status: int, code: int, message: str) -> web.Response:
        return _json({"code": code, "message": message}, status=status)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        """The request's JSON payload and uploads (read once: a hang reads them before its wait)."""
        if BODY not in request:
            request[BODY] = await self._read_body(request)
        return request[BODY]

    async def _read_body(self, request: web.Request) -> tuple[dict[str, Any], list[Attachment]]:
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            payload = json.loads(str(form.get("payload_json") or "{}"))
            files = []
            # the payload's attachments describe the uploads by index: "files[0]" is {"id": 0, "description": ...}
            described = {str(a.get("id")): a.get("description") for a in payload.get("attachments") or []}
            for key, value in form.items():
                if key.startswith("files[") and isinstance(value, web.FileField):
                    index = key[len("files[") : -1]
                    data = value.file.read()
                    upload = Attachment(self.next_id(), value.filename, data, value.content_type, described.get(index))
                    self.attachments[upload.id] = upload
                    files.append(upload)
            return payload, files
        if request.can_read_body:
            return await request.json(), []
        return {}, []

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        route = f"{request.method} {path}"
        exchange = Exchange(request.method, path, time.monotonic())
        self.exchanges.append(exchange)
        request[EXCHANGE] = exchange
        try:
            fault = None
            if (
                not path.startswith(("/webhooks/", "/interactions/"))
                and request.headers.get("Authorization") != f"Bot {self.token}"
            ):
                response: web.StreamResponse = self._error(401, 0, "401: Unauthorized")
            else:
                fault = self._fault(request.method, path)
                exchange.fault = fault.kind if fault else None
                if fault is not None and fault.kind == "hang":
                    await self._body(request)  # all of it arrived: a client giving up now does not stop it
                    held = asyncio.current_task()
                    assert held is not None
                    self._held.add(held)
                    try:
                        await self._hold(fault.delay)
                    finally:
                        self._held.discard(held)
                if fault is not None and fault.kind == "error":
                    response = _json(server_error_body(fault.status), status=fault.status)
                elif fault is not None and fault.kind == "rate_limit":
                    body, headers = rate_limit_answer(
                        fault.retry_after, is_global=fault.is_global, bucket=f"fault-{id(fault):x}"
                    )
                    response = _json(body, status=429, headers=headers)
                else:
                    response = await self._route(request, route, path.strip("/").split("/"))
            exchange.status = response.status
            if response.status >= 400 and isinstance(response, web.Response) and isinstance(response.body, bytes):
                exchange.code = error_code(response.body)
            if fault is not None and fault.kind == "hang_after":
                await self._notify()  # what was done is there to see while the answer waits
                await self._hold(fault.delay)
            if (fault is not None and fault.kind == "lose_answer") or request.transport is None:
                if request.transport is not None:
                    request.transport.close()  # aiohttp then fails quietly to write the answer
                return response
            exchange.answered = time.monotonic()
            return response
        finally:
            await self._notify()

    async def _route(self, request: web.Request, route: str, p: list[str]) -> web.StreamResponse:
        m = request.method
        if m == "GET" and p == ["users", "@me"]:
            return _json(self.bot_user)
        if m == "GET" and p == ["oauth2", "applications", "@me"]:
            return _json(
                {
                    "id": str(self.application_id),
                    "name": "boardhost",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "owner": self.users.get(0, self.bot_user),
                    "team": None,
                    "summary": "",
                    "rpc_origins": [],
                    "interactions_endpoint_url": None,
                    "bot": self.bot_user,
                }
            )
        if (m == "GET" and p[:2] == ["gateway", "bot"]) or p == ["gateway"]:
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": 1,
                    "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
                }
            )
        if p[0] == "applications" and p[-1] == "commands":
            guild = int(p[3]) if len(p) == 5 and p[2] == "guilds" else None
            if m == "PUT":
                return await self._overwrite(request, route, guild)
            if m == "GET":
                return _json(self.commands.get(guild, []))
        if p[0] == "channels" and len(p) >= 3 and p[2] == "messages":
            return await self._channel_messages(request, route, int(p[1]), p[3:])
        if m == "GET" and len(p) == 2 and p[0] == "users" and p[1].isdigit():
            user = self.users.get(int(p[1]))
            return _json(user) if user is not None else self._error(404, 10013, "Unknown User")
        if m == "POST" and p == ["users", "@me", "channels"]:
            body = await request.json()
            user_id = int(body["recipient_id"])
            channel_id = next((c for c, u in self.dm_channels.items() if u == user_id), None)
            if channel_id is None:
                channel_id = self.next_id()
                self.dm_channels[channel_id] = user_id
                self.messages[channel_id] = []
            return _json(
                {"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [self.users[user_id]]}
            )
        if p[0] == "interactions" and p[-1] == "callback":
            return await self._callback(request, route, int(p[1]), p[2])
        if p[0] == "webhooks" and len(p) >= 3:
            return await self._webhook(request, route, p[2], p[3:])
        if len(p) == 2 and p[0] == "channels" and p[1].isdigit():
            return self._channel(m, int(p[1]))
        if m == "POST" and len(p) == 3 and p[0] == "channels" and p[2] == "typing":
            channel_id = int(p[1])
            if channel_id in self.deleted_channels or channel_id not in self.messages:
                return self._error(404, 10003, "Unknown Channel")
            return self._forbidden(channel_id, permissions.needed("POST", posting=True)) or web.Response(status=204)
        return self._error(404, 0, f"404: Not Found ({route})")

    async def _attachment(self, request: web.Request) -> web.Response:
        """An upload, at the url its message gives (Discord's CDN)."""
        found = self.attachments.get(int(request.match_info["id"])) if request.match_info["id"].isdigit() else None
        if found is None or found.filename != request.match_info["name"]:
            return web.Response(status=404, text="404: Not Found")
        kind = mimetypes.guess_type(found.filename)[0] or found.content_type or "application/octet-stream"
        return web.Response(body=found.data, content_type=kind)

    def _channel(self, method: str, channel_id: int) -> web.Response:
        if method != "GET":
            return self._error(405, 0, "405: Method Not Allowed")
        if channel_id in self.dm_channels:
            user = self.users[self.dm_channels[channel_id]]
            return _json({"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [user]})
        if channel_id not in self.channels:
            return self._error(404, 10003, "Unknown Channel")
        return self._forbidden(channel_id, permissions.VIEW_CHANNEL) or _json(self._channel_json(channel_id))

    async def _overwrite(self, request: web.Request, route: str, guild: int | None) -> web.Response:
        body = await request.json()
        problems = payloads.check_commands(body)
        if self.fail_commands is not None:
            problems, self.fail_commands = problems + self.fail_commands, None
        if problems:
            return self._refuse(route, problems)
        stored = self.register_commands(guild, body)
        return _json(stored)

    def _message_json(self, msg: Message) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(msg.id),
            "channel_id": str(msg.channel_id),
            "author": self.bot_user if msg.author_id is None else self.users[msg.author_id],
            "content": msg.content,
            "timestamp": "2024-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [
                {
                    "id": str(a.id),
                    "filename": a.filename,
                    "size": len(a.data),
                    "content_type": a.content_type,
                    "url": f"http://127.0.0.1:{self.port}/attachments/{a.id}/{a.filename}",
                    "proxy_url": f"http://127.0.0.1:{self.port}/attachments/{a.id}/{a.filename}",
                    **({"description": a.description} if a.description is not None else {}),
                }
                for a in msg.attachments
            ],
            "embeds": msg.embeds,
            "components": msg.components,
            "pinned": False,
            "type": 0,
            "flags": msg.flags,
        }
        if msg.nonce is not None:
            data["nonce"] = msg.nonce
        if msg.channel_id in self.channels:
            data["guild_id"] = str(self.guild_id)
        if msg.interaction_id is not None:
            data["webhook_id"] = str(self.application_id)
            data["type"] = 20
        return data

    def _build(
        self, channel_id: int, body: Mapping[str, Any], files: list[Attachment], route: str, *, answer: bool = True
    ) -> Message | web.Response:
        """A new message (``answer``: an interaction's answer or follow-up, which may also be ephemeral)."""
        problems = payloads.check_message(body, [(f.filename, len(f.data)) for f in files])
        problems += mentions.check(body.get("allowed_mentions"))
        problems += payloads.check_flags(body.get("flags"), payloads.CREATE_FLAGS | (EPHEMERAL if answer else 0))
        if problems:
            return self._refuse(route, problems)
        return Message(
            self.next_id(),
            channel_id,
            body.get("content") or "",
            list(body.get("embeds") or []),
            list(body.get("components") or []),
            files,
            int(body.get("flags") or 0),
            allowed_mentions=body.get("allowed_mentions"),
        )

    def _edit(self, msg: Message, body: Mapping[str, Any], files: list[Attachment], route: str) -> web.Response | None:
        merged = {
            "content": body.get("content", msg.content),
            "embeds": body.get("embeds", msg.embeds),
            "components": body.get("components", msg.components),
            "attachments": body.get("attachments"),
        }
        problems = payloads.check_message(merged, [(f.filename, len(f.data)) for f in files])
        problems += mentions.check(body.get("allowed_mentions"))
        if problems:
            return self._refuse(route, problems)
        if "allowed_mentions" in body:
            msg.allowed_mentions = body["allowed_mentions"]
        msg.content = merged["content"] or ""
        msg.embeds = list(merged["embeds"] or [])
        msg.components = list(merged["components"] or [])
        if "attachments" in body:
            keep = {str(a.get("id")) for a in body["attachments"] or []}
            msg.attachments = [a for a in msg.attachments if str(a.id) in keep]
        msg.attachments += files
        msg.edits += 1
        msg.record()
        return None

    async def _post(self, msg: Message) -> None:
        self.messages.setdefault(msg.channel_id, []).append(msg)
        if msg.channel_id in self.channels:
            self.channels[msg.channel_id]["last_message_id"] = str(msg.id)
            member: dict[str, Any] = {"roles": []}
            if msg.author_id is not None:  # a person's message carries their membership, as Discord's does
                member = {k: v for k, v in self._member(msg.author_id).items() if k != "user"}
            await self.dispatch("MESSAGE_CREATE", {**self._message_json(msg), "member": member})

    def _forbidden(self, channel_id: int, wanted: int) -> web.Response | None:
        if channel_id not in self.channels:  # a DM: no permissions, closed DMs instead
            return None
        refused = permissions.refusal(self.denied.get(channel_id, 0), wanted)
        return self._error(*refused) if refused else None

    def _rate_limited(self, channel_id: int, now: float) -> web.Response | None:
        """Discord's per-channel message limit (RATE_MESSAGES in RATE_WINDOW seconds)."""
        window = self._posts.setdefault(channel_id, deque())
        while window and now - window[0] > RATE_WINDOW:
            window.popleft()
        if len(window) < RATE_MESSAGES:
            return None
        self.rate_limited.append(channel_id)
        body, headers = rate_limit_answer(
            RATE_WINDOW - (now - window[0]), bucket=f"channel-{channel_id}", limit=RATE_MESSAGES
        )
        return _json(body, status=429, headers=headers)

    def _recent(self, nonce: str) -> Message | None:
        """The bot's message created with ``nonce`` within ``nonce_window`` seconds, deleted or not."""
        msg = self._nonces.get(nonce)
        if msg is None or time.monotonic() - msg.created_at > self.nonce_window:
            return None
        return msg

    async def _create(self, request: web.Request, route: str, channel_id: int) -> web.Response:
        exchange = request[EXCHANGE]
        body, files = await self._body(request)
        wanted = permissions.needed("POST", posting=True, embeds=bool(body.get("embeds")), files=bool(files))
        refused = self._forbidden(channel_id, wanted)
        if refused is not None:
            return refused
        user = self.dm_channels.get(channel_id)
        if user is not None and user in self.closed_dms:
            return self._error(403, 50007, "Cannot send messages to this user")
        now = time.monotonic()
        limited = self._rate_limited(channel_id, now)
        if limited is not None:
            return limited
        msg = self._build(channel_id, body, files, route, answer=False)
        if isinstance(msg, web.Response):
            return msg
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        exchange.nonce = nonce
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: "If another message was created by the same author with the same nonce, that message will
            # be returned and no new message will be created" (the author is always the bot here)
            earlier = self._recent(nonce)
            if earlier is not None and earlier.deleted:
                return self._error(404, 10008, "Unknown Message")
            if earlier is not None:
                exchange.message_id, exchange.deduplicated = earlier.id, True
                return _json(self._message_json(earlier))
        msg.nonce = nonce
        if nonce is not None:
            self._nonces[nonce] = msg
        self._posts[channel_id].append(now)
        await self._post(msg)
        exchange.message_id = msg.id
        return _json(self._message_json(msg))

    async def _channel_messages(
        self, request: web.Request, route: str, channel_id: int, rest: list[str]
    ) -> web.StreamResponse:
        m = request.method
        if channel_id not in self.messages or channel_id in self.deleted_channels:
            return self._error(404, 10003, "Unknown Channel")
        if m == "POST" and not rest:
            return await self._create(request, route, channel_id)
        refused = self._forbidden(channel_id, permissions.needed(m, posting=False))
        if refused is not None:
            return refused
        if m == "GET" and not rest:
            before = int(request.query.get("before", 0)) or None
            wanted = int(request.query.get("limit", 50))
            found = [x for x in reversed(self.messages[channel_id]) if before is None or x.id < before][:wanted]
            return _json([self._message_json(x) for x in found])
        found_msg = next((x for x in self.messages[channel_id] if str(x.id) == rest[0]), None)
        if found_msg is None:
            return self._error(404, 10008, "Unknown Message")
        msg = found_msg
        if m == "GET":
            return _json(self._message_json(msg))
        if m == "PATCH":
            body, files = await self._body(request)
            refused = self._edit(msg, body, files, route)
            return refused or _json(self._message_json(msg))
        if m == "DELETE":
            await self._delete(msg)
            return web.Response(status=204)
        return self._error(405, 0, "405: Method Not Allowed")

    async def _callback(self, request: web.Request, route: str, interaction_id: int, token: str) -> web.Response:
        inter = self.interactions.get(interaction_id)
        if inter is None or inter.token != token:
            return self._error(404, 10062, "Unknown interaction")
        body, files = await self._body(request)
        late = time.monotonic() - inter.sent_at > ANSWER_WITHIN
        if inter.answers:
            self.violations.append(Violation(route, body, "40060 Interaction has already been acknowledged."))
            return self._error(400, 40060, "Interaction has already been acknowledged.")
        if late:
            self.violations.append(
                Violation(route, body, f"10062 Unknown interaction (answered after {ANSWER_WITHIN} s)")
            )
            return self._error(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            msg = self._build(inter.channel_id, data, files, route)
            if isinstance(msg, web.Response):
                return msg
            msg.interaction_id = interaction_id
            inter.original = msg
            if not msg.ephemeral:
                await self._post(msg)
            resource["message"] = self._message_json(msg)
        elif kind == 5:
            inter.original = Message(
                self.next_id(), inter.channel_id, flags=int(data.get("flags") or 0), interaction_id=interaction_id
            )
            if not inter.original.ephemeral:
                await self._post(inter.original)
        elif kind == 7:
            if "message" not in inter.payload:
                return self._refuse(
                    route, [("type", "INTERACTION_TYPE_INVALID", "Only a component interaction can update its message")]
                )
            target = self._stored(inter)
            if target.deleted:
                return self._error(404, 10008, "Unknown Message")
            refused = self._edit(target, data, files, route)
            if refused:
                return refused
            resource["message"] = self._message_json(target)
        elif kind == 8:
            problems = payloads.check_choices(data.get("choices") or [])
            if problems:
                return self._refuse(route, problems)
        elif kind == 9:
            problems = payloads.check_modal(data)
            if problems:
                return self._refuse(route, problems)
        elif kind != 6:
            return self._refuse(route, [("type", "BASE_TYPE_CHOICES", "Value must be one of (4, 5, 6, 7, 8, 9).")])
        inter.answers.append(body)
        inter.answered_at = time.monotonic()
        if request.query.get("with_response") in ("1", "true", "True"):
            reply = {
                "interaction": {
                    "id": str(interaction_id),
                    "type": inter.kind,
                    "response_message_id": str(inter.original.id) if inter.original else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(inter.original and inter.original.ephemeral),
                },
                "resource": resource,
            }
            return _json(reply)
        return web.Response(status=204)

    def _stored(self, inter: Interaction) -> Message:
        """The message a component interaction came from (the stored one, not the copy in the payload)."""
        wanted = int(inter.payload["message"]["id"])
        for msgs in [*self.messages.values(), self.deleted_messages]:
            for msg in msgs:
                if msg.id == wanted:
                    return msg
        for other in self.interactions.values():
            for answer in [other.original, *other.followups]:
                if answer is not None and answer.id == wanted:
                    return answer
        raise LookupError(wanted)

    async def _webhook(self, request: web.Request, route: str, token: str, rest: list[str]) -> web.Response:
        inter = next((i for i in self.interactions.values() if i.token == token), None)
        if inter is None:
            return self._error(404, 10015, "Unknown Webhook")
        if not inter.answers:
            return self._error(404, 10015, "Unknown Webhook")  # Discord: no followup before the first answer
        m = request.method
        if not rest and m == "POST":
            body, files = await self._body(request)
            msg = self._build(inter.channel_id, body, files, route)
            if isinstance(msg, web.Response):
                return msg
            msg.interaction_id = inter.id
            if (
                inter.original is not None
                and not inter.original.content
                and not inter.original.embeds
                and inter.answers[0].get("type") == 5
                and inter.original.edits == 0
                and not inter.followups
            ):
                # a deferred answer's first followup fills in its placeholder
                inter.original.content, inter.original.embeds = msg.content, msg.embeds
                inter.original.components, inter.original.attachments = msg.components, msg.attachments
                inter.original.flags, inter.original.edits = msg.flags or inter.original.flags, 1
                inter.original.record()
                msg = inter.original
            else:
                inter.followups.append(msg)
                if not msg.ephemeral:
                    await self._post(msg)
            return _json(self._message_json(msg))
        if len(rest) == 2 and rest[0] == "messages":
            if rest[1] == "@original":
                target = inter.original
                if target is None and inter.answers[0].get("type") in (6, 7) and "message" in inter.payload:
                    target = self._stored(inter)
            else:
                target = next((x for x in inter.followups if str(x.id) == rest[1]), None)
            if target is None or target.deleted:
                return self._error(404, 10008, "Unknown Message")
            if m == "GET":
                return _json(self._message_json(target))
            if m == "PATCH":
                body, files = await self._body(request)
                refused = self._edit(target, body, files, route)
                return refused or _json(self._message_json(target))
            if m == "DELETE":
                await self._delete(target)
                return web.Response(status=204)
        return self._error(405, 0, "405: Method Not Allowed")

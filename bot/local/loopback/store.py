"""The loopback Discord's state: its server, channels, people, messages, interactions and registered commands, the
gateway's sessions, what happened (requests, refusals, resumes); how it shows them as Discord's JSON, and waiting
for them to change. The parts that serve the gateway and the REST routes (``connections``, ``*_routes``) share it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable, Coroutine
from typing import Any

from bot.local.loopback import permissions
from bot.local.loopback.faults import Exchange, Fault
from bot.local.loopback.payloads import Problem
from bot.local.loopback.sessions import Resume, Session
from bot.local.loopback.stored import Attachment, Interaction, Message, Violation

EVERYTHING = str(permissions.EVERYTHING)  # a person's permissions
HEARTBEAT_INTERVAL = 41250  # milliseconds, as Discord's HELLO says
# Discord's HEARTBEAT_ACK comes back after a network round trip. An instant one (loopback) races discord.py's
# keep-alive thread, which notes the time of its heartbeat only once the send has completed: when the ACK is handled
# first, the latency is measured from the previous heartbeat, a whole interval earlier ("Can't keep up ... 41.3s
# behind"). A realistic round trip lets the thread note it first.
HEARTBEAT_ROUND_TRIP = 0.05
NONCE_WINDOW = 180.0  # seconds a nonce with enforce_nonce finds its message again ("the past few minutes")
RESUME_WINDOW = 300.0  # seconds a disconnected session can still be resumed


class Store:
    """What the fake Discord holds and has seen; ``FakeDiscord`` is one, with the parts that serve it."""

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
        # Indexes of the two above, so that finding a message or an interaction costs the same at the thousandth
        # turn as at the first: every message ever made (deleted ones too), and each interaction by its token.
        self.made: dict[int, Message] = {}
        self.by_token: dict[str, Interaction] = {}
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild id (None: global) -> commands
        self.violations: list[Violation] = []
        self.rate_limited: list[int] = []  # channel ids that got a 429
        self.identified = 0
        self.resumed = 0
        self.fail_commands: list[Problem] | None = None  # force a 50035 on the next bulk overwrite
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
        self.tasks: set[asyncio.Task[Any]] = set()  # heartbeat answers, and requests held by a hang
        # Set at each change and replaced by a new one: waiters hold no lock, so cancelling one (a timeout around
        # it) leaves nothing held (a Condition's lock could be left held by a waiter whose cancellation was lost).
        self._changed = asyncio.Event()
        self.port = 0
        self.channel_id = self.add_channel("games", channel_id)

    # --- set-up ---------------------------------------------------------------------------------------------------

    def next_id(self) -> int:
        return next(self._ids)

    def new_message(self, channel_id: int, content: str = "", **fields: Any) -> Message:
        """A message with the next id (posted nowhere yet), kept in ``made``."""
        msg = Message(self.next_id(), channel_id, content, **fields)
        self.made[msg.id] = msg
        return msg

    def add_interaction(self, inter: Interaction) -> None:
        self.interactions[inter.id] = inter
        self.by_token[inter.token] = inter

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

    def channel_json(self, channel_id: int) -> dict[str, Any]:
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

    def check(self) -> None:
        """Fail the test on any request Discord would have refused."""
        if self.violations:
            raise AssertionError(
                "Discord would refuse: " + " | ".join(f"{v.route}: {v.detail}" for v in self.violations)
            )

    # --- waiting --------------------------------------------------------------------------------------------------

    async def notify(self) -> None:
        """Count a change and wake whoever waits for one (``wait_for``, ``next_change``); also for a change made
        outside the fake."""
        self.changes += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    async def next_change(self, seen: int, timeout: float) -> int:
        """The change count once it is past ``seen`` (or after ``timeout`` seconds, whatever it is then)."""
        if self.changes == seen:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(timeout):
                    await self._changed.wait()
        return self.changes

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 10.0) -> Any:
        """The first truthy ``predicate()``, re-checked after every request the bot makes and every 50 ms (for
        what the fake does not see change: a client's cache, the bot's database). Cancelled, it stops at once
        (``asyncio.timeout`` scopes, not ``asyncio.wait_for``, which on Python 3.11 can lose a cancellation that
        meets a change, and leave the wait polling until its own timeout)."""
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(0.05):
                        await self._changed.wait()
            return result

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

    # --- what happened --------------------------------------------------------------------------------------------

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

    # --- people ---------------------------------------------------------------------------------------------------

    def close_dms(self, user_id: int) -> None:
        """The person no longer accepts DMs from the bot: opening the DM channel works, sending gets 403 50007."""
        self.closed_dms.add(user_id)

    def open_dms(self, user_id: int) -> None:
        self.closed_dms.discard(user_id)

    def member(self, user_id: int) -> dict[str, Any]:
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

    # --- messages, wherever they are ------------------------------------------------------------------------------

    def message(self, message_id: int) -> Message | None:
        """The message with this id wherever it is: a channel, a DM, an ephemeral answer (None when deleted)."""
        msg = self.made.get(message_id)
        return None if msg is None or msg.deleted else msg

    def find_message(self, custom_id: str) -> Message:
        """The newest message (channel, DM, ephemeral answer) holding a component with ``custom_id``."""
        everything = [m for ms in self.messages.values() for m in ms]
        for inter in self.interactions.values():
            everything += [m for m in [inter.original, *inter.followups] if m is not None]
        holders = [m for m in everything if custom_id in m.custom_ids()]
        if not holders:
            raise LookupError(f"no message has a component {custom_id!r}")
        return max(holders, key=lambda m: m.id)

    def message_json(self, msg: Message) -> dict[str, Any]:
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
                    **a.size_fields(),
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

    # --- the fake's own tasks -------------------------------------------------------------------------------------

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def hold(self, delay: float) -> None:
        """Sleep in a request's handler; ``stop()`` cuts it short."""
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        try:
            await asyncio.sleep(delay)
        finally:
            self.tasks.discard(task)

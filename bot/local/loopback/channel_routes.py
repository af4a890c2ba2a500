"""The loopback Discord's channels and messages: the REST routes of a channel (the channel, typing, its messages:
list, fetch, create, edit, delete), Discord's limits on them (permissions, closed DMs, the per-channel rate limit,
nonces), and the faults a test injects on them (permissions taken, a channel or message deleted)."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from aiohttp import web

from bot.local.loopback import mentions, payloads, permissions
from bot.local.loopback.answers import EXCHANGE, error, refuse, reply, request_body
from bot.local.loopback.connections import Gateway
from bot.local.loopback.faults import rate_limit_answer
from bot.local.loopback.store import Store
from bot.local.loopback.stored import EPHEMERAL, Attachment, Message, by_id

RATE_MESSAGES, RATE_WINDOW = 5, 5.0  # messages per channel per window (seconds)


class ChannelRoutes:
    """``/channels/{id}``, ``/channels/{id}/typing``, ``/channels/{id}/messages[/{id}]``."""

    def __init__(self, store: Store, gateway: Gateway) -> None:
        self.store = store
        self.gateway = gateway
        self._posts: dict[int, deque[float]] = {}  # channel id -> when its latest messages were created
        self._nonces: dict[str, Message] = {}

    def channel(self, method: str, channel_id: int) -> web.Response:
        if method != "GET":
            return error(405, 0, "405: Method Not Allowed")
        if channel_id in self.store.dm_channels:
            user = self.store.users[self.store.dm_channels[channel_id]]
            return reply({"id": str(channel_id), "type": 1, "last_message_id": None, "recipients": [user]})
        if channel_id not in self.store.channels:
            return error(404, 10003, "Unknown Channel")
        return self._forbidden(channel_id, permissions.VIEW_CHANNEL) or reply(self.store.channel_json(channel_id))

    def typing(self, channel_id: int) -> web.Response:
        if channel_id in self.store.deleted_channels or channel_id not in self.store.messages:
            return error(404, 10003, "Unknown Channel")
        return self._forbidden(channel_id, permissions.needed("POST", posting=True)) or web.Response(status=204)

    async def messages(self, request: web.Request, route: str, channel_id: int, rest: list[str]) -> web.StreamResponse:
        m = request.method
        if channel_id not in self.store.messages or channel_id in self.store.deleted_channels:
            return error(404, 10003, "Unknown Channel")
        if m == "POST" and not rest:
            return await self._create(request, route, channel_id)
        refused = self._forbidden(channel_id, permissions.needed(m, posting=False))
        if refused is not None:
            return refused
        if m == "GET" and not rest:
            before = int(request.query.get("before", 0)) or None
            wanted = int(request.query.get("limit", 50))
            found = [x for x in reversed(self.store.messages[channel_id]) if before is None or x.id < before][:wanted]
            return reply([self.store.message_json(x) for x in found])
        found_msg = by_id(self.store.messages[channel_id], rest[0])
        if found_msg is None:
            return error(404, 10008, "Unknown Message")
        msg = found_msg
        if m == "GET":
            return reply(self.store.message_json(msg))
        if m == "PATCH":
            body, files = await request_body(request, self.store)
            refused = self.edit(msg, body, files, route)
            return refused or reply(self.store.message_json(msg))
        if m == "DELETE":
            await self.delete(msg)
            return web.Response(status=204)
        return error(405, 0, "405: Method Not Allowed")

    async def _create(self, request: web.Request, route: str, channel_id: int) -> web.Response:
        exchange = request[EXCHANGE]
        body, files = await request_body(request, self.store)
        wanted = permissions.needed("POST", posting=True, embeds=bool(body.get("embeds")), files=bool(files))
        refused = self._forbidden(channel_id, wanted)
        if refused is not None:
            return refused
        user = self.store.dm_channels.get(channel_id)
        if user is not None and user in self.store.closed_dms:
            return error(403, 50007, "Cannot send messages to this user")
        now = time.monotonic()
        limited = self._rate_limited(channel_id, now)
        if limited is not None:
            return limited
        msg = self.build(channel_id, body, files, route, answer=False)
        if isinstance(msg, web.Response):
            return msg
        nonce = None if body.get("nonce") is None else str(body["nonce"])
        exchange.nonce = nonce
        if nonce is not None and body.get("enforce_nonce"):
            # Discord: "If another message was created by the same author with the same nonce, that message will
            # be returned and no new message will be created" (the author is always the bot here)
            earlier = self._recent(nonce)
            if earlier is not None and earlier.deleted:
                return error(404, 10008, "Unknown Message")
            if earlier is not None:
                exchange.message_id, exchange.deduplicated = earlier.id, True
                return reply(self.store.message_json(earlier))
        msg.nonce = nonce
        if nonce is not None:
            self._nonces[nonce] = msg
        self._posts[channel_id].append(now)
        await self.post(msg)
        exchange.message_id = msg.id
        return reply(self.store.message_json(msg))

    def build(
        self, channel_id: int, body: Mapping[str, Any], files: list[Attachment], route: str, *, answer: bool = True
    ) -> Message | web.Response:
        """A new message (``answer``: an interaction's answer or follow-up, which may also be ephemeral)."""
        problems = payloads.check_message(body, [(f.filename, len(f.data)) for f in files])
        problems += mentions.check(body.get("allowed_mentions"))
        problems += payloads.check_flags(body.get("flags"), payloads.CREATE_FLAGS | (EPHEMERAL if answer else 0))
        if problems:
            return refuse(self.store.violations, route, problems)
        return self.store.new_message(
            channel_id,
            body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=files,
            flags=int(body.get("flags") or 0),
            allowed_mentions=body.get("allowed_mentions"),
        )

    def edit(self, msg: Message, body: Mapping[str, Any], files: list[Attachment], route: str) -> web.Response | None:
        merged = {
            "content": body.get("content", msg.content),
            "embeds": body.get("embeds", msg.embeds),
            "components": body.get("components", msg.components),
            "attachments": body.get("attachments"),
        }
        problems = payloads.check_message(merged, [(f.filename, len(f.data)) for f in files])
        problems += mentions.check(body.get("allowed_mentions"))
        if problems:
            return refuse(self.store.violations, route, problems)
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

    async def post(self, msg: Message) -> None:
        self.store.messages.setdefault(msg.channel_id, []).append(msg)
        if msg.channel_id in self.store.channels:
            self.store.channels[msg.channel_id]["last_message_id"] = str(msg.id)
            member: dict[str, Any] = {"roles": []}
            if msg.author_id is not None:  # a person's message carries their membership, as Discord's does
                member = {k: v for k, v in self.store.member(msg.author_id).items() if k != "user"}
            await self.gateway.dispatch("MESSAGE_CREATE", {**self.store.message_json(msg), "member": member})

    def _forbidden(self, channel_id: int, wanted: int) -> web.Response | None:
        if channel_id not in self.store.channels:  # a DM: no permissions, closed DMs instead
            return None
        refused = permissions.refusal(self.store.denied.get(channel_id, 0), wanted)
        return error(*refused) if refused else None

    def _rate_limited(self, channel_id: int, now: float) -> web.Response | None:
        """Discord's per-channel message limit (RATE_MESSAGES in RATE_WINDOW seconds)."""
        window = self._posts.setdefault(channel_id, deque())
        while window and now - window[0] > RATE_WINDOW:
            window.popleft()
        if len(window) < RATE_MESSAGES:
            return None
        self.store.rate_limited.append(channel_id)
        body, headers = rate_limit_answer(
            RATE_WINDOW - (now - window[0]), bucket=f"channel-{channel_id}", limit=RATE_MESSAGES
        )
        return reply(body, status=429, headers=headers)

    def _recent(self, nonce: str) -> Message | None:
        """The bot's message created with ``nonce`` within ``nonce_window`` seconds, deleted or not."""
        msg = self._nonces.get(nonce)
        if msg is None or time.monotonic() - msg.created_at > self.store.nonce_window:
            return None
        return msg

    # --- faults ---------------------------------------------------------------------------------------------------

    async def deny(self, channel_id: int, *names: str) -> None:
        """Take permissions (``"view_channel"``, ``"send_messages"``, ``"embed_links"``, ``"attach_files"``,
        ``"read_message_history"``) from the bot in a channel: 403 50001 without view_channel, else 403 50013 for
        what needs them. Discord tells the bot with a CHANNEL_UPDATE carrying the overwrite."""
        if not names:
            raise ValueError("deny() needs the permissions to take away")
        self.store.denied[channel_id] = self.store.denied.get(channel_id, 0) | permissions.bits(names)
        await self.gateway.dispatch("CHANNEL_UPDATE", self.store.channel_json(channel_id))

    async def allow(self, channel_id: int, *names: str) -> None:
        """Give permissions back (all of them when none is named)."""
        keep = self.store.denied.get(channel_id, 0) & ~permissions.bits(names) if names else 0
        if keep:
            self.store.denied[channel_id] = keep
        else:
            self.store.denied.pop(channel_id, None)
        await self.gateway.dispatch("CHANNEL_UPDATE", self.store.channel_json(channel_id))

    async def delete_channel(self, channel_id: int) -> None:
        """Someone deleted the channel: CHANNEL_DELETE, then 404 10003 Unknown Channel for anything in it (its
        messages stay in ``messages`` for assertions)."""
        payload = self.store.channel_json(channel_id)
        self.store.deleted_channels[channel_id] = self.store.channels.pop(channel_id)
        await self.gateway.dispatch("CHANNEL_DELETE", payload)

    async def delete_message(self, message: Message | int) -> None:
        """Someone deleted the message: MESSAGE_DELETE, then 404 10008 Unknown Message for it."""
        if isinstance(message, int):
            message = next(m for ms in self.store.messages.values() for m in ms if m.id == message)
        await self.delete(message)

    async def delete(self, msg: Message) -> None:
        for msgs in self.store.messages.values():
            if msg in msgs:
                msgs.remove(msg)
        if not msg.deleted:
            msg.deleted = True
            self.store.deleted_messages.append(msg)
        if msg.channel_id in self.store.channels and not msg.ephemeral:
            await self.gateway.dispatch(
                "MESSAGE_DELETE",
                {"id": str(msg.id), "channel_id": str(msg.channel_id), "guild_id": str(self.store.guild_id)},
            )

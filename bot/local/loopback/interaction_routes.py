"""The loopback Discord's interaction routes: an interaction's answer (``/interactions/{id}/{token}/callback``,
within Discord's 3 seconds, once) and its webhook (followups, the original answer fetched, edited, deleted)."""

from __future__ import annotations

import time
from typing import Any

from aiohttp import web

from bot.local.loopback import payloads
from bot.local.loopback.answers import error, refuse, reply, request_body
from bot.local.loopback.channel_routes import ChannelRoutes
from bot.local.loopback.store import Store
from bot.local.loopback.stored import EPHEMERAL, Interaction, Message, Violation, by_id

ANSWER_WITHIN = 3.0  # seconds Discord gives an interaction's first answer


class InteractionRoutes:
    """``/interactions/{id}/{token}/callback`` and ``/webhooks/{application}/{token}/...``."""

    def __init__(self, store: Store, channel_routes: ChannelRoutes) -> None:
        self.store = store
        self.channel_routes = channel_routes

    async def callback(self, request: web.Request, route: str, interaction_id: int, token: str) -> web.Response:
        inter = self.store.interactions.get(interaction_id)
        if inter is None or inter.token != token:
            return error(404, 10062, "Unknown interaction")
        body, files = await request_body(request, self.store)
        late = time.monotonic() - inter.sent_at > ANSWER_WITHIN
        if inter.answers:
            self.store.violations.append(Violation(route, body, "40060 Interaction has already been acknowledged."))
            return error(400, 40060, "Interaction has already been acknowledged.")
        if late:
            self.store.violations.append(
                Violation(route, body, f"10062 Unknown interaction (answered after {ANSWER_WITHIN} s)")
            )
            return error(404, 10062, "Unknown interaction")
        kind = body.get("type")
        data = body.get("data") or {}
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            msg = self.channel_routes.build(inter.channel_id, data, files, route)
            if isinstance(msg, web.Response):
                return msg
            msg.interaction_id = interaction_id
            inter.original = msg
            if not msg.ephemeral:
                await self.channel_routes.post(msg)
            resource["message"] = self.store.message_json(msg)
        elif kind == 5:
            inter.original = self.store.new_message(
                inter.channel_id, flags=int(data.get("flags") or 0), interaction_id=interaction_id
            )
            if not inter.original.ephemeral:
                await self.channel_routes.post(inter.original)
        elif kind == 7:
            if "message" not in inter.payload:
                wrong = ("type", "INTERACTION_TYPE_INVALID", "Only a component interaction can update its message")
                return refuse(self.store.violations, route, [wrong])
            target = self._stored(inter)
            if target.deleted:
                return error(404, 10008, "Unknown Message")
            refused = self.channel_routes.edit(target, data, files, route)
            if refused:
                return refused
            resource["message"] = self.store.message_json(target)
        elif kind == 8:
            problems = payloads.check_choices(data.get("choices") or [])
            if problems:
                return refuse(self.store.violations, route, problems)
        elif kind == 9:
            problems = payloads.check_modal(data)
            if problems:
                return refuse(self.store.violations, route, problems)
        elif kind != 6:
            wrong = ("type", "BASE_TYPE_CHOICES", "Value must be one of (4, 5, 6, 7, 8, 9).")
            return refuse(self.store.violations, route, [wrong])
        inter.answers.append(body)
        inter.answered_at = time.monotonic()
        if request.query.get("with_response") in ("1", "true", "True"):
            answer = {
                "interaction": {
                    "id": str(interaction_id),
                    "type": inter.kind,
                    "response_message_id": str(inter.original.id) if inter.original else None,
                    "response_message_loading": kind == 5,
                    "response_message_ephemeral": bool(inter.original and inter.original.ephemeral),
                },
                "resource": resource,
            }
            return reply(answer)
        return web.Response(status=204)

    def _stored(self, inter: Interaction) -> Message:
        """The message a component interaction came from (the stored one, not the copy in the payload)."""
        wanted = int(inter.payload["message"]["id"])
        return self.store.made[wanted]  # a KeyError is a LookupError

    async def webhook(self, request: web.Request, route: str, token: str, rest: list[str]) -> web.Response:
        inter = self.store.by_token.get(token)
        if inter is None:
            return error(404, 10015, "Unknown Webhook")
        if not inter.answers:
            return error(404, 10015, "Unknown Webhook")  # Discord: no followup before the first answer
        m = request.method
        if not rest and m == "POST":
            body, files = await request_body(request, self.store)
            msg = self.channel_routes.build(inter.channel_id, body, files, route)
            if isinstance(msg, web.Response):
                return msg
            msg.interaction_id = inter.id
            if (
                inter.original is not None
                and not inter.original.deleted
                and not inter.original.content
                and not inter.original.embeds
                and inter.answers[0].get("type") == 5
                and inter.original.edits == 0
                and not inter.followups
            ):
                # A deferred answer's first followup fills in its placeholder, which keeps its own visibility (Discord:
                # "if you defer without flags 64 you cannot then respond with an ephemeral response"). Once the
                # placeholder is deleted, a followup is a message of its own, ephemeral if it asks (a 10008 there was
                # a bug Discord fixed in 2021: discord-api-docs#2739).
                inter.original.content, inter.original.embeds = msg.content, msg.embeds
                inter.original.components, inter.original.attachments = msg.components, msg.attachments
                kept = inter.original.flags & EPHEMERAL
                inter.original.flags, inter.original.edits = (msg.flags & ~EPHEMERAL) | kept, 1
                inter.original.record()
                msg = inter.original
            else:
                inter.followups.append(msg)
                if not msg.ephemeral:
                    await self.channel_routes.post(msg)
            return reply(self.store.message_json(msg))
        if len(rest) == 2 and rest[0] == "messages":
            if rest[1] == "@original":
                target = inter.original
                if target is None and inter.answers[0].get("type") in (6, 7) and "message" in inter.payload:
                    target = self._stored(inter)
            else:
                target = by_id(inter.followups, rest[1])
            if target is None or target.deleted:
                return error(404, 10008, "Unknown Message")
            if m == "GET":
                return reply(self.store.message_json(target))
            if m == "PATCH":
                body, files = await request_body(request, self.store)
                refused = self.channel_routes.edit(target, body, files, route)
                return refused or reply(self.store.message_json(target))
            if m == "DELETE":
                await self.channel_routes.delete(target)
                return web.Response(status=204)
        return error(405, 0, "405: Method Not Allowed")

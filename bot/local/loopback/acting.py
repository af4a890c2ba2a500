"""People in the loopback Discord: what their Discord clients send when they use a command (slash, autocomplete),
click a button, pick from a menu, submit a modal, or write in a channel."""

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping
from typing import Any

from bot.local.loopback import payloads, permissions
from bot.local.loopback.channel_routes import ChannelRoutes
from bot.local.loopback.connections import Gateway
from bot.local.loopback.store import EVERYTHING, Store
from bot.local.loopback.stored import Interaction, Message


class People:
    """Each action returns the interaction's id (``say``: the message); the bot's answers land in the store."""

    def __init__(self, store: Store, gateway: Gateway, channel_routes: ChannelRoutes) -> None:
        self.store = store
        self.gateway = gateway
        self.channel_routes = channel_routes

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
        channel = channel_id or self.store.channel_id
        interaction_id = self.store.next_id()
        token = "itoken-" + secrets.token_hex(16)
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.store.application_id),
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
        if channel in self.store.dm_channels:  # a click in a direct message: a user, no server
            payload["channel"] = {"id": str(channel), "type": 1, "last_message_id": None, "flags": 0}
            payload["user"] = self.store.users[user_id]
            payload["authorizing_integration_owners"] = {"0": str(self.store.guild_id)}
            payload["context"] = 1
        else:
            payload["channel"] = self.store.channel_json(channel)
            payload["app_permissions"] = str(permissions.effective(self.store.denied.get(channel, 0)))
            payload["guild_id"] = str(self.store.guild_id)
            payload["guild_locale"] = "en-US"
            payload["member"] = self.store.member(user_id)
            payload["authorizing_integration_owners"] = {"0": str(self.store.guild_id)}
            payload["context"] = 0
        if message is not None:
            payload["message"] = self.store.message_json(message)
        inter = Interaction(interaction_id, token, kind, user_id, channel, payload, time.monotonic())
        self.store.add_interaction(inter)
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        await self.store.notify()
        return interaction_id

    def _command(self, path: list[str]) -> dict[str, Any] | None:
        for scope in (self.store.guild_id, None):
            for cmd in self.store.commands.get(scope, []):
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
            "guild_id": str(self.store.guild_id),
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
                users[str(value)] = self.store.users[int(value)]
                members[str(value)] = {k: v for k, v in self.store.member(int(value)).items() if k != "user"}
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
        msg = self.store.new_message(channel_id, content, author_id=user_id)
        await self.channel_routes.post(msg)
        await self.store.notify()
        return msg

    async def click(
        self, user_id: int, custom_id: str, *, message: Message | None = None, locale: str = "en-US"
    ) -> int:
        message = message or self.store.find_message(custom_id)
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
        message = message or self.store.find_message(custom_id)
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
        modal = self.store.interactions[opened_by].modal
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
        source = self.store.interactions[opened_by]
        return await self._interact(
            5,
            user_id,
            {"custom_id": modal["custom_id"], "components": rows},
            channel_id=source.channel_id,
            locale=locale,
        )

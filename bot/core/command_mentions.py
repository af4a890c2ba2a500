"""Command mentions (``</game back:ID>``, which Discord shows as a clickable command) from the ids sync stored.

The bot loads the stored ids at start (or fetches them from Discord when none are stored); without an id a mention
falls back to the readable ``/game back``.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.storage.command_ids import CommandIds
from bot.storage.database import Database

log = logging.getLogger("boardhost.mentions")


class CommandMentions:
    """How one bot's texts name its commands (``bot.text.languages.Languages.mentions``): by the ids synced for it,
    per scope (guild id, None: global) and top-level command name."""

    def __init__(self, ids: Mapping[int | None, Mapping[str, int]] | None = None) -> None:
        self._ids = {guild_id: dict(names) for guild_id, names in (ids or {}).items()}

    def __call__(self, qualified_name: str, guild_id: int | None = None) -> str:
        """``</game back:ID>`` for the command ``game back`` (the id of its top-level command, registered in
        ``guild_id`` or globally); ``/game back`` when no id is known."""
        name = " ".join(qualified_name.split())
        top = name.split(" ", 1)[0]
        command_id = self._ids.get(guild_id, {}).get(top) if guild_id else None
        command_id = command_id or self._ids.get(None, {}).get(top)
        if command_id is None and guild_id is None and len(self._ids) == 1:
            command_id = next(iter(self._ids.values())).get(top)  # commands synced to a single (development) guild
        return f"</{name}:{command_id}>" if command_id else f"/{name}"

    def registered_guilds(self) -> list[int]:
        """The servers that sync registered the commands in (their ids are stored), in the order stored."""
        return [guild_id for guild_id in self._ids if guild_id is not None]


async def load_command_ids(db: Database, tree: app_commands.CommandTree[Any], dev_guild: int | None) -> CommandMentions:
    """The mentions of the ids stored by sync; when none are, fetch them from Discord (global, and ``dev_guild``'s)
    and store them. A failed fetch is logged and leaves the readable fallback in place."""
    store = CommandIds(db)
    ids = await store.load()
    if not ids:
        try:
            fetched: dict[int | None, dict[str, int]] = {None: {c.name: c.id for c in await tree.fetch_commands()}}
            if dev_guild:
                fetched[dev_guild] = {c.name: c.id for c in await tree.fetch_commands(guild=discord.Object(dev_guild))}
        except Exception as err:  # mentions then read /name: never a reason not to start
            log.warning("could not fetch the command ids: %s", err)
            return CommandMentions()
        for guild_id, names in fetched.items():
            if names:
                await store.replace(guild_id, names)
        ids = {g: n for g, n in fetched.items() if n}
    return CommandMentions(ids)

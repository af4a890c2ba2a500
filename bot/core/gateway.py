"""Two changes to how discord.py reads gateway events, in its private parser table (``ConnectionState.parsers``).

discord.py has no public hook for either; ``tests/bot/test_gateway.py`` fails the day discord.py renames the table or
the events, instead of the bot silently speaking English or building every message again. (Clicks and forms' submits
are answered from their data by another private hook: ``bot.core.clicks.answer_from_data``.)
"""

from __future__ import annotations

import contextvars
from typing import Any

import discord

from bot.text.languages import Languages

PATCHED: tuple[str, ...] = ("INTERACTION_CREATE", "MESSAGE_CREATE", "MESSAGE_UPDATE")


def parsers(client: discord.Client) -> dict[str, Any]:
    """discord.py's table of gateway event parsers, by event name."""
    table: dict[str, Any] = client._connection.parsers
    return table


def speak_reader_locale(client: discord.Client, languages: Languages) -> None:
    """Every interaction is handled in its reader's Discord locale: the handler tasks discord.py starts for it
    (commands, buttons, selects, forms) inherit a context whose language is ``interaction.locale``'s (``languages``
    remembers it for the reader's DMs), whose server is the interaction's and whose command mentions are
    ``languages``'s."""
    table = parsers(client)
    parse = table["INTERACTION_CREATE"]

    def in_reader_language(data: Any) -> None:
        user = data.get("member", {}).get("user") or data.get("user") or {}
        guild = int(data["guild_id"]) if data.get("guild_id") else None
        languages.hear(data.get("locale"), int(user["id"]) if user.get("id") else None, guild)
        parse(data)

    table["INTERACTION_CREATE"] = lambda data: contextvars.copy_context().run(in_reader_language, data)


def note_newest_messages_only(client: discord.Client) -> None:
    """Message events serve one purpose here: knowing which message is a channel's newest. discord.py would build a
    full Message (and a cached copy) for every message and edit in every channel the bot sees, its own turn messages
    included (6% of the event loop at 50 moves a second); this keeps a channel's ``last_message_id`` up to date and
    nothing else. Nothing here listens to message events."""
    table = parsers(client)

    def newest(data: Any) -> None:
        channel = client.get_channel(int(data["channel_id"]))
        if channel is not None and hasattr(channel, "last_message_id"):
            channel.last_message_id = int(data["id"])

    table["MESSAGE_CREATE"] = newest
    table["MESSAGE_UPDATE"] = lambda data: None

"""The bot's two changes to discord.py's private gateway parser table hold only while discord.py keeps that table:
these fail the day it renames the table, the events or their parsers."""

from __future__ import annotations

from typing import Any

import discord

from bot.core.gateway import PATCHED, note_newest_messages_only, parsers, speak_reader_locale
from bot.text.i18n import language


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents(guilds=True))


def test_discord_py_still_parses_the_patched_events_with_its_own_parsers() -> None:
    table = parsers(client())
    for event in PATCHED:
        parser = table.get(event)
        assert parser is not None, f"discord.py no longer parses {event}"
        assert getattr(parser, "__name__", "") == f"parse_{event.lower()}", parser


def test_an_interaction_is_parsed_in_its_readers_language() -> None:
    bot = client()
    heard: list[str] = []
    parsers(bot)["INTERACTION_CREATE"] = lambda data: heard.append(language())
    speak_reader_locale(bot, "en")
    parsers(bot)["INTERACTION_CREATE"]({"locale": "ru", "user": {"id": "5"}})
    parsers(bot)["INTERACTION_CREATE"]({"locale": "zh-TW", "member": {"user": {"id": "6"}}, "guild_id": "1"})
    assert heard == ["ru", "zh-TW"]
    assert language() == "en"  # each parse ran in a copy of the context: nothing leaks into the next event


def test_message_events_only_move_a_channels_newest_message() -> None:
    bot = client()
    channel: Any = type("Channel", (), {"last_message_id": 1})()
    bot.get_channel = lambda channel_id: channel if channel_id == 7 else None  # type: ignore[method-assign,assignment,return-value]  # the cache, stubbed
    note_newest_messages_only(bot)
    parsers(bot)["MESSAGE_CREATE"]({"channel_id": "7", "id": "99", "content": "not parsed"})
    parsers(bot)["MESSAGE_UPDATE"]({"channel_id": "7", "id": "100"})
    assert channel.last_message_id == 99

"""The bot's changes to discord.py's private parts hold only while discord.py keeps them: these fail the day it
renames the gateway parser table, the events or their parsers, or the view store's methods that answer clicks and
forms."""

from __future__ import annotations

import inspect
from typing import Any

import discord
from discord.state import ConnectionState

from bot.core.clicks import answer_from_data
from bot.core.gateway import PATCHED, note_newest_messages_only, parsers, speak_reader_locale
from bot.text.i18n import command_text, language
from bot.text.languages import Languages


def client() -> discord.Client:
    return discord.Client(intents=discord.Intents(guilds=True))


def test_discord_py_still_parses_the_patched_events_with_its_own_parsers() -> None:
    table = parsers(client())
    for event in PATCHED:
        parser = table.get(event)
        assert parser is not None, f"discord.py no longer parses {event}"
        assert getattr(parser, "__name__", "") == f"parse_{event.lower()}", parser


def test_an_interaction_is_parsed_in_its_readers_language_with_the_bots_command_mentions() -> None:
    bot = client()
    heard: list[tuple[str, str]] = []
    parsers(bot)["INTERACTION_CREATE"] = lambda data: heard.append((language(), command_text("game back")))
    languages = Languages("zh-CN", lambda name, guild: f"</{name}:{guild}>")
    speak_reader_locale(bot, languages)
    parsers(bot)["INTERACTION_CREATE"]({"locale": "ru", "user": {"id": "5"}})
    parsers(bot)["INTERACTION_CREATE"]({"locale": "zh-TW", "member": {"user": {"id": "6"}}, "guild_id": "1"})
    parsers(bot)["INTERACTION_CREATE"]({"locale": "de", "user": {"id": "7"}})  # unsupported: the bot's default
    assert heard == [("ru", "</game back:None>"), ("zh-TW", "</game back:1>"), ("zh-CN", "</game back:None>")]
    assert [languages.reader_language(user) for user in (5, 6, 7)] == ["ru", "zh-TW", "zh-CN"]  # for their DMs
    # each parse ran in a copy of the context: nothing leaks into the next event
    assert (language(), command_text("game back")) == ("en", "/game back")


def test_message_events_only_move_a_channels_newest_message() -> None:
    bot = client()
    channel: Any = type("Channel", (), {"last_message_id": 1})()
    bot.get_channel = lambda channel_id: channel if channel_id == 7 else None  # type: ignore[method-assign,assignment,return-value]  # the cache, stubbed
    note_newest_messages_only(bot)
    parsers(bot)["MESSAGE_CREATE"]({"channel_id": "7", "id": "99", "content": "not parsed"})
    parsers(bot)["MESSAGE_UPDATE"]({"channel_id": "7", "id": "100"})
    assert channel.last_message_id == 99


def test_discord_py_still_answers_clicks_and_forms_through_the_view_store_methods_the_bot_replaces() -> None:
    """``answer_from_data`` replaces two methods of discord.py's view store: a click on a dynamic item and a form's
    submit reach them with these arguments, from these callers; renamed or moved, the bot would silently fall back
    to discord.py's own (every click's message rebuilt, every form lost in a restart)."""
    answer_from_data()
    store: Any = discord.ui.view.ViewStore
    calls = {
        "schedule_dynamic_item_call": ("component_type", "factory", "interaction", "custom_id", "match"),
        "dispatch_modal": ("custom_id", "interaction", "components", "resolved"),
    }
    for name, arguments in calls.items():
        replaced = getattr(getattr(store, name), "replaces", None)
        assert replaced is not None, f"{name} is not the bot's"
        assert tuple(inspect.signature(replaced).parameters)[1:] == arguments, name
    assert "self.schedule_dynamic_item_call(" in inspect.getsource(discord.ui.view.ViewStore.dispatch_dynamic_items)
    assert "self._view_store.dispatch_modal(" in inspect.getsource(ConnectionState.parse_interaction_create)

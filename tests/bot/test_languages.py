"""Each bot's languages are its own (``Host.languages``): its default language, its readers' languages and how its
texts name commands. Two bots in one process (the tests' second shard process) never disturb each other."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import BoardHost, ShardedBoardHost
from bot.core.config import Config
from bot.text import t
from bot.text.i18n import command_text, language
from bot.text.languages import Languages
from tests.bot.conftest import reply
from tests.bot.processes import Processes


def test_a_game_speaks_its_stored_language_else_its_servers_else_the_bots_default() -> None:
    languages = Languages("zh-TW")

    assert languages.game_language("ru", guild_locale="en-US") == "ru"
    assert languages.game_language(None, guild_locale="ru") == "ru"
    assert languages.game_language(None, guild_locale="de") == "zh-TW", "a locale no catalogue speaks: the default"
    assert languages.game_language(None) == "zh-TW"
    assert Languages("en").game_language(None) == "en", "another bot's default is its own"


def test_the_readers_languages_are_bounded_and_the_least_recently_seen_go_first() -> None:
    languages = Languages(readers=3)
    for user, lang in ((1, "ru"), (2, "zh-CN"), (3, "zh-TW")):
        languages.remember(user, lang)
    assert languages.reader_language(1) == "ru"  # user 1 is seen again: now user 2 is the least recent
    languages.remember(4, "ru")
    assert languages.remembered() == 3
    assert languages.reader_language(2, fallback="en") == "en", "forgotten: the game's language"
    assert [languages.reader_language(u) for u in (1, 3, 4)] == ["ru", "zh-TW", "ru"]
    assert Languages().reader_language(1, fallback="zh-CN") == "zh-CN", "another bot has not seen user 1"


async def test_two_bots_speaking_at_once_each_use_their_own_default_and_command_mentions() -> None:
    english = Languages("en", lambda name, guild: f"</{name}:1>")
    russian = Languages("ru")

    async def say(languages: Languages) -> tuple[str, str]:
        with languages.of_game(None):
            await asyncio.sleep(0)  # the other bot speaks meanwhile
            return language(), t("error.no_game_here")

    said = await asyncio.gather(say(english), say(russian), say(english))

    assert said[0] == said[2] == (
        "en", "There is no game in this channel. Start one with </carcassonne new:1> or </catan new:1>."
    )  # fmt: skip
    assert said[1] == ("ru", "В этом канале нет игры. Начните её командой /carcassonne new или /catan new.")
    assert (language(), command_text("game back")) == ("en", "/game back"), "outside any bot: nothing left behind"


# -- two bots in one process, on one simulated Discord -----------------------------------------------------------


def config(database: Path, shard: int, default_language: str) -> Config:
    return Config(
        database=database, shard_count=2, shard_ids=(shard,), default_language=default_language,
        reminder_check=1800, render_processes=0,
    )  # fmt: skip


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    """The first bot: shard 0 of 2, English by default."""
    return ShardedBoardHost(config(tmp_path / "first.sqlite3", 0, "en"), rng=random.Random(1))


async def test_two_bots_in_one_process_keep_their_own_default_language_and_command_mentions(
    simcord_env: Any, simcord_bot: BoardHost, tmp_path: Path
) -> None:
    await simcord_bot.tree.sync()  # after the first bot started: it knows no command ids
    alice = simcord_env.create_user("alice")
    places = []
    for shard in (0, 1):  # servers whose preferred locale no catalogue speaks: their games take the bot's default
        guild = simcord_env.create_guild(f"guild {shard}", shard_id=shard, preferred_locale="de")
        places.append((guild.add_member(alice), guild.create_text_channel("games")))
    (alice_first, first), (alice_second, second) = places
    processes = Processes(simcord_env)
    russian = ShardedBoardHost(config(tmp_path / "second.sqlite3", 1, "ru"), rng=random.Random(2))
    await processes.attach(russian)  # started after the sync: it fetches the ids, its texts name commands clickably
    ids = {c.name: c.id for c in await simcord_bot.tree.fetch_commands()}

    plain = reply(await alice_first.slash(first, "game status")).content
    clickable = reply(await alice_second.slash(second, "game status")).content
    await alice_first.slash(first, "carcassonne new")
    await alice_second.slash(second, "carcassonne new")

    assert plain == "There is no game in this channel. Start one with /carcassonne new or /catan new."
    assert clickable == (
        "There is no game in this channel. "
        f"Start one with </carcassonne new:{ids['carcassonne']}> or </catan new:{ids['catan']}>."
    )  # alice reads en-US in both; only the second bot knows the command ids
    assert first.last_message.embeds[0].title == "Carcassonne lobby"
    assert second.last_message.embeds[0].title == "Набор игроков: «Каркассон»"
    assert simcord_bot.languages.default == "en" and russian.languages.default == "ru"
    await processes.stop(russian)

"""``python -m bot try``'s folder: the config it gives the bot, and what a kept folder brings back next time."""

from __future__ import annotations

from pathlib import Path

from bot.core.config import load_config
from bot.local.tryout import Options, loopback, remember, write_config


async def test_the_bot_is_pointed_at_the_loopback_and_a_sqlite_file_in_the_folder(tmp_path: Path) -> None:
    fake, people = loopback(tmp_path, 3)
    await fake.start()
    try:
        config = load_config(write_config(tmp_path, fake, Options(pause=0.5)))
    finally:
        await fake.stop()

    assert config.rest_base_url == fake.rest_url and config.gateway_url == fake.gateway_url
    assert config.database == tmp_path / "boardhost.sqlite3"
    assert config.computer_pause == 0.5
    assert [p.name for p in people] == ["Ada", "Boris", "Chen"]


async def test_a_kept_folder_brings_back_the_same_people_channels_and_messages(tmp_path: Path) -> None:
    fake, people = loopback(tmp_path, 2)
    people[1].locale = "zh-TW"
    said = await fake.say(people[0].id, fake.channel_id, "good luck")
    remember(tmp_path, fake, people)

    again, back = loopback(tmp_path, 2)

    assert [(p.id, p.name, p.locale) for p in back] == [(p.id, p.name, p.locale) for p in people]
    assert list(again.channels) == list(fake.channels)
    assert [(m.id, m.content, m.author_id) for m in again.messages_in()] == [(said.id, "good luck", people[0].id)]
    assert again.next_id() > said.id  # new ids never meet the ones the bot's database remembers


async def test_a_new_folder_starts_empty(tmp_path: Path) -> None:
    (tmp_path / "channels.pickle").write_bytes(b"not a pickle")
    fake, people = loopback(tmp_path, 1)
    assert [p.name for p in people] == ["Ada"] and fake.messages_in() == []

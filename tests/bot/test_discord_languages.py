"""Whose language: the channel hears the game's language (set by the host), each reader gets their own privately."""

from __future__ import annotations

import re

from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import DECK, labels, start

CYRILLIC = re.compile(r"[А-Яа-яЁё]")


async def test_the_host_sets_the_game_language_and_private_replies_stay_in_the_readers(world: World) -> None:
    await start(world, DECK)
    refused = reply(await world.bob.slash(world.channel, "game language", language="ru"))
    assert refused.ephemeral and "Only the host" in refused.content  # bob reads en-US: English
    announced = reply(await world.alice.slash(world.channel, "game language", language="ru"))
    assert CYRILLIC.search(announced.content) and not announced.ephemeral
    done = reply(await world.alice.slash(world.channel, "place", cell="0,-1", rotation=180))
    assert done.ephemeral and done.content == "Done."  # alice's own reply: her locale
    turn = world.channel.last_message  # the new turn message: the game's Russian, buttons included
    assert CYRILLIC.search(turn.content), turn.content
    assert any(CYRILLIC.search(label) for label in labels(turn))
    assert turn.attachments and CYRILLIC.search(turn.attachments[0].description or ""), "its alt text too"
    wrong = reply(await world.bob.slash(world.channel, "place", cell="0,1", rotation=0))
    assert wrong.ephemeral and "not your turn" in wrong.content and not CYRILLIC.search(wrong.content)

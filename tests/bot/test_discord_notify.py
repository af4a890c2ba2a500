"""Turn DMs through simulated Discord: only for players who asked, once per new wait, never blocking a turn."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from bot.storage import GameRow, UserSettings
from tests.bot.conftest import World
from tests.bot.test_discord_carcassonne import DECK, labels, place, start


def dms(person: Any) -> list[Any]:
    return list(person.user.dm_channel.history())


async def test_a_player_with_turn_dms_on_gets_a_link_and_one_with_them_off_gets_nothing(world: World) -> None:
    settings = UserSettings(world.bot.db)
    await world.bob.slash(world.channel, "settings notifications", dm_on_turn=True)
    await settings.set_dm_on_turn(world.alice.id, False)
    row = await start(world, DECK)  # alice first
    await world.env.settle()
    assert dms(world.alice) == [] and dms(world.bob) == []

    message = await place(world, world.alice)
    assert "No follower" in labels(message)
    await world.alice.click(message, label="No follower")
    turn = world.channel.last_message
    assert f"<@{world.bob.id}>" in turn.content
    [dm] = dms(world.bob)
    assert "It is your turn in Carcassonne" in dm.content and f"<#{world.channel.id}>" in dm.content
    assert f"https://discord.com/channels/{row.guild_id}/{world.channel.id}/{turn.id}" in dm.content

    # bob places: the follower decision is still his, so no second message
    await place(world, world.bob)
    assert len(dms(world.bob)) == 1
    await world.bob.click(world.channel.last_message, label="No follower")
    assert dms(world.alice) == [], "alice has turn DMs off"
    assert len(dms(world.bob)) == 1
    assert not world.env.errors


@pytest.mark.parametrize(
    ("status", "code", "why"),
    [
        (403, 50007, "Cannot send messages to this user"),
        (403, 50278, "Cannot send messages to this user due to having no mutual guilds"),
    ],
)
async def test_a_refused_dm_is_logged_and_the_turn_still_posts(
    world: World, caplog: pytest.LogCaptureFixture, status: int, code: int, why: str
) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.bob.click(world.channel.last_message, label="Join")
    lobby = await world.bot.games.open_in_channel(world.channel.id)
    assert lobby is not None
    # whoever the lobby's Start will draw as first player has turn DMs on, but Discord refuses the message
    first = {world.alice.id: world.alice, world.bob.id: world.bob}[lobby.seats[first_seat(lobby)].user_id]
    await first.slash(world.channel, "settings notifications", dm_on_turn=True)
    world.env.inject_error(
        "POST",
        f"/channels/{first.user.dm_channel.id}/messages",
        status=status,
        code=code,
        message=why,
    )
    with caplog.at_level(logging.WARNING, logger="boardhost.notify"):
        await world.alice.click(world.channel.last_message, label="Start")
    turn = world.channel.last_message
    assert f"<@{first.id}>" in turn.content and "place the drawn tile" in turn.content and turn.components
    assert dms(first) == []
    [record] = [r for r in caplog.records if r.name == "boardhost.notify"]
    assert f"HTTP {status}, code {code}" in record.getMessage() and str(first.id) in record.getMessage()
    assert not world.env.errors
    # the game goes on from the posted turn
    await place(world, first)
    await first.click(world.channel.last_message, label="No follower")
    assert "Turn 2:" in world.channel.last_message.content and not world.env.errors


def first_seat(row: GameRow) -> int:
    """The first player the lobby's Start draws (``Lobby.start``)."""
    return random.Random(row.seed).randrange(len(row.seats))


async def test_a_turn_dm_discord_fails_with_a_500_is_sent_again_once(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A passing failure is no refusal: the turn DM stays owed (the outbox) and arrives once, a few seconds later."""
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.bob.click(world.channel.last_message, label="Join")
    lobby = await world.bot.games.open_in_channel(world.channel.id)
    assert lobby is not None
    first = {world.alice.id: world.alice, world.bob.id: world.bob}[lobby.seats[first_seat(lobby)].user_id]
    await first.slash(world.channel, "settings notifications", dm_on_turn=True)
    world.env.inject_error("POST", f"/channels/{first.user.dm_channel.id}/messages", status=500, times=2)
    with caplog.at_level(logging.WARNING, logger="boardhost.outbox"):
        await world.alice.click(world.channel.last_message, label="Start")
    turn = world.channel.last_message
    assert f"<@{first.id}>" in turn.content and turn.components, "the turn is posted whatever the DM does"
    assert any("not delivered yet" in r.getMessage() for r in caplog.records if r.name == "boardhost.outbox")
    await world.env.advance_time(10)
    assert len(dms(first)) == 1
    await world.env.advance_time(120)
    assert len(dms(first)) == 1, "delivered once, never again"
    assert await world.bot.records.owed.count() == 0

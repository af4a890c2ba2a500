"""A host's turn limit through simulated Discord: shown in the lobby, enforced after simulated time, across a
restart, replayable from the log."""

from __future__ import annotations

import pytest
from simcord.interactions import OptionError

from bot.app import BoardHost
from bot.host.rebuild import load, rebuild
from tests.bot.conftest import World

HOUR = 3600


async def test_the_lobby_shows_the_turn_limit_and_discord_checks_its_range(world: World) -> None:
    for hours in (0, 337):
        with pytest.raises(OptionError):
            await world.alice.slash(world.channel, "carcassonne new", turn_limit=hours)
    await world.alice.slash(world.channel, "catan new", turn_limit=36)
    embed = world.channel.last_message.embeds[0]
    [field] = [f for f in embed.fields if f.name == "Turn limit"]
    assert field.value.startswith("36 hours:")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.turn_limit == 36 * HOUR


async def test_an_idle_player_is_moved_for_after_the_limit_even_across_a_restart(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False, turn_limit=2)
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.turn_limit == 2 * HOUR
    seats = {0: world.alice, 1: world.bob}
    idle, other = seats[row.options["first_player"]], seats[1 - row.options["first_player"]]
    first_turn = world.channel.last_message
    assert f"<@{idle.id}>" in first_turn.content

    await world.env.advance_time(HOUR)
    assert world.channel.last_message.id == first_turn.id
    fresh = BoardHost(world.bot.config)  # a restart: the limit and the wait are read back from the database
    await world.env.restart_bot(fresh)
    await fresh.wait_until_ready()
    await world.env.advance_time(HOUR / 2)
    assert world.channel.last_message.id == first_turn.id, "90 minutes: still within the limit"

    await world.env.advance_time(HOUR)  # past 2 hours, and a sweep (every 30 minutes here) has run
    turn = world.channel.last_message
    assert turn.id != first_turn.id
    assert f"{idle.name} ran out of time; the bot made a minimal move." in turn.content
    assert f"{idle.name} placed a tile" in turn.content
    assert f"Turn 2: <@{other.id}>, place the drawn tile" in turn.content and turn.components
    assert not world.env.backend.get_message(first_turn.channel.id, first_turn.id).components

    stored = await fresh.games.get(row.id)
    assert stored is not None and stored.message_id == turn.id
    log = await fresh.games.actions(row.id)
    first = row.options["first_player"]
    assert [(a["type"], a["player"]) for a in log] == [("place", first), ("pass", first)]
    users = await fresh.db.fetchall("SELECT user_id FROM actions WHERE game_id = ?", (row.id,))
    assert [u[0] for u in users] == [None, None]
    assert rebuild(stored, log).to_json() == load(stored).to_json()

    await world.env.advance_time(HOUR)
    assert world.channel.last_message.id == turn.id, "the next player's wait began with the new turn"
    assert not world.env.errors


async def test_the_idle_reminder_mentions_the_turn_limit(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False, turn_limit=36)
    await world.bob.click(world.channel.last_message, label="Join")
    await world.alice.click(world.channel.last_message, label="Start")
    await world.env.advance_time(13 * HOUR)
    reminder = world.channel.last_message
    assert "is waiting for you (idle for 12 hours; after 36 hours the bot moves for you)" in reminder.content

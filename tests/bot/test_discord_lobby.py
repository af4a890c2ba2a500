"""The lobby through the real discord.py client against a simulated Discord (simcord)."""

from __future__ import annotations

from tests.bot.conftest import World, reply


async def test_a_lobby_fills_and_starts(world: World) -> None:
    result = await world.alice.slash(world.channel, "carcassonne new", tower=True)
    assert result.response is not None
    lobby = world.channel.last_message
    assert "Carcassonne lobby" in lobby.embeds[0].title
    await world.bob.click(lobby, label="Join")
    lobby = world.channel.last_message
    assert f"<@{world.bob.id}>" in lobby.embeds[0].fields[0].value
    refused = reply(await world.bob.click(lobby, label="Start"))
    assert refused.ephemeral and "Only the host" in refused.content
    await world.alice.click(lobby, label="Start")
    started = world.channel.last_message
    assert "Carcassonne begins" in started.content
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.status == "active"


async def test_one_game_per_channel(world: World) -> None:
    await world.alice.slash(world.channel, "catan new")
    first = world.channel.last_message
    again = await world.bob.slash(world.channel, "carcassonne new")
    assert again.response is not None and again.response.ephemeral
    assert "already has a game" in again.response.content
    await world.bob.click(first, label="Join")
    again = reply(await world.bob.click(first, label="Join"))
    assert again.ephemeral and "already in this game" in again.content
    await world.carol.click(first, label="Join")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and [s.name for s in row.seats] == ["alice", "bob", "carol"]

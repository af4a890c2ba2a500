"""The lobby through the real discord.py client against a simulated Discord (simcord)."""

from __future__ import annotations

from bot.storage import Seat
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


async def test_a_lobby_whose_process_died_before_showing_it_is_posted_by_the_next(world: World) -> None:
    # ``/carcassonne new`` stored the lobby; the process died before its answer: the lobby is owed its message.
    opened = await world.bot.lobby.open_lobby(
        guild_id=world.channel.guild.id, channel_id=world.channel.id, game="carcassonne",
        host=Seat(world.alice.id, "alice"), options={},
    )  # fmt: skip
    assert await world.bot.records.owed.count() == 1
    before = len(world.channel.history())

    await world.bot.outbox.resume(everything=True)  # the next process
    await world.env.settle()
    assert len(world.channel.history()) == before + 1
    lobby = world.channel.last_message
    assert "Carcassonne lobby" in lobby.embeds[0].title
    assert (await world.bot.rows.row(opened.id)).message_id == lobby.id
    await world.bob.click(lobby, label="Join")  # its buttons work
    row = await world.bot.rows.row(opened.id)
    assert [s.name for s in row.seats] == ["alice", "bob"]
    assert await world.bot.records.owed.count() == 0


async def test_a_seat_taken_by_a_process_that_died_before_answering_is_shown_by_the_next(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new")
    lobby = world.channel.last_message
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    # Bob's Join stored; the process died before its answer: the lobby message still offers the gone version.
    joined = await world.bot.lobby.join(row.id, row.version, Seat(world.bob.id, "bob"))
    refused = reply(await world.carol.click(lobby, label="Join"))
    assert refused.ephemeral, refused.content

    await world.bot.outbox.resume(everything=True)  # the next process
    await world.env.settle()
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    assert f"<@{world.bob.id}>" in lobby.embeds[0].fields[0].value
    await world.carol.click(lobby, label="Join")  # the buttons are the new version's
    row = await world.bot.rows.row(row.id)
    assert row.version > joined.version and [s.name for s in row.seats] == ["alice", "bob", "carol"]
    assert await world.bot.records.owed.count() == 0

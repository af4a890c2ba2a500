"""/game undo through simulated Discord: a tile placement is taken back before the follower decision only."""

from __future__ import annotations

from tests.bot.conftest import World, reply
from tests.bot.test_discord_carcassonne import DECK, labels, place, select_id, start


async def test_undo_takes_back_a_placement_and_shows_the_turn_again(world: World) -> None:
    row = await start(world, DECK)
    placed = await place(world, world.alice)
    assert "alice placed a tile in column 0, row -1" in placed.content and "No follower" in labels(placed)

    done = reply(await world.alice.slash(world.channel, "game undo"))
    assert done.ephemeral and "Taken back" in done.content
    again = world.channel.last_message
    assert again.id == placed.id, "alice's turn goes on in its message"
    assert "alice placed a tile in column 0, row -1" in again.content, "the story so far stays"
    assert "alice took back their last move." in again.content
    assert f"Turn 1: <@{world.alice.id}>, place the drawn tile — it fits in 2 cells" in again.content
    assert select_id(again, "cell") and "No follower" not in labels(again)
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.message_id == again.id
    assert await world.bot.games.actions(row.id) == []

    # the tile can be placed elsewhere now: cell 2 is (0, 1)
    moved = await place(world, world.alice, option=1)
    assert "alice placed a tile in column 0, row 1" in moved.content
    assert not world.env.errors


async def test_undo_is_refused_after_the_follower_decision_and_for_others(world: World) -> None:
    row = await start(world, DECK)
    placed = await place(world, world.alice)
    other = reply(await world.bob.slash(world.channel, "game undo"))
    assert other.ephemeral and "nothing to undo" in other.content
    outsider = reply(await world.carol.slash(world.channel, "game undo"))
    assert outsider.ephemeral and "not playing" in outsider.content
    await world.alice.click(placed, label="No follower")
    turn = world.channel.last_message
    before = await world.bot.games.get(row.id)
    assert before is not None

    refused = reply(await world.alice.slash(world.channel, "game undo"))
    assert refused.ephemeral and "nothing to undo" in refused.content
    after = await world.bot.games.get(row.id)
    assert after is not None and after.version == before.version and world.channel.last_message.id == turn.id
    assert len(await world.bot.games.actions(row.id)) == 2


async def test_undo_without_a_running_game_explains(world: World) -> None:
    nothing = reply(await world.alice.slash(world.channel, "game undo"))
    assert nothing.ephemeral and "no game in this channel" in nothing.content
    await world.alice.slash(world.channel, "carcassonne new")
    lobby = reply(await world.alice.slash(world.channel, "game undo"))
    assert lobby.ephemeral and "not started" in lobby.content

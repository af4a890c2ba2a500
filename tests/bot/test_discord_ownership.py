"""A button counts only where its game is: forged clicks (a custom id of one channel's game clicked in another
channel, a player's DM button clicked by someone not playing, another channel's replay) are refused with a clear
reply and change nothing; the same buttons still work where they belong."""

from __future__ import annotations

import re
from typing import Any

import discord
from simcord.actors import _dispatch_actor_interaction
from simcord.backend import serializers
from simcord.enums import ComponentType, InteractionType

from bot.core.clicks import Control
from bot.storage import GameRow
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_carcassonne import labels, place
from tests.bot.test_discord_carcassonne import start as start_carcassonne
from tests.bot.test_discord_catan import rolled, turn
from tests.bot.test_discord_catan import start as start_catan

ELSEWHERE = "This button belongs to a game in another channel, so it does nothing here. Nothing was changed."
NOT_YOURS = "This button belongs to a game you are not playing in. Nothing was changed."


def custom_id(message: Any, label: str) -> str:
    return str(next(c["custom_id"] for c in flat(message) if c.get("label") == label))


async def forge(world: World, who: Any, channel: Any, message: Any, custom_id: str, locale: str = "en-US") -> Any:
    """``who`` clicks in ``channel`` a button carrying ``custom_id`` on ``message``, which never had it: what a
    modified client can send, since the custom id travels with the click."""
    stored = world.env.backend.get_message(channel.id, message.id)
    payload = dict(serializers.message_payload(world.env.backend, stored))
    button = {"type": ComponentType.BUTTON, "style": 2, "label": "forged", "custom_id": custom_id}
    payload["components"] = [{"type": ComponentType.ACTION_ROW, "components": [button]}]
    data = {"custom_id": custom_id, "component_type": ComponentType.BUTTON}
    return await _dispatch_actor_interaction(
        who, InteractionType.MESSAGE_COMPONENT, channel, data,
        extra={"message": payload, "locale": locale}, source_message_id=stored.id,
    )  # fmt: skip


async def stored(world: World, row: GameRow) -> GameRow:
    found = await world.bot.games.get(row.id)
    assert found is not None
    return found


async def test_a_lobby_button_works_only_in_its_own_channel(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new")
    ours = world.channel.last_message
    await world.bob.click(ours, label="Join")
    ours = world.channel.last_message
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    other = world.env.guild.create_text_channel("other")
    await world.carol.slash(other, "catan new")
    theirs = other.last_message
    before = list(other.history())

    # alice hosts the lobby in #games, yet its Cancel clicked in #other does nothing; nor does its Join
    refused = reply(await forge(world, world.alice, other, theirs, custom_id(ours, "Cancel")))
    assert refused.ephemeral and refused.content == ELSEWHERE
    refused = reply(await forge(world, world.carol, other, theirs, custom_id(ours, "Join")))
    assert refused.ephemeral and refused.content == ELSEWHERE
    after = await stored(world, row)
    assert (after.status, after.version, len(after.seats)) == ("lobby", row.version, 2)
    assert list(other.history()) == before and world.channel.last_message.id == ours.id

    # in its own channel the same Join works
    await world.carol.click(ours, label="Join")
    assert len((await stored(world, row)).seats) == 3
    assert not world.env.errors


async def test_a_replay_button_of_another_channels_game_is_refused(world: World) -> None:
    row = await start_carcassonne(world, ["E", "U", "E"])
    for player in (world.alice, world.bob):
        message = await place(world, player)
        if "No follower" in labels(message):
            await player.click(message, label="No follower")
    shown = reply(await world.alice.slash(world.channel, "game replay"))
    first = custom_id(shown, "⏮ First")
    other = world.env.guild.create_text_channel("other")
    said = await world.bob.send(other, "what happened over there?")
    before = await stored(world, row)

    refused = reply(await forge(world, world.bob, other, said, first))
    assert refused.ephemeral and refused.content == ELSEWHERE
    assert (await stored(world, row)).version == before.version

    # in the game's channel the replay moves to the first turn
    await world.alice.click(shown, custom_id=first)
    moved = world.env.backend.get_message(shown.channel_id, shown.id)
    assert re.search(r"· 1/\d+", moved.content)
    assert not world.env.errors


async def test_a_dm_button_counts_only_for_a_player_of_its_game(world: World) -> None:
    row = await start_catan(world, setup="beginner")

    row = await rolled(world, row, alice=[2, 0, 0, 0, 0], bob=[0, 0, 0, 0, 2])
    menu = reply(await world.alice.click(await turn(world), label="Trade"))
    form = await world.alice.click(menu, label="Offer to bob")
    await world.alice.submit_modal(form, {"give": "1 brick", "get": "2 ore"})
    offer = world.bob.user.dm_channel.last_message
    accept = custom_id(offer, "Accept offer 1")
    before = await stored(world, row)

    # dave plays no part in the game: bob's Accept, clicked in dave's own DM, is refused
    dave = world.env.guild.add_member(world.env.create_user("dave"))
    hello = await dave.user.send_dm("hello")
    refused = reply(await forge(world, dave.user, dave.user.dm_channel, hello, accept))
    assert refused.ephemeral and refused.content == NOT_YOURS
    after = await stored(world, row)
    assert after.version == before.version and after.state == before.state

    # bob's own click in his DM goes through
    await world.bob.user.click(offer, label="Accept offer 1")
    assert "bob accepted your offer 1" in world.alice.user.dm_channel.last_message.content
    assert not world.env.errors


async def test_the_refusal_speaks_the_readers_language(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new")
    ours = world.channel.last_message
    other = world.env.guild.create_text_channel("other")
    said = await world.bob.send(other, "hi")
    refused = reply(await forge(world, world.bob, other, said, custom_id(ours, "Join"), locale="zh-TW"))
    assert refused.content == "這個按鈕屬於另一個頻道裡的遊戲，在這裡不起作用。沒有做任何變更。"


async def test_every_button_and_select_is_the_one_control_that_checks_where_it_is_clicked(world: World) -> None:
    """One dynamic item for every button and select of the bot (``bot.core.clicks.Control``): its check of where a
    click counts cannot be forgotten by a new feature, which adds a table, not an item."""
    registered = list(world.bot._connection._view_store._dynamic_items.values())
    assert registered == [Control]
    assert Control.interaction_check is not discord.ui.DynamicItem.interaction_check
    scopes = set(world.bot.tables)
    assert scopes == {"cc", "ct", "lobby", "back", "rp", "mine", "away"}
    personal = {scope for scope, table in world.bot.tables.items() if getattr(table, "personal", False)}
    assert personal == {"mine", "away"}, "only the clicker's own list and time away name no game"


async def test_a_personal_op_counts_anywhere_and_a_games_op_never_without_its_game(world: World) -> None:
    """A personal table's button names no game (game 0): it works in any channel; a game's table refuses game 0."""
    other = world.env.guild.create_text_channel("other")
    said = await world.bob.send(other, "hi")
    listed = reply(await forge(world, world.bob, other, said, "bh:mine:0:0:show"))
    assert listed.ephemeral and listed.embeds and "You are not in any game" in str(listed.embeds[0].description)
    refused = reply(await forge(world, world.bob, other, said, "bh:lobby:0:0:join"))
    assert refused.ephemeral and "out of date" in refused.content

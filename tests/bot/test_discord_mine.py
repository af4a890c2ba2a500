"""``/game mine`` through simulated Discord: every game of yours, in every server and channel, those waiting for you
first (the longest waiting first), then the others' turns, then lobbies; what each waits for, since when, and a link
to its latest turn message; only you see it; and the *My games* button of turn DMs."""

from __future__ import annotations

from typing import Any

from bot.text import t
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_carcassonne import DECK, place, start

HOUR = 3600


def games_in(embed: Any) -> list[str]:
    """The entries of the list, each as its heading and its line."""
    return str(embed.description).split("\n\n")


async def test_every_game_of_yours_is_listed_with_yours_first_and_the_longest_waiting_first(world: World) -> None:
    other = world.env.create_guild(name="Other server")
    elsewhere = other.create_text_channel("elsewhere")
    lobby_channel = world.channel.guild.create_text_channel("lobby")
    bob_there = other.add_member(world.bob.user)
    alice_there = other.add_member(world.alice.user)

    first = await start(world, DECK)  # alice first: waiting for alice
    await world.env.advance_time(HOUR)
    await alice_there.slash(elsewhere, "carcassonne new", river=False)  # in another server
    await bob_there.click(elsewhere.last_message, label=t("lobby.button.join"))
    await alice_there.click(elsewhere.last_message, label=t("lobby.button.start"))
    await world.env.advance_time(HOUR)
    await world.carol.slash(lobby_channel, "catan new")
    await world.bob.click(lobby_channel.last_message, label=t("lobby.button.join"))

    shown = reply(await world.bob.slash(world.channel, "game mine"))
    assert shown.ephemeral
    [embed] = shown.embeds
    entries = games_in(embed)
    second = await world.bot.games.open_in_channel(elsewhere.id)
    assert second is not None
    bob_waits = second.seats[second.options["first_player"]].user_id == world.bob.id
    here = next(e for e in entries if f"<#{world.channel.id}>" in e)
    there = next(e for e in entries if f"<#{elsewhere.id}>" in e)
    assert here.startswith(f"**Carcassonne** in <#{world.channel.id}> on {world.channel.guild.name}")
    assert f"Waiting for alice since <t:{int(first.turn_started_at or 0)}:f>: place the drawn tile." in here
    stored = await world.bot.games.get(first.id)
    assert stored is not None and stored.message_id is not None
    assert f"(https://discord.com/channels/{first.guild_id}/{world.channel.id}/{stored.message_id})" in here
    assert there.startswith(f"**Carcassonne** in <#{elsewhere.id}> on Other server")
    if bob_waits:  # his own turn comes first, whatever the others' waits
        assert entries[0] == there and "Your turn since" in there
        assert embed.title == "Your games: 1 waits for you"
    else:  # the longest waiting first: the game here began an hour before
        assert entries[:2] == [here, there] and embed.title == "Your games"
    assert entries[-1].startswith(f"**Catan** in <#{lobby_channel.id}>")
    assert "Still in the lobby: the host starts it." in entries[-1]

    mine = reply(await world.alice.slash(world.channel, "game mine"))
    alice_entries = games_in(mine.embeds[0])
    assert "Your turn since" in alice_entries[0] and f"<#{world.channel.id}>" in alice_entries[0]
    assert not any(f"<#{lobby_channel.id}>" in e for e in alice_entries), "carol's lobby is not alice's"
    assert not world.env.errors


async def test_a_lobby_you_host_says_you_start_it_and_nobody_else_sees_your_list(world: World) -> None:
    none = reply(await world.carol.slash(world.channel, "game mine"))
    assert none.ephemeral and "You are not in any game right now" in str(none.embeds[0].description)
    await world.alice.slash(world.channel, "carcassonne new")
    shown = reply(await world.alice.slash(world.channel, "game mine"))
    assert "Still in the lobby: start it once everyone has joined." in str(shown.embeds[0].description)


async def test_a_turn_dm_carries_the_my_games_button(world: World) -> None:
    await world.bob.slash(world.channel, "settings notifications", dm_on_turn=True)
    await start(world, DECK)  # alice first
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    [dm] = list(world.bob.user.dm_channel.history())
    assert [c.get("label") for c in flat(dm) if c["type"] == 2] == ["My games"]
    shown = reply(await world.bob.user.click(dm, label="My games"))
    assert shown.ephemeral and "Your turn since" in str(shown.embeds[0].description)
    assert "place the drawn tile" in str(shown.embeds[0].description)
    assert not world.env.errors

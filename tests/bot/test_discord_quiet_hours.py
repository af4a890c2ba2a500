"""Quiet hours through simulated Discord (its clock starts at midnight UTC, 1 January 2026): ``/settings
notifications`` takes a time zone (autocompleted) and quiet hours typed in any script; a ping in someone's quiet
hours comes silently; their turn DM and the idle reminder wait until the hours end; a turn limit's clock stands
still meanwhile."""

from __future__ import annotations

from typing import Any

import discord

from bot.text import t
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_carcassonne import DECK, place, start

HOUR = 3600


async def quiet(person: Any, world: World, hours: str = "23:00-03:00", **more: Any) -> Any:
    """``person`` is in their quiet hours from now (midnight UTC) to three in the morning."""
    return reply(
        await person.slash(world.channel, "settings notifications", time_zone="UTC", quiet_hours=hours, **more)
    )


def dms(person: Any) -> list[Any]:
    return list(person.user.dm_channel.history())


async def test_settings_take_a_time_zone_and_quiet_hours_in_any_script_and_show_them(world: World) -> None:
    offered = await world.bob.autocomplete(world.channel, "settings notifications", "time_zone", "berl")
    assert offered[0]["value"] == "Europe/Berlin"
    offered = await world.bob.autocomplete(world.channel, "settings notifications", "time_zone", "new york")
    assert offered[0]["value"] == "America/New_York"
    hours = await world.bob.autocomplete(world.channel, "settings notifications", "quiet_hours", "23")
    assert hours[0]["value"] == "23:00-07:00" and hours[-1] == {"name": "No quiet hours", "value": "off"}

    refused = reply(await world.bob.slash(world.channel, "settings notifications", quiet_hours="23:00-07:00"))
    assert refused.ephemeral and "give your time zone as well" in refused.content
    refused = reply(await world.bob.slash(world.channel, "settings notifications", time_zone="Mars/Olympus"))
    assert "There is no time zone called “Mars/Olympus”" in refused.content
    refused = reply(
        await world.bob.slash(world.channel, "settings notifications", time_zone="Europe/Berlin", quiet_hours="20-10")
    )
    assert "at most 12 hours a day" in refused.content
    shown = reply(await world.bob.slash(world.channel, "settings notifications"))
    assert "Time zone: not set yet" in shown.content, "a refusal changes nothing, the time zone neither"

    saved = reply(
        await world.bob.slash(
            world.channel, "settings notifications", time_zone="europe/berlin", quiet_hours="２３：００～７：００"
        )
    )
    assert saved.ephemeral
    assert saved.content.splitlines() == [
        "Turn DMs: off.",
        "Time zone: Europe/Berlin (it is 01:00 there now).",
        "Quiet hours: 23:00 to 07:00, your time. Pings then come silently, turn DMs and reminders wait until the "
        "hours end, and no turn limit runs for you.",
    ]
    off = reply(await world.bob.slash(world.channel, "settings notifications", quiet_hours="off", dm_on_turn=True))
    assert off.content.splitlines()[0].startswith("Turn DMs: on.") and "Quiet hours: none." in off.content


async def test_a_ping_in_quiet_hours_comes_silently_and_one_outside_them_as_usual(world: World) -> None:
    await quiet(world.alice, world)
    await start(world, DECK)  # alice first, in her quiet hours
    turn = world.channel.last_message
    assert f"<@{world.alice.id}>, place the drawn tile" in turn.content
    assert turn.flags.suppress_notifications, "alice is asleep: the ping is silent"
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    bobs = world.channel.last_message
    assert f"<@{world.bob.id}>, place the drawn tile" in bobs.content
    assert not bobs.flags.suppress_notifications, "bob set no quiet hours"

    await world.env.advance_time(3 * HOUR)  # alice's quiet hours are over
    message = await place(world, world.bob)
    await world.bob.click(message, label="No follower")
    awake = world.channel.last_message
    assert f"<@{world.alice.id}>" in awake.content and not awake.flags.suppress_notifications
    assert not world.env.errors


def test_of_several_people_pinged_only_the_quiet_are_left_unpinged() -> None:
    from bot.flows.presence import Presence
    from bot.storage.settings import Availability

    sleeper = Availability(1, time_zone="UTC", quiet_from=23 * 60, quiet_to=3 * 60)
    presence = Presence(1767225600.0, {1: sleeper, 2: Availability(2)})  # 2026-01-01 00:00 UTC
    both = discord.AllowedMentions(users=[discord.Object(1), discord.Object(2)])
    kwargs = presence.pings(both)
    assert "silent" not in kwargs and [u.id for u in kwargs["allowed_mentions"].users] == [2]
    alone = presence.pings(discord.AllowedMentions(users=[discord.Object(1)]))
    assert alone["silent"] is True


async def test_a_turn_dm_waits_until_the_quiet_hours_end_and_is_sent_once(world: World) -> None:
    await quiet(world.bob, world, dm_on_turn=True)
    await start(world, DECK)  # alice first
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    assert f"<@{world.bob.id}>" in world.channel.last_message.content
    assert dms(world.bob) == [], "bob is asleep: no DM yet"
    await world.env.advance_time(2 * HOUR)
    assert dms(world.bob) == []
    await world.env.advance_time(1.5 * HOUR)  # three o'clock has passed, and a sweep (every half hour here) ran
    [dm] = dms(world.bob)
    assert "It is your turn in Carcassonne" in dm.content
    assert [c.get("label") for c in flat(dm) if c["type"] == 2] == [t("mine.button")]
    await world.env.advance_time(3 * HOUR)
    assert len(dms(world.bob)) == 1, "sent once"


async def test_a_held_turn_dm_that_discord_fails_stays_held_and_arrives_once_later(world: World) -> None:
    """A 5xx when the quiet hours end loses nothing: the DM stays held, and the next sweep sends it, once."""
    await quiet(world.bob, world, dm_on_turn=True)
    await start(world, DECK)
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    world.env.inject_error("POST", f"/channels/{world.bob.user.dm_channel.id}/messages", status=503, times=None)
    await world.env.advance_time(3.5 * HOUR)  # the hours have ended, and the sweep tried: Discord is down
    assert dms(world.bob) == []
    assert len(await world.bot.people.held_due()) == 1, "still held: nothing lost"
    world.env.backend.faults.clear()
    await world.env.advance_time(HOUR)
    [dm] = dms(world.bob)
    assert "It is your turn in Carcassonne" in dm.content
    assert await world.bot.people.held_due() == []
    await world.env.advance_time(3 * HOUR)
    assert len(dms(world.bob)) == 1, "sent once"


async def test_a_held_turn_dm_is_dropped_when_the_turn_has_moved_on(world: World) -> None:
    await quiet(world.bob, world, dm_on_turn=True)
    row = await start(world, DECK)
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    await world.bot.play.timeout(row.id, None)  # bob's turn ends before his quiet hours do
    await world.env.advance_time(4 * HOUR)
    assert dms(world.bob) == []


async def test_the_idle_reminder_waits_for_the_end_of_the_quiet_hours(world: World) -> None:
    await start(world, DECK)  # alice first, awake
    await quiet(world.alice, world, "11:00-16:00")
    await world.env.advance_time(12.2 * HOUR)  # the first reminder is due at 12 hours: she is asleep
    assert "waiting for you" not in world.channel.last_message.content
    await world.env.advance_time(4 * HOUR)  # 16:12
    reminder = world.channel.last_message
    assert f"<@{world.alice.id}>, Carcassonne is waiting for you (idle for 16 hours)." in reminder.content
    assert not reminder.flags.suppress_notifications


async def test_a_turn_limit_does_not_run_in_the_quiet_hours_of_the_player_it_waits_for(world: World) -> None:
    await quiet(world.alice, world)  # midnight to three
    await world.alice.slash(world.channel, "carcassonne new", river=False, turn_limit=2)
    await world.bob.click(world.channel.last_message, label="Join")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0})
    outcome = await world.bot.lobby.start(row.id, row.version, world.alice.id)
    await world.bot.outbox.deliver(outcome)
    turn = world.channel.last_message
    await world.env.advance_time(4.5 * HOUR)  # 04:30: one hour and a half of her clock has run
    assert world.channel.last_message.id == turn.id, "her quiet hours did not count"
    await world.env.advance_time(HOUR)  # 05:30: past two hours awake, and a sweep has run
    assert "alice ran out of time" in world.channel.last_message.content
    rules = reply(await world.bob.slash(world.channel, "game rules"))
    assert "Turn limit: 2 hours for each wait. Its clock stands still while the player the game waits for is in" in (
        rules.content
    )
    assert not world.env.errors

"""Time away through simulated Discord (its clock starts at midnight UTC, 1 January 2026): ``/settings away
until:<date>``; the others see it in the turn message and ``/game status``; the turn limit waits for the away
player, or, where the host chose ``away:computer`` in the lobby, a computer plays for them at once; back early with
one click, or on the day they gave."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.app import BoardHost
from bot.core.config import Config
from bot.storage import GameRow
from bot.text import t
from tests.bot.conftest import World, flat, reply
from tests.bot.test_discord_carcassonne import DECK, labels, place

HOUR = 3600
DAY = 24 * HOUR
BACK = "<t:1767484800:f>"  # 2026-01-04 00:00 UTC


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BoardHost:
    """Computers move without a pause; sweeps every half hour of simulated time."""
    config = Config(database=tmp_path / "bot.sqlite3", reminder_check=1800, computer_pause=0, render_processes=0)
    return BoardHost(config, rng=random.Random(1))


async def away(person: Any, world: World, until: str = "2026-01-04") -> Any:
    return reply(await person.slash(world.channel, "settings away", until=until))


async def started(world: World, **options: Any) -> GameRow:
    """alice (hosting, first) and bob at a Carcassonne table with ``options``."""
    await world.alice.slash(world.channel, "carcassonne new", river=False, **options)
    await world.bob.click(world.channel.last_message, label="Join")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0, "deck": DECK})
    outcome = await world.bot.lobby.start(row.id, row.version, world.alice.id)
    await world.bot.outbox.deliver(outcome)
    return outcome.row


async def test_away_until_a_day_is_offered_checked_and_answered_with_the_back_button(world: World) -> None:
    days = await world.bob.autocomplete(world.channel, "settings away", "until", "")
    assert days[0] == {"name": "2026-01-02 · Friday, January 2, 2026", "value": "2026-01-02"}
    typed = await world.bob.autocomplete(world.channel, "settings away", "until", "2.2.2026")
    assert typed[0]["value"] == "2026-02-02"
    for day, why in (
        ("2026-01-01", "already begun"),
        ("2026-06-01", "at most 90 days"),
        ("next week", "as a date"),
    ):
        refused = await away(world.bob, world, day)
        assert refused.ephemeral and why in refused.content, refused.content
    shown = await away(world.bob, world, "２０２６年１月４日")
    assert shown.ephemeral and shown.content.startswith(f"You are away until {BACK} (midnight UTC")
    assert labels(shown) == ["I'm back"]
    settings = reply(await world.bob.slash(world.channel, "settings notifications"))
    assert f"You are away until {BACK}." in settings.content
    mine = reply(await world.bob.slash(world.channel, "game mine"))
    assert f"💤 You are away until {BACK}." in str(mine.embeds[0].description) and labels(mine) == ["I'm back"]


async def test_the_others_see_it_and_the_turn_limit_waits_for_the_away_player(world: World) -> None:
    await away(world.bob, world)
    row = await started(world, turn_limit=2)
    first = world.channel.last_message
    note = f"💤 bob is away until {BACK}: the game waits, and no turn limit runs meanwhile."
    assert note in first.content
    status = reply(await world.alice.slash(world.channel, "game status"))
    assert note in str(status.embeds[0].description)
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    bobs = world.channel.last_message
    assert f"<@{world.bob.id}>, place the drawn tile" in bobs.content
    await world.env.advance_time(DAY)
    assert world.channel.last_message.id == bobs.id, "a day later: the limit waits for bob, no reminder pings him"

    welcome = reply(await world.bob.click(await away(world.bob, world), label="I'm back"))
    assert welcome.ephemeral and welcome.content.startswith("Welcome back!")
    await world.env.advance_time(1.5 * HOUR)
    assert world.channel.last_message.id == bobs.id, "his clock runs again from his return"
    await world.env.advance_time(HOUR)
    assert "bob ran out of time" in world.channel.last_message.content
    again = reply(await world.bob.slash(world.channel, "settings notifications"))
    assert "away" not in again.content
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.away_rule == "wait"
    assert not world.env.errors


async def test_with_the_computer_rule_a_computer_plays_for_the_away_player_until_they_are_back(world: World) -> None:
    await world.alice.slash(world.channel, "carcassonne new", river=False, away="computer")
    lobby = world.channel.last_message
    assert any(f.name == "Players away" for f in lobby.embeds[0].fields)
    await world.bob.click(lobby, label="Join")
    await world.bob.slash(world.channel, "settings away", until="2026-01-04")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.away_rule == "computer"
    row = await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0, "deck": DECK})
    await world.bot.outbox.deliver(await world.bot.lobby.start(row.id, row.version, world.alice.id))

    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    told = "\n".join(m.content or "" for m in world.channel.history())
    notice = next(m for m in world.channel.history() if "is away until" in (m.content or "") and m.components)
    assert f"bob is away until {BACK}, so a computer player" in notice.content
    assert f"<@{world.bob.id}>" not in notice.content, "someone away is not pinged"
    assert labels(notice) == ["I'm back"]
    assert "bob placed a tile" in told, "the computer played bob's turn at once"
    assert f"<@{world.alice.id}>, place the drawn tile" in world.channel.last_message.content
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.away_seats == [1] and stored.stand_ins == [1]

    welcome = reply(await world.bob.click(notice, label="I'm back"))
    assert welcome.content.startswith("Welcome back!")
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.away_seats == [] and stored.stand_ins == []
    assert "bob is back and plays again." in world.channel.last_message.content
    again = reply(await world.bob.click(notice, label="I'm back"))
    assert again.content == t("away.not_away")
    assert not world.env.errors


async def test_the_computer_hands_the_seat_back_on_the_day_given(world: World) -> None:
    await away(world.bob, world, "2026-01-02")
    row = await started(world, away="computer")
    message = await place(world, world.alice)
    await world.alice.click(message, label="No follower")
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.away_seats == [1]
    await world.env.advance_time(DAY + HOUR)  # the day has come, and a sweep has run
    stored = await world.bot.games.get(row.id)
    assert stored is not None and stored.away_seats == [] and stored.stand_ins == []
    assert "bob is back and plays again." in "\n".join(m.content or "" for m in world.channel.history())
    buttons = [c for c in flat(world.channel.last_message) if c["type"] in (2, 3)]
    assert buttons, "the turn goes on"
    assert not world.env.errors

"""Idle-turn reminders come from the database: they survive a restart and stop once the turn moves on."""

from __future__ import annotations

import random

from bot.flows.reminders import due, mark_sent
from bot.host import Services
from bot.storage import Games, Seat, UserSettings
from bot.storage.opening import open_database
from tests.bot.conftest import Target

HOUR = 3600
DELAYS = (12 * HOUR, 24 * HOUR)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_reminders_follow_the_configured_delays_and_survive_a_restart(database_url: Target) -> None:
    clock = Clock()
    db = await open_database(database_url)
    service = Services.over(Games(db, clock), random.Random(1))
    row = await service.lobby.open_lobby(guild_id=1, channel_id=2, game="carcassonne", host=Seat(1, "A"), options={})
    await service.lobby.join(row.id, None, Seat(2, "B"))
    await service.lobby.start(row.id, None, 1)
    clock.now += 11 * HOUR
    assert due(await service.rows.games.with_status("active"), clock.now, DELAYS) == []
    clock.now += 2 * HOUR
    [first] = due(await service.rows.games.with_status("active"), clock.now, DELAYS)
    assert first.nth == 1
    assert await mark_sent(service.rows.games, first)
    assert due(await service.rows.games.with_status("active"), clock.now, DELAYS) == []
    await db.close()

    db = await open_database(database_url)  # a restart: everything is read back from the file
    games = Games(db, clock)
    assert due(await games.with_status("active"), clock.now, DELAYS) == []
    clock.now += 12 * HOUR
    [second] = due(await games.with_status("active"), clock.now, DELAYS)
    assert second.nth == 2 and second.idle >= 24 * HOUR
    assert await mark_sent(games, second)
    clock.now += 100 * HOUR
    assert due(await games.with_status("active"), clock.now, DELAYS) == []
    await db.close()


async def test_a_move_resets_the_wait_and_voids_a_reminder_in_flight(database_url: Target) -> None:
    clock = Clock()
    db = await open_database(database_url)
    service = Services.over(Games(db, clock), random.Random(1))
    row = await service.lobby.open_lobby(
        guild_id=1, channel_id=2, game="carcassonne", host=Seat(1, "A"), options={"first_player": 0}
    )
    await service.lobby.join(row.id, None, Seat(2, "B"))
    outcome = await service.lobby.start(row.id, None, 1)
    clock.now += 13 * HOUR
    [pending] = due(await service.rows.games.with_status("active"), clock.now, DELAYS)
    assert outcome.game is not None
    action = outcome.game.legal_actions(0)[0]
    await service.play.act(row.id, None, 1, {k: v for k, v in action.items() if k != "player"})
    await service.play.act(row.id, None, 1, {"type": "pass"})  # Bob's turn now: a new wait
    assert not await mark_sent(service.rows.games, pending), "the turn moved on; the old reminder is dropped"
    assert due(await service.rows.games.with_status("active"), clock.now, DELAYS) == []
    clock.now += 12 * HOUR
    [fresh] = due(await service.rows.games.with_status("active"), clock.now, DELAYS)
    assert fresh.nth == 1
    await db.close()


async def test_the_turn_dm_setting_is_stored_per_user(database_url: Target) -> None:
    db = await open_database(database_url)
    settings = UserSettings(db)
    assert not await settings.dm_on_turn(5)
    await settings.set_dm_on_turn(5, True)
    assert await settings.dm_on_turn(5)
    await settings.set_dm_on_turn(5, False)
    assert not await settings.dm_on_turn(5)
    await db.close()

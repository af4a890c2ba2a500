"""The host's side of quiet hours and time away, on both backends: the turn limit's clock, time away kept across a
renewal and ended early, computers standing in for the away and handing back, turn DMs held for quiet hours."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.host import Services
from bot.storage import Games, Seat
from bot.storage.held import Held
from bot.storage.opening import open_database
from tests.bot.conftest import Target, code

ALICE, BOB = Seat(1, "Alice"), Seat(2, "Bob")
HOUR = 3600.0
MIDNIGHT = 1767225600.0  # 2026-01-01 00:00 UTC


class Clock:
    def __init__(self) -> None:
        self.now = MIDNIGHT

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def clocked(database_url: Target) -> AsyncIterator[tuple[Services, Clock]]:
    db = await open_database(database_url)
    clock = Clock()
    yield Services.over(Games(db, clock=clock), random.Random(1)), clock
    await db.close()


async def two_player_game(service: Services, **lobby: object) -> int:
    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={"first_player": 0}, **lobby
    )
    await service.lobby.join(row.id, None, BOB)
    return (await service.lobby.start(row.id, None, ALICE.user_id)).row.id


async def test_the_turn_limits_clock_stands_still_in_quiet_hours_and_away(
    clocked: tuple[Services, Clock],
) -> None:
    service, clock = clocked
    game_id = await two_player_game(service, turn_limit=2 * 3600)  # alice's turn from midnight
    await service.people.set_time_zone(ALICE.user_id, "UTC")
    await service.people.set_quiet(ALICE.user_id, 0, 3 * 60)  # midnight to three
    assert await service.people.overdue(MIDNIGHT + 4.5 * HOUR) == [], "asleep until three: 1.5 hours of her clock ran"
    assert [r.id for r in await service.people.overdue(MIDNIGHT + 5 * HOUR)] == [game_id]

    clock.now = MIDNIGHT + 4 * HOUR
    await service.people.go_away(ALICE.user_id, MIDNIGHT + 48 * HOUR)
    assert await service.people.overdue(MIDNIGHT + 40 * HOUR) == [], "away since four: one hour ran"
    clock.now = MIDNIGHT + 6 * HOUR
    await service.people.go_away(ALICE.user_id, MIDNIGHT + 72 * HOUR)  # longer: still away since four
    assert (await service.people.availability([ALICE.user_id]))[ALICE.user_id].away_since == MIDNIGHT + 4 * HOUR
    clock.now = MIDNIGHT + 10 * HOUR
    assert await service.people.end_away(ALICE.user_id) and not await service.people.end_away(ALICE.user_id)
    assert await service.people.overdue(MIDNIGHT + 10.5 * HOUR) == []
    assert [r.id for r in await service.people.overdue(MIDNIGHT + 11 * HOUR)] == [game_id], "back at ten: two hours ran"


async def test_a_computer_stands_in_for_the_away_only_where_the_host_chose_it(
    clocked: tuple[Services, Clock],
) -> None:
    service, _ = clocked
    waiting = await two_player_game(service)
    refused = service.stand_ins.stand_in_while_away(waiting, None, {0: MIDNIGHT + HOUR})
    assert await code(refused) == "nothing_to_take_over"
    await service.play.abandon(waiting, None, ALICE.user_id, can_manage=True)
    game_id = await two_player_game(service, away_rule="computer")
    refused = service.stand_ins.stand_in_while_away(game_id, None, {1: MIDNIGHT + HOUR})
    assert await code(refused) == "nothing_to_take_over"
    outcome = await service.stand_ins.stand_in_while_away(game_id, None, {0: MIDNIGHT + HOUR})
    assert outcome.kind == "takeover" and outcome.events == [{"type": "away", "player": 0, "until": MIDNIGHT + HOUR}]
    assert outcome.row.stand_ins == [0] and outcome.row.away_seats == [0]
    assert await service.stand_ins.back_from_away(game_id, BOB.user_id) is None
    back = await service.stand_ins.back_from_away(game_id, ALICE.user_id)
    assert back is not None and back.events == [{"type": "returned", "player": 0}]
    assert back.row.stand_ins == [] and back.row.away_seats == []


async def test_a_held_turn_dm_is_due_when_the_quiet_hours_end_and_taken_once(
    clocked: tuple[Services, Clock],
) -> None:
    service, clock = clocked
    game_id = await two_player_game(service)
    await service.people.hold_dm(Held(BOB.user_id, game_id, 1, MIDNIGHT + 3 * HOUR))
    await service.people.hold_dm(Held(BOB.user_id, game_id, 2, MIDNIGHT + 3 * HOUR))  # a newer turn: the one kept
    assert await service.people.held_due() == []
    clock.now = MIDNIGHT + 3 * HOUR
    [held] = await service.people.held_due()
    assert held.version == 2
    assert await service.people.take_held(held) and not await service.people.take_held(held)
    assert await service.people.held_due() == []

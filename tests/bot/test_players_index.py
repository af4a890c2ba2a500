"""The players index behind ``/game mine``: each person's open games without reading every game, kept in step with
the seats by the same write that changes them, and filled from the seats of the games stored before it existed."""

from __future__ import annotations

import json

import pytest

from bot.host import Services
from bot.storage import Games, Seat
from bot.storage import migrations as schema
from bot.storage.opening import open_database
from tests.bot.conftest import Target

ALICE, BOB, CAROL = Seat(1, "Alice"), Seat(2, "Bob"), Seat(3, "Carol")


async def indexed(service: Services, game_id: int) -> set[int]:
    rows = await service.rows.games.db.fetchall("SELECT user_id FROM players WHERE game_id = ?", (game_id,))
    return {int(r[0]) for r in rows}


async def test_the_index_follows_every_change_of_the_seats(service: Services) -> None:
    row = await service.lobby.open_lobby(guild_id=9, channel_id=100, game="catan", host=ALICE, options={})
    assert await indexed(service, row.id) == {ALICE.user_id}
    row = await service.lobby.join(row.id, None, BOB)
    row = await service.lobby.join(row.id, None, CAROL)
    row = await service.lobby.add_computer(row.id, None, ALICE.user_id, "random", lambda n: f"Computer {n}")
    assert await indexed(service, row.id) == {1, 2, 3}, "a computer seat is nobody"
    row = await service.lobby.leave_lobby(row.id, None, CAROL.user_id)
    assert await indexed(service, row.id) == {1, 2}
    await service.lobby.start(row.id, None, ALICE.user_id)
    assert [r.id for r in await service.rows.open_of(BOB.user_id)] == [row.id]
    assert await service.rows.open_of(CAROL.user_id) == []


async def test_a_persons_open_games_are_their_lobbies_and_running_games_only(service: Services) -> None:
    running = await service.lobby.open_lobby(guild_id=9, channel_id=1, game="carcassonne", host=ALICE, options={})
    await service.lobby.join(running.id, None, BOB)
    await service.lobby.start(running.id, None, ALICE.user_id)
    lobby = await service.lobby.open_lobby(guild_id=9, channel_id=2, game="catan", host=BOB, options={})
    await service.lobby.join(lobby.id, None, ALICE)
    ended = await service.lobby.open_lobby(guild_id=9, channel_id=3, game="catan", host=ALICE, options={})
    await service.play.abandon(ended.id, None, ALICE.user_id, can_manage=False)
    others = await service.lobby.open_lobby(guild_id=9, channel_id=4, game="catan", host=CAROL, options={})
    assert [r.id for r in await service.rows.open_of(ALICE.user_id)] == [running.id, lobby.id]
    assert [r.id for r in await service.rows.open_of(CAROL.user_id)] == [others.id]


async def test_the_index_is_filled_from_the_games_stored_before_it(
    database_url: Target, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schema, "SQLITE", schema.SQLITE[:6])
    monkeypatch.setattr(schema, "POSTGRES", schema.POSTGRES[:6])
    old = await open_database(database_url)
    seats = [ALICE.to_json(), Seat(-1, "Computer 1", "random").to_json(), CAROL.to_json()]
    for channel, status in ((1, "active"), (2, "finished")):
        await old.execute(
            """INSERT INTO games (channel_id, game, status, host_id, seed, seats, created_at, updated_at)
               VALUES (?, 'catan', ?, 1, 5, ?, 0, 0)""",
            (channel, status, json.dumps(seats)),
        )
    await old.close()
    monkeypatch.undo()
    db = await open_database(database_url)
    rows = await db.fetchall("SELECT user_id, game_id FROM players ORDER BY game_id, user_id")
    assert [(int(r[0]), int(r[1])) for r in rows] == [(1, 1), (3, 1), (1, 2), (3, 2)]
    assert [r.id for r in await Games(db).open_of(CAROL.user_id)] == [1]
    row = await Games(db).get(1)
    assert row is not None and row.away_rule == "wait" and row.away_seats == []
    await db.close()

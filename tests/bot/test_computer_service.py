"""Computer players at the game host, without Discord: seats, numbering, stand-ins, durable storage, and
reproducible decisions."""

from __future__ import annotations

import pytest

from bot.host import Services
from bot.host.computer_seats import choose, controllers
from bot.storage import Games, Seat
from bot.storage.opening import open_database
from engine.ai import strongest
from tests.bot.conftest import Target, code

ALICE, BOB = Seat(1, "Alice"), Seat(2, "Bob")


def named(number: int) -> str:
    return f"Computer {number}"


async def test_computer_seats_are_numbered_and_stored(service: Services, database_url: Target) -> None:
    row = await service.lobby.open_lobby(guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={})
    assert await code(service.lobby.add_computer(row.id, None, BOB.user_id, "random", named)) == "host_only"
    assert await code(service.lobby.remove_computer(row.id, None, ALICE.user_id)) == "no_computer"
    await service.lobby.add_computer(row.id, None, ALICE.user_id, "random", named)
    await service.lobby.join(row.id, None, BOB)
    row = await service.lobby.add_computer(row.id, None, ALICE.user_id, "random", named)
    assert [(s.user_id, s.name, s.level) for s in row.seats] == [
        (1, "Alice", None),
        (-1, "Computer 1", "random"),
        (2, "Bob", None),
        (-2, "Computer 2", "random"),
    ]
    assert row.seat_of(-1) == 1 and row.computer_seats() == [1, 3] and row.people() == [0, 2]
    row = await service.lobby.remove_computer(row.id, None, ALICE.user_id)
    assert [s.name for s in row.seats] == ["Alice", "Computer 1", "Bob"]
    row = await service.lobby.add_computer(row.id, None, ALICE.user_id, "random", named)
    assert row.seats[-1] == Seat(-2, "Computer 2", "random"), "the lowest free number"
    genius = service.lobby.add_computer(row.id, None, ALICE.user_id, "genius", named)
    assert await code(genius) == "computer_unavailable"

    reopened = Games(await open_database(database_url))  # durable: read back by a new connection
    again = await reopened.get(row.id)
    assert again is not None and again.seats == row.seats
    await reopened.db.close()


async def test_a_stand_in_ends_when_the_person_moves_again(service: Services) -> None:
    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={"river": False}, turn_limit=3600,
        takeover=True,
    )  # fmt: skip
    assert row.takeover and row.stand_in_level == strongest("carcassonne"), "the default: the strongest level"
    await service.lobby.join(row.id, None, BOB)
    row = (await service.lobby.start(row.id, None, ALICE.user_id)).row
    game = service.rows.game(row)
    idle = game.actors()[0]
    assert await service.stand_ins.computer_move(row.id) is None, "nobody owes a decision to a computer yet"
    taken = await service.stand_ins.take_over(row.id, row.version)
    assert taken.events == [{"type": "taken_over", "player": idle}]
    assert taken.row.stand_ins == [idle] and controllers(taken.row) == {idle: strongest("carcassonne")}
    assert await code(service.stand_ins.take_over(row.id, taken.row.version)) == "nothing_to_take_over"

    person = taken.row.seats[idle].user_id
    action = game.legal_actions(idle)[0]
    moved = await service.play.act(row.id, taken.row.version, person, action)
    assert moved.events[0] == {"type": "returned", "player": idle}
    assert moved.row.stand_ins == []
    assert await code(service.stand_ins.come_back(row.id, person)) == "not_stood_in"


async def test_a_computer_decision_is_reproducible_from_the_seed_and_the_log(service: Services) -> None:
    row = await service.lobby.open_lobby(guild_id=9, channel_id=100, game="catan", host=ALICE, options={})
    for _ in range(2):
        row = await service.lobby.add_computer(row.id, None, ALICE.user_id, "random", named)
    row = await service.rows.games.update(row.id, row.version, options={**row.options, "first_player": 1})
    row = (await service.lobby.start(row.id, None, ALICE.user_id)).row
    game = service.rows.game(row)
    expected = choose(game, 1, "random", row.seed, 0)
    assert choose(game, 1, "random", row.seed, 0) == expected
    outcome = await service.stand_ins.computer_move(row.id)
    assert outcome is not None and outcome.actions[0] == {**expected, "player": 1}
    users = await service.rows.games.db.fetchall("SELECT user_id FROM actions WHERE game_id = ?", (row.id,))
    assert [u[0] for u in users] == [None]


async def test_a_person_moving_first_makes_the_computer_move_stale(
    service: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio
    import threading

    import bot.host.stand_ins as host

    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={"river": False}, turn_limit=3600,
        takeover=True, stand_in_level="standard",  # decided in a thread of this process, where ``slow`` waits
    )  # fmt: skip
    await service.lobby.join(row.id, None, BOB)
    row = (await service.lobby.start(row.id, None, ALICE.user_id)).row
    seat = service.rows.game(row).actors()[0]
    row = (await service.stand_ins.take_over(row.id, row.version)).row
    thinking, done = threading.Event(), threading.Event()

    def slow(*args: object) -> dict[str, object]:
        thinking.set()
        done.wait(5)
        return choose(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(host, "choose", slow)
    computer = asyncio.create_task(service.stand_ins.computer_move(row.id))
    await asyncio.wait_for(asyncio.to_thread(thinking.wait), 10)
    game = service.rows.game(row)
    moved = await service.play.act(row.id, row.version, row.seats[seat].user_id, game.legal_actions(seat)[0])
    done.set()
    assert await code(computer) == "stale"
    log = await service.rows.games.actions(row.id)
    assert len(log) == len(moved.actions), "only the person's move was stored"


async def test_a_database_from_before_computer_players_is_migrated(
    database_url: Target, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.storage import migrations

    monkeypatch.setattr(migrations, "SQLITE", migrations.SQLITE[:1])
    monkeypatch.setattr(migrations, "POSTGRES", migrations.POSTGRES[:1])
    path = database_url
    old = await open_database(path)
    await old.execute(
        """INSERT INTO games (channel_id, game, status, host_id, seed, seats, created_at, updated_at)
           VALUES (1, 'catan', 'lobby', 1, 5, '[{"user_id": 1, "name": "A"}]', 0, 0)"""
    )
    await old.close()
    monkeypatch.undo()
    db = await open_database(path)
    assert await db.schema_version() == db.known_version() > 1
    row = await Games(db).get(1)
    assert row is not None and not row.takeover and row.stand_ins == [] and row.seats == [Seat(1, "A")]
    await db.close()


async def test_the_hosts_stand_in_level_plays_for_the_timed_out_and_the_away(
    service: Services, database_url: Target
) -> None:
    assert (
        await code(
            service.lobby.open_lobby(
                guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={}, stand_in_level="genius"
            )
        )
        == "computer_unavailable"
    )
    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game="carcassonne", host=ALICE, options={"river": False, "first_player": 0},
        turn_limit=3600, takeover=True, away_rule="computer", stand_in_level="random",
    )  # fmt: skip
    reopened = Games(await open_database(database_url))  # stored with the game
    stored = await reopened.get(row.id)
    await reopened.db.close()
    assert stored is not None and stored.stand_in_level == "random"
    await service.lobby.join(row.id, None, BOB)
    row = (await service.lobby.start(row.id, None, ALICE.user_id)).row
    taken = await service.stand_ins.take_over(row.id, row.version)  # alice ran out of time
    assert controllers(taken.row) == {0: "random"}
    while (moved := await service.stand_ins.computer_move(row.id)) is not None:  # alice's turn, played at random
        assert moved.row.stand_ins == [0]
    away = await service.stand_ins.stand_in_while_away(row.id, None, {1: service.rows.clock() + 3600})  # bob goes away
    assert controllers(away.row) == {0: "random", 1: "random"}

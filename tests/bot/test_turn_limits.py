"""Turn limits in the game host: an idle seat's decisions are made for it, logged without a user, replayable."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.host import HostError, Services
from bot.host.rebuild import load, rebuild
from bot.storage import Games, Seat
from bot.storage.opening import open_database
from tests.bot.conftest import Target

ALICE, BOB, CAROL = Seat(1, "Alice"), Seat(2, "Bob"), Seat(3, "Carol")
HOUR = 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(database_url: Target, clock: Clock) -> AsyncIterator[Services]:
    db = await open_database(database_url)
    yield Services.over(Games(db, clock), random.Random(1))
    await db.close()


async def start(service: Services, game: str, seats: list[Seat], limit: int | None, **options: object) -> int:
    row = await service.lobby.open_lobby(
        guild_id=9, channel_id=100, game=game, host=seats[0], options=options, turn_limit=limit
    )
    for seat in seats[1:]:
        await service.lobby.join(row.id, None, seat)
    await service.lobby.start(row.id, None, seats[0].user_id)
    return row.id


async def logged_users(service: Services, game_id: int) -> list[int | None]:
    db = service.rows.games.db
    rows = await db.fetchall("SELECT user_id FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
    return [r[0] for r in rows]


async def test_an_idle_carcassonne_turn_is_placed_and_passed_for_the_player(service: Services, clock: Clock) -> None:
    game_id = await start(service, "carcassonne", [ALICE, BOB], 2 * HOUR, river=False, deck=["S", "U", "E"],
                          first_player=0)  # fmt: skip
    clock.now += 2 * HOUR - 1
    assert await service.rows.games.overdue(clock.now) == []
    clock.now += 1
    [row] = await service.rows.games.overdue(clock.now)
    assert row.id == game_id and row.turn_limit == 2 * HOUR
    assert (await code(service.play.timeout(game_id, row.version - 1))) == "stale"

    outcome = await service.play.timeout(game_id, row.version)
    assert outcome.events[0] == {"type": "timed_out", "player": 0}
    assert outcome.actions == [
        {"player": 0, "type": "place", "tile": "S", "x": 0, "y": -1, "rotation": 90},
        {"player": 0, "type": "pass"},
    ]
    assert outcome.before == [0] and outcome.game is not None and outcome.game.actors() == [1]
    assert outcome.row.turn_started_at == clock.now and outcome.row.version == row.version + 1
    assert await logged_users(service, game_id) == [None, None]
    assert rebuild(outcome.row, await service.rows.games.actions(game_id)).to_json() == load(outcome.row).to_json()
    assert await service.rows.games.overdue(clock.now) == [], "Bob's wait has just begun"
    assert (await code(service.play.timeout(game_id, row.version))) == "stale", "a second sweep with the old version"


async def test_a_move_in_time_resets_the_wait(service: Services, clock: Clock) -> None:
    game_id = await start(service, "carcassonne", [ALICE, BOB], HOUR, river=False, first_player=0)
    clock.now += HOUR / 2
    row = await service.rows.row(game_id)
    action = service.rows.game(row).timeout_action(0)
    await service.play.act(game_id, row.version, ALICE.user_id, {**action, "player": None})
    moved = await service.play.act(game_id, None, ALICE.user_id, {"type": "pass"})
    clock.now += HOUR * 3 / 4
    assert await service.rows.games.overdue(clock.now) == [], "Bob has waited only 45 minutes"
    assert (await code(service.play.timeout(game_id, row.version))) == "stale"
    clock.now += HOUR / 4
    [due] = await service.rows.games.overdue(clock.now)
    assert due.version == moved.row.version


async def test_games_without_a_limit_never_time_out(service: Services, clock: Clock) -> None:
    await start(service, "carcassonne", [ALICE, BOB], None)
    clock.now += 1000 * HOUR
    assert await service.rows.games.overdue(clock.now) == []


async def test_a_catan_game_moved_only_by_timeouts_goes_on_and_replays_from_its_log(
    service: Services, clock: Clock
) -> None:
    game_id = await start(service, "catan", [ALICE, BOB, CAROL], HOUR, first_player=0)
    kinds: set[str] = set()
    seen_timed_out: set[int] = set()
    for _ in range(80):
        clock.now += HOUR
        [row] = await service.rows.games.overdue(clock.now)
        outcome = await service.play.timeout(game_id, row.version)
        assert outcome.game is not None
        kinds |= {a["type"] for a in outcome.actions}
        timed_out = [e["player"] for e in outcome.events if e["type"] == "timed_out"]
        assert timed_out and timed_out == [e["player"] for e in outcome.events[: len(timed_out)]]
        assert set(timed_out) <= set(outcome.before)
        seen_timed_out |= set(timed_out)
        # Moves stop once someone else owes a decision too (a seven's discards) or a new turn begins.
        waiting_on_others = not set(outcome.game.actors()) <= set(outcome.before)
        assert waiting_on_others or outcome.game.result()["turn"] != load(row).result()["turn"]
    row = await service.rows.row(game_id)
    assert {"settlement", "road", "roll", "end_turn", "discard", "robber"} <= kinds
    assert seen_timed_out == {0, 1, 2}
    assert set(await logged_users(service, game_id)) == {None}
    replayed = rebuild(row, await service.rows.games.actions(game_id)).to_json()
    stored = load(row).to_json()
    # A recorded roll or theft still uses up its draws, so the replay equals the stored game, generator included.
    assert replayed == stored


async def code(awaitable: object) -> str:
    try:
        await awaitable  # type: ignore[misc]
    except HostError as err:
        return err.key
    raise AssertionError("not refused")

"""The game host without Discord: lobbies, turns, stale clicks, undo, a whole game, export."""

from __future__ import annotations

import asyncio
import random

from bot.host import HostError, Services
from bot.host.rebuild import load, rebuild
from bot.storage import Games, Seat
from bot.storage.opening import open_database
from engine.catan import road_spots
from tests.bot.conftest import Target, code

ALICE, BOB, CAROL = Seat(1, "Alice"), Seat(2, "Bob"), Seat(3, "Carol")


async def lobby(service: Services, game: str = "carcassonne", **options: object) -> int:
    row = await service.lobby.open_lobby(guild_id=9, channel_id=100, game=game, host=ALICE, options=options)
    return row.id


async def test_lobby_edge_cases(service: Services) -> None:
    game_id = await lobby(service)
    assert await code(service.lobby.open_lobby(guild_id=9, channel_id=100, game="catan", host=BOB, options={})) == (
        "channel_busy"
    )
    assert await code(service.lobby.join(game_id, None, ALICE)) == "already_joined"
    assert await code(service.lobby.start(game_id, None, ALICE.user_id)) == "player_count"
    row = await service.lobby.join(game_id, None, BOB)
    assert await code(service.lobby.join(game_id, row.version - 1, CAROL)) == "stale"
    assert await code(service.lobby.start(game_id, None, BOB.user_id)) == "host_only"
    assert await code(service.lobby.leave_lobby(game_id, None, ALICE.user_id)) == "host_cannot_leave"
    assert await code(service.lobby.leave_lobby(game_id, None, CAROL.user_id)) == "not_seated"
    assert await code(service.lobby.cancel(game_id, None, BOB.user_id)) == "host_only"
    for user in range(10, 14):
        await service.lobby.join(game_id, None, Seat(user, f"U{user}"))
    assert await code(service.lobby.join(game_id, None, Seat(99, "late"))) == "lobby_full"
    assert (await service.lobby.cancel(game_id, None, ALICE.user_id)).status == "abandoned"
    assert await code(service.lobby.join(game_id, None, CAROL)) == "not_a_lobby"


async def test_bad_options_are_refused_when_the_lobby_opens(service: Services) -> None:
    assert await code(lobby(service, farm_scoring="sometimes")) == "bad_options"


async def test_start_draws_and_records_the_first_player(service: Services) -> None:
    game_id = await lobby(service, tower=True)
    await service.lobby.join(game_id, None, BOB)
    outcome = await service.lobby.start(game_id, None, ALICE.user_id)
    assert outcome.row.status == "active"
    assert outcome.row.options["first_player"] in (0, 1)
    assert outcome.game is not None and outcome.game.actors() == [outcome.row.options["first_player"]]


async def started(service: Services) -> tuple[int, int]:
    game_id = await lobby(service, river=False, deck=["U", "V", "E", "B", "A"], first_player=0)
    await service.lobby.join(game_id, None, BOB)
    outcome = await service.lobby.start(game_id, None, ALICE.user_id)
    return game_id, outcome.row.version


async def test_only_the_seated_player_whose_turn_it_is_acts(service: Services) -> None:
    game_id, version = await started(service)
    place = {"type": "place", "x": 1, "y": 0, "rotation": 0}
    assert await code(service.play.act(game_id, version, CAROL.user_id, place)) == "not_seated"
    assert await code(service.play.act(game_id, version, BOB.user_id, place)) == "not_your_turn"
    assert await code(service.play.act(game_id, version, ALICE.user_id, {**place, "x": 5})) == "not_adjacent"
    row = await service.rows.row(game_id)
    assert row.version == version and await service.rows.games.actions(game_id) == []
    outcome = await service.play.act(game_id, version, ALICE.user_id, place)
    assert outcome.actions == [{"player": 0, "type": "place", "tile": "U", "x": 1, "y": 0, "rotation": 0}]
    assert await code(service.play.act(game_id, version, ALICE.user_id, {"type": "pass"})) == "stale"


async def test_two_simultaneous_clicks_apply_once(service: Services) -> None:
    game_id, version = await started(service)
    place = {"type": "place", "x": 1, "y": 0, "rotation": 0}
    results = await asyncio.gather(
        service.play.act(game_id, version, ALICE.user_id, place),
        service.play.act(game_id, version, ALICE.user_id, place),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, HostError)]
    assert len(refused) == 1 and refused[0].key == "stale"
    assert len(await service.rows.games.actions(game_id)) == 1


async def a_placement(service: Services, game_id: int) -> dict[str, object]:
    game = service.rows.game(await service.rows.row(game_id))
    (x, y), rotations = sorted(game.legal_placements().items())[0]  # type: ignore[attr-defined]
    return {"type": "place", "x": x, "y": y, "rotation": rotations[0]}


async def test_a_click_on_the_version_the_host_just_wrote_needs_no_read(service: Services) -> None:
    game_id, version = await started(service)
    placed = await service.play.act(game_id, version, ALICE.user_id, await a_placement(service, game_id))
    reads = 0
    read = service.rows.games.get

    async def counted(game_id: int) -> object:
        nonlocal reads
        reads += 1
        return await read(game_id)

    service.rows.games.get = counted  # type: ignore[method-assign,assignment]
    assert await service.rows.row_at(game_id, placed.row.version) is placed.row and reads == 0
    older = await service.rows.row_at(game_id, version)  # an old button: the stored row, which says it moved on
    assert reads == 1 and older.version == placed.row.version


async def test_a_change_made_behind_the_hosts_back_makes_a_remembered_click_stale(service: Services) -> None:
    game_id, version = await started(service)
    remembered = await service.rows.row_at(game_id, version)
    await service.rows.games.update(game_id, version, language="ru")  # not through the host: a new version
    assert (await service.rows.row_at(game_id, version)) is remembered  # the host does not know yet
    move = await a_placement(service, game_id)
    assert await code(service.play.act(game_id, version, ALICE.user_id, move, row=remembered)) == "stale"
    stored = await service.rows.row(game_id)
    assert stored.version == version + 1 and await service.rows.games.action_count(game_id) == 0


async def test_undo_takes_back_a_placement_but_not_a_finished_turn(service: Services) -> None:
    game_id, version = await started(service)
    outcome = await service.play.act(game_id, version, ALICE.user_id, {"type": "place", "x": 1, "y": 0, "rotation": 0})
    assert await code(service.play.undo(game_id, outcome.row.version, BOB.user_id)) == "nothing_to_undo"
    undone = await service.play.undo(game_id, outcome.row.version, ALICE.user_id)
    assert undone.game is not None and undone.game.legal_actions(0)[0]["type"] == "place"
    assert await service.rows.games.actions(game_id) == []
    again = await service.play.act(game_id, undone.row.version, ALICE.user_id, {"type": "place", "x": 0, "y": 1,
                                                                          "rotation": 0})  # fmt: skip
    passed = await service.play.act(game_id, again.row.version, ALICE.user_id, {"type": "pass"})
    assert await code(service.play.undo(game_id, passed.row.version, ALICE.user_id)) == "nothing_to_undo"


async def test_a_whole_game_through_the_host_matches_its_replayed_log(service: Services) -> None:
    game_id = await lobby(service, tower=True)
    await service.lobby.join(game_id, None, BOB)
    await service.lobby.join(game_id, None, CAROL)
    outcome = await service.lobby.start(game_id, None, ALICE.user_id)
    policy = random.Random(4)
    users = [ALICE, BOB, CAROL]
    assert await code(service.records.export(game_id)) == "export_unfinished"
    while outcome.row.status == "active":
        assert outcome.game is not None
        action = outcome.game.random_action(policy)
        outcome = await service.play.act(game_id, outcome.row.version, users[action.pop("player")].user_id, action)
    row = outcome.row
    assert row.status == "finished" and row.finished_at is not None
    log = await service.rows.games.actions(game_id)
    assert rebuild(row, log).to_json() == load(row).to_json()
    replay = await service.records.export(game_id)
    assert replay["format"] == "boardhost-replay" and len(replay["actions"]) == len(log)
    best = max(load(row).result()["scores"])
    assert row.winners == [users[s].user_id for s, v in enumerate(load(row).result()["scores"]) if v == best]


async def test_a_catan_undo_keeps_the_dice_to_come(database_url: Target) -> None:
    """Undo rebuilds from the log; the generator must be where the live game left it, or a roll would repeat."""
    db = await open_database(database_url)
    service = Services.over(Games(db), random.Random(6))  # a table whose first roll is not a 7
    row = await service.lobby.open_lobby(
        guild_id=1, channel_id=77, game="catan", host=ALICE, options={"board": "beginner", "setup": "beginner"}
    )
    for seat in (BOB, CAROL):
        row = await service.lobby.join(row.id, row.version, seat)
    started = await service.lobby.start(row.id, row.version, ALICE.user_id)
    game = started.game
    assert game is not None
    first = started.row.seats[game.current].user_id
    rolled = await service.play.act(row.id, None, first, {"type": "roll"})
    assert rolled.game is not None and rolled.game.phase == "main"
    rolled.game.hand[game.current] = [1, 1, 0, 0, 0]  # not stored: only to know a road is affordable below
    live_rng = rolled.game.to_json()["rng"]
    spot = road_spots(rolled.game, game.current)[0]
    stored = await service.rows.games.update(rolled.row.id, rolled.row.version, state=rolled.game.to_json())
    built = await service.play.act(row.id, stored.version, first, {"type": "road", "at": spot})
    undone = await service.play.undo(row.id, built.row.version, first)
    assert undone.game is not None and undone.game.to_json()["rng"] == live_rng
    await db.close()

"""Storage on a temporary database file: migrations, the version guard, the action log, crashes."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.host.rebuild import load, rebuild
from bot.storage import ChannelBusy, GameRow, Games, SchemaTooNew, Seat, StaleVersion
from bot.storage import games as games_module
from bot.storage.migrations import POSTGRES, SQLITE
from bot.storage.opening import open_database
from bot.storage.owed import OwedTable
from engine.carcassonne import Carcassonne
from tests.bot.conftest import Target

ALICE, BOB = Seat(1, "Alice"), Seat(2, "Bob")


async def started(games: Games, channel: int = 10, seed: int = 3) -> tuple[int, int, Carcassonne]:
    row = await games.create_lobby(
        guild_id=5, channel_id=channel, game="carcassonne", host=ALICE, options={"first_player": 0}, seed=seed
    )
    row = await games.update(row.id, row.version, seats=[ALICE, BOB])
    engine = Carcassonne.new(["Alice", "Bob"], row.options, row.seed)
    row = await games.update(row.id, row.version, status="active", state=engine.to_json())
    return row.id, row.version, engine


async def test_migrations_apply_once_and_are_recorded(database_url: Target) -> None:
    db = await open_database(database_url, migrate=False)
    assert await db.schema_version() == 0
    assert await db.migrate() == [number for number, _ in db.migrations()]
    assert await db.schema_version() == db.known_version()
    assert await db.migrate() == []
    await db.close()
    db = await open_database(database_url)
    assert await db.migrate() == []
    if db.dialect == "sqlite":
        row = await db.fetchone("PRAGMA journal_mode")
        assert row is not None and row[0] == "wal"
    await db.close()


def test_both_backends_have_the_same_numbered_migrations() -> None:
    assert [n for n, _ in SQLITE] == [n for n, _ in POSTGRES] == list(range(1, len(SQLITE) + 1))


async def test_a_process_refuses_a_database_migrated_by_a_newer_boardhost(database_url: Target) -> None:
    db = await open_database(database_url)
    newer = db.known_version() + 1
    await db.execute("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)", (newer, 0.0))
    await db.close()
    for migrate in (True, False):
        with pytest.raises(SchemaTooNew) as refused:
            await open_database(database_url, migrate=migrate)
        assert refused.value.found == newer and "upgrade boardhost" in str(refused.value)


async def test_two_connections_racing_for_the_same_version_store_one_action(database_url: Target) -> None:
    """Two processes (each its own connection or pool) click the same version: one wins, the other is stale."""
    first_db, second_db = await open_database(database_url), await open_database(database_url)
    games, other = Games(first_db), Games(second_db)
    game_id, version, engine = await started(games)
    for step in range(10):
        action = engine.apply(engine.random_action(random.Random(step))).action
        results = await asyncio.gather(
            games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json()),
            other.record_action(game_id, version, user_id=2, actions=[action], state=engine.to_json()),
            return_exceptions=True,
        )
        stale = [r for r in results if isinstance(r, StaleVersion)]
        assert len(stale) == 1, results
        version += 1
    assert len(await other.actions(game_id)) == 10
    row = await games.get(game_id)
    assert row is not None and row.version == version and row.state == engine.to_json()
    await first_db.close()
    await second_db.close()


async def test_one_open_game_per_channel(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    await games.create_lobby(guild_id=5, channel_id=10, game="catan", host=ALICE, options={}, seed=1)
    with pytest.raises(ChannelBusy):
        await games.create_lobby(guild_id=5, channel_id=10, game="carcassonne", host=BOB, options={}, seed=2)
    other = await games.create_lobby(guild_id=5, channel_id=11, game="carcassonne", host=BOB, options={}, seed=2)
    assert other.status == "lobby" and other.seats == [BOB]
    await db.close()


async def test_a_lobby_is_created_with_what_it_owes_discord_in_the_same_write(database_url: Target) -> None:
    db = await open_database(database_url)
    games, owed = Games(db), OwedTable(db)
    lobby = await games.create_lobby(
        guild_id=5, channel_id=10, game="catan", host=ALICE, options={}, seed=1, owe={"kind": "lobby"}
    )
    [debt] = await owed.of_game(lobby.id)
    assert (debt.version, debt.owed, debt.created_at) == (lobby.version, {"kind": "lobby"}, lobby.created_at)
    with pytest.raises(ChannelBusy):  # refused whole: no debt without its game
        await games.create_lobby(guild_id=5, channel_id=10, game="catan", host=BOB, options={}, seed=2, owe={"k": 1})
    assert await owed.count() == 1
    await db.close()


async def test_the_version_guard_rejects_a_second_write_of_the_same_version(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    game_id, version, engine = await started(games)
    action = engine.apply(engine.random_action(random.Random(1))).action
    first = games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    second = games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    results = await asyncio.gather(first, second, return_exceptions=True)
    assert sum(isinstance(r, StaleVersion) for r in results) == 1
    assert len(await games.actions(game_id)) == 1
    row = await games.get(game_id)
    assert row is not None and row.version == version + 1
    await db.close()


async def test_a_game_rebuilt_from_its_log_equals_the_stored_state(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    game_id, version, engine = await started(games)
    policy = random.Random(7)
    for _ in range(40):
        action = engine.apply(engine.random_action(policy)).action
        row = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
        version = row.version
    row = await games.get(game_id)
    assert row is not None
    assert rebuild(row, await games.actions(game_id)).to_json() == load(row).to_json() == engine.to_json()
    await db.close()


async def test_a_crash_between_two_actions_loses_nothing(database_url: Target) -> None:
    """The first action commits; the second dies inside its transaction; a restart sees exactly the first."""
    db = await open_database(database_url)
    games = Games(db)
    game_id, version, engine = await started(games)
    action = engine.apply(engine.random_action(random.Random(2))).action
    row = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    saved = engine.to_json()
    with pytest.raises(RuntimeError):
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET state = 'garbage', version = version + 1 WHERE id = ?", (game_id,))
            await conn.execute("INSERT INTO actions VALUES (?, 1, 1, '{}', 0)", (game_id,))
            raise RuntimeError("the process died here")
    await db.close()
    db = await open_database(database_url)
    games = Games(db)
    again = await games.get(game_id)
    assert again is not None and again.version == row.version and again.state == saved
    assert await games.actions(game_id) == [action]
    assert rebuild(again, await games.actions(game_id)).to_json() == saved
    await db.close()


async def test_undo_drops_the_last_action_and_bumps_the_version(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    game_id, version, engine = await started(games)
    before = engine.to_json()
    action = engine.apply(engine.random_action(random.Random(3))).action
    row = await games.record_action(game_id, version, user_id=1, actions=[action], state=engine.to_json())
    row = await games.drop_last_actions(game_id, row.version, count=1, state=before)
    assert row.version == version + 2, "versions only grow, so buttons from before the undo stay stale"
    assert await games.actions(game_id) == [] and row.state == before
    await db.close()


async def test_stats_count_finished_games_and_wins(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    game_id, version, _ = await started(games)
    await games.update(game_id, version, status="finished", winners=[1])
    total, wins, per_game = await games.stats(5)
    assert (total, wins, per_game) == (1, {1: 1}, {"carcassonne": 1})
    await db.close()


async def test_a_multi_step_transaction_holds_writes_back_while_reads_see_the_last_commit(tmp_path: Path) -> None:
    """SQLite's writer: single-trip writes take no lock, yet never run inside another coroutine's open transaction;
    reads answer meanwhile (their own connection, WAL) with the last commit, never half of the open transaction."""
    db = await open_database(tmp_path / "a.sqlite3")
    games = Games(db)
    game_id, version, _ = await started(games)
    opened = asyncio.Event()
    release = asyncio.Event()

    async def slow_writer() -> None:
        async with db.transaction() as conn:
            await conn.execute("UPDATE games SET version = version + 100 WHERE id = ?", (game_id,))
            opened.set()
            await release.wait()
            await conn.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game_id,))

    writer = asyncio.create_task(slow_writer())
    await opened.wait()
    guarded = asyncio.create_task(games.update(game_id, version + 101, language="ru"))
    row = await asyncio.wait_for(games.get(game_id), 1.0)
    assert row is not None and row.version == version  # the last commit: nothing of the open transaction
    await asyncio.sleep(0.05)
    assert not guarded.done()  # it waits for the COMMIT instead of joining the transaction
    release.set()
    await writer
    updated = await guarded  # written on the whole transaction's version
    assert (updated.version, updated.language) == (version + 102, "ru")
    await db.close()


async def test_many_single_trips_in_flight_at_once_each_complete_in_order(tmp_path: Path) -> None:
    """SQLite's one connection runs trips in the order they were queued (a pool gives no such order)."""
    db = await open_database(tmp_path / "a.sqlite3")
    games = Games(db)
    game_id, version, engine = await started(games)
    moves = random.Random(4)
    writes = []
    for step in range(20):
        action = engine.apply(engine.random_action(moves)).action
        writes.append(games.record_action(game_id, version + step, user_id=1, actions=[action], state=engine.to_json()))
    reads = [games.get(game_id) for _ in range(20)]
    results = await asyncio.gather(*writes, *reads)
    assert [r.version for r in results[:20]] == [version + step + 1 for step in range(20)]
    assert len(await games.actions(game_id)) == 20
    await db.close()


async def test_a_public_offers_message_is_remembered_replaced_and_forgotten(database_url: Target) -> None:
    db = await open_database(database_url)
    games = Games(db)
    game_id, _, _ = await started(games)
    await games.add_offer_message(game_id, 1, 1_234_567_890_123_456_789)  # a Discord id: 64 bits
    await games.add_offer_message(game_id, 2, 20)
    await games.add_offer_message(game_id, 2, 21)  # the offer posted again
    assert await games.offer_messages(game_id) == {1: 1_234_567_890_123_456_789, 2: 21}
    await games.forget_offer_message(game_id, 1)
    assert await games.offer_messages(game_id) == {2: 21}
    await db.close()


async def test_each_sweep_reads_only_the_running_games_it_may_act_on(database_url: Target) -> None:
    """The minute's sweeps ask the database for their games, not for every running game: the reminder sweep for
    waits that reached their next reminder, the away sweep for games with someone away or an away rule that acts,
    the computer players' sweep for games where a computer plays a seat. Lobbies and finished games never."""
    db = await open_database(database_url)
    games = Games(db)
    hour, now = 3600.0, 1_000_000.0
    ids = {}
    for channel, name in enumerate(["fresh", "first due", "first sent", "second due", "all sent", "away", "rule",
                                    "computer", "stand-in", "finished"], start=10):  # fmt: skip
        ids[name], _, _ = await started(games, channel=channel)
    waits = {"fresh": (1, 0), "first due": (13, 0), "first sent": (13, 1), "second due": (25, 1), "all sent": (99, 2)}
    for name, (hours, sent) in waits.items():
        await db.execute(
            "UPDATE games SET turn_started_at = ?, reminders_sent = ? WHERE id = ?",
            (now - hours * hour, sent, ids[name]),
        )
    for name in ("away", "rule", "computer", "stand-in", "finished"):
        await db.execute("UPDATE games SET turn_started_at = ? WHERE id = ?", (now, ids[name]))

    async def change(name: str, **changes: Any) -> None:
        row = await games.get(ids[name])
        assert row is not None
        await games.update(row.id, row.version, **changes)

    await change("away", away_seats=[1], stand_ins=[1])
    await change("rule", away_rule="computer")
    await change("computer", seats=[ALICE, Seat(-1, "Robot", "standard")])
    await change("stand-in", stand_ins=[0])
    await change("finished", status="finished", away_rule="computer", stand_ins=[0])
    lobby = await games.create_lobby(guild_id=5, channel_id=99, game="carcassonne", host=ALICE, options={}, seed=1)
    await games.update(lobby.id, lobby.version, away_rule="computer")

    def named(rows: list[GameRow]) -> set[str]:
        by_id = {game_id: name for name, game_id in ids.items()}
        return {by_id[row.id] for row in rows}

    delays = (24 * hour, 12 * hour)  # in any order: the n-th reminder after the n-th shortest
    assert named(await games.awaiting_reminder(now, delays)) == {"first due", "second due"}
    assert await games.awaiting_reminder(now, ()) == []
    assert named(await games.with_away_rules()) == {"away", "rule"}
    assert named(await games.with_computers()) == {"away", "computer", "stand-in"}
    await db.close()


async def test_a_sweep_reads_its_games_a_page_at_a_time_and_misses_none(
    database_url: Target, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep's games come a page of rows a query (PostgreSQL's driver decodes a whole answer on the event loop),
    every one of them in order of id, whatever falls between two pages; a row that cannot be read is left out
    without ending the page."""
    monkeypatch.setattr(games_module, "SWEEP_PAGE", 2)
    db = await open_database(database_url)
    games = Games(db)
    computer = [ALICE, Seat(-1, "Robot", "standard")]
    wanted = []
    for channel in range(10, 17):
        game_id, version, _ = await started(games, channel=channel)
        if channel % 3:  # 5 of the 7 have a computer seat, the others fall between them
            await games.update(game_id, version, seats=computer)
            wanted.append(game_id)
    await db.execute("UPDATE games SET options = ? WHERE id = ?", ("{not json", wanted[1]))
    queries = []
    fetchall = db.fetchall

    async def counted(sql: str, params: Any = ()) -> Any:
        queries.append(sql)
        return await fetchall(sql, params)

    monkeypatch.setattr(db, "fetchall", counted)
    assert [row.id for row in await games.with_computers()] == [wanted[0], *wanted[2:]]
    assert len(queries) == 3  # pages of 2, 2 and 1
    await db.close()

"""``python -m bot copy-db``: a database of many finished and running games copied SQLite -> PostgreSQL -> SQLite,
every row kept and every game rebuilt from its log on each target equal to its stored state."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bot.__main__ import main
from bot.cli.copydb import CopyError, copy_database
from bot.storage import Games, Seat, UserSettings
from bot.storage.leases import Leases
from bot.storage.migrations import SQLITE
from bot.storage.opening import open_database
from engine import game_class

PEOPLE = [Seat(1, "Ann"), Seat(2, "Bo"), Seat(3, "Cy"), Seat(-1, "Computer 1", "random")]


async def play(games: Games, channel: int, name: str, moves: int | None, seed: int) -> None:
    """A game at ``channel``: played ``moves`` random moves (None: to the end, then finished), one write each."""
    seats = PEOPLE[:3] if name == "catan" else PEOPLE[:2] + PEOPLE[3:]
    row = await games.create_lobby(
        guild_id=1 << 22, channel_id=channel, game=name, host=seats[0], options={"first_player": 0}, seed=seed
    )
    row = await games.update(row.id, row.version, seats=seats)
    engine = game_class(name).new([s.name for s in seats], row.options, row.seed)
    row = await games.update(row.id, row.version, status="active", state=engine.to_json(), turn_started_at=5.0)
    rng = random.Random(seed)
    done = 0
    while not engine.finished and (moves is None or done < moves):
        action = engine.apply(engine.random_action(rng)).action
        row = await games.record_action(row.id, row.version, user_id=seats[action["player"]].user_id,
                                        actions=[action], state=engine.to_json())  # fmt: skip
        done += 1
    if engine.finished:
        winners = [seats[s].user_id for s in engine.result()["winners"]]
        await games.update(row.id, row.version, status="finished", winners=winners, finished_at=9.0)


async def a_busy_database(target: str | Path) -> None:
    db = await open_database(target)
    games = Games(db)
    for i in range(4):
        await play(games, 100 + i, "carcassonne", None, seed=i)  # finished
    for i in range(6):
        await play(games, 200 + i, "carcassonne", 5 + 9 * i, seed=10 + i)  # running
    for i in range(3):
        await play(games, 300 + i, "catan", 20 + 15 * i, seed=20 + i)  # running
    lobby = await games.create_lobby(guild_id=None, channel_id=400, game="catan", host=PEOPLE[0], options={}, seed=4)
    abandoned = await games.create_lobby(guild_id=7, channel_id=401, game="catan", host=PEOPLE[1], options={}, seed=5)
    await games.update(abandoned.id, abandoned.version, status="abandoned")
    await games.set_message(lobby.id, 987654321987654321)  # a Discord id: 64 bits
    for user in (1, 3, 2**62):
        await UserSettings(db).set_dm_on_turn(user, True)
    await Leases(db).claim("some process", "shard:0", 1.0, 60.0)
    await db.close()


async def contents(target: str | Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in key order."""
    db = await open_database(target)
    found = {}
    for table in await db.tables():
        columns = sorted(await db.columns(table))
        order = ", ".join(await db.primary_key(table))
        rows = await db.fetchall(f"SELECT {', '.join(columns)} FROM {table} ORDER BY {order}")
        found[table] = [tuple(r) for r in rows]
    await db.close()
    return found


async def test_many_games_go_to_postgresql_and_back_unchanged(tmp_path: Path, postgres_url: str) -> None:
    source, back = tmp_path / "source.sqlite3", tmp_path / "back.sqlite3"
    await a_busy_database(source)
    there = await copy_database(source, postgres_url)
    assert there.rows["games"] == 15 and there.rows["actions"] > 400 and there.rows["user_settings"] == 3
    assert there.games_rebuilt == 13
    again = await copy_database(postgres_url, back)
    assert again.rows == there.rows and again.games_rebuilt == 13
    original = await contents(source)
    assert await contents(postgres_url) == original
    assert await contents(back) == original
    db = await open_database(postgres_url)  # the copy goes on where the source left off
    games = Games(db)
    assert len(await games.with_status("finished")) == 4 and len(await games.with_status("active")) == 9
    fresh = await games.create_lobby(guild_id=1, channel_id=500, game="catan", host=PEOPLE[0], options={}, seed=1)
    assert fresh.id == 16
    await db.close()


async def test_a_target_that_is_not_empty_is_refused(tmp_path: Path, postgres_url: str) -> None:
    source = tmp_path / "source.sqlite3"
    await a_busy_database(source)
    await copy_database(source, postgres_url)
    with pytest.raises(CopyError, match="not empty"):
        await copy_database(source, postgres_url)


async def test_a_game_whose_log_disagrees_with_its_state_is_reported(tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    await a_busy_database(source)
    db = await open_database(source)
    await db.execute("DELETE FROM actions WHERE game_id = 5 AND seq = 0")
    await db.close()
    with pytest.raises(CopyError, match="game 5"):
        await copy_database(source, tmp_path / "copy.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["source.sqlite3"]  # the copy it made is gone again


def test_the_command_line_copies_and_says_what_it_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio

    source = tmp_path / "source.sqlite3"
    asyncio.run(a_busy_database(source))
    assert main(["copy-db", f"sqlite:///{source}", str(tmp_path / "copy.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert "games: 15 rows" in out and "13 games verified" in out
    assert main(["copy-db", str(source), str(tmp_path / "copy.sqlite3")]) == 1
    assert "not empty" in capsys.readouterr().err


def test_migrate_brings_the_configured_database_up_to_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = tmp_path / "config.toml"
    settings.write_text(f'[database]\nurl = "sqlite:///{tmp_path}/bot.sqlite3"\n', encoding="utf-8")
    monkeypatch.setenv("BOARDHOST_CONFIG", str(settings))
    numbers = [number for number, _ in SQLITE]
    assert main(["migrate"]) == 0
    assert f"schema version {numbers[-1]} (applied {', '.join(map(str, numbers))})" in capsys.readouterr().out
    assert main(["migrate"]) == 0
    assert f"schema version {numbers[-1]} (nothing to apply)" in capsys.readouterr().out

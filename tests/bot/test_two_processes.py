"""Two bot processes on one PostgreSQL database and one simulated Discord, each running one of two shards.

Each bot has its own connection pool, caches and shard (``(guild_id >> 22) % 2``); guild ``one`` is in shard 0
(process ``first``), guild ``two`` in shard 1 (process ``second``). Clicks on the same game reaching both processes
apply once; reminders and computer moves happen once, each by the process of the game's shard; a process stopped
mid-game loses nothing: the other takes its shard's background work over once its leases expire, and it takes
its shard back when it starts again.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest

from bot.app import BoardHost, ShardedBoardHost
from bot.core.config import Config
from bot.core.shards import shard_of
from bot.flows.game_commands import show_lobby
from bot.host.rebuild import load, rebuild
from bot.storage import GameRow
from bot.text import t
from tests.bot.conftest import World, reply
from tests.bot.processes import Processes
from tests.bot.simultaneous import click_call
from tests.bot.test_discord_carcassonne import DECK, labels, place, start
from tests.bot.test_discord_computer import RANDOM

HOUR = 3600


def config(url: str, shard: int) -> Config:
    return Config(
        database=url,
        shard_count=2,
        shard_ids=(shard,),
        reminder_check=1800,
        computer_pause=0,
        computer_offer_wait=0,
        render_processes=0,  # images drawn in threads: no drawing processes to outlive a stopped bot
    )


@pytest.fixture
def simcord_bot(postgres_url: str) -> BoardHost:
    """The first process: shard 0 of 2, on a fresh PostgreSQL schema."""
    return ShardedBoardHost(config(postgres_url, 0), rng=random.Random(1))


@dataclass
class Two:
    env: Any
    processes: Processes
    first: BoardHost
    second: BoardHost
    one: World  # guild in shard 0 (the first process's)
    two: World  # guild in shard 1 (the second process's)


def world_in(env: Any, bot: BoardHost, shard: int, users: list[Any]) -> World:
    guild = env.create_guild(f"guild {shard}", shard_id=shard)
    channel = guild.create_text_channel("games")
    people = [guild.add_member(user) for user in users]
    return World(env, bot, channel, *people)


@pytest.fixture
async def two(simcord_env: Any, simcord_bot: BoardHost, postgres_url: str) -> AsyncIterator[Two]:
    await simcord_bot.tree.sync()
    users = [simcord_env.create_user(name) for name in ("alice", "bob", "carol")]
    one = world_in(simcord_env, simcord_bot, 0, users)
    processes = Processes(simcord_env)
    second = ShardedBoardHost(config(postgres_url, 1), rng=random.Random(2))
    two = world_in(simcord_env, second, 1, users)
    await processes.attach(second)
    yield Two(simcord_env, processes, simcord_bot, second, one, two)


def posted(world: World, text: str) -> int:
    """How many messages in the world's channel contain ``text``."""
    return sum(text in (m.content or "") for m in world.channel.history())


async def with_computer(world: World) -> GameRow:
    """alice and one random computer at a Carcassonne table in the world's channel, alice first; started."""
    await world.alice.slash(world.channel, "carcassonne new", river=False)
    await world.alice.click(world.channel.last_message, label=RANDOM)
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None
    await world.bot.games.update(row.id, row.version, options={**row.options, "first_player": 0})
    lobby = await world.bot.games.open_in_channel(world.channel.id)
    assert lobby is not None
    await show_lobby(world.bot, lobby)
    await world.alice.click(world.channel.last_message, label="Start")
    row = await world.bot.games.open_in_channel(world.channel.id)
    assert row is not None and row.status == "active"
    return row


async def alice_moves(world: World) -> None:
    """alice's whole turn on the latest turn message: the first cell and rotation, then no follower."""
    await place(world, world.alice)
    if "No follower" in labels(world.channel.last_message):
        await world.alice.click(world.channel.last_message, label="No follower")


async def consistent(bot: BoardHost, row_id: int) -> GameRow:
    row = await bot.games.get(row_id)
    assert row is not None
    log = await bot.games.actions(row.id)
    assert rebuild(row, log).to_json() == load(row).to_json()
    return row


async def test_the_guilds_are_in_the_shards_of_the_two_processes(two: Two) -> None:
    assert shard_of(two.one.channel.guild.id, 2) == 0 and shard_of(two.two.channel.guild.id, 2) == 1
    assert two.first.shard_ids == [0] and two.second.shard_ids == [1]
    assert two.first.db is not two.second.db and two.first.db.dialect == "postgresql"


async def test_the_same_click_reaching_both_processes_applies_once(two: Two) -> None:
    world = two.two
    row = await start(world, DECK)
    message = await place(world, world.alice)  # alice's follower decision
    button = next(c["custom_id"] for c in _components(message) if c["custom_id"].endswith(":pass"))
    before = await world.bot.rows.row(row.id)
    two.processes.steer(two.first, two.second)  # one click to each process, at the same moment
    calls = [click_call(world.alice, message, button), click_call(world.alice, message, button)]
    two.env._begin_operation("two clicks")
    try:
        results = await asyncio.gather(*(call() for call in calls))
    finally:
        two.env._end_operation()
    await two.env.settle()
    answers = [reply(r).content or "" for r in results]
    assert sum(t("error.stale") in a for a in answers) == 1, answers
    after = await consistent(two.second, row.id)
    assert after.version == before.version + 1, "applied once"
    assert [a["type"] for a in await two.first.games.actions(row.id)] == ["place", "pass"]
    assert posted(world, "Turn 2:") == 1
    assert not two.env.errors


def _components(message: Any) -> list[dict[str, Any]]:
    from tests.bot.conftest import flat

    return flat(message)


async def test_a_click_reaching_the_process_of_another_shard_wakes_that_shards_computers(two: Two) -> None:
    """As when a DM interaction (always shard 0's) moves a game of another shard: the process that stored the move
    tells the game's own process (PostgreSQL NOTIFY), whose computer player then moves at once, once."""
    world = two.two
    row = await with_computer(world)
    for bot in (two.first, two.second):
        await bot.ownership.refresh(force=True)
    assert not two.first.owns(row) and two.second.owns(row)
    world.bot = two.first  # the click (and so the turn it posts) is handled by the first process
    by_first: list[int] = []
    move = two.first.stand_ins.computer_move

    async def counted(game_id: int) -> Any:
        by_first.append(game_id)
        return await move(game_id)

    two.first.stand_ins.computer_move = counted  # type: ignore[method-assign]
    two.processes.steer(two.first, two.first)  # alice's cell and rotation clicks
    await place(world, world.alice)
    if "No follower" in labels(world.channel.last_message):
        two.processes.steer(two.first)
        await world.alice.click(world.channel.last_message, label="No follower")
    for _ in range(100):  # the notification travels through the database server, outside the simulated world
        if posted(world, "Computer 1 (random) placed a tile"):
            break
        await asyncio.sleep(0.02)
        await two.env.settle()
    assert posted(world, "Computer 1 (random) placed a tile") == 1
    assert by_first == [], "the computer is the second process's: the first never moved it"
    row = await consistent(two.second, row.id)
    assert [a["player"] for a in await two.second.games.actions(row.id) if a["type"] == "place"] == [0, 1]
    assert not two.env.errors


async def test_turns_posted_by_both_processes_leave_only_the_newest_message_with_choices(two: Two) -> None:
    """Each process remembers the turn message it posted; one posted by the other process in between is read back
    from the database, so the older message loses its buttons whoever posted it."""
    from tests.bot.test_turn_races import live_components

    world = two.two
    row = await start(world, players=[world.alice, world.bob])  # the whole deck: the game goes on
    for turn, process in enumerate([two.first, two.second, two.first, two.second]):
        player = world.alice if turn % 2 == 0 else world.bob
        two.processes.steer(process, process)  # the cell and the rotation
        await place(world, player)
        if "No follower" in labels(world.channel.last_message):
            two.processes.steer(process)
            await player.click(world.channel.last_message, label="No follower")
        stored = await two.second.games.get(row.id)
        assert stored is not None
        live = live_components(world, row.id)
        assert list(live) == [stored.message_id], f"turn {turn}: only the newest message offers choices: {live}"
    assert not two.env.errors


async def test_reminders_and_computer_moves_happen_once_each_by_the_games_process(two: Two) -> None:
    rows = {}
    for world in (two.one, two.two):
        rows[world.bot] = await with_computer(world)
        for _ in range(3):  # alice moves, the computer answers at once (its process runs the game's shard)
            await alice_moves(world)
            await two.env.settle()
    for world in (two.one, two.two):
        row = await consistent(world.bot, rows[world.bot].id)
        log = await world.bot.games.actions(row.id)
        players = [a["player"] for a in log if a["type"] == "place"]
        assert players == [0, 1, 0, 1, 0, 1], "each computer move once, after each of alice's"
        assert posted(world, "Computer 1 (random) placed a tile") == 3
        other = two.second if world.bot is two.first else two.first
        for bot in (two.first, two.second):
            # the first process held shard 1 until the second came up; its next look at the leases lets it go
            await bot.ownership.refresh(force=True)
        assert world.bot.owns(row) and not other.owns(row)
    await two.env.advance_time(13 * HOUR)  # both processes sweep every 30 minutes
    for world in (two.one, two.two):
        assert posted(world, "is waiting for you") == 1, "one reminder per game, not one per process"
    assert not two.env.errors


async def test_a_process_stopped_mid_game_loses_nothing(two: Two, postgres_url: str) -> None:
    world = two.two
    row = await with_computer(world)
    await alice_moves(world)
    await two.env.settle()
    assert posted(world, "Computer 1 (random) placed a tile") == 1
    await two.second.remove_cog("Computers")  # the second process dies before the computer's next move
    await alice_moves(world)
    await two.processes.stop(two.second)
    row = await consistent(two.first, row.id)
    assert posted(world, "Computer 1 (random) placed a tile") == 1, "nobody moved for the computer yet"

    # the dead process's leases expire (after 3 sweep intervals) and the first takes its shard's work at a sweep
    await two.env.advance_time(3 * HOUR)
    assert posted(world, "Computer 1 (random) placed a tile") == 2, "the computer moved once, by the first process"
    assert two.first.owns(row)

    again = ShardedBoardHost(config(postgres_url, 1), rng=random.Random(3))  # the second process starts again
    await two.processes.attach(again)
    world.bot = again
    await alice_moves(world)  # reaches the restarted process (its guild's shard)
    await two.env.settle()
    assert posted(world, "Computer 1 (random) placed a tile") == 3
    await two.first.ownership.refresh(force=True)
    assert not two.first.owns(row), "the restarted process took its shard back"
    await two.env.advance_time(12 * HOUR)
    assert posted(world, "is waiting for you") == 1
    final = await consistent(again, row.id)
    players = [a["player"] for a in await again.games.actions(final.id) if a["type"] == "place"]
    assert players == [0, 1, 0, 1, 0, 1]
    assert not two.env.errors

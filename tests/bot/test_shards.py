"""Who does a game's background work: the process of its guild's shard, another once that one's leases expire,
and whoever holds the ``dm`` lease for games without a guild. On both backends."""

from __future__ import annotations

from bot.core.shards import DM_LEASE, Ownership, shard_of
from bot.storage import GameRow, Games, Seat
from bot.storage.leases import Leases
from bot.storage.opening import open_database
from tests.bot.conftest import Target

TTL = 90.0


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def guild_in(shard: int, count: int = 2) -> int:
    return (shard + count * 7) << 22


async def lobby(games: Games, guild_id: int | None, channel: int) -> GameRow:
    return await games.create_lobby(
        guild_id=guild_id, channel_id=channel, game="catan", host=Seat(1, "A"), options={}, seed=1
    )


def test_the_shard_of_a_guild_is_discords() -> None:
    assert shard_of(guild_in(0), 2) == 0 and shard_of(guild_in(1), 2) == 1
    assert shard_of(81384788765712384, 4) == (81384788765712384 >> 22) % 4


async def test_each_game_has_one_owner_and_a_dead_process_is_taken_over(database_url: Target) -> None:
    db = await open_database(database_url)
    clock = Clock()
    games = Games(db, clock=clock)
    first = Ownership(Leases(db), shard_count=2, shard_ids=(0,), clock=clock, ttl=TTL, holder="first")
    second = Ownership(Leases(db), shard_count=2, shard_ids=(1,), clock=clock, ttl=TTL, holder="second")
    in_zero, in_one, dm_only = (
        await lobby(games, guild_in(0), 10),
        await lobby(games, guild_in(1), 11),
        await lobby(games, None, 12),
    )
    await second.refresh()  # the first process up stands in for every shard nobody holds yet ...
    assert all(second.owns(r) for r in (in_zero, in_one, dm_only))
    await first.refresh()  # ... until their own processes come up and take them
    await second.refresh(force=True)
    assert [first.owns(r) for r in (in_zero, in_one, dm_only)] == [True, False, False]
    assert [second.owns(r) for r in (in_zero, in_one, dm_only)] == [False, True, True], "dm: the first to ask"

    clock.now += TTL / 2  # both renew
    await first.refresh()
    await second.refresh()
    assert not first.owns(in_one) and not first.owns(dm_only)

    clock.now += TTL + 1  # the second process died: its leases expired
    await first.refresh()
    assert first.owns(in_one) and first.owns(dm_only) and first.owns(in_zero)

    back = Ownership(Leases(db), shard_count=2, shard_ids=(1,), clock=clock, ttl=TTL, holder="second again")
    await back.refresh()  # a process takes its own shard back at once
    assert back.owns(in_one) and not back.owns(dm_only), "the dm lease stays with the first until it lapses"
    clock.now += TTL / 2
    await first.refresh()
    assert not first.owns(in_one) and first.owns(dm_only)

    await first.release()  # a clean stop hands the dm lease on at once
    await back.refresh(force=True)
    assert back.owns(dm_only) and DM_LEASE in back.held
    await db.close()


async def test_one_process_without_shards_owns_everything_at_once(database_url: Target) -> None:
    """The default (one process, no shard count) needs no lease, so a restart waits for none to lapse."""
    db = await open_database(database_url)
    clock = Clock()
    games = Games(db, clock=clock)
    await Leases(db).claim("the process before a crash", DM_LEASE, clock(), TTL)
    only = Ownership(Leases(db), shard_count=None, shard_ids=None, clock=clock, ttl=TTL)
    await only.refresh()
    for row in (await lobby(games, guild_in(1, 5), 1), await lobby(games, None, 2)):
        assert only.owns(row)
    assert await Leases(db).held("the process before a crash", clock()) == {DM_LEASE}, "it took none"
    await db.close()

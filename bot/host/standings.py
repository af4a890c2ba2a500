"""Rating finished games into the stored ratings, each game once, each update one transaction.

A finished game owes its rating like it owes its final message: the outbox's ``rating`` part (``bot.flows.outbox``)
calls ``Standings.rate`` until it succeeds, so a crash between the game's end and its rating loses nothing, and a
game rated twice (a retry after the commit's answer was lost) changes nothing the second time. A pool's games are
rated in the order they ended; one that comes late (another process rated a later game first) has the pool's games
rated again in order from their stored placings, so the ratings are always what rating every game in order gives:
``rebuild`` (``python -m bot ratings --rebuild``), which rates every finished game again from its replayed log,
finds the same numbers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.host.rebuild import rebuild
from bot.host.skill import Change, Placing, Player, Pool, RatedGame, Standing, fold, placings, rate
from bot.storage import GameRow, Games, Seat
from bot.storage.database import Executor, Row
from bot.storage.ratings import Pool as PoolKey
from bot.storage.ratings import RatingRows

log = logging.getLogger("boardhost.ratings")
HISTORY = 200  # the latest games of a player's card chart


@dataclass(frozen=True)
class Card:
    """A player's standing in one pool for ``/stats player``: their rating and record, their place among the
    pool's ``players``, and their rating after each game (the latest ``HISTORY``), oldest first."""

    game: str
    standing: Standing
    position: int
    players: int
    history: tuple[float, ...]


@dataclass(frozen=True)
class Rebuilt:
    """What a rebuild rated: games and pools, and the finished games whose logs do not replay (left out)."""

    games: int
    pools: int
    skipped: tuple[int, ...] = ()


def pool_of(row: GameRow) -> PoolKey:
    """The pool a game is rated in: its server (0 for direct messages) and its game."""
    return (row.guild_id or 0, row.game)


def seat_player(seat: Seat) -> Player:
    """Who a seat's results rate: a computer player by its level, a person by their user id."""
    return Player(0, seat.level) if seat.level is not None else Player(seat.user_id, "")


def rated_game(row: GameRow, result: Mapping[str, Any]) -> RatedGame:
    """A finished game as the ratings see it, from its engine result (``Game.result``)."""
    players = [seat_player(seat) for seat in row.seats]
    finished_at = row.finished_at if row.finished_at is not None else row.updated_at
    return RatedGame(row.id, finished_at, placings(players, result["scores"], result["winners"]))


def replayed(row: GameRow, actions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The result of a game's log played again from its set-up (``Game.result``)."""
    return rebuild(row, actions).result()


def standing_of(row: Row) -> Standing:
    return Standing(
        mu=float(row["mu"]),
        sigma=float(row["sigma"]),
        games=int(row["games"]),
        wins=int(row["wins"]),
        streak=int(row["streak"]),
        rated_at=float(row["rated_at"]),
    )


def player_of(row: Row) -> Player:
    return Player(int(row["user_id"]), str(row["level"]))


def games_of(rows: Iterable[Row]) -> list[RatedGame]:
    """The rated games that stored seats (``rating_changes`` rows, a game's seats together) make up."""
    found: dict[int, tuple[float, list[Placing]]] = {}
    for row in rows:
        seats = found.setdefault(int(row["game_id"]), (float(row["finished_at"]), []))[1]
        seats.append(Placing(int(row["seat"]), player_of(row), int(row["place"]), bool(row["won"])))
    return [RatedGame(game, at, tuple(sorted(seats, key=lambda p: p.seat))) for game, (at, seats) in found.items()]


def standing_values(player: Player, standing: Standing) -> tuple[Any, ...]:
    s = standing
    return (player.user_id, player.level, s.mu, s.sigma, s.games, s.wins, s.streak, s.rated_at)


def change_values(change: Change) -> tuple[Any, ...]:
    p = change.placing
    return (
        change.game_id, p.seat, p.player.user_id, p.player.level, p.place, int(p.won), *change.before, *change.after,
        change.finished_at,
    )  # fmt: skip


async def _write(tx: Executor, pool: PoolKey, standings: Mapping[Player, Standing], changes: Sequence[Change]) -> None:
    await RatingRows.save_standings(tx, pool, [standing_values(p, s) for p, s in sorted(standings.items())])
    await RatingRows.save_changes(tx, pool, [change_values(c) for c in changes])


def differences(what: str, expected: Mapping[Any, Any], found: Mapping[Any, Any]) -> list[str]:
    """Each key whose value ``found`` lacks, holds otherwise, or holds without ``expected`` having it."""
    told = []
    for key in sorted(expected.keys() | found.keys(), key=repr):
        if expected.get(key) != found.get(key):
            told.append(f"{what} {key}: stored {found.get(key)}, from the logs {expected.get(key)}")
    return told


class Standings:
    """The ratings of every pool: updated one game at a time, or rebuilt whole; and read for ``/stats``."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self.db = games.db
        self.rows = RatingRows(games.db)

    async def rate(self, pool: PoolKey, game: RatedGame) -> bool:
        """Rate a finished game in its pool (server, game), once: False when it was rated already."""
        return await self.db.in_one_transaction(lambda tx: self._rate(tx, pool, game))

    @staticmethod
    async def _rate(tx: Executor, pool: PoolKey, game: RatedGame) -> bool:
        """The rating's transaction: its pool locked, the game rated unless it was, in order of the games' ends."""
        await RatingRows.lock_pool(tx, pool)
        if await RatingRows.is_rated(tx, game.game_id):
            return False
        if await RatingRows.rated_after(tx, pool, game.finished_at, game.game_id):
            # Late: the pool again from nothing, this game in its place among the others.
            again = fold([*games_of(await RatingRows.changes_in(tx, pool)), game])
            await RatingRows.clear_pool(tx, pool)
            await _write(tx, pool, again.standings, again.changes)
        else:
            players = [(p.player.user_id, p.player.level) for p in game.placings]
            stored = {player_of(r): standing_of(r) for r in await RatingRows.standings_of(tx, pool, players)}
            after, changes = rate(stored, game)
            await _write(tx, pool, after, changes)
        await RatingRows.count(tx, pool)
        return True

    async def replace_all(self, pools: Mapping[PoolKey, Sequence[RatedGame]]) -> dict[PoolKey, Pool]:
        """Every rating from these games alone, in one transaction (what was stored before is dropped)."""
        folded = {key: fold(games) for key, games in pools.items()}
        async with self.db.transaction() as tx:
            await RatingRows.clear_all(tx)
            for key, pool in sorted(folded.items()):
                await _write(tx, key, pool.standings, pool.changes)
                await RatingRows.set_count(tx, key, len(pools[key]))
        return folded

    async def from_logs(self) -> tuple[dict[PoolKey, list[RatedGame]], tuple[int, ...]]:
        """Every finished game as the ratings see it, from its log replayed from the game's set-up (not from its
        stored state), by pool; and the finished games whose logs do not replay to the end (left out, logged).
        Abandoned games never count."""
        pools: dict[PoolKey, list[RatedGame]] = {}
        skipped = []
        for row in await self.games.with_status("finished"):
            actions = await self.games.actions(row.id)
            try:
                result = await asyncio.to_thread(replayed, row, actions)
            except Exception as err:  # a log that no longer replays: the other games are still rated
                log.warning("game %s: its log does not replay, left out of the ratings: %s", row.id, err)
                skipped.append(row.id)
                continue
            if not result["finished"]:
                log.warning("game %s: its log does not reach the end, left out of the ratings", row.id)
                skipped.append(row.id)
                continue
            pools.setdefault(pool_of(row), []).append(rated_game(row, result))
        return pools, tuple(skipped)

    async def rebuild(self) -> Rebuilt:
        """Every rating again from the finished games' logs, each pool's games rated in the order they ended."""
        pools, skipped = await self.from_logs()
        await self.replace_all(pools)
        return Rebuilt(sum(len(g) for g in pools.values()), len(pools), skipped)

    async def check(self) -> list[str]:
        """What the stored ratings say otherwise than rating every finished game again from its log would (nothing
        stored, or a number that differs in the last bit, is a difference); empty when they agree."""
        pools, _ = await self.from_logs()
        expected_standings: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        expected_changes: dict[tuple[Any, ...], tuple[Any, ...]] = {}
        for key, games in pools.items():
            pool = fold(games)
            for player, standing in pool.standings.items():
                expected_standings[(*key, player.user_id, player.level)] = standing_values(player, standing)[2:]
            for change in pool.changes:
                values = change_values(change)
                expected_changes[values[:2]] = (*key, *values[2:])
        standings, changes = await self.rows.everything()
        found_standings = {
            (int(r["guild_id"]), str(r["game"]), int(r["user_id"]), str(r["level"])): (
                float(r["mu"]), float(r["sigma"]), int(r["games"]), int(r["wins"]), int(r["streak"]),
                float(r["rated_at"]),
            )
            for r in standings
        }  # fmt: skip
        found_changes = {
            (int(r["game_id"]), int(r["seat"])): (
                int(r["guild_id"]), str(r["game"]), int(r["user_id"]), str(r["level"]), int(r["place"]),
                int(r["won"]), float(r["mu_before"]), float(r["sigma_before"]), float(r["mu"]), float(r["sigma"]),
                float(r["finished_at"]),
            )
            for r in changes
        }  # fmt: skip
        return [
            *differences("rating", expected_standings, found_standings),
            *differences("rated seat", expected_changes, found_changes),
        ]

    # -- reading ---------------------------------------------------------------------------------------------

    async def leaderboard(self, pool: PoolKey, limit: int) -> list[tuple[Player, Standing]]:
        """The pool's best ``limit`` players, best first."""
        return [(player_of(r), standing_of(r)) for r in await self.rows.leaderboard(pool, limit)]

    async def players(self, pool: PoolKey) -> int:
        return await self.rows.players(pool)

    async def games_rated(self, guild_id: int) -> list[str]:
        """The games with ratings in a server."""
        return await self.rows.pools_of(guild_id)

    async def card(self, guild_id: int, player: Player) -> list[Card]:
        """The player's cards in a server, one per game they are rated in."""
        cards = []
        for game in await self.rows.pools_of(guild_id):
            pool = (guild_id, game)
            row = await self.rows.standing(pool, player.user_id, player.level)
            if row is None:
                continue
            standing = standing_of(row)
            history = await self.rows.changes_of(pool, player.user_id, player.level)
            ratings = tuple(Standing(mu=float(r["mu"]), sigma=float(r["sigma"])).rating for r in history[-HISTORY:])
            position = 1 + await self.rows.above(pool, standing.rating)
            cards.append(Card(game, standing, position, await self.rows.players(pool), ratings))
        return cards

    async def of_game(self, game_id: int) -> list[Change]:
        """How a rated game moved its seats' ratings (empty if it is not rated)."""
        return [
            Change(
                int(r["game_id"]),
                float(r["finished_at"]),
                Placing(int(r["seat"]), player_of(r), int(r["place"]), bool(r["won"])),
                (float(r["mu_before"]), float(r["sigma_before"])),
                (float(r["mu"]), float(r["sigma"])),
            )
            for r in await self.rows.of_game(game_id)
        ]

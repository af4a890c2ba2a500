"""``/game mine`` with 10,000 games stored (issue 27): how long the bot takes to answer it, from reading the
asker's games to the finished list (the embed, in English), on SQLite and on PostgreSQL.

The database holds ``--games`` games (default 10,000) among ``--users`` people (default 2,000): 70% finished, 25%
running (each with a real engine state, Carcassonne or Catan, taken at a random point of a random game), 5% lobbies;
two to four people a game. A few ``--regulars`` (default 20) play far more than the others: each sits in ``--share``
games (default 100, about 25 of them open). Each asker's answer is timed cold (the host's caches of games emptied
first, as after a restart: every state is read and parsed) and warm (asked again at once).

For comparison, the same answer without the players index: every open game read and its seats searched, as the bot
would have to without migration 7.

    python bench/mine_bench.py [--games 10000] [--users 2000] [--askers 300] [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.flows import mine
from bot.host import Services
from bot.lineup import GAMES
from bot.storage import Database, Games
from bot.storage.opening import open_database
from bot.text.i18n import speaking
from engine import game_class

GUILDS = 50
STATES_PER_KIND = 8  # distinct engine states per game and player count


@dataclass
class Guild:
    name: str


class Host:
    """What ``bot.flows.mine`` asks of the bot: the game rows, people's settings, the games' adapters, the servers'
    names."""

    def __init__(self, service: Services) -> None:
        self.rows = service.rows
        self.people = service.people
        self._adapters = {adapter.name: adapter for adapter in GAMES}

    def adapter(self, name: str) -> Any:
        return self._adapters[name]

    def get_guild(self, guild_id: int) -> Guild | None:
        return Guild(f"Server {guild_id}")


def states(rng: random.Random) -> dict[tuple[str, int], list[str]]:
    """Engine states of running games (as stored: JSON), by game and number of players."""
    found: dict[tuple[str, int], list[str]] = {}
    for name in ("carcassonne", "catan"):
        for players in (2, 3, 4):
            if name == "catan" and players == 2:
                continue
            kept = []
            while len(kept) < STATES_PER_KIND:
                game = game_class(name).new([f"P{i}" for i in range(players)], {}, rng.getrandbits(32))
                for _ in range(rng.randrange(5, 150)):
                    if game.finished:
                        break
                    game.apply(game.random_action(rng))
                if not game.finished:
                    kept.append(json.dumps(game.to_json(), separators=(",", ":")))
            found[name, players] = kept
    return found


async def fill(db: Database, args: argparse.Namespace, rng: random.Random) -> list[int]:
    """Store the games and the players index; the regulars' user ids."""
    pool = states(rng)
    users = list(range(1, args.users + 1))
    regulars = users[: args.regulars]
    columns = [
        "id", "guild_id", "channel_id", "game", "status", "host_id", "options", "seed", "seats", "state", "version",
        "turn_started_at", "created_at", "updated_at", "finished_at", "winners", "message_id",
    ]  # fmt: skip
    games: list[tuple[Any, ...]] = []
    players: list[tuple[int, int]] = []
    now = time.time()
    for game_id in range(1, args.games + 1):
        status = rng.choices(("finished", "active", "lobby"), weights=(70, 25, 5))[0]
        name = rng.choice(("carcassonne", "catan"))
        count = rng.randint(3 if name == "catan" else 2, 4)
        seated: list[int] = []
        if rng.random() < args.regulars * args.share / args.games / 3:  # the regulars' share of all seats
            seated.append(rng.choice(regulars))
        while len(seated) < count:
            user = rng.choice(users)
            if user not in seated:
                seated.append(user)
        rng.shuffle(seated)
        seats = json.dumps([{"user_id": u, "name": f"Player {u}"} for u in seated])
        state = rng.choice(pool[name, count]) if status != "lobby" else None
        started = now - rng.uniform(0, 14 * 24 * 3600)
        games.append((
            game_id, 1000 + game_id % GUILDS, 10_000 + game_id, name, status, seated[0], "{}", rng.getrandbits(32),
            seats, state, rng.randrange(1, 400), started, started, started,
            started if status == "finished" else None, "[]" if status == "finished" else None, 20_000 + game_id,
        ))  # fmt: skip
        players += [(user, game_id) for user in seated]
    for start in range(0, len(games), 1000):
        await db.insert_rows("games", columns, games[start : start + 1000])
    for start in range(0, len(players), 5000):
        await db.insert_rows("players", ["user_id", "game_id"], players[start : start + 5000])
    return regulars


async def without_index(service: Services, host: Host, user_id: int) -> None:
    """The same list without the players index: every open game read, its seats searched."""
    rows = [r for r in await service.rows.games.with_status("lobby", "active") if r.seat_of(user_id) is not None]
    entries = [mine.entry(host, row, user_id) for row in rows]  # type: ignore[arg-type]
    mine.fitted([e.text for e in entries if e is not None], 4000)


async def timed(work: Awaitable[object]) -> float:
    """Milliseconds ``work`` (a coroutine: nothing runs before it is awaited) takes."""
    started = time.perf_counter()
    await work
    return (time.perf_counter() - started) * 1000


def quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def line(name: str, values: Sequence[float]) -> str:
    return (
        f"| {name} | {len(values)} | {statistics.median(values):.1f} | {quantile(values, 0.95):.1f} | "
        f"{max(values):.1f} |"
    )


async def measure(target: str | Path, args: argparse.Namespace, label: str) -> None:
    rng = random.Random(args.seed)
    db = await open_database(target)
    try:
        regulars = await fill(db, args, rng)
        service = Services.over(Games(db), random.Random(1))
        host = Host(service)
        askers = [*regulars, *rng.sample(range(args.regulars + 1, args.users + 1), args.askers - len(regulars))]
        rng.shuffle(askers)
        open_games: list[int] = []
        cold: list[float] = []
        warm: list[float] = []
        cold_regular: list[float] = []
        naive: list[float] = []
        with speaking("en"):
            for user in regulars[:2]:  # once per process: the connections, the engines' first states
                await mine.reply(host, user)  # type: ignore[arg-type]  # (a stub host)
            for user in askers:
                service.rows._cache.clear()  # as after a restart: every state read and parsed again
                service.rows._rows.clear()
                took = await timed(mine.reply(host, user))  # type: ignore[arg-type]
                (cold_regular if user in regulars else cold).append(took)
                warm.append(await timed(mine.reply(host, user)))  # type: ignore[arg-type]
                open_games.append(len(await service.rows.open_of(user)))
            for user in askers[: args.naive]:
                naive.append(await timed(without_index(service, host, user)))
        counted = await db.fetchone("SELECT COUNT(*) FROM games")
        running = await db.fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
        regular_open = [n for u, n in zip(askers, open_games, strict=True) if u in regulars]
        print(f"\n{label}: {counted[0] if counted else 0} games stored ({running[0] if running else 0} running), "
              f"{args.users} people; open games per asker: median {statistics.median(open_games):.0f}, "
              f"regulars {min(regular_open)}-{max(regular_open)}")  # fmt: skip
        print("| /game mine answer | askers | p50 ms | p95 ms | max ms |")
        print("|---|---|---|---|---|")
        print(line("cold, everyone", cold + cold_regular))
        print(line("cold, the regulars", cold_regular))
        print(line("warm (asked again)", warm))
        print(line("without the players index, warm", naive))
    finally:
        await db.close()


def stored_games_options(parser: argparse.ArgumentParser) -> None:
    """The options of the stored games (``fill``) and of the databases (``on_each_database``)."""
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--users", type=int, default=2_000)
    parser.add_argument("--regulars", type=int, default=20)
    parser.add_argument("--share", type=int, default=100, help="games each regular sits in, about")
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--postgres", action="store_true", help="also on a throwaway PostgreSQL server")


async def on_each_database(
    measure: Callable[[str | Path, argparse.Namespace, str], Awaitable[None]], args: argparse.Namespace
) -> None:
    """``measure`` on a SQLite file, then (``--postgres``) on a throwaway PostgreSQL server."""
    with tempfile.TemporaryDirectory() as tmp:
        await measure(Path(tmp) / "bench.sqlite3", args, "SQLite")
    if args.postgres:
        from tests.postgres import Server  # lazy: only with --postgres

        server = Server().start()
        if server.dsn is None:
            print(f"\nPostgreSQL: {server.why_not}")
            return
        try:
            await measure(server.dsn, args, "PostgreSQL")
        finally:
            server.stop()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    stored_games_options(parser)
    parser.add_argument("--askers", type=int, default=300)
    parser.add_argument("--naive", type=int, default=30, help="askers timed without the players index")
    await on_each_database(measure, parser.parse_args())


if __name__ == "__main__":
    asyncio.run(main())

"""What the minute's sweeps cost the event loop with many games running: the reads of the reminder, away and computer
players' sweeps (``bot.flows.reminders``, ``bot.flows.away``, ``bot.flows.computer_turns``) and the engine games the
computer players' sweep looks at, against reading every running game, as the sweeps did before.

The database is ``bench/mine_bench.py``'s (``--games`` stored, a quarter running, with real engine states), each
running game left as the sweeps would leave it (every reminder its wait has reached already sent), ``--computers``
of the running games with a computer seat and ``--away`` with the away rule "a computer plays". CPU is the event loop
thread's (``time.thread_time``): the reads' rows turned into game rows, the states parsed; the database's own work
runs on its thread and shows in the wall time only. The longest hold is the longest the event loop went without
running a timer meanwhile: what a click arriving then waited before the bot could even read it (a sweep's games are
looked at one after another without a pause: ``bot.core.funnel.each_game``).

    python bench/sweep_bench.py [--games 10000] [--rounds 3] [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from mine_bench import fill, on_each_database, stored_games_options

from bot.app import GC_THRESHOLDS
from bot.core.config import Config
from bot.core.funnel import each_game
from bot.host import Services
from bot.host.computer_seats import computers_owing
from bot.storage import Database, GameRow, Games
from bot.storage.opening import open_database

DELAYS = Config().reminder_after  # the shipped reminders: after 12 and 24 hours


class Held:
    """The longest the event loop went without running a 1 ms timer: what a click arriving then waited, at least."""

    def __init__(self) -> None:
        self.longest = 0.0

    async def run(self) -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            self.longest = max(self.longest, time.perf_counter() - before - 0.001)


async def settle(db: Database, now: float, args: argparse.Namespace, rng: random.Random) -> None:
    """Each running game as the sweeps leave it: its reached reminders sent; some with a computer seat or rule."""
    for game_id, started, seats_json in await db.fetchall(
        "SELECT id, turn_started_at, seats FROM games WHERE status = 'active' ORDER BY id"
    ):
        seats = json.loads(seats_json)
        if rng.random() < args.computers:
            seats[-1]["level"] = "standard"
        await db.execute(
            "UPDATE games SET reminders_sent = ?, seats = ?, away_rule = ? WHERE id = ?",
            (
                sum(1 for delay in DELAYS if now - started >= delay),
                json.dumps(seats),
                "computer" if rng.random() < args.away else "wait",
                game_id,
            ),
        )


async def measure(target: str | Path, args: argparse.Namespace, label: str) -> None:
    rng = random.Random(args.seed)
    db = await open_database(target)
    try:
        await fill(db, args, rng)
        now = time.time()
        await settle(db, now, args, rng)
        rows = Services.over(Games(db), random.Random(1)).rows

        async def every_running_game() -> str:
            for _ in range(2):  # the reminder and away sweeps' reads
                await rows.games.with_status("active")
            running = await rows.games.with_status("active")
            owing = sum(1 for row in running if computers_owing(row, rows.game(row)))
            return f"3 x {len(running)} rows read, {len(running)} games looked at ({owing} owing)"

        async def the_sweeps_own_reads() -> str:
            due = await rows.awaiting_reminder(now, DELAYS)
            away = await rows.with_away_rules()
            computers = await rows.with_computers()
            owing: list[int] = []

            async def look(row: GameRow) -> None:  # as the computer players' sweep looks at a game
                if computers_owing(row, rows.game(row)):
                    owing.append(row.id)

            await each_game(computers, "a look", look)
            return (f"{len(due)} + {len(away)} + {len(computers)} rows read, {len(computers)} games looked at "
                    f"({len(owing)} owing)")  # fmt: skip

        running = await db.fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
        print(f"\n{label}: {args.games} games stored, {running[0] if running else 0} running")
        print("| a minute's sweeps read | event loop CPU ms (rounds) | longest hold of the loop, ms | wall ms | what |")
        print("|---|---|---|---|---|")
        ways: list[tuple[str, Callable[[], Awaitable[str]]]] = [
            ("every running game (before)", every_running_game),
            ("each sweep its own games", the_sweeps_own_reads),
        ]
        results: dict[str, tuple[list[float], list[float], str]] = {name: ([], [], "") for name, _ in ways}
        held: dict[str, list[float]] = {name: [] for name, _ in ways}
        # The collector as the bot sets it once started: what was made before frozen, collections rarer. Each way
        # starts with no garbage of the one before (a full collection of it would land in the next one's hold).
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        for _ in range(args.rounds):  # in turn, so that a busy minute hits both
            for name, way in ways:
                gc.collect()
                watch = Held()
                watching = asyncio.create_task(watch.run())
                await asyncio.sleep(0.01)
                wall, cpu = time.perf_counter(), time.thread_time()
                what = await way()
                cpus, walls, _ = results[name]
                cpus.append(1000 * (time.thread_time() - cpu))
                walls.append(1000 * (time.perf_counter() - wall))
                results[name] = (cpus, walls, what)
                await asyncio.sleep(0.005)  # the watch sees the last stretch too
                watching.cancel()
                held[name].append(1000 * watch.longest)
        for name, (cpus, walls, what) in results.items():
            print(f"| {name} | {', '.join(f'{c:.0f}' for c in cpus)} | {', '.join(f'{h:.0f}' for h in held[name])} | "
                  f"{', '.join(f'{w:.0f}' for w in walls)} | {what} |")  # fmt: skip
    finally:
        await db.close()
        gc.unfreeze()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    stored_games_options(parser)
    parser.add_argument("--computers", type=float, default=0.10, help="share of running games with a computer seat")
    parser.add_argument("--away", type=float, default=0.05, help="share with the away rule 'a computer plays'")
    parser.add_argument("--rounds", type=int, default=3)
    await on_each_database(measure, parser.parse_args())


if __name__ == "__main__":
    asyncio.run(main())

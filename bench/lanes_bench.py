"""Turn images while timelapses are drawn (issue 29): the bot's drawing processes alone, with and without the
background lane, taking turns in one run.

Each run starts a ``bot.core.rendering.Renderer`` with ``--processes`` drawing processes, as the bot does, and asks
for turn images (``render.board_png`` of Carcassonne boards of 20 to 100 tiles, base game, in the
interactive lane) at ``--rate`` a second, evenly spread, while a game's timelapse (a whole game, about 70 frames)
is asked for every ``--every`` seconds in the background lane. Two sides:

- ``lanes``: the bot as it is, background work in a process of its own at a lower OS priority;
- ``one queue``: ``background=0``, background jobs drawn by the same processes as the turn images (behind those
  already waiting, as before issue 29 every job was, first come first served).

For each run: how many turn images and timelapses were drawn, and the turn images' latency from asking to the PNG
(p50, p95, p99, max ms). The background process is started (and warmed up) before the clock starts, as in a bot
that has drawn a timelapse in the last two minutes. Runs alternate (A B, B A, ...), so that the machine's other
load falls on both; the table gives each run and the medians per side.

Run: ``python bench/lanes_bench.py [--rounds 2] [--seconds 20] [--rate 50] [--every 2.5] [--processes 2]``.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

import render
from bot.core.rendering import Job, Lane, Renderer
from engine import game_class
from engine.cli import Parser, decimal_number, run_command, whole_number


def game_views(seed: int) -> list[Any]:
    """The spectator's view after each placed tile of a random two-player base game."""
    game = game_class("carcassonne").new(["Alice", "Bob"], {"river": False}, seed)
    moves = random.Random(seed)
    views = [game.view(None)]
    while not game.finished:
        tiles = len(game.view(None)["tiles"])
        game.apply(game.random_action(moves))
        if len(game.view(None)["tiles"]) > tiles:
            views.append(game.view(None))
    return views


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def run(
    side: str, args: Any, boards: list[dict[str, Any]], timelapses: list[list[dict[str, Any]]]
) -> dict[str, Any]:
    renderer = Renderer(args.processes, background=1 if side == "lanes" else 0)
    await renderer.start()
    try:
        await renderer.png(Job(render.board_png, boards[0]), lane=Lane.BACKGROUND)  # the background process is up
        latencies: list[float] = []
        drawn_timelapses = 0

        async def turn(view: dict[str, Any]) -> None:
            started = time.perf_counter()
            await renderer.png(Job(render.board_png, view), lane=Lane.INTERACTIVE)
            latencies.append(time.perf_counter() - started)

        async def timelapse(views: list[dict[str, Any]]) -> None:
            nonlocal drawn_timelapses
            await renderer.png(Job(render.timelapse_bytes, views), lane=Lane.BACKGROUND)
            drawn_timelapses += 1

        turns: list[asyncio.Task[None]] = []
        lapses: list[asyncio.Task[None]] = []
        start = time.perf_counter()
        asked = timelapses_asked = 0
        while (now := time.perf_counter() - start) < args.seconds:
            if now >= timelapses_asked * args.every:
                lapses.append(asyncio.create_task(timelapse(timelapses[timelapses_asked % len(timelapses)])))
                timelapses_asked += 1
            turns.append(asyncio.create_task(turn(boards[asked % len(boards)])))
            asked += 1
            await asyncio.sleep(max(0.0, asked / args.rate - (time.perf_counter() - start)))
        await asyncio.gather(*turns)
        elapsed = time.perf_counter() - start
        for task in lapses:  # the timelapses still being drawn are not waited for
            task.cancel()
        await asyncio.gather(*lapses, return_exceptions=True)
    finally:
        renderer.close()
    ms = [1000 * x for x in latencies]
    return {
        "side": side,
        "turn_images": len(ms),
        "turn_images_per_s": round(len(ms) / elapsed, 1),
        "timelapses_asked": timelapses_asked,
        "timelapses_drawn": drawn_timelapses,
        "p50_ms": round(percentile(ms, 0.5), 1),
        "p95_ms": round(percentile(ms, 0.95), 1),
        "p99_ms": round(percentile(ms, 0.99), 1),
        "max_ms": round(max(ms), 1),
    }


async def main_async(args: Any) -> dict[str, Any]:
    games = [game_views(seed) for seed in range(1, 4)]
    boards = [view for views in games for view in views if 20 <= len(view["tiles"]) <= 100]
    random.Random(0).shuffle(boards)
    runs = []
    for round_ in range(args.rounds):
        for side in ("lanes", "one queue") if round_ % 2 == 0 else ("one queue", "lanes"):
            result = await run(side, args, boards, games)
            print(json.dumps(result), file=sys.stderr)
            runs.append(result)
    medians = {
        side: {
            key: statistics.median(r[key] for r in runs if r["side"] == side)
            for key in ("turn_images_per_s", "timelapses_drawn", "p50_ms", "p95_ms", "p99_ms", "max_ms")
        }
        for side in ("lanes", "one queue")
    }
    return {"load_average": os.getloadavg(), "runs": runs, "medians": medians}


def main() -> int:
    parser = Parser(prog="python bench/lanes_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=whole_number(1), default=2, help="runs of each side (default 2)")
    parser.add_argument("--seconds", type=decimal_number(0, above=True), default=20.0, help="length of a run")
    parser.add_argument("--rate", type=decimal_number(0, above=True), default=50.0, help="turn images a second")
    parser.add_argument("--every", type=decimal_number(0, above=True), default=2.5, help="seconds between timelapses")
    parser.add_argument("--processes", type=whole_number(1), default=2, help="interactive drawing processes")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(main_async(args)), indent=1))
    return 0


if __name__ == "__main__":
    run_command(main)

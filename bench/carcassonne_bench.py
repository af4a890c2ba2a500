"""Carcassonne engine benchmarks (issue 2 targets).

1. Legal placements for the drawn tile on boards of 80+ tiles: p50/p95/p99 in microseconds (target p95 < 1 ms).
   Measured cold: the game's per-turn cache is cleared before every call (the per-pattern fit table is a
   process-wide memo and stays warm, as it does in the bot).
2. Complete random 2-player games per second with River and Tower on, through ``python -m engine selfplay``
   (target >= 50 games/s on one core).

Run: ``python bench/carcassonne_bench.py [--games 200]``; prints one JSON object.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's engine, whatever is installed

from engine.carcassonne import Carcassonne
from engine.cli import Parser, run_command, whole_number

ROOT = Path(__file__).resolve().parent.parent


def placement_latencies(games: int, seed: int) -> list[float]:
    samples: list[float] = []
    for index in range(games):
        game = Carcassonne.new(["A", "B"], {"river": True, "tower": True}, seed + index)
        policy = random.Random(seed + index)
        while not game.finished:
            if game.phase == "place" and len(game.board) >= 80:
                for _ in range(5):
                    game._cache = None
                    started = time.perf_counter_ns()
                    game.legal_placements()
                    samples.append((time.perf_counter_ns() - started) / 1000)
            game.apply(game.random_action(policy))
    return samples


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def main() -> int:
    parser = Parser(prog="python bench/carcassonne_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole_number(1), default=200, help="random games to time (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and of the sampled boards")
    args = parser.parse_args()
    samples = placement_latencies(max(10, args.games // 10), args.seed)
    out = subprocess.run(
        [sys.executable, "-m", "engine", "selfplay", "carcassonne", "--games", str(args.games), "--seed",
         str(args.seed), "--players", "2", "--option", "river=true", "--option", "tower=true"],
        capture_output=True, text=True, cwd=ROOT,
    )  # fmt: skip
    if out.returncode != 0:
        sys.stderr.write(f"python -m engine selfplay failed: {out.stderr.strip()}\n")
        return 1
    selfplay = json.loads(out.stdout)
    print(
        json.dumps(
            {
                "legal_placements_80plus_tiles_us": {
                    "samples": len(samples),
                    "p50": round(percentile(samples, 50), 1),
                    "p95": round(percentile(samples, 95), 1),
                    "p99": round(percentile(samples, 99), 1),
                    "target_p95": 1000,
                },
                "selfplay_2p_river_tower": selfplay,
                "target_games_per_second": 50,
            },
            indent=2,
        )
    )
    return 0


if __name__ == "__main__":
    run_command(main)

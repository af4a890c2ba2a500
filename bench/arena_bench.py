"""Computer-player strength and speed (issue 7 targets), through the same code as ``python -m engine arena``.

For each configuration, ``standard`` plays ``random`` in 2-player Carcassonne, seats alternating:

- strength: ``standard`` wins at least 90% of the games (a shared win counts);
- speed: a ``standard`` decision takes under 50 ms at the 95th percentile, wall clock (``time.perf_counter``, as
  the arena command reports it). The machine is shared, so the script also reports the same percentile in CPU
  time of this process (``time.process_time``) over a smaller run, which other work on the machine does not
  inflate.

Run: ``python bench/arena_bench.py [--games 200] [--seed 1] [--cpu-games 20] [--config default|river+tower]``;
prints one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.ai.arena import arena
from engine.cli import Parser, run_command, whole_number

CONFIGS: dict[str, dict[str, Any]] = {
    "default": {},  # River on, Tower off
    "river+tower": {"river": True, "tower": True},
}


def run(config: str, games: int, seed: int, cpu_games: int) -> dict[str, Any]:
    options = CONFIGS[config]
    started = time.perf_counter()
    wall = arena("carcassonne", ["standard", "random"], games, seed, options, time.perf_counter)
    seconds = time.perf_counter() - started
    cpu = arena("carcassonne", ["standard", "random"], cpu_games, seed + 1, options, time.process_time)
    p95_wall = wall["seconds_per_decision_p95"]["standard"]
    p95_cpu = cpu["seconds_per_decision_p95"]["standard"]
    return {
        "options": options,
        "arena": wall,
        "standard_win_rate": wall["win_rates"][0],
        "standard_p95_ms_wall": round(1000 * p95_wall, 2),
        "standard_p95_ms_cpu": round(1000 * p95_cpu, 2),
        "cpu_run_games": cpu_games,
        "seconds": round(seconds, 1),
        "meets_strength": wall["win_rates"][0] >= 0.9,
        "meets_speed": p95_wall < 0.05,
    }


def main() -> int:
    parser = Parser(prog="python bench/arena_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", type=whole_number(1), default=200, help="games timed by the wall clock (default 200)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    parser.add_argument(
        "--cpu-games", type=whole_number(1), default=20, help="further games timed in CPU time (default 20)"
    )
    parser.add_argument(
        "--config", choices=list(CONFIGS), action="append", help="one configuration (repeat for several; default all)"
    )
    args = parser.parse_args()
    results = {name: run(name, args.games, args.seed, args.cpu_games) for name in args.config or list(CONFIGS)}
    sys.stdout.write(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    run_command(main)

"""Catan ``expert`` against three ``standard`` players in our engine (issue 28), with its decision times.

Plays N four-player games with ``engine.ai.arena.play_one`` (seats rotate: game i puts the expert in seat i mod 4)
and prints one JSON line: the expert's wins, its win rate with a Wilson 95% interval (par is 25%), mean points,
and its decision time mean, p95 and max over every decision it made, with the load. ``--clock cpu`` times the
decisions in the worker's CPU time (what one free core takes; a shared machine's waits left out), ``--clock wall``
(the default) in wall time.

Seeds: ``--seeds eval`` (games seeded 3000001, 3000002, ...) for reported figures, ``--seeds tune`` (4000001, ...)
for tuning; the ranges never meet.

``--no-domestic``: the ``standard`` players make no domestic offers (the expert makes none anyway), as under
catanatron's rules, which have no domestic trade: a tuning ground nearer the games against catanatron's players.

Run (under nice, 2 workers at most on a shared machine)::

    nice -n 19 python bench/catan_expert_arena.py --games 400 --seeds eval --workers 2
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from multiprocessing import Pool
from pathlib import Path
from typing import Any, Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai.arena import Tally, percentile, play_one, wilson
from engine.ai.catan import StandardCatanPolicy
from engine.catan.game import Catan

SEED_BASE: Final = {"eval": 3_000_000, "tune": 4_000_000}


CLOCKS: Final = {"wall": time.perf_counter, "cpu": time.process_time}


def _no_offer(*_: Any) -> None:
    return None


@contextmanager
def without_domestic_offers() -> Iterator[None]:
    """Inside the block the ``standard`` players make no domestic offers (catanatron's rules have none)."""
    offer = StandardCatanPolicy.offer
    StandardCatanPolicy.offer = _no_offer  # type: ignore[method-assign]
    try:
        yield
    finally:
        StandardCatanPolicy.offer = offer  # type: ignore[method-assign]


def one(job: tuple[int, int, str, str, str, bool]) -> dict[str, Any]:
    index, seed, level, against, clock, no_domestic = job
    levels = [level, against, against, against]
    # Game i: the expert (entry 0) sits in seat i mod 4, the others fill the rest.
    seats = [(s - index) % 4 for s in range(4)]
    tally = Tally(levels[:1] + [f"{against}#{k}" for k in (1, 2, 3)])
    tally.times = {level: [], against: []}
    with without_domestic_offers() if no_domestic else nullcontext():
        game = play_one(Catan, levels, seats, {}, seed, CLOCKS[clock], tally)
    mine = seats.index(0)
    result = game.result()
    return {
        "index": index,
        "seed": seed,
        "won": mine in result["winners"],
        "finished": result["finished"],
        "points": result["scores"][mine],
        "times": tally.times[level],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--against", default="standard")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seeds", choices=tuple(SEED_BASE), default="eval")
    parser.add_argument(
        "--clock",
        choices=tuple(CLOCKS),
        default="wall",
        help="decision times as wall time (default) or the worker's CPU time (what one free core would take)",
    )
    parser.add_argument("--set", action="append", default=[], help="tuning only: NAME=VALUE of catan_expert")
    parser.add_argument("--log", help="append each game's result here, a JSON line each (to pair two runs' games)")
    parser.add_argument(
        "--no-domestic", action="store_true", help="the standard players make no offers (as catanatron's rules)"
    )
    args = parser.parse_args()
    if args.set:
        import engine.ai.catan_expert as expert

        for item in args.set:
            name, raw = item.split("=")
            setattr(expert, name, type(getattr(expert, name))(raw))
    base = SEED_BASE[args.seeds]
    jobs = [
        (i, base + 1 + i, args.level, args.against, args.clock, args.no_domestic)
        for i in range(args.first, args.first + args.games)
    ]
    started = time.time()
    with Pool(args.workers) as pool:
        results = []
        for done in pool.imap_unordered(one, jobs):
            results.append(done)
            if args.log:
                with open(args.log, "a", encoding="utf-8") as log:
                    log.write(json.dumps({k: v for k, v in done.items() if k != "times"}) + "\n")
            print(f"\r{len(results)}/{len(jobs)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    wins = sum(r["won"] for r in results)
    times = [t for r in results for t in r["times"]]
    report = {
        "bench": "catan_expert_arena",
        "level": args.level,
        "set": args.set,
        "no_domestic": args.no_domestic,
        "against": f"3 {args.against}",
        "seeds": args.seeds,
        "games": len(results),
        "wins": wins,
        "win_rate": round(wins / len(results), 4),
        "wilson95": [round(x, 4) for x in wilson(wins, len(results))],
        "par": 0.25,
        "unfinished": sum(not r["finished"] for r in results),
        "mean_points": round(sum(r["points"] for r in results) / len(results), 2),
        "clock": args.clock,
        "decisions": len(times),
        "decision_ms_mean": round(1000 * sum(times) / max(1, len(times)), 2),
        "decision_ms_p95": round(1000 * percentile(times, 0.95), 2),
        "decision_ms_max": round(1000 * max(times, default=0.0), 2),
        "wall_seconds": round(time.time() - started, 1),
        "load": os.getloadavg(),
    }
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

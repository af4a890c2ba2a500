"""How many points the computer players can reach: Catan games played to their end at each ``points_to_win``.

For every line-up of computer players and every value, ``--games`` games are played through the code of
``python -m engine arena`` (seats rotating, a new random map each game): a game either finishes, is cut short
because nobody can reach the points any more (``Game.stalled``: the pieces, free intersections, awards and
development cards left cannot add up to them), or is still going at ``engine.limits.MAX_ACTIONS`` actions. The
completion rate per value is what limits ``points_to_win`` in the engine and the lobby (bench/README.md).

Run: ``python bench/points_to_win.py [--games 100] [--seed 1] [--values 10-18]
[--players standard,standard,standard,standard --players ...]``; prints one JSON object, and the table of
completion rates on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.catan.options
from engine.ai.arena import Tally, play_one, seating
from engine.ai.base import LEVELS
from engine.catan import Catan
from engine.cli import Parser, Progress, play_random_game, run_command, whole_number
from engine.limits import MAX_ACTIONS

LINEUPS = (
    "standard,standard,standard,standard",
    "standard,standard,standard",
    "random,random,random,random",
    "random,random,random",
    "selfplay,selfplay,selfplay,selfplay",
    "selfplay,selfplay,selfplay",
)
SELFPLAY = "selfplay"  # the uniformly random moves of ``python -m engine selfplay`` (``Game.random_action``)


def values_range(text: str) -> list[int]:
    """``10-18`` or ``10,12,14``: the points_to_win values to try, each from 3 to 30."""
    try:
        if "-" in text:
            low, high = (int(part) for part in text.split("-", 1))
            values = list(range(low, high + 1))
        else:
            values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give a range such as 10-18 or a list such as 10,12,14") from None
    if not values or not all(3 <= v <= 30 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r}: give values from 3 to 30, the lower first (e.g. 10-18)")
    return values


def lineup(text: str) -> list[str]:
    """``standard,random,random``: one computer level per seat, 3 or 4 seats."""
    levels = [level.strip() for level in text.split(",")]
    known = (*LEVELS, SELFPLAY)
    if not Catan.MIN_PLAYERS <= len(levels) <= Catan.MAX_PLAYERS or not all(level in known for level in levels):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give {Catan.MIN_PLAYERS} or {Catan.MAX_PLAYERS} computer levels separated by commas "
            f"(levels: {', '.join(known)})"
        )
    if SELFPLAY in levels and set(levels) != {SELFPLAY}:
        raise argparse.ArgumentTypeError(f"{text!r}: {SELFPLAY} plays every seat or none")
    return levels


def percentile(values: list[int], q: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def measure(levels: list[str], points: int, games: int, seed: int, progress: Progress) -> dict[str, Any]:
    tally = Tally(levels)
    turns: list[int] = []
    actions: list[int] = []
    options = {"points_to_win": points}
    for index in range(games):
        progress(index)
        if levels[0] == SELFPLAY:
            players = [f"P{seat + 1}" for seat in range(len(levels))]
            game, _, ended = play_random_game(Catan, players, options, seed + index, None, partial(progress, index))
            tally.outcomes.append(ended)
        else:
            game = play_one(
                Catan, levels, seating(len(levels), index), options, seed + index, time.perf_counter, tally, progress
            )
        if game.finished:
            result = game.result()
            turns.append(result["turn"])
            actions.append(result["actions"])
    outcomes = tally.outcomes
    return {
        "points_to_win": points,
        "games": games,
        "finished": outcomes.count("finished"),
        "nobody_can_win": outcomes.count("stalled"),
        "still_going": outcomes.count("limit"),
        "completion": round(outcomes.count("finished") / games, 3),
        "turns_p50_p95_max": [percentile(turns, 0.5), percentile(turns, 0.95), max(turns, default=0)],
        "actions_max": max(actions, default=0),
    }


def table(results: dict[str, list[dict[str, Any]]]) -> str:
    values = [row["points_to_win"] for row in next(iter(results.values()))]
    lines = [
        "| players | " + " | ".join(str(v) for v in values) + " |",
        "|---|" + "---|" * len(values),
    ]
    for name, rows in results.items():
        lines.append(f"| {name} | " + " | ".join(f"{100 * row['completion']:.0f}%" for row in rows) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python bench/points_to_win.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole_number(1), default=100, help="games per line-up and value (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="game i of each value is played on map seed + i")
    parser.add_argument(
        "--values",
        type=values_range,
        default=list(range(10, 19)),
        help="points_to_win values to try: a range (10-18, the default) or a list (10,12,14)",
    )
    parser.add_argument(
        "--players",
        type=lineup,
        action="append",
        help="a line-up of computer levels, one per seat (repeat for several; default: 4 and 3 "
        "standard, 4 and 3 random)",
    )
    args = parser.parse_args(argv)
    # Measure past the engine's limit (it is what this measures): in this process only.
    engine.catan.options.MAX_POINTS_TO_WIN = max(engine.catan.options.MAX_POINTS_TO_WIN, *args.values)
    lineups: list[list[str]] = args.players or [lineup(text) for text in LINEUPS]
    started = time.perf_counter()
    results: dict[str, list[dict[str, Any]]] = {}
    for levels in lineups:
        name = ",".join(levels)
        results[name] = []
        for points in args.values:
            progress = Progress(f"{name} to {points} points", args.games)
            results[name].append(measure(levels, points, args.games, args.seed, progress))
            progress.done()
    print(
        json.dumps(
            {
                "command": "python bench/points_to_win.py " + " ".join(sys.argv[1:] if argv is None else argv),
                "max_actions": MAX_ACTIONS,
                "results": results,
                "seconds": round(time.perf_counter() - started, 1),
            },
            indent=1,
        )
    )
    sys.stderr.write(table(results) + "\n")
    return 0


if __name__ == "__main__":
    run_command(main)

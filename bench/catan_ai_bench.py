"""Catan computer players against each other (issue 7 target: ``standard`` wins at least 60% of 4-player games
against three ``random`` players over 200 games; a ``standard`` decision under 50 ms at p95).

Each game is a new random map (seed ``seed + i``); the levels rotate one seat per game so every level plays
every seat equally. Every decision goes through ``engine.ai.decide`` (view + legal actions + policy), and its
wall time is what is measured, per level. Seats owing a reply to a trade offer (or a discard) are asked before
the active player, as a host waits for replies. A game still running after ``--max-actions`` counts as unfinished.

Run: ``python bench/catan_ai_bench.py [--games 200] [--seed 1] [--players standard,random,random,random]
[--max-actions 5000]``; prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import LEVELS, decide, policy_seed
from engine.catan import Catan
from engine.cli import Parser, run_command, whole_number


def next_seat(game: Catan) -> int:
    """Replies and discards first (the active player waits for them), then the active player."""
    for p in game.pending():
        if p["decision"] in ("trade_reply", "discard"):
            return int(p["seat"])
    return game.current


def play(levels: list[str], seed: int, max_actions: int, times: dict[str, list[float]]) -> dict[str, Any]:
    game = Catan.new([f"P{i}" for i in range(len(levels))], {}, seed=seed)
    step = 0
    while not game.finished and step < max_actions:
        seat = next_seat(game)
        rng = random.Random(policy_seed(seed, seat, step))
        started = time.perf_counter()
        action = decide(game, seat, levels[seat], rng)
        times[levels[seat]].append(time.perf_counter() - started)
        game.apply(action)
        step += 1
    return {"winner": game.winner, "turns": game.turn, "actions": step, "finished": game.finished}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def lineup(text: str) -> list[str]:
    """``standard,random,random,random``: one computer level per seat, 3 or 4 seats."""
    levels = [level.strip() for level in text.split(",")]
    if not Catan.MIN_PLAYERS <= len(levels) <= Catan.MAX_PLAYERS or not all(level in LEVELS for level in levels):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give {Catan.MIN_PLAYERS} or {Catan.MAX_PLAYERS} computer levels separated by commas "
            f"(levels: {', '.join(LEVELS)})"
        )
    return levels


def main() -> int:
    parser = Parser(prog="python bench/catan_ai_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole_number(1), default=200, help="games to play (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="game i is played on map seed + i (default 1)")
    parser.add_argument(
        "--players",
        type=lineup,
        default=lineup("standard,random,random,random"),
        help="computer levels, one per seat (default standard,random,random,random)",
    )
    parser.add_argument(
        "--max-actions",
        type=whole_number(1),
        default=5000,
        help="a game still going after this many actions counts as unfinished (default 5000)",
    )
    args = parser.parse_args()
    base = args.players
    n = len(base)
    times: dict[str, list[float]] = {level: [] for level in base}
    wins: dict[str, int] = dict.fromkeys(base, 0)
    unfinished = turns = 0
    started = time.perf_counter()
    for i in range(args.games):
        levels = [base[(s - i) % n] for s in range(n)]  # the levels move one seat each game
        out = play(levels, args.seed + i, args.max_actions, times)
        if out["winner"] is None:
            unfinished += 1
        else:
            wins[levels[out["winner"]]] += 1
        turns += out["turns"]
    elapsed = time.perf_counter() - started
    seats_per_level = {level: base.count(level) for level in base}
    result = {
        "command": "python bench/catan_ai_bench.py " + " ".join(sys.argv[1:]),
        "games": args.games,
        "players": base,
        "wins": wins,
        # A level filling several seats shares their wins: the rate is per seat of that level.
        "win_rate_per_seat": {lvl: round(wins[lvl] / args.games / seats_per_level[lvl], 3) for lvl in wins},
        "unfinished": unfinished,
        "mean_turns": round(turns / args.games, 1),
        "decision_ms": {
            lvl: {
                "decisions": len(ts),
                "p50": round(percentile(ts, 0.5) * 1000, 2),
                "p95": round(percentile(ts, 0.95) * 1000, 2),
                "max": round(max(ts, default=0.0) * 1000, 2),
            }
            for lvl, ts in times.items()
        },
        "seconds": round(elapsed, 1),
    }
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    run_command(main)

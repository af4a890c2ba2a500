"""Carcassonne ``expert`` against ``standard`` (issue 28): win rate with its Wilson interval, and decision times.

Two-player games, seats alternating (game ``i`` puts ``expert`` in seat ``i % 2``), each game seeded from one
stream (``--seed``) exactly as ``python -m engine arena`` seeds its games. Games run in up to ``--workers``
processes (default 2; run the whole script under ``nice -n 19`` on a shared machine). A shared win counts as a win
for both. Decision times are measured per computer decision twice: CPU time of the deciding process
(``time.process_time``, one core, what other work on the machine does not inflate) and wall clock
(``time.perf_counter``); the table gives mean, 95th percentile and maximum of each.

Tuning used other seeds than the reported figures (see bench/README.md): never tune on an evaluation seed.

Run: ``python bench/carcassonne_expert_arena.py [--games 400] [--seed 28001] [--first 0] [--config
base|river+tower] [--workers 2] [--opponent standard] [--params width=6,draws=12] [--log FILE]``; prints a table,
then one JSON object. ``--first F --games N`` plays games F to F+N-1 of the stream (ranges run side by side, each
with its own log, pair up with a whole run on the same seed). With ``--log``, each game is appended to FILE as it
ends, and a run cut short and started again with the same arguments plays only the games FILE does not hold yet.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import sys
import time
import traceback
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.ai import policy_for, policy_seed, situation
from engine.ai.arena import percentile, wilson
from engine.ai.carcassonne_expert import ExpertCarcassonne
from engine.carcassonne import Carcassonne
from engine.cli import Parser, run_command, whole_number

CONFIGS: dict[str, dict[str, Any]] = {
    "base": {"river": False, "tower": False},
    "river+tower": {"river": True, "tower": True},
}
EXPERT = "expert"


Job = tuple[int, int, str, str, dict[str, float]]


def play(job: Job) -> dict[str, Any]:
    """Game ``index`` with its seed: the expert's seat, both scores, and each expert decision's times."""
    try:
        return play_game(job)
    except Exception as error:  # a worker's own exception may not survive the trip back to the parent
        raise RuntimeError(f"game {job[0]} (seed {job[1]}): {traceback.format_exc()}") from error


def play_game(job: Job) -> dict[str, Any]:
    index, seed, config, opponent, params = job
    expert_seat = index % 2
    levels = [EXPERT, opponent] if expert_seat == 0 else [opponent, EXPERT]
    policies = [
        ExpertCarcassonne(**params) if level == EXPERT and params else policy_for("carcassonne", level)
        for level in levels
    ]
    game = Carcassonne.new([f"{level}-{s}" for s, level in enumerate(levels)], CONFIGS[config], seed)
    cpu: list[float] = []
    wall: list[float] = []
    step = 0
    while not game.finished:
        action = game.automatic_action()
        if action is None:
            seat = game.actors()[0]
            rng = random.Random(policy_seed(seed, seat, step))
            found = situation(game, seat, rng)
            c0, w0 = time.process_time(), time.perf_counter()
            action = policies[seat].choose(found)
            c1, w1 = time.process_time(), time.perf_counter()
            if levels[seat] == EXPERT:
                cpu.append(c1 - c0)
                wall.append(w1 - w0)
            assert action in found.legal, (action, found.legal)
        game.apply(action)
        step += 1
    return {
        "index": index,
        "expert_seat": expert_seat,
        "scores": list(game.scores),
        "breakdown": [dict(b) for b in game.breakdown],
        "winners": list(game.winners),
        "cpu": cpu,
        "wall": wall,
    }


def note(result: dict[str, Any], done: list[bool], games: int, log: str | None) -> dict[str, Any]:
    """Progress on standard error, every ten games, and each game as a JSON line in ``log``: a long run can be
    followed, and one cut short still adds up (``--from-log``)."""
    done.append(result["expert_seat"] in result["winners"])
    if log:
        with open(log, "a", encoding="utf-8") as out:
            out.write(json.dumps(result) + "\n")
    if len(done) % 10 == 0 or len(done) == games:
        sys.stderr.write(f"{len(done)}/{games} games, expert won {sum(done)}\n")
        sys.stderr.flush()
    return result


def timing(values: list[float]) -> dict[str, float]:
    if not values:
        return {"mean_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    return {
        "mean_ms": round(1000 * sum(values) / len(values), 1),
        "p95_ms": round(1000 * percentile(values, 0.95), 1),
        "max_ms": round(1000 * max(values), 1),
    }


def run(
    config: str,
    games: int,
    seed: int,
    workers: int,
    opponent: str,
    params: dict[str, float],
    log: str | None,
    first: int = 0,
) -> dict[str, Any]:
    seeds = random.Random(seed)
    jobs: list[Job] = [(i, seeds.getrandbits(48), config, opponent, params) for i in range(first + games)][first:]
    # A run cut short goes on where it stopped: the games already in ``log`` are counted, not played again.
    logged = logged_games(log) if log else []
    played = {r["index"] for r in logged}
    jobs = [job for job in jobs if job[0] not in played]
    started = time.perf_counter()
    done: list[bool] = [r["expert_seat"] in r["winners"] for r in logged]
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = [note(r, done, games, log) for r in pool.imap_unordered(play, jobs)]
    else:
        results = [note(play(job), done, games, log) for job in jobs]
    return add_up(config, [*logged, *results], seed, opponent, params, time.perf_counter() - started)


def logged_games(log: str) -> list[dict[str, Any]]:
    """The games a ``--log`` file holds (none if it does not exist yet)."""
    if not os.path.exists(log):
        return []
    with open(log, encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def add_up(
    config: str, results: list[dict[str, Any]], seed: int, opponent: str, params: dict[str, float], seconds: float
) -> dict[str, Any]:
    """The table's figures from the games played."""
    games = len(results)
    results = sorted(results, key=lambda r: r["index"])
    wins = sum(1 for r in results if r["expert_seat"] in r["winners"])
    ties = sum(1 for r in results if len(r["winners"]) > 1)
    by_seat = [sum(1 for r in results if r["expert_seat"] == s and s in r["winners"]) for s in (0, 1)]
    seat_games = [sum(1 for r in results if r["expert_seat"] == s) for s in (0, 1)]
    margin = sum(r["scores"][r["expert_seat"]] - r["scores"][1 - r["expert_seat"]] for r in results) / games
    low, high = wilson(wins, games)
    return {
        "config": config,
        "options": CONFIGS[config],
        "opponent": opponent,
        "params": params,
        "games": games,
        "seed": seed,
        "expert_wins": wins,
        "ties": ties,
        "win_rate": round(wins / games, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "wins_by_expert_seat": {f"seat{s}": f"{by_seat[s]}/{seat_games[s]}" for s in (0, 1)},
        "mean_margin": round(margin, 2),
        "mean_scores": {
            EXPERT: round(sum(r["scores"][r["expert_seat"]] for r in results) / games, 2),
            opponent: round(sum(r["scores"][1 - r["expert_seat"]] for r in results) / games, 2),
        },
        "mean_points_by_kind": {
            who: {
                kind: round(sum(r["breakdown"][abs(flip - r["expert_seat"])][kind] for r in results) / games, 2)
                for kind in results[0]["breakdown"][0]
            }
            for who, flip in ((EXPERT, 0), (opponent, 1))
        },
        "decision_cpu": timing([t for r in results for t in r["cpu"]]),
        "decision_wall": timing([t for r in results for t in r["wall"]]),
        "decisions": sum(len(r["cpu"]) for r in results),
        "seconds": round(seconds, 1),
    }


def table(result: dict[str, Any]) -> str:
    cpu, wall = result["decision_cpu"], result["decision_wall"]
    lo, hi = result["wilson95"]
    return "\n".join(
        [
            f"config {result['config']} {result['options']}, expert vs {result['opponent']}, "
            f"{result['games']} games, seed {result['seed']}, params {result['params'] or 'as shipped'}",
            f"  expert wins {result['expert_wins']}/{result['games']} = {100 * result['win_rate']:.1f}% "
            f"(Wilson 95% {100 * lo:.1f}-{100 * hi:.1f}%), ties {result['ties']}, "
            f"by seat {result['wins_by_expert_seat']}, mean margin {result['mean_margin']:+.1f}, "
            f"mean scores {result['mean_scores']}",
            f"  points by kind {result['mean_points_by_kind']}",
            f"  expert decision CPU ms: mean {cpu['mean_ms']} p95 {cpu['p95_ms']} max {cpu['max_ms']}; "
            f"wall ms: mean {wall['mean_ms']} p95 {wall['p95_ms']} max {wall['max_ms']} "
            f"({result['decisions']} decisions, {result['seconds']} s)",
        ]
    )


def main() -> int:
    parser = Parser(prog="python bench/carcassonne_expert_arena.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole_number(1), default=400, help="games per configuration (default 400)")
    parser.add_argument("--seed", type=int, default=28001, help="seed of the game stream (default 28001)")
    parser.add_argument(
        "--first", type=whole_number(0), default=0, help="index of the first game (default 0): ranges side by side"
    )
    parser.add_argument("--workers", type=whole_number(1), default=2, help="worker processes (default 2)")
    parser.add_argument("--opponent", default="standard", help="the other seat's level (default standard)")
    parser.add_argument(
        "--config", choices=list(CONFIGS), action="append", help="one configuration (repeat for several; default all)"
    )
    parser.add_argument(
        "--params", default="", help="expert settings for tuning runs, e.g. width=4,draws=8 (default: as shipped)"
    )
    parser.add_argument("--log", help="append each game to this file as a JSON line")
    parser.add_argument("--from-log", help="add up the games of a --log file (of one configuration) instead of playing")
    args = parser.parse_args()
    params = {k: float(v) if "." in v else int(v) for k, v in (p.split("=") for p in args.params.split(",") if p)}
    configs = args.config or list(CONFIGS)
    if args.from_log:
        results = [add_up(configs[0], logged_games(args.from_log), args.seed, args.opponent, params, 0.0)]
    else:
        results = [
            run(name, args.games, args.seed, args.workers, args.opponent, params, args.log, args.first)
            for name in configs
        ]
    for result in results:
        sys.stdout.write(table(result) + "\n")
    sys.stdout.write(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    run_command(main)

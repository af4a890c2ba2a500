"""Our Carcassonne computer players against an independent open agent, in that agent's own engine (issue 28).

Plays N two-player games of cschnelz/CarcassoneAI (https://github.com/cschnelz/CarcassoneAI: base Carcassonne,
its own engine, rules and agents): one seat our ``--level`` player through ``bench/cschnelz_bridge.py``, the other
one of its agents, ``--against greedy`` (``GreedyAgent``: the move with the best score difference as if the game
ended after it), ``greedy2`` (``Greedy2``: two plies over four samples of the stack) or ``mcts`` (``MCTS_Saver``
with its heuristic evaluation: the project's strongest, 50 samples x 250 iterations a move). Our seat alternates
(game i: seat i mod 2; seat 0 plays first), except against ``greedy2``, which is written for the second seat only
(it minimises the first seat's lead whatever its own seat: from the first seat it scored 0 in a game here), so it
always plays second. Its rules decide (the bridge's docstring lists where they differ from
ours); each game starts from one of the four D tiles, the rulebook's start tile, the rest of the stack shuffled by
the game's seed.

The project is not on any package registry and has no licence file: it is never copied here. ``--repo PATH`` is a
clone of it (bare or not; the commit used is printed); its code runs as it is, with two imports it makes for its
desktop view (``turtle``, and ``Render``, which needs PyQt5) replaced by empty modules. It is slow: its engine copies
its state for every move it weighs (a game of ``greedy`` against ``greedy2`` took 219 s of CPU here), so runs are
small.

Seeds: ``--seeds eval`` (games seeded 7000001, ...) for reported figures, ``--seeds tune`` (8000001, ...) never
used for them. A seed is one game: the games run with string hashing fixed (``PYTHONHASHSEED=0``: their legal
moves are a set of objects hashed by their text), each in a fresh worker process.

Run::

    nice -n 19 python bench/carcassonne_cschnelz_arena.py --level expert --against greedy --games 40 --workers 2 \\
        --repo /path/to/CarcassoneAI

Prints a table on stderr and one JSON line on stdout: games, our wins, ties, their wins, our win rate with its
Wilson 95% interval (ties as half a win in ``score_rate``), mean scores, our decision time (a turn: both our
decisions and the state rebuilt; mean, p95, max) and theirs, and ``fallbacks`` (a choice of ours with no equal
among their legal actions: should be 0). ``--log FILE`` keeps each game as a JSON line; ``--summarise FILE`` prints
the figures of a stopped run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.cschnelz_bridge import OurAgent, tile_table  # noqa: E402
from bench.paired import games  # noqa: E402
from engine.ai.arena import percentile, wilson  # noqa: E402

SEED_BASE: Final = {"eval": 7_000_000, "tune": 8_000_000}
AGENTS: Final = ("greedy", "greedy2", "mcts")
SOURCE: Final = "CarcassonneAI"  # the folder of the clone with the engine and its tile set


def checkout(repo: str) -> tuple[Path, str]:
    """The project's files from ``repo`` (a clone, bare or not) in a temporary folder, and the commit."""
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    folder = Path(tempfile.mkdtemp(prefix="cschnelz-"))
    archive = subprocess.run(["git", "-C", repo, "archive", "HEAD"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder / SOURCE, commit.stdout.strip()


def load_theirs(source: Path) -> dict[str, Any]:
    """Import their engine and agents (in this process: a worker's)."""
    for name, attrs in (("turtle", {"back": None}), ("Render", {"Renderer": object})):
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules.setdefault(name, module)
    sys.path.insert(0, str(source))
    os.chdir(source)  # their State reads its tile set from the working folder
    import Agents  # type: ignore[import-not-found]
    from Game import Game  # type: ignore[import-not-found]

    return {"Game": Game, "greedy": Agents.GreedyAgent, "greedy2": Agents.Greedy2, "mcts": Agents.MCTS_Saver}


def play(job: tuple[int, int, str, str, str]) -> dict[str, Any]:
    """One game in a worker: ``(index, seed, level, against, source folder)``."""
    import random

    index, seed, level, against, source = job
    theirs = load_theirs(Path(source))
    tiles = json.loads((Path(source) / "TileSetSepRoads.json").read_text())
    table = tile_table(tiles)
    start = next(i for i, t in enumerate(tiles) if t["img-code"] == "d")
    random.seed(seed)
    # Greedy2 is written for the second seat only (it minimises the first seat's lead, whatever its own seat): it
    # always plays second, as its author ran it; the other agents alternate with us.
    ours_seat = 0 if against == "greedy2" else index % 2
    clock = time.process_time
    ours = OurAgent(level, table, seed, clock)
    other = theirs["mcts"](info="Heuristic") if against == "mcts" else theirs[against]()
    players = [ours, other] if ours_seat == 0 else [other, ours]
    game = theirs["Game"](players=players, order=[start])
    their_seconds: list[float] = []
    started = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):  # their engine tells every score on stdout
        while not game.gameOver():
            player = game.currentPlayer()
            began = clock()
            action = player.agent.getResponse(game.getActions(), game=game, maxPlayer=player.id)
            if player.agent is not ours:
                their_seconds.append(clock() - began)
            game.applyAction(action)
        final = game.finalScore()
    mine, other_score = final[ours_seat], final[1 - ours_seat]
    return {
        "level": level,
        "against": against,
        "index": index,
        "seed": seed,
        "seat": ours_seat,
        "result": "ours" if mine > other_score else "theirs" if mine < other_score else "tie",
        "won": mine > other_score,
        "scores": [mine, other_score],
        "turns": int(game.state.turn),
        "seconds": round(time.perf_counter() - started, 2),
        "decisions": ours.stats.decisions,
        "fallbacks": ours.stats.fallbacks,
        "mismatches": ours.stats.mismatches,
        "refused": ours.stats.refused,
        "our_turn_seconds": [round(s, 5) for s in ours.stats.seconds],
        "their_turn_seconds": [round(s, 4) for s in their_seconds],
    }


def summarise(results: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(results)
    wins = sum(r["result"] == "ours" for r in results)
    ties = sum(r["result"] == "tie" for r in results)
    low, high = wilson(wins, n)
    ours_t = sorted(s for r in results for s in r["our_turn_seconds"])
    theirs_t = sorted(s for r in results for s in r["their_turn_seconds"])
    first = results[0]
    return {
        "bench": "carcassonne_cschnelz_arena",
        "level": first["level"],
        "against": first["against"],
        "games": n,
        "our_wins": wins,
        "ties": ties,
        "their_wins": n - wins - ties,
        "win_rate": round(wins / n, 4),
        "wilson95": [round(low, 4), round(high, 4)],
        "score_rate": round((wins + ties / 2) / n, 4),
        "our_mean_score": round(sum(r["scores"][0] for r in results) / n, 2),
        "their_mean_score": round(sum(r["scores"][1] for r in results) / n, 2),
        "our_wins_by_seat": {s: sum(r["result"] == "ours" for r in results if r["seat"] == s) for s in (0, 1)},
        "our_turn_ms": _times(ours_t),
        "their_turn_ms": _times(theirs_t),
        "fallbacks": sum(r["fallbacks"] for r in results),
        "mismatches": sum(r.get("mismatches", 0) for r in results),
        "refused_examples": [w for r in results for w in r["refused"]][:5],
    }


def _times(seconds: list[float]) -> dict[str, float]:
    if not seconds:
        return {}
    return {
        "mean": round(1000 * sum(seconds) / len(seconds), 1),
        "p95": round(1000 * percentile(seconds, 0.95), 1),
        "max": round(1000 * seconds[-1], 1),
    }


def table(report: dict[str, Any]) -> str:
    low, high = report["wilson95"]
    return "\n".join(
        [
            f"1 {report['level']} vs cschnelz {report['against']} (2 players, their engine and rules)",
            f"  games          {report['games']}",
            f"  ours / ties / theirs  {report['our_wins']} / {report['ties']} / {report['their_wins']}",
            f"  win rate       {100 * report['win_rate']:.1f}%  (Wilson 95%: {100 * low:.1f}% - {100 * high:.1f}%)",
            f"  mean score     ours {report['our_mean_score']}, theirs {report['their_mean_score']}",
            f"  our turn ms    {report['our_turn_ms']}  (CPU)",
            f"  their turn ms  {report['their_turn_ms']}  (CPU)",
            f"  fallbacks      {report['fallbacks']}, rebuilt states that did not add up {report['mismatches']}",
        ]
    )


def from_log(path: Path, first: int) -> int:
    """The figures of the games of a ``--log`` file from game ``first`` up to the first one missing."""
    by_index = games(path)
    results = []
    while first in by_index:
        results.append(by_index[first])
        first += 1
    if not results:
        sys.stderr.write(f"{path} holds no game from the one asked\n")
        return 1
    report = summarise(results)
    sys.stderr.write(table(report) + "\n")
    print(json.dumps(report))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--level", default="expert", help="our computer level (default expert)")
    parser.add_argument("--against", choices=AGENTS, default="greedy")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--first", type=int, default=0, help="first game number (to continue a run)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seeds", choices=tuple(SEED_BASE), default="eval")
    parser.add_argument("--repo", help="a clone of cschnelz/CarcassoneAI (bare or not)")
    parser.add_argument("--log", help="append each game's result as a JSON line to this file")
    parser.add_argument("--summarise", help="the figures of the games of this --log file, from --first on")
    args = parser.parse_args()
    if args.summarise:
        return from_log(Path(args.summarise), args.first)
    if not args.repo:
        parser.error("--repo is needed: a clone of https://github.com/cschnelz/CarcassoneAI")
    if os.environ.get("PYTHONHASHSEED") != "0":  # their legal moves are a set hashed by text: fix it, then go on
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
    source, commit = checkout(args.repo)
    sys.stderr.write(f"cschnelz/CarcassoneAI at {commit}\n")
    log = Path(args.log).resolve() if args.log else None
    base = SEED_BASE[args.seeds]
    jobs = [
        (i, base + 1 + i, args.level, args.against, str(source)) for i in range(args.first, args.first + args.games)
    ]
    results = []
    # A fresh process for every game: their modules keep state between games, and each game chdirs.
    with multiprocessing.get_context("fork").Pool(args.workers, maxtasksperchild=1) as pool:
        for result in pool.imap_unordered(play, jobs):
            results.append(result)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(result) + "\n")
            sys.stderr.write(f"\r{len(results)}/{len(jobs)} games")
            sys.stderr.flush()
    sys.stderr.write("\n")
    report = {**summarise(sorted(results, key=lambda r: r["index"])), "cschnelz_commit": commit}
    sys.stderr.write(table(report) + "\n")
    print(json.dumps(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

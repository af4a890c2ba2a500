"""Our Catan computer players against catanatron's strongest bots, in catanatron's engine and rules (issue 28).

Plays N four-player games of catanatron 3.2.1 (from PyPI): ``--ours`` seats (1 or 2) are our ``--level`` player
through ``bench/catanatron_bridge.py``, the others catanatron's ValueFunctionPlayer (``--against value``, its CLI
``F``) or AlphaBetaPlayer at depth 2 without pruning (``--against alphabeta``, its CLI ``AB:2``). Seats rotate
from game to game (1 vs 3: our seat is the game number mod 4; 2 vs 2: the six pairs of seats in turn). catanatron
ends a game at 1000 turns (``TURNS_LIMIT``): such a game is unfinished.

catanatron's PyPI wheel lacks those two players (GPL-3, never copied into this repository): they are taken from
the catanatron repository at the commit of release 3.2.1 (``CATANATRON_COMMIT``: its ``setup.py`` says 3.2.1 and
its ``catanatron_core`` is byte for byte the PyPI wheel), from ``--catanatron-repo PATH`` (a clone, bare or not)
or else a fresh clone of https://github.com/bcollazo/catanatron. They and a virtualenv with catanatron==3.2.1
are cached under ``~/.cache/boardhost-bench/``.

Seeds: ``--seeds eval`` (games seeded 1000001, 1000002, ...) for reported figures, ``--seeds tune`` (2000001,
...) for tuning; the ranges never meet.

A seed is one game, whatever the run: the games are played with string hashing fixed (``PYTHONHASHSEED=0``), with
the kernel's address randomisation off for them (``setarch -R``, where it is installed: some choices follow the
order of sets of objects hashed by their address), and each in a fresh process forked from the same one (so the
order in which two workers took the games does not matter). Without the three, one seed played twice gave another
game nearly every time.

Run (2 workers at most on a shared machine, under nice)::

    nice -n 19 python bench/catanatron_arena.py --against value --ours 1 --games 200 --workers 2 \\
        --catanatron-repo /path/to/catanatron

Prints a readable table on stderr and one JSON line on stdout: games, our wins, their wins, unfinished, our win
rate with its Wilson 95% interval, our decision time mean and p95 (rebuilding our engine's state included; only
decisions where catanatron offered more than one action), and how faithful the bridge was: ``fallbacks`` (our
choice had no catanatron equivalent: should be 0), ``theirs_unmatched`` (catanatron actions no legal action of
ours maps to, by type: the rebuilt state disagreeing with catanatron's) and ``ours_dropped`` (our legal actions
catanatron's rules lack, by type: domestic trades, cards before the roll, road building without road money, a
robber victim without cards). ``--log FILE`` keeps each game's result as a JSON line (with every seat's points by
source and its set-up settlements' yield); ``--summarise FILE`` prints the figures of a stopped run (the games from
``--first`` on, up to the first one missing), our wins by seat, and where the points came from.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
CACHE: Final = Path.home() / ".cache" / "boardhost-bench"
CATANATRON: Final = "catanatron==3.2.1"
CATANATRON_URL: Final = "https://github.com/bcollazo/catanatron"
# "Ensure PyPi versions work (#192)", 2022-07-17: release 3.2.1.
CATANATRON_COMMIT: Final = "87c4aec9325602049f9926d2a489709b2a2adfb2"
# The files of the players, as the repository held them at CATANATRON_COMMIT, and where they go.
PLAYER_FILES: Final = {
    "catanatron_experimental/catanatron_experimental/machine_learning/players/minimax.py": (
        "catanatron_experimental/machine_learning/players/minimax.py"
    ),
    "catanatron_experimental/catanatron_experimental/machine_learning/players/tree_search_utils.py": (
        "catanatron_experimental/machine_learning/players/tree_search_utils.py"
    ),
    "catanatron_gym/catanatron_gym/features.py": "catanatron_gym/features.py",
}
SEED_BASE: Final = {"eval": 1_000_000, "tune": 2_000_000}
SEAT_PAIRS: Final = ((0, 2), (1, 3), (0, 1), (2, 3), (1, 2), (0, 3))
COLORS: Final = ("RED", "BLUE", "WHITE", "ORANGE")


class Failed(Exception):
    """A step that failed, in one line."""


# -- outside: the virtualenv and the players' files -------------------------------------------------------------------


def catanatron_python(explicit: str | None) -> Path:
    if explicit:
        return Path(explicit)
    where = CACHE / "catanatron-3.2.1"
    python = where / "bin" / "python"
    if python.exists() and _run([str(python), "-c", "import catanatron, networkx"]).returncode == 0:
        return python
    import venv

    venv.create(where, with_pip=True, clear=True)
    done = _run([str(python), "-m", "pip", "install", "-q", CATANATRON])
    if done.returncode != 0:
        raise Failed(f"could not install {CATANATRON} from PyPI: {done.stderr.strip()[-300:]}")
    return python


def player_files(repo: str | None) -> Path:
    """A directory to put on ``sys.path`` that holds catanatron's ValueFunction and AlphaBeta players."""
    where = CACHE / f"catanatron-players-{CATANATRON_COMMIT[:12]}"
    if all((where / dest).exists() for dest in PLAYER_FILES.values()):
        return where
    with tempfile.TemporaryDirectory() as tmp:
        if repo is None:
            repo = str(Path(tmp) / "catanatron")
            cloned = _run(["git", "clone", "-q", "--filter=blob:none", "--no-checkout", CATANATRON_URL, repo])
            if cloned.returncode != 0:
                raise Failed(f"could not clone {CATANATRON_URL}: {cloned.stderr.strip()[-300:]}")
        for source, dest in PLAYER_FILES.items():
            shown = _run(["git", "-C", repo, "show", f"{CATANATRON_COMMIT}:{source}"])
            if shown.returncode != 0:
                raise Failed(f"{repo} has no {source} at {CATANATRON_COMMIT}: {shown.stderr.strip()[-200:]}")
            target = where / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(shown.stdout)
    for package in (
        "catanatron_gym",
        "catanatron_experimental",
        "catanatron_experimental/machine_learning",
        "catanatron_experimental/machine_learning/players",
    ):
        (where / package / "__init__.py").touch()
    return where


def _run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, **kwargs)


# -- inside: the games (run by catanatron's Python) ------------------------------------------------------------------


def play_one(job: tuple[int, int, str, str, int]) -> dict[str, Any]:
    index, seed, level, against, ours = job
    import random

    from catanatron.game import Game
    from catanatron.models.actions import generate_playable_actions
    from catanatron.models.player import Color
    from catanatron_experimental.machine_learning.players.minimax import AlphaBetaPlayer, ValueFunctionPlayer

    from bench.catanatron_bridge import make_player

    seats = (index % 4,) if ours == 1 else SEAT_PAIRS[index % len(SEAT_PAIRS)]
    players = []
    for seat, name in enumerate(COLORS):
        color = Color[name]
        if seat in seats:
            players.append(make_player(color, level, seed * 4 + seat))
        elif against == "value":
            players.append(ValueFunctionPlayer(color))
        else:
            players.append(AlphaBetaPlayer(color, "2"))  # the CLI's AB:2 (depth 2, prunning off)
    random.seed(seed)
    game = Game(players, seed=seed)
    # catanatron shuffles the seating; set ours (every seat is still empty and equal, so this is a fresh game).
    state = game.state
    state.players = players
    state.colors = tuple(p.color for p in players)
    state.color_to_index = {c: i for i, c in enumerate(state.colors)}
    state.playable_actions = generate_playable_actions(state)
    started = time.perf_counter()
    winner = game.play()
    elapsed = time.perf_counter() - started
    ours_players = [players[s] for s in seats]
    won = None if winner is None else ("ours" if state.color_to_index[winner] in seats else "theirs")
    return {
        "level": level,
        "against": against,
        "ours": ours,
        "index": index,
        "seed": seed,
        "seats": list(seats),
        "result": won or "unfinished",
        "turns": state.num_turns,
        "seconds": round(elapsed, 3),
        "decisions": sum(p.stats.decisions for p in ours_players),
        "forced": sum(p.stats.forced for p in ours_players),
        "fallbacks": sum(p.stats.fallbacks for p in ours_players),
        "theirs_unmatched": _merged(p.stats.theirs_unmatched for p in ours_players),
        "ours_dropped": _merged(p.stats.ours_dropped for p in ours_players),
        "unmappable": [why for p in ours_players for why in p.stats.unmappable_choices][:3],
        "decision_seconds": [round(s, 5) for p in ours_players for s in p.stats.seconds],
        "load": round(os.getloadavg()[0], 2),
        "points": [state.player_state[f"P{i}_ACTUAL_VICTORY_POINTS"] for i in range(4)],
        "made": [_made(state, i) for i in range(4)],
        "spent": [_spent(state, i) for i in range(4)],
        "opening": _opening(state),
    }


def _made(state: Any, seat: int) -> dict[str, int]:
    """Where a seat's points came from at the end: pieces on the board, point cards, the two awards."""

    def key(name: str) -> int:
        return int(state.player_state[f"P{seat}_{name}"])

    return {
        "settlements": 5 - key("SETTLEMENTS_AVAILABLE"),
        "cities": 4 - key("CITIES_AVAILABLE"),
        "point_cards": key("VICTORY_POINT_IN_HAND") + key("PLAYED_VICTORY_POINT"),
        "longest_road": key("HAS_ROAD"),
        "largest_army": key("HAS_ARMY"),
        "knights": key("PLAYED_KNIGHT"),
    }


def _spent(state: Any, seat: int) -> dict[str, int]:
    """Where a seat's cards went over the game, besides its pieces: development cards bought, trades with the bank,
    roads on the board (the two of the set-up included), and the sevens it discarded to."""
    color = state.colors[seat]
    kinds = {"BUY_DEVELOPMENT_CARD": "cards_bought", "MARITIME_TRADE": "bank_trades", "DISCARD": "discards"}
    out = dict.fromkeys(kinds.values(), 0)
    for action in state.actions:
        name = kinds.get(action.action_type.value)
        if name is not None and action.color == color:
            out[name] += 1
    return {**out, "roads": 15 - int(state.player_state[f"P{seat}_ROADS_AVAILABLE"])}


def _opening(state: Any) -> list[dict[str, int]]:
    """What each seat's two set-up settlements yield: pips (out of 36 rolls) and kinds of resource."""
    from catanatron.models.enums import ActionType

    from engine.ai.catan import pips

    tiles: list[list[Any]] = [[] for _ in range(4)]
    first = [a for a in state.actions if a.action_type == ActionType.BUILD_SETTLEMENT][:8]
    for action in first:
        land = (t for t in state.board.map.adjacent_tiles[action.value] if t.resource is not None)
        tiles[state.color_to_index[action.color]].extend(land)
    return [{"pips": sum(pips(t.number) for t in own), "kinds": len({t.resource for t in own})} for own in tiles]


def _merged(counts: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for one in counts:
        for k, v in one.items():
            out[k] = out.get(k, 0) + v
    return out


def inside(args: argparse.Namespace) -> int:
    from multiprocessing import Pool

    base = SEED_BASE[args.seeds]
    jobs = [(i, base + 1 + i, args.level, args.against, args.ours) for i in range(args.first, args.first + args.games)]
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    log = Path(args.log) if args.log else None
    with Pool(args.workers, maxtasksperchild=1) as pool:  # a game a process: see the docstring
        for result in pool.imap_unordered(play_one, jobs):
            results.append(result)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(result) + "\n")
            if args.progress:
                sys.stderr.write(f"\r{len(results)}/{len(jobs)} games, {time.perf_counter() - started:.0f} s   ")
                sys.stderr.flush()
    if args.progress:
        sys.stderr.write("\n")
    report = summarise(results, args, time.perf_counter() - started)
    print(json.dumps(report))
    return 0


def from_log(log: Path, args: argparse.Namespace) -> int:
    """The figures of the games a ``--log`` file holds, from game ``--first`` up to the first one missing (a run
    stopped early leaves games in flight unfinished: counting only a complete prefix keeps long games in). A game
    logged twice, by an overlap of two runs: the first one counts, as in ``bench/paired.py``, which reads the log."""
    from bench.paired import games

    by_index = games(log)
    results = []
    index = args.first
    while index in by_index:
        results.append(by_index[index])
        index += 1
    if not results:
        sys.stderr.write(f"{log} holds no game {args.first}\n")
        return 1
    kinds = {(r["level"], r["against"], r["ours"], r["seed"] - r["index"] - 1) for r in results}
    if len(kinds) != 1:
        sys.stderr.write(f"{log} mixes runs: {sorted(kinds)}\n")
        return 1
    level, against, ours, base = kinds.pop()
    args.level, args.against, args.ours = level, against, ours
    args.seeds = next(name for name, b in SEED_BASE.items() if b == base)
    report = summarise(results, args, sum(r["seconds"] for r in results) / max(1, args.workers))
    sys.stderr.write(table(report) + "\n")
    print(json.dumps(report))
    return 0


# -- the figures ------------------------------------------------------------------------------------------------------


def summarise(results: list[dict[str, Any]], args: argparse.Namespace, seconds: float) -> dict[str, Any]:
    from engine.ai.arena import percentile, wilson

    n = len(results)
    wins = sum(r["result"] == "ours" for r in results)
    theirs = sum(r["result"] == "theirs" for r in results)
    unfinished = n - wins - theirs
    low, high = wilson(wins, n)
    times = [t for r in results for t in r["decision_seconds"]]
    return {
        "bench": "catanatron_arena",
        "level": args.level,
        "against": {"value": "ValueFunctionPlayer", "alphabeta": "AlphaBetaPlayer(depth=2,prunning=False)"}[
            args.against
        ],
        "ours": args.ours,
        "seeds": args.seeds,
        "first_game": args.first,
        "games": n,
        "our_wins": wins,
        "their_wins": theirs,
        "unfinished": unfinished,
        "win_rate": round(wins / n, 4) if n else None,
        "wilson95": [round(low, 4), round(high, 4)],
        "par": 0.25 if args.ours == 1 else 0.5,
        "decision_ms_mean": round(1000 * sum(times) / len(times), 2) if times else None,
        "decision_ms_p95": round(1000 * percentile(times, 0.95), 2) if times else None,
        "decisions": sum(r["decisions"] for r in results),
        "forced": sum(r["forced"] for r in results),
        "fallbacks": sum(r["fallbacks"] for r in results),
        "theirs_unmatched": _merged(r["theirs_unmatched"] for r in results),
        "ours_dropped": _merged(r["ours_dropped"] for r in results),
        "unmappable_examples": [w for r in results for w in r["unmappable"]][:5],
        "mean_turns": round(sum(r["turns"] for r in results) / n, 1) if n else None,
        "wall_seconds": round(seconds, 1),
        "catanatron": f"{CATANATRON} (PyPI), players from {CATANATRON_URL} at {CATANATRON_COMMIT}",
        "load_mean": round(sum(r["load"] for r in results) / n, 2) if n else None,  # 1-minute load at games' ends
        "our_seat_wins": _by_seat(results),
        "points_from": _points_from(results),
    }


def _by_seat(results: list[dict[str, Any]]) -> dict[str, list[int]]:
    """Games won and played from each seat (1 vs 3 only: 2 vs 2 runs are counted by their first seat)."""
    out: dict[str, list[int]] = {}
    for r in results:
        seat = out.setdefault(str(r["seats"][0]), [0, 0])
        seat[0] += r["result"] == "ours"
        seat[1] += 1
    return dict(sorted(out.items()))


def _points_from(results: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Where the points came from, on average (logs with ``made``): the winner of the games won by catanatron's
    players, ours in the same games and in the games we won; the set-up settlements' pips and kinds; and where the
    cards went (``spent``, in logs that keep it). "Ours" is our first seat (a 1 vs 3 run's only one)."""

    def seat(r: dict[str, Any], s: int) -> dict[str, int]:
        opening = {f"opening_{key}": value for key, value in r["opening"][s].items()}
        spent = r["spent"][s] if "spent" in r else {}  # logs from before it was kept have none
        return {"points": r["points"][s], **r["made"][s], **opening, **spent}

    groups: dict[str, list[dict[str, int]]] = {"their_winner": [], "ours_lost": [], "ours_won": []}
    for r in results:
        if "made" not in r or r["result"] == "unfinished":
            continue
        groups["ours_won" if r["result"] == "ours" else "ours_lost"].append(seat(r, r["seats"][0]))
        if r["result"] == "theirs":
            winner = max((s for s in range(4) if s not in r["seats"]), key=lambda s: r["points"][s])
            groups["their_winner"].append(seat(r, winner))
    means: dict[str, dict[str, float]] = {}
    for name, rows in groups.items():
        if rows:
            kept = [key for key in rows[0] if all(key in row for row in rows)]  # a log may join two runs' lines
            means[name] = {
                "games": len(rows),
                **{key: round(sum(row[key] for row in rows) / len(rows), 2) for key in kept},
            }
    return means


def table(report: dict[str, Any]) -> str:
    low, high = report["wilson95"]
    rows = [
        ("games", report["games"]),
        ("our wins", report["our_wins"]),
        ("their wins", report["their_wins"]),
        ("unfinished", report["unfinished"]),
        ("win rate", f"{report['win_rate']:.1%}  (Wilson 95%: {low:.1%} - {high:.1%}; par {report['par']:.0%})"),
        ("our decision ms", f"mean {report['decision_ms_mean']}, p95 {report['decision_ms_p95']}"),
        ("bridge fallbacks", f"{report['fallbacks']} of {report['decisions']} decisions"),
    ]
    seats = ", ".join(f"seat {seat}: {won}/{n}" for seat, (won, n) in report["our_seat_wins"].items())
    rows.append(("our wins by seat", seats))
    for name, mean in report["points_from"].items():
        rows.append((name.replace("_", " "), ", ".join(f"{k} {v}" for k, v in mean.items())))
    title = f"{report['ours']} {report['level']} vs {4 - report['ours']} {report['against']} ({report['seeds']} seeds)"
    width = max(len(k) for k, _ in rows)
    return "\n".join([title, *(f"  {k.ljust(width)}  {v}" for k, v in rows)])


def main() -> int:
    parser = argparse.ArgumentParser(prog="python bench/catanatron_arena.py", description=__doc__.split("\n")[0])
    parser.add_argument("--level", default="standard", help="our computer level (default standard)")
    parser.add_argument("--against", choices=("value", "alphabeta"), default="value")
    parser.add_argument("--ours", type=int, choices=(1, 2), default=1, help="our seats: 1 (1 vs 3) or 2 (2 vs 2)")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="first game number (to continue a run)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seeds", choices=tuple(SEED_BASE), default="eval")
    parser.add_argument("--catanatron-repo", help="a clone of catanatron (bare or not); default: clone it")
    parser.add_argument("--catanatron-python", help="a Python that has catanatron 3.2.1 (default: cached venv)")
    parser.add_argument("--log", help="append each game's result as a JSON line to this file")
    parser.add_argument("--progress", action="store_true", help="games done so far, on stderr")
    parser.add_argument(
        "--summarise",
        metavar="LOG",
        help="only print the figures of a --log file: its games numbered from --first on with none missing",
    )
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.games < 1 or args.workers < 1:
        parser.error("--games and --workers must be at least 1")
    if args.inside:
        return inside(args)
    if args.summarise:
        return from_log(Path(args.summarise), args)
    try:
        python = catanatron_python(args.catanatron_python)
        players = player_files(args.catanatron_repo)
    except Failed as err:
        sys.stderr.write(f"{err}\n")
        return 1
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(players), str(ROOT)]), PYTHONHASHSEED="0")
    forwarded = [a for a in sys.argv[1:]]
    setarch = shutil.which("setarch")
    fixed = [setarch, platform.machine(), "-R"] if setarch else []  # no address randomisation: see the docstring
    done = subprocess.run(
        [*fixed, str(python), str(Path(__file__).resolve()), "--inside", *forwarded],
        env=env,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    if done.returncode != 0:
        sys.stderr.write(f"the games failed (exit {done.returncode})\n")
        return done.returncode
    line = done.stdout.strip().splitlines()[-1]
    report = json.loads(line)
    sys.stderr.write(table(report) + "\n")
    print(line)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())

"""Catan engine benchmark (issue 3 target: at least twice catanatron 3.2.1's actions per second).

Ours: complete random 4-player games through ``python -m engine selfplay catan`` (random legal action choice plus
apply, the game's own validation included). Theirs, in the same run when it can be installed: catanatron 3.2.1
from PyPI in a temporary virtualenv, ``Game([RandomPlayer x 4]).play()`` (legal-action generation plus apply),
counting the actions each game records. Machines are shared and noisy, so compare the ratio within one run.

Run: ``python bench/catan_selfplay.py [--games 200] [--seed 1] [--catanatron-games 50] [--no-catanatron]
[--catanatron-python PATH]``; prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import venv
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine.cli import Parser, run_command, whole_number

ROOT = Path(__file__).resolve().parent.parent

CATANATRON = "catanatron==3.2.1"
THEIRS = """
import json, sys, time
from catanatron import Color, Game, RandomPlayer
games = int(sys.argv[1])
actions = turns = wins = 0
elapsed = 0.0
for seed in range(games):
    players = [RandomPlayer(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)]
    game = Game(players, seed=seed)
    started = time.perf_counter()
    winner = game.play()
    elapsed += time.perf_counter() - started
    actions += len(game.state.actions)
    turns += game.state.num_turns
    wins += winner is not None
print(json.dumps({"games": games, "seconds": round(elapsed, 4), "games_per_second": round(games / elapsed, 2),
                  "actions": actions, "actions_per_second": round(actions / elapsed, 1),
                  "mean_turns": round(turns / games, 2), "games_with_a_winner": wins}))
"""


def ours(games: int, seed: int) -> dict[str, Any]:
    command = [sys.executable, "-m", "engine", "selfplay", "catan", "--games", str(games), "--seed", str(seed)]
    out = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise Failed(f"python -m engine selfplay failed: {out.stderr.strip()}")
    result: dict[str, Any] = json.loads(out.stdout)
    result["command"] = " ".join(["python", *command[1:]])
    return result


def install_catanatron(where: Path) -> Path | None:
    venv.create(where, with_pip=True)
    python = where / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", CATANATRON], capture_output=True, text=True)
    return python if done.returncode == 0 else None


def theirs(python: Path, games: int) -> dict[str, Any]:
    try:
        out = subprocess.run([str(python), "-c", THEIRS, str(games)], capture_output=True, text=True)
    except OSError as err:
        raise Failed(f"--catanatron-python {python}: cannot run it: {err.strerror or err}") from None
    if out.returncode != 0:
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise Failed(f"--catanatron-python {python}: catanatron's games failed: {last}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result


def main() -> int:
    parser = Parser(prog="python bench/catan_selfplay.py", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=whole_number(1), default=200, help="our random games (default 200)")
    parser.add_argument("--seed", type=int, default=1, help="seed of our games (default 1)")
    parser.add_argument(
        "--catanatron-games", type=whole_number(1), default=50, help="catanatron's random games (default 50)"
    )
    parser.add_argument("--no-catanatron", action="store_true", help="only our figures")
    parser.add_argument("--catanatron-python", help="a Python that already has catanatron 3.2.1")
    args = parser.parse_args()
    try:
        return compare(args)
    except Failed as err:
        sys.stderr.write(f"{err}\n")
        return 1


class Failed(Exception):
    """A step of the comparison that failed, in one line."""


def compare(args: argparse.Namespace) -> int:
    report: dict[str, Any] = {"ours": ours(args.games, args.seed), "target_actions_per_second": 60_000}
    if not args.no_catanatron:
        with tempfile.TemporaryDirectory() as tmp:
            python = Path(args.catanatron_python) if args.catanatron_python else install_catanatron(Path(tmp) / "v")
            if python is None:
                report["catanatron"] = f"could not install {CATANATRON} from PyPI: only our figures are shown"
            else:
                report["catanatron"] = theirs(python, args.catanatron_games)
                report["ours_again"] = ours(args.games, args.seed)  # bracket theirs against machine drift
                mine = (report["ours"]["actions_per_second"] + report["ours_again"]["actions_per_second"]) / 2
                games = (report["ours"]["games_per_second"] + report["ours_again"]["games_per_second"]) / 2
                report["ratio_actions_per_second"] = round(mine / report["catanatron"]["actions_per_second"], 2)
                report["ratio_games_per_second"] = round(games / report["catanatron"]["games_per_second"], 2)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    run_command(main)

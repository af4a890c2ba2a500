"""Timelapse benchmarks (issue 17): size and encoding time of the animated board of a whole game.

Four kinds of game, ``--games`` of each (different seeds):

- typical: Carcassonne, 2 players, base game, and Catan, 3 players, both played by the ``standard`` computer
  players (games of the length people play);
- largest: Carcassonne, 6 players, River and Tower, and Catan, 4 players, played by ``random`` players: random play
  sprawls the Carcassonne board over more cells and makes Catan games two to three times longer than people do,
  so these are upper bounds.

For each game: the frames (set-up plus one per turn), the frame size, the WebP and GIF sizes (both are encoded in
one pass; the smaller is kept), the seconds to replay the log into views (``engine.history.frames``) and the
seconds to draw and encode (``render.timelapse.timelapse``, both formats, in this process: a drawing process does
the same), and in the game's own format alone (``GamePictures.timelapse_formats``: what the bot draws). Each time is
given as wall seconds (``*_s``) and as this process's CPU seconds (``*_cpu_s``: steadier on a shared machine),
with the drawing processes' settings (``bot.core.rendering.drawing_process_settings``). Prints one JSON object with
every game and the median and maximum of each kind.

Run: ``python bench/timelapse_bench.py [--games 3]``.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from engine import game_class
from engine.ai import decide
from engine.cli import Parser, run_command, whole_number
from engine.history import GameLog, frames
from render import warm_up
from render.timelapse import FORMATS, MAX_BYTES, Animation, timelapse

KINDS: dict[str, tuple[str, int, dict[str, Any], str]] = {
    "carcassonne typical (2 players, base game, standard)": ("carcassonne", 2, {"river": False}, "standard"),
    "carcassonne largest (6 players, River + Tower, random)": (
        "carcassonne",
        6,
        {"river": True, "tower": True},
        "random",
    ),
    "catan typical (3 players, standard)": ("catan", 3, {}, "standard"),
    "catan largest (4 players, random)": ("catan", 4, {}, "random"),
}


def play(game_name: str, players: int, options: dict[str, Any], level: str, seed: int) -> GameLog:
    names = tuple(f"Player {i + 1}" for i in range(players))
    opts = {**options, "first_player": 0}
    game = game_class(game_name).new(list(names), opts, seed)
    rng = random.Random(seed)
    actions = []
    while not game.finished and len(actions) < 5000:
        seat = game.actors()[0]
        action = decide(game, seat, level, rng) if level != "random" else game.random_action(rng)
        actions.append(game.apply(action).action)
    return GameLog(game_name, names, opts, seed, tuple(actions))


def timed(views: list[Any], formats: tuple[str, ...] | None) -> tuple[Animation, float, float]:
    """The timelapse of ``views`` in ``formats``, its wall seconds and CPU seconds."""
    wall, cpu = time.perf_counter(), time.process_time()
    animation = timelapse(views, formats=formats)
    return animation, time.perf_counter() - wall, time.process_time() - cpu


def measure(log: GameLog) -> dict[str, Any]:
    start = time.perf_counter()
    views = [view for _, view in frames(log)]
    replay_s = time.perf_counter() - start
    webp, webp_s, webp_cpu = timed(views, ("webp",))
    gif, gif_s, gif_cpu = timed(views, ("gif",))
    both, both_s, both_cpu = timed(views, FORMATS)
    own, own_s, own_cpu = timed(views, None)
    return {
        "frames": len(views),
        "size": list(both.size),
        "webp_kib": round(len(webp.data) / 1024),
        "gif_kib": round(len(gif.data) / 1024),
        "kept": both.format,
        "kept_kib": round(len(both.data) / 1024),
        "replay_s": round(replay_s, 3),
        "webp_s": round(webp_s, 2),
        "gif_s": round(gif_s, 2),
        "both_s": round(both_s, 2),
        "own": own.format,
        "own_s": round(own_s, 2),
        "webp_cpu_s": round(webp_cpu, 2),
        "gif_cpu_s": round(gif_cpu, 2),
        "both_cpu_s": round(both_cpu, 2),
        "own_cpu_s": round(own_cpu, 2),
        "under_4_mib": len(both.data) <= MAX_BYTES,
    }


def main() -> int:
    parser = Parser(prog="python bench/timelapse_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=whole_number(1), default=3, help="games of each kind, seeds 1 to N (default 3)")
    args = parser.parse_args()
    from bot.core.rendering import drawing_process_settings

    drawing_process_settings()
    warm_up()
    out: dict[str, Any] = {}
    for kind, (name, players, options, level) in KINDS.items():
        rows = [measure(play(name, players, options, level, seed)) for seed in range(1, args.games + 1)]
        summary = {
            key: {"median": statistics.median(r[key] for r in rows), "max": max(r[key] for r in rows)}
            for key in (
                "frames",
                "webp_kib",
                "gif_kib",
                "kept_kib",
                "both_s",
                "own_s",
                "both_cpu_s",
                "own_cpu_s",
                "webp_s",
                "gif_s",
                "replay_s",
            )
        }
        out[kind] = {"games": rows, "summary": summary}
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    run_command(main)

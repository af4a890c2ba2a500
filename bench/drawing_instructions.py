"""Instructions a Carcassonne turn picture costs, counted by Valgrind: a figure a shared machine cannot blur.

The timings of the other benches move by a third from one minute to the next on a shared machine (its neighbours'
load, its clock); the number of instructions a picture takes does not. Each tree (this one, and ``--against DIR``,
e.g. a ``git archive`` of an earlier commit) draws the turn pictures of one 2-player base game of random moves, as
the bot asks for them (the preview of every ``--every``-th turn, the follower spots of every ``--every``-th
placement), under ``valgrind --tool=callgrind``, once with one round and once with three; the difference is two
warm rounds (sprites, glyphs and text caches already made), divided by the pictures drawn. Drawn under the drawing
processes' settings (``bot.core.rendering.drawing_process_settings``), PNG encoding included.

An instruction is not a millisecond (a copy of memory runs many a cycle, a deflate loop few), so read the ratio of
two trees, and their timings for the milliseconds. Needs ``valgrind`` (``apt-get install valgrind``); each run takes
a minute or two under it; the runs go two at a time.

Run: ``python bench/drawing_instructions.py [--against DIR] [--every 4] [--seed 1]``; prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
KINDS = ("preview", "spots")


def child(tree: str, rounds: int, kind: str, every: int, seed: int) -> None:
    """Draw the pictures of ``kind`` ``rounds`` times with ``tree``'s code; print how many a round."""
    sys.path.insert(0, tree)
    from turn_pictures import turn_picture_jobs  # bench/, beside this script

    from bot.core.rendering import drawing_process_settings
    from render.carcassonne import pictures

    drawing_process_settings()
    previews, spots = turn_picture_jobs(seed, ["Alice", "Борис"])
    jobs = (previews if kind == "preview" else spots)[::every]
    draw = pictures.preview_png if kind == "preview" else pictures.spots_png
    for _ in range(rounds):
        for job in jobs:
            draw(*job)
    print(len(jobs))


def counted(tree: str, rounds: int, kind: str, every: int, seed: int) -> tuple[int, int]:
    """(instructions, pictures a round) of one child run under callgrind."""
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, __file__]
    command += ["--child", tree, "--rounds", str(rounds), "--kind", kind, "--every", str(every), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise RuntimeError(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), int(done.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", help="another tree to count the same pictures with")
    parser.add_argument("--every", type=int, default=4, help="draw every n-th picture of the game (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--kind", choices=KINDS, default="preview", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.rounds, args.kind, args.every, args.seed)
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (apt-get install valgrind)")
    trees = [str(HERE)] + ([str(Path(args.against).resolve())] if args.against else [])
    runs = [(tree, kind, rounds) for kind in KINDS for tree in trees for rounds in (1, 3)]
    with ThreadPoolExecutor(2) as pool:
        results = dict(
            zip(runs, pool.map(lambda r: counted(r[0], r[2], r[1], args.every, args.seed), runs), strict=True)
        )
    out: dict[str, Any] = {"seed": args.seed, "every": args.every}
    for tree in trees:
        side: dict[str, Any] = {}
        for kind in KINDS:
            (one, pictures), (three, _) = results[(tree, kind, 1)], results[(tree, kind, 3)]
            each = (three - one) / (2 * pictures)
            side[kind] = {"pictures": pictures, "million_instructions_each": round(each / 1e6, 2)}
        out["this tree" if tree == str(HERE) else tree] = side
    if args.against:
        out["ratio_this_to_against"] = {
            kind: round(
                out["this tree"][kind]["million_instructions_each"] / out[trees[1]][kind]["million_instructions_each"],
                3,
            )
            for kind in KINDS
        }
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

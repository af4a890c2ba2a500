"""The timelapse's WebP writer against libwebp's animation encoder (issue 29): the same frames encoded both ways.

``render.timelapse`` puts the animated WebP together itself (``_WebP``: each changed rectangle encoded by libwebp as a
lossless still picture, two rectangles where a turn changed two places far apart, the container written by us);
before, Pillow's ``save_all`` handed the frames to libwebp's animation encoder with the same settings (lossless,
quality 0, method 1, no key frames). For each game of ``bench/timelapse_bench.py``'s kinds (seed 1 unless
``--seeds``), its frames are drawn once, then encoded by each writer in turn, ``--rounds`` times alternating; the best
CPU time of each (this process's, steadier than wall time on a shared machine), the sizes, whether the files are the
same bytes and whether they show the same pictures for the same times, turn by turn. Prints a table, then one JSON
object.

Run: ``python bench/webp_writer_bench.py [--rounds 3] [--seeds 1,2]``.
"""

from __future__ import annotations

import io
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from PIL import Image

from bench.timelapse_bench import KINDS, play
from engine.cli import Parser, run_command, whole_number
from engine.history import frames
from render import warm_up
from render.timelapse import _WebP, durations, frame_source, turns

Hints = list[list[tuple[int, int, int, int]] | None]


def drawn_frames(views: list[Any]) -> tuple[list[Image.Image], Hints]:
    """Every frame of the timelapse, as the timelapse draws them, and where each may differ from the one before (the
    drawer's word, which our writer is given as the timelapse gives it)."""
    _, draw = frame_source(views)
    pictures, hints = [], []
    for index in range(len(views)):
        pictures.append(draw(index).copy())
        hints.append(draw.changed)
    return pictures, hints


def ours(pictures: list[Image.Image], times: list[int], hints: Hints) -> bytes:
    writer = _WebP(pictures[0].size, times)
    for picture, changed in zip(pictures, hints, strict=True):
        writer.add(picture, changed)
    return writer.finish()


def libwebps(pictures: list[Image.Image], times: list[int], hints: Hints) -> bytes:
    del hints  # libwebp's animation encoder compares whole frames
    out = io.BytesIO()
    pictures[0].save(out, "WEBP", save_all=True, append_images=pictures[1:], duration=times, loop=0, lossless=True,
                     quality=0, method=1, kmin=0, kmax=0)  # fmt: skip
    return out.getvalue()


def shown(data: bytes) -> list[tuple[bytes, int]]:
    """What an animation shows, turn by turn: each picture's pixels and for how long (``render.timelapse.turns``)."""
    return [(picture.tobytes(), ms) for picture, ms in turns(Image.open(io.BytesIO(data)))]


def cpu(write: Any, pictures: list[Image.Image], times: list[int], hints: Hints) -> tuple[float, bytes]:
    started = time.process_time()
    data = write(pictures, times, hints)
    return time.process_time() - started, data


def main() -> int:
    parser = Parser(prog="python bench/webp_writer_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=whole_number(1), default=3, help="encodings per writer (default 3)")
    parser.add_argument("--seeds", default="1", help="game seeds, comma-separated (default 1)")
    args = parser.parse_args()
    from bot.core.rendering import drawing_process_settings

    drawing_process_settings()
    warm_up()
    rows = []
    for kind, (game, players, options, level) in KINDS.items():
        for seed in (int(s) for s in args.seeds.split(",")):
            views = [view for _, view in frames(play(game, players, options, level, seed))]
            pictures, hints = drawn_frames(views)
            times = durations(len(pictures))
            best = {"ours": float("inf"), "libwebp": float("inf")}
            data: dict[str, bytes] = {}
            for _ in range(args.rounds):
                for name, write in (("libwebp", libwebps), ("ours", ours)):
                    seconds, data[name] = cpu(write, pictures, times, hints)
                    best[name] = min(best[name], seconds)
            rows.append({
                "game": kind, "seed": seed, "frames": len(pictures), "size": list(pictures[0].size),
                "libwebp_ms": round(best["libwebp"] * 1000), "ours_ms": round(best["ours"] * 1000),
                "ratio": round(best["ours"] / best["libwebp"], 2),
                "libwebp_kib": round(len(data["libwebp"]) / 1024), "ours_kib": round(len(data["ours"]) / 1024),
                "same_bytes": data["ours"] == data["libwebp"],
                "same_pictures": shown(data["ours"]) == shown(data["libwebp"]),
            })  # fmt: skip
            sys.stdout.write(
                "| {game} (seed {seed}) | {frames} | {libwebp_ms} | {ours_ms} | {ratio} | {libwebp_kib} | {ours_kib} "
                "| {same_bytes} | {same_pictures} |\n".format(**rows[-1])
            )
    sys.stdout.write(json.dumps(rows) + "\n")
    return 0


if __name__ == "__main__":
    run_command(main)

"""Board image benchmarks (issue 4 targets).

For each image: the time to render it to PNG bytes (drawing + encoding, caches warm as in the bot after its
first image of a game), the time to PNG-encode the finished image alone (the floor), their ratio, the PNG size
and the image size. Also Pillow's own PNG encoder on the same image, for reference.

``carcassonne_game_turn_pictures``: the turn previews and follower spots of two whole 2-player games, as the bot asks
for them, CPU ms per picture with drawing and encoding apart (boards of every size, not only the large ones above).

Targets, encode included: Catan board <= 40 ms, 100-tile Carcassonne board <= 60 ms, previews <= 40 ms, and
render <= 2.5x encode-only.

Measured as a drawing process of the bot draws (``bot.core.rendering.drawing_process_settings``: glibc keeps freed
image buffers for the next image, one deflate thread per image); ``--plain`` measures as a plain Python process
(freed buffers handed back to the system, row bands deflated on 2-4 threads), as the figures of issues 4-18 were.

Each time is wall milliseconds (``*_ms``) and this process's CPU milliseconds (``*_cpu_ms``: steadier on a shared
machine). ``--encoder-against FILE`` (another tree's ``render/png.py``, e.g. ``git show COMMIT:render/png.py >
/tmp/png_before.py``) also times that encoder and this tree's on the same board images, alternately, in this run.

Run: ``python bench/render_bench.py [--repeat 15] [--plain] [--encoder-against FILE]``; prints one JSON object.
"""

from __future__ import annotations

import importlib.util
import io
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this tree's code, whatever is installed

from PIL import Image
from turn_pictures import turn_picture_jobs  # bench/, beside this script

import render
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from engine.cli import Parser, run_command, whole_number
from render.carcassonne import pictures as carcassonne_pictures
from render.catan import pictures as catan_pictures
from render.png import encode

NAMES = ["Alice", "Борис", "张伟", "さくら"]
# Names that need the Hangul and emoji fonts, right-to-left order and Arabic shaping.
WORLD_NAMES = ["김민준", "محمد علي", "Bob \U0001f3b2\U0001f984", "דוד כהן"]
LONG_NAMES = ["Maximilian Alexander Wolfgangsen", "Константинопольский Александрови", "长" * 32, "김민준" * 10 + "🎲🦄"]


def carcassonne_states(seed: int, names: list[str] = NAMES) -> dict[str, Any]:
    """A Tower game: the view at the turn the board reaches 100 tiles, a preview and a spots image there."""
    game = Carcassonne.new(names, {"tower": True}, seed)
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    while not game.finished:
        if "preview" not in out and len(game.board) >= 60 and game.decision() == "place":
            out["preview"] = (game.view(game.current), sorted(game.legal_placements()))
        if "spots" not in out and len(game.board) >= 60 and game.decision() == "follower" and game.follower_spots():
            view = game.view(game.current)
            out["spots"] = (view, view["placed"], game.follower_spots())
        if "board" not in out and len(game.board) >= 100:
            out["board"] = game.view(None)
        game.apply(game.random_action(rng))
    out["end"] = game.view(None)
    return out


def catan_states(seed: int, names: list[str] = NAMES) -> dict[str, Any]:
    game = Catan.new(names, {"board": "random"}, seed)
    rng = random.Random(seed)
    out: dict[str, Any] = {}
    actions = 0
    while not game.finished:
        seat = game.current
        if "board" not in out and actions >= 200 and game.phase == "main":
            out["board"] = game.view(None)
            settle = [n + 1 for n in game.legal_settlements(seat)] or [1, 2, 3]
            out["preview_settlement"] = (game.view(seat), settle)
            from engine.catan.board import EDGE_NAMES

            out["preview_road"] = (game.view(seat), [EDGE_NAMES[e] for e in game.legal_roads(seat)])
        game.apply(game.random_action(rng))
        actions += 1
    out["end"] = game.view(None)
    return out


def measure(make: Callable[[], bytes], image: Callable[[], Image.Image], repeat: int) -> dict[str, Any]:
    make()  # warm the caches (sprites, static layers, fonts)
    render_times = []
    render_cpu = []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        png = make()
        render_times.append(time.perf_counter() - started)
        render_cpu.append(time.process_time() - cpu)
    img = image()
    encode_times = []
    encode_cpu = []
    pillow_times = []
    for _ in range(repeat):
        started, cpu = time.perf_counter(), time.process_time()
        encode(img)
        encode_times.append(time.perf_counter() - started)
        encode_cpu.append(time.process_time() - cpu)
        started = time.perf_counter()
        img.save(io.BytesIO(), "PNG", compress_level=1)
        pillow_times.append(time.perf_counter() - started)
    render_ms = statistics.median(render_times) * 1000
    encode_ms = statistics.median(encode_times) * 1000
    return {
        "render_ms": round(render_ms, 1),
        "encode_only_ms": round(encode_ms, 1),
        "ratio": round(render_ms / encode_ms, 2),
        "render_cpu_ms": round(statistics.median(render_cpu) * 1000, 2),
        "encode_only_cpu_ms": round(statistics.median(encode_cpu) * 1000, 2),
        "png_bytes": len(png),
        "size": list(img.size),
        "pillow_encode_ms": round(statistics.median(pillow_times) * 1000, 1),
    }


def game_turn_pictures(seeds: tuple[int, ...] = (1, 2), rounds: int = 3) -> dict[str, Any]:
    """The turn pictures the bot asks for through whole games (2 players, base game, random moves, every board size
    from the first turn to the last): the preview of each turn and the follower spots after each placement, as
    ``bot/carcassonne/turn.py`` asks for them. CPU ms per picture, drawing and encoding apart (best of ``rounds``)."""
    jobs: dict[str, list[tuple[Any, ...]]] = {"preview": [], "spots": []}
    for seed in seeds:
        previews, spots = turn_picture_jobs(seed, NAMES[:2])
        jobs["preview"] += previews
        jobs["spots"] += spots
    draw: dict[str, Callable[..., Image.Image]] = {
        "preview": carcassonne_pictures.preview_image,
        "spots": carcassonne_pictures.spots_image,
    }
    out: dict[str, Any] = {}
    for kind, args in jobs.items():
        images = [draw[kind](*a) for a in args]  # warm
        draw_ms, encode_ms = [], []
        for _ in range(rounds):
            cpu = time.process_time()
            for a in args:
                draw[kind](*a)
            draw_ms.append((time.process_time() - cpu) / len(args) * 1000)
            cpu = time.process_time()
            for img in images:
                encode(img)
            encode_ms.append((time.process_time() - cpu) / len(args) * 1000)
        out[kind] = {
            "pictures": len(args),
            "draw_cpu_ms": round(min(draw_ms), 2),
            "encode_cpu_ms": round(min(encode_ms), 2),
        }
    return out


def panel_ms(names: list[str], repeat: int) -> dict[str, float]:
    """The side panel alone (where the names are), warm and from empty text caches: the cost of shaping."""
    from render import fonts
    from render.palette import marks, player_colour
    from render.panel import Panel, PlayerCard, card_layout, draw_panel

    mk = marks(names)
    cards = tuple(
        PlayerCard(n, player_colour(i), mk[i], str(10 * i), ("followers 7  ·  tower pieces 9",), active=i == 0)
        for i, n in enumerate(names)
    )
    panel = Panel("Carcassonne", "Turn 41  ·  30 tiles left", cards)
    caches = (fonts.runs, fonts.text_width, fonts.run_width, fonts.clusters, fonts.fit, card_layout)
    cold_times = []
    for _ in range(repeat):
        for cached in caches:
            cached.cache_clear()  # shaping, measuring, wrapping from scratch (fonts and glyph masks stay loaded)
        started = time.perf_counter()
        draw_panel(panel, 600)
        cold_times.append(time.perf_counter() - started)
    warm_times = []
    for _ in range(repeat):
        started = time.perf_counter()
        draw_panel(panel, 600)
        warm_times.append(time.perf_counter() - started)
    return {
        "warm_ms": round(statistics.median(warm_times) * 1000, 2),
        "cold_text_caches_ms": round(statistics.median(cold_times) * 1000, 2),
    }


def encoder_ab(before_file: str, images: dict[str, Image.Image], repeat: int) -> dict[str, Any]:
    """Another tree's PNG encoder (``before_file``) against this tree's on ``images``: CPU ms per image (median of
    ``repeat`` rounds of 10 images each, the two taking turns), the ratio after / before pair by pair, the sizes, and
    whether the pixels read back are the same."""
    from render import png

    spec = importlib.util.spec_from_file_location("png_before", before_file)
    if spec is None or spec.loader is None:
        raise SystemExit(f"python bench/render_bench.py: error: cannot load {before_file}")
    before: Any = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(before)
    before.band_threads = png.band_threads  # the same settings (one deflate thread in a drawing process)
    out: dict[str, Any] = {}
    for name, img in images.items():
        times: dict[str, list[float]] = {"before": [], "after": []}
        for _ in range(repeat):
            for side, encoder in (("before", before.encode), ("after", png.encode)):
                cpu = time.process_time()
                for _ in range(10):
                    encoder(img)
                times[side].append((time.process_time() - cpu) / 10 * 1000)
        a, b = before.encode(img), png.encode(img)
        same = Image.open(io.BytesIO(a)).tobytes() == Image.open(io.BytesIO(b)).tobytes() == img.tobytes()
        out[name] = {
            "before_cpu_ms": round(statistics.median(times["before"]), 2),
            "after_cpu_ms": round(statistics.median(times["after"]), 2),
            "after_over_before": round(statistics.median(y / x for x, y in zip(*times.values(), strict=True)), 2),
            "png_bytes": [len(a), len(b)],
            "same_pixels": same,
        }
    return out


def cold(make: Callable[[], bytes]) -> float:
    started = time.perf_counter()
    make()
    return round((time.perf_counter() - started) * 1000, 1)


def main() -> int:
    parser = Parser(prog="python bench/render_bench.py", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repeat", type=whole_number(1), default=15, help="timed runs of each image (median; default 15)"
    )
    parser.add_argument("--seed", type=int, default=7, help="seed of the games whose boards are drawn (default 7)")
    parser.add_argument(
        "--plain", action="store_true", help="without the drawing processes' settings (memory, one deflate thread)"
    )
    parser.add_argument("--encoder-against", metavar="FILE", help="another tree's render/png.py to time against")
    args = parser.parse_args()
    if args.encoder_against and not Path(args.encoder_against).is_file():
        parser.error(f"--encoder-against {args.encoder_against}: no such file")
    if not args.plain:
        from bot.core.rendering import drawing_process_settings

        drawing_process_settings()
    c = carcassonne_states(args.seed)
    k = catan_states(args.seed)
    results: dict[str, Any] = {"settings": "plain process" if args.plain else "drawing process"}
    board = c["board"]
    results["carcassonne_board_cold_ms"] = cold(lambda: render.board_png(board))
    results["catan_board_cold_ms"] = cold(lambda: render.board_png(k["board"]))
    results["catan_board"] = measure(
        lambda: render.board_png(k["board"]), lambda: render.board_image(k["board"]), args.repeat
    )
    results["carcassonne_board_100_tiles"] = measure(
        lambda: render.board_png(board), lambda: render.board_image(board), args.repeat
    )
    results["carcassonne_board_100_tiles"]["tiles"] = len(board["tiles"])
    view, cells = c["preview"]
    results["carcassonne_turn_preview"] = measure(
        lambda: carcassonne_pictures.preview_png(view, cells),
        lambda: carcassonne_pictures.preview_image(view, cells),
        args.repeat,
    )
    sview, (sx, sy), spots = c["spots"]
    results["carcassonne_spots_preview"] = measure(
        lambda: carcassonne_pictures.spots_png(sview, sx, sy, spots),
        lambda: carcassonne_pictures.spots_image(sview, sx, sy, spots),
        args.repeat,
    )
    for key in ("preview_settlement", "preview_road"):
        pview, pspots = k[key]
        results[f"catan_{key}"] = measure(
            lambda pview=pview, pspots=pspots: catan_pictures.preview_png(pview, pspots),
            lambda pview=pview, pspots=pspots: catan_pictures.preview_image(pview, pspots),
            args.repeat,
        )
    results["carcassonne_end"] = measure(
        lambda: render.end_png(c["end"]), lambda: render.end_image(c["end"]), args.repeat
    )
    results["catan_end"] = measure(lambda: render.end_png(k["end"]), lambda: render.end_image(k["end"]), args.repeat)
    results["carcassonne_game_turn_pictures"] = game_turn_pictures()
    results["panel_names"] = panel_ms(NAMES, args.repeat)
    results["panel_world_names"] = panel_ms(WORLD_NAMES, args.repeat)
    results["panel_32_character_names"] = panel_ms(LONG_NAMES, args.repeat)
    # the same boards with Korean, Arabic, Hebrew and emoji names (first one: the extra fonts load)
    wc = carcassonne_states(args.seed, WORLD_NAMES)["board"]
    wk = catan_states(args.seed, WORLD_NAMES)["board"]
    results["world_names_first_board_ms"] = cold(lambda: render.board_png(wk))
    results["catan_board_world_names"] = measure(
        lambda: render.board_png(wk), lambda: render.board_image(wk), args.repeat
    )
    results["carcassonne_board_world_names"] = measure(
        lambda: render.board_png(wc), lambda: render.board_image(wc), args.repeat
    )
    if args.encoder_against:
        images = {
            "carcassonne_board_100_tiles": render.board_image(board),
            "carcassonne_turn_preview": carcassonne_pictures.preview_image(view, cells),
            "catan_board": render.board_image(k["board"]),
            "carcassonne_end": render.end_image(c["end"]),
        }
        results["encoder_against"] = encoder_ab(args.encoder_against, images, args.repeat)
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    run_command(main)

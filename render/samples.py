"""Write the sample images of ``docs/images/``: ``python -m render.samples docs/images``.

Each game is played by ``standard`` computer players in every seat (the ones the bot seats with "Add computer"),
from fixed seeds, and drawn exactly as the bot posts it: a board early, in the middle and at the end, a turn's
preview, and the final scores. Deterministic: the same code draws the same pictures, which
tests/render/test_samples.py checks against the committed files. Files are re-encoded with Pillow's slowest,
smallest PNG settings to keep the repository light.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterator
from pathlib import Path

from PIL import Image

import render
from engine.ai import decide, policy_seed
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from engine.catan.board import EDGE_NAMES
from engine.cli import Parser, run_command
from engine.game import Game
from render.carcassonne import pictures as carcassonne_pictures
from render.catan import pictures as catan_pictures

NAMES = ["Alice", "Борис", "张伟", "さくら"]
CARCASSONNE_SEED = 5
CATAN_SEED = 7
# Every file main() writes, in the order it writes them.
FILES = (
    "carcassonne_early.png",
    "carcassonne_preview.png",
    "carcassonne_spots.png",
    "carcassonne_mid.png",
    "carcassonne_end.png",
    "carcassonne_scores.png",
    "catan_early.png",
    "catan_mid.png",
    "catan_preview_roads.png",
    "catan_end.png",
    "catan_scores.png",
)


def _save(png: bytes, path: Path) -> None:
    img = Image.open(io.BytesIO(png))
    img.save(path, "PNG", optimize=True)


def played(game: Game, seed: int) -> Iterator[int]:
    """Play ``game`` to its end with ``standard`` players, yielding the step number before each move."""
    step = 0
    while not game.finished:
        yield step
        action = game.automatic_action()
        if action is None:
            seat = game.actors()[0]
            action = decide(game, seat, "standard", random.Random(policy_seed(seed, seat, step)))
        game.apply(action)
        step += 1


def _carcassonne(out: Path) -> None:
    game = Carcassonne.new(NAMES, {"tower": True}, CARCASSONNE_SEED)
    done: set[str] = set()
    for _ in played(game, CARCASSONNE_SEED):
        tiles = len(game.board)
        if tiles >= 14 and "early" not in done and game.decision() == "place":
            _save(render.board_png(game.view(None)), out / "carcassonne_early.png")
            cells = sorted(game.legal_placements())
            _save(carcassonne_pictures.preview_png(game.view(game.current), cells), out / "carcassonne_preview.png")
            done.add("early")
        if tiles >= 40 and "spots" not in done and game.decision() == "follower" and len(game.follower_spots()) >= 3:
            view = game.view(game.current)
            assert view["placed"] is not None  # the follower decision follows a placement
            x, y = view["placed"]
            _save(carcassonne_pictures.spots_png(view, x, y, game.follower_spots()), out / "carcassonne_spots.png")
            done.add("spots")
        if tiles >= 50 and "mid" not in done and game.decision() == "place":
            _save(render.board_png(game.view(None)), out / "carcassonne_mid.png")
            done.add("mid")
    _save(render.board_png(game.view(None)), out / "carcassonne_end.png")
    _save(render.end_png(game.view(None)), out / "carcassonne_scores.png")


def _catan(out: Path) -> None:
    length = sum(1 for _ in played(Catan.new(NAMES, {"board": "random"}, CATAN_SEED), CATAN_SEED))
    game = Catan.new(NAMES, {"board": "random"}, CATAN_SEED)
    done: set[str] = set()
    for step in played(game, CATAN_SEED):
        if "early" not in done and game.phase == "main" and step >= 24:
            _save(render.board_png(game.view(None)), out / "catan_early.png")
            done.add("early")
        if "mid" not in done and step >= length // 2 and game.phase == "main" and game.legal_roads(game.current):
            seat = game.current
            _save(render.board_png(game.view(None)), out / "catan_mid.png")
            roads = [EDGE_NAMES[e] for e in game.legal_roads(seat)]
            _save(catan_pictures.preview_png(game.view(seat), roads), out / "catan_preview_roads.png")
            done.add("mid")
    _save(render.board_png(game.view(None)), out / "catan_end.png")
    _save(render.end_png(game.view(None)), out / "catan_scores.png")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(
        prog="python -m render.samples",
        description="Play a game of each kind with standard computer players from fixed seeds and write the sample "
        f"images ({len(FILES)} PNG files: {', '.join(FILES)}) into FOLDER. The repository's are in docs/images.",
    )
    parser.add_argument("folder", metavar="FOLDER", help="the folder to write into (created if missing): docs/images")
    args = parser.parse_args(argv)
    out = Path(args.folder)
    if out.exists() and not out.is_dir():
        sys.stderr.write(f"{out} is a file, not a folder: give the folder to write the images into (docs/images)\n")
        return 2
    try:
        out.mkdir(parents=True, exist_ok=True)
        _carcassonne(out)
        _catan(out)
    except OSError as err:
        sys.stderr.write(f"cannot write into {out}: {err.strerror or err}\n")
        return 2
    return 0


if __name__ == "__main__":
    run_command(main)

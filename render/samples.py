"""Write the sample images of ``docs/images/`` (``python -m render.samples [DIR]``).

Deterministic: seeded random games of both engines, rendered exactly as the bot posts them. Sample files are
re-encoded with Pillow's slowest, smallest PNG settings to keep the repository light.
"""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

import render
from engine.carcassonne import Carcassonne
from engine.catan import Catan
from engine.catan.board import EDGE_NAMES

NAMES = ["Alice", "Борис", "张伟", "さくら"]


def _save(png: bytes, path: Path) -> None:
    img = Image.open(io.BytesIO(png))
    img.save(path, "PNG", optimize=True)


def _carcassonne(seed: int, out: Path) -> None:
    game = Carcassonne.new(NAMES, {"tower": True}, seed)
    rng = random.Random(seed)
    done: set[str] = set()
    while not game.finished:
        tiles = len(game.board)
        if tiles >= 14 and "early" not in done and game.decision() == "place":
            _save(render.board_png(game.view(None)), out / "carcassonne_early.png")
            cells = sorted(game.legal_placements())
            _save(render.carcassonne_preview_png(game.view(game.current), cells), out / "carcassonne_preview.png")
            done.add("early")
        if tiles >= 50 and "mid" not in done and game.decision() == "place":
            _save(render.board_png(game.view(None)), out / "carcassonne_mid.png")
            done.add("mid")
        if tiles >= 50 and "spots" not in done and game.decision() == "follower" and len(game.follower_spots()) >= 3:
            view = game.view(game.current)
            x, y = view["placed"]
            _save(render.carcassonne_spots_png(view, x, y, game.follower_spots()), out / "carcassonne_spots.png")
            done.add("spots")
        game.apply(_prefer_followers(game, rng))
    _save(render.board_png(game.view(None)), out / "carcassonne_end.png")
    _save(render.end_png(game.view(None)), out / "carcassonne_scores.png")


def _prefer_followers(game: Carcassonne, rng: random.Random) -> dict[str, Any]:
    """A random legal action, but place a follower twice as often as a plain random choice would."""
    actions = game.legal_actions(game.current)
    followers = [a for a in actions if a["type"] == "follower"]
    if followers and rng.random() < 0.5:
        return rng.choice(followers)
    return game.random_action(rng)


def _catan(seed: int, out: Path) -> None:
    game = Catan.new(NAMES, {"board": "random"}, seed)
    rng = random.Random(seed)
    steps = 0
    shots: dict[int, Callable[[], None]] = {
        24: lambda: _save(render.board_png(game.view(None)), out / "catan_early.png"),
    }
    done_mid = False
    while not game.finished:
        if steps in shots:
            shots[steps]()
        if not done_mid and steps >= 260 and game.phase == "main":
            seat = game.current
            _save(render.board_png(game.view(None)), out / "catan_mid.png")
            roads = [EDGE_NAMES[e] for e in game.legal_roads(seat)]
            _save(render.catan_preview_png(game.view(seat), roads), out / "catan_preview_roads.png")
            settle = [n + 1 for n in game.legal_settlements(seat)]
            if settle:
                _save(render.catan_preview_png(game.view(seat), settle), out / "catan_preview_settlements.png")
            done_mid = True
        game.apply(game.random_action(rng))
        steps += 1
    _save(render.board_png(game.view(None)), out / "catan_end.png")
    _save(render.end_png(game.view(None)), out / "catan_scores.png")


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path("docs/images")
    out.mkdir(parents=True, exist_ok=True)
    _carcassonne(5, out)
    _catan(7, out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

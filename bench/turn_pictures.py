"""The Carcassonne turn pictures a game asks for, as the bot asks for them (``bot/carcassonne/turn.py``): shared by
``render_bench.py`` and ``drawing_instructions.py``. Imports the engine only when called, from whichever tree is
first on ``sys.path``."""

from __future__ import annotations

import random
from typing import Any


def turn_picture_jobs(seed: int, names: list[str]) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The arguments of every turn preview (view, legal cells) and every follower spots picture (view, x, y, spots)
    of one base game of random moves."""
    from engine.carcassonne import Carcassonne

    previews: list[tuple[Any, ...]] = []
    spots: list[tuple[Any, ...]] = []
    game = Carcassonne.new(names, {}, seed)
    moves = random.Random(seed)
    while not game.finished:
        view = game.view(None)
        if game.decision() == "place":
            previews.append((view, sorted(game.legal_placements(), key=lambda c: (c[1], c[0]))))
        elif game.decision() == "follower":
            placed = view["placed"]
            assert placed is not None  # a follower is decided on the tile just placed
            x, y = placed
            spots.append((view, x, y, list(game.follower_spots())))
        game.apply(game.random_action(moves))
    return previews, spots

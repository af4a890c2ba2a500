"""Carcassonne's pictures: its part in the pictures every game has (``CarcassonnePictures``, listed in
``render.registry``), and its own turn pictures, which the bot's Carcassonne package asks for: the preview of the
drawn tile's cells and the follower spots of the tile just placed.

The boards are imported when first drawn: a process that draws only the other game never loads them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from PIL import Image

from engine import game_class
from render.chart import Scoring
from render.plots import Section
from render.png import encode

View = Mapping[str, Any]
FRAME_TILES: Final = (48, 32, 24)  # a timelapse frame's tile pixels per attempt (the board's own go up to 100)


class CarcassonnePictures:
    name: Final = "carcassonne"
    scoring: Final = Scoring(
        name, "final_scores", ("road", "city", "cloister", "farm", "ransom"), lost="cat_ransom_paid"
    )
    # Lossless WebP: 15-20% smaller than GIF for every game measured (tile art has many colours; bench/README.md)
    timelapse_formats: Final = ("webp",)

    def board(self, view: View) -> Image.Image:
        from render.carcassonne.board import board_image  # lazy: only the game drawn is loaded

        return board_image(view)

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> Image.Image:
        from render.carcassonne.board import board_image  # lazy: only the game drawn is loaded

        return board_image(view, outlined=[(int(x), int(y)) for x, y in placed.get("tiles", [])])

    def frames(self, views: Sequence[View], attempt: int) -> Callable[[View], Image.Image]:
        """Every frame keeps every cell of the first and the final board in the picture; each is drawn from a recent
        one (``render.carcassonne.frames``), the same pixels as drawing it whole."""
        from render.carcassonne.frames import FrameDrawer  # lazy: only the game drawn is loaded

        extent = sorted({(t["x"], t["y"]) for view in (views[0], views[-1]) for t in view["tiles"]})
        return FrameDrawer(extent, FRAME_TILES[attempt])

    def breakdown(self, view: View) -> Mapping[int, Mapping[str, int]]:
        return {}  # a finished game's view gives each player's own

    def recap(self, story: View) -> list[Section]:
        from render.carcassonne.recap import recap  # lazy: loaded only when a game ends

        return recap(story)

    def warm_up(self) -> None:
        from render.carcassonne.board import warm_sprites  # lazy: only the game drawn is loaded

        warm_sprites()

    def sample(self) -> View:
        """The spectator view of a finished random game with River and Tower: every kind of tile, follower and
        tower is on its board."""
        game = game_class(self.name).new(["A", "B"], {"river": True, "tower": True}, 1)
        moves = random.Random(1)
        while not game.finished:
            game.apply(game.random_action(moves))
        return dict(game.view(None))


def preview_image(view: View, cells: Sequence[tuple[int, int]]) -> Image.Image:
    """The turn preview: the drawn tile and the legal ``cells`` ``[(x, y), ...]`` numbered 1..n in the given order
    (the numbers the bot offers as choices)."""
    from render.carcassonne.board import board_image  # lazy: only the game drawn is loaded

    return board_image(view, [(int(x), int(y)) for x, y in cells])


def preview_png(view: View, cells: Sequence[tuple[int, int]]) -> bytes:
    return encode(preview_image(view, cells))


def spots_image(view: View, x: int, y: int, spots: Sequence[str]) -> Image.Image:
    """The tile just placed at (x, y) enlarged, each follower spot of ``spots`` (``"city:N"``, ``"field:Sw"``, ...)
    labelled."""
    from render.carcassonne.board import spots_image as draw  # lazy: only the game drawn is loaded

    return draw(view, x, y, list(spots))


def spots_png(view: View, x: int, y: int, spots: Sequence[str]) -> bytes:
    return encode(spots_image(view, x, y, spots))

"""Board images drawn from a player's or the spectator's view (``game.view(seat)``), never from hidden state.

Public API (every function is pure and thread-safe; the bot calls them through ``asyncio.to_thread``):

- ``board_png(view) -> bytes``: the public board of either game, as posted after every move.
- ``carcassonne_preview_png(view, cells) -> bytes``: the turn preview: the drawn tile and the legal ``cells``
  ``[(x, y), ...]`` numbered 1..n in the given order (the numbers the bot offers as choices).
- ``carcassonne_spots_png(view, x, y, spots) -> bytes``: the tile just placed at (x, y) enlarged, each follower
  spot of ``spots`` (``"city:N"``, ``"field:Sw"``, ...) labelled.
- ``catan_preview_png(view, spots) -> bytes``: the build preview: only the legal spots, large and numbered with
  the engine's names: intersection numbers (``[12, 25]``) or paths (``["12-17", "17-22"]``).
- ``end_png(view) -> bytes``: final scores per category as a bar chart, and the winner.
- ``since_png(view, placed) -> bytes``: a small board (at most ``SMALL`` px a side) with the pieces in ``placed``
  (``Game.changes``: Carcassonne ``{"tiles": [[x, y], ...]}``, Catan ``{"roads", "settlements", "cities"}``)
  outlined in white: what was placed since a player's last turn.
- ``timelapse_bytes(views, formats, limit) -> bytes``: the animated board of a game turn by turn (one view per
  frame, ``engine.history.frames``), animated WebP or GIF, whichever is smaller (``render/timelapse.py``).
- ``warm_up()``: draw every tile sprite at every size and load the fonts, for a long-lived drawing process.

The ``*_image`` functions return the same pictures as Pillow images (for tests and benchmarks).
PNG bytes are at most 1 MB and at most 2048 px on the longest side.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image

from engine import game_class
from render.fonts import warm_fonts
from render.png import encode

View = Mapping[str, Any]
SMALL: Final = 1024  # the longest side of a ``since_png`` picture

__all__ = [
    "board_image",
    "board_png",
    "carcassonne_preview_image",
    "carcassonne_preview_png",
    "carcassonne_spots_image",
    "carcassonne_spots_png",
    "catan_preview_image",
    "catan_preview_png",
    "end_image",
    "end_png",
    "sample_view",
    "since_image",
    "since_png",
    "timelapse_bytes",
    "warm_up",
]


def board_image(view: View) -> Image.Image:
    if view.get("game") == "catan":
        from render.catan.board import board_image as catan_board  # lazy: only the game drawn is loaded

        return catan_board(view)
    from render.carcassonne.board import board_image as carcassonne_board  # lazy: only the game drawn is loaded

    return carcassonne_board(view)


def board_png(view: View) -> bytes:
    return encode(board_image(view))


def carcassonne_preview_image(view: View, cells: Sequence[tuple[int, int]]) -> Image.Image:
    from render.carcassonne.board import board_image as carcassonne_board  # lazy: only the game drawn is loaded

    return carcassonne_board(view, [(int(x), int(y)) for x, y in cells])


def carcassonne_preview_png(view: View, cells: Sequence[tuple[int, int]]) -> bytes:
    return encode(carcassonne_preview_image(view, cells))


def carcassonne_spots_image(view: View, x: int, y: int, spots: Sequence[str]) -> Image.Image:
    from render.carcassonne.board import spots_image  # lazy: only the game drawn is loaded

    return spots_image(view, x, y, list(spots))


def carcassonne_spots_png(view: View, x: int, y: int, spots: Sequence[str]) -> bytes:
    return encode(carcassonne_spots_image(view, x, y, spots))


def catan_preview_image(view: View, spots: Sequence[int] | Sequence[str]) -> Image.Image:
    from render.catan.board import board_image as catan_board  # lazy: only the game drawn is loaded

    return catan_board(view, list(spots))


def catan_preview_png(view: View, spots: Sequence[int] | Sequence[str]) -> bytes:
    return encode(catan_preview_image(view, spots))


def end_image(view: View) -> Image.Image:
    from render.end import end_image as make  # lazy: only the game drawn is loaded

    return make(view)


def end_png(view: View) -> bytes:
    return encode(end_image(view))


def since_image(view: View, placed: Mapping[str, Sequence[Any]]) -> Image.Image:
    if view.get("game") == "catan":
        from render.catan.board import board_image as catan_board  # lazy: only the game drawn is loaded

        img = catan_board(view, outlined=placed)
    else:
        from render.carcassonne.board import board_image as carcassonne_board  # lazy: only the game drawn is loaded

        cells = [(int(x), int(y)) for x, y in placed.get("tiles", [])]
        img = carcassonne_board(view, outlined=cells)
    if max(img.size) > SMALL:
        scale = SMALL / max(img.size)
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
    return img


def since_png(view: View, placed: Mapping[str, Sequence[Any]]) -> bytes:
    return encode(since_image(view, placed))


def timelapse_bytes(
    views: Sequence[View], formats: Sequence[str] = ("webp", "gif"), limit: int = 4 * 1024 * 1024
) -> bytes:
    from render.timelapse import timelapse  # lazy: Pillow's encoders are loaded only when a game ends

    return timelapse(views, formats, limit).data


def sample_view() -> dict[str, Any]:
    """The spectator view of a finished random Carcassonne game with River and Tower: every kind of tile, follower
    and tower is on its board (a drawing process draws it once before its first real image)."""
    game = game_class("carcassonne").new(["A", "B"], {"river": True, "tower": True}, 1)
    moves = random.Random(1)
    while not game.finished:
        game.apply(game.random_action(moves))
    return dict(game.view(None))


def warm_up() -> None:
    from render.carcassonne.board import warm_sprites  # lazy: only the game drawn is loaded

    warm_sprites()
    warm_fonts()

"""Board images drawn from a player's or the spectator's view (``game.view(seat)``), never from hidden state.

Public API (every function is pure and thread-safe; the bot calls them through ``asyncio.to_thread``):

- ``board_png(view) -> bytes``: the public board of any game, as posted after every move.
- ``end_png(view) -> bytes``: final scores per category as a bar chart, and the winner.
- ``since_png(view, placed) -> bytes``: a small board (at most ``SMALL`` px a side) with the pieces in ``placed``
  (``Game.changes``) outlined in white: what was placed since a player's last turn.
- ``timelapse_bytes(views, formats, limit) -> bytes``: the animated board of a game turn by turn (one view per
  frame, ``engine.history.frames``), animated WebP or GIF, the smallest of ``formats`` (by default the game's own
  format, ``GamePictures.timelapse_formats``) (``render/timelapse.py``).
- ``story_png(story) -> bytes``: the story of a finished game (``engine.story``'s numbers) in one picture: its dice,
  resources and awards (Catan), its lead and points by feature (Carcassonne) (``render/recap.py``).
- ``rating_chart_png(title, series) -> bytes``: a player's rating after each game, one line per game
  (``render/rating_chart.py``).
- ``warm_up()`` and ``sample_views()``: prepare every game's sprites and load the fonts, and the views to draw once,
  for a long-lived drawing process.

Each game draws these through its entry in ``render.registry.GAMES``, found by the view's ``"game"``. A game's own turn
pictures are in its package: ``render.<game>.pictures`` (e.g. the previews that number the legal choices).

The ``*_image`` functions return the same pictures as Pillow images (for tests and benchmarks).
PNG bytes are at most 1 MB and at most 2048 px on the longest side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image

from render.fonts import warm_fonts
from render.png import encode
from render.registry import GAMES, pictures_of

View = Mapping[str, Any]
SMALL: Final = 1024  # the longest side of a ``since_png`` picture

__all__ = [
    "board_image",
    "board_png",
    "end_image",
    "end_png",
    "rating_chart_image",
    "rating_chart_png",
    "sample_views",
    "since_image",
    "since_png",
    "story_image",
    "story_png",
    "timelapse_bytes",
    "warm_up",
]


def board_image(view: View) -> Image.Image:
    return pictures_of(view).board(view)


def board_png(view: View) -> bytes:
    return encode(board_image(view))


def end_image(view: View) -> Image.Image:
    from render.end import end_image as make  # lazy: loaded only when a game ends

    return make(view)


def end_png(view: View) -> bytes:
    return encode(end_image(view))


def since_image(view: View, placed: Mapping[str, Sequence[Any]]) -> Image.Image:
    img = pictures_of(view).since(view, placed)
    if max(img.size) > SMALL:
        scale = SMALL / max(img.size)
        img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.LANCZOS)
    return img


def since_png(view: View, placed: Mapping[str, Sequence[Any]]) -> bytes:
    return encode(since_image(view, placed))


def timelapse_bytes(views: Sequence[View], formats: Sequence[str] | None = None, limit: int = 4 * 1024 * 1024) -> bytes:
    from render.timelapse import timelapse  # lazy: Pillow's encoders are loaded only when a game ends

    return timelapse(views, formats, limit).data


def story_image(story: View) -> Image.Image:
    from render.recap import story_image as make  # lazy: loaded only when a game ends

    return make(story)


def story_png(story: View) -> bytes:
    return encode(story_image(story))


def rating_chart_image(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> Image.Image:
    from render.rating_chart import rating_chart_image as make  # lazy: loaded only for /stats

    return make(title, series)


def rating_chart_png(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> bytes:
    return encode(rating_chart_image(title, series))


def sample_views() -> list[View]:
    """The views a drawing process draws once before its first real picture, so that the first is not slower: one
    from each game that asks for it (``GamePictures.sample``)."""
    return [view for pictures in GAMES.values() if (view := pictures.sample()) is not None]


def warm_up() -> None:
    for pictures in GAMES.values():
        pictures.warm_up()
    warm_fonts()

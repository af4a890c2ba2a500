"""What the game-neutral pictures ask of each game, and the one list of the games.

Each game's package (``render/<game>/``) draws its own boards; its ``pictures`` module holds one object that
fulfils ``GamePictures`` and the game's own turn pictures (its previews), which only that game's part of the bot
asks for. The shared modules (``render/__init__.py``, ``end.py``, ``timelapse.py``) draw a view through the object
that its ``"game"`` names in ``GAMES``: nothing else in render/ asks which game it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final, Protocol

from PIL import Image

from render.carcassonne.pictures import CarcassonnePictures
from render.catan.pictures import CatanPictures
from render.chart import Scoring
from render.plots import Section

View = Mapping[str, Any]


class GamePictures(Protocol):
    """One game's part in the pictures every game has: the board, what changed since a turn, the timelapse's
    frames and the end chart."""

    @property
    def name(self) -> str:
        """The engine's name for the game: the ``"game"`` of its views."""
        ...

    @property
    def scoring(self) -> Scoring:
        """How the end chart shows the final scores."""
        ...

    def board(self, view: View) -> Image.Image:
        """The public board, as posted after every move."""
        ...

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> Image.Image:
        """The public board with the pieces in ``placed`` (``Game.changes``) outlined in white, full size."""
        ...

    @property
    def timelapse_formats(self) -> tuple[str, ...]:
        """The formats its timelapse is encoded in (``render.timelapse.FORMATS``), the smallest kept: the one that
        suits its boards best for size and time, so that the time of encoding the other is saved."""
        ...

    def frames(self, views: Sequence[View], attempt: int) -> Callable[[View], Image.Image]:
        """How to draw each frame of the timelapse of ``views``, all on one grid, at the size of ``attempt``
        (0: the largest, up to ``render.timelapse.ATTEMPTS - 1``). A picture it returns may be drawn over by its
        next call: the caller copies one it keeps."""
        ...

    def breakdown(self, view: View) -> Mapping[int, Mapping[str, int]]:
        """Points per scoring category by seat, for the players whose view has no ``breakdown`` of its own."""
        ...

    def recap(self, story: View) -> list[Section]:
        """The game's charts in the story of a finished game (``render.recap``), from ``engine.story``'s numbers."""
        ...

    def warm_up(self) -> None:
        """Prepare in advance what the first picture would otherwise prepare (a long-lived drawing process)."""
        ...

    def sample(self) -> View | None:
        """A view a long-lived drawing process draws once before its first real picture (None: no need)."""
        ...


GAMES: Final[Mapping[str, GamePictures]] = MappingProxyType(
    {pictures.name: pictures for pictures in (CarcassonnePictures(), CatanPictures())}
)


def pictures_of(view: View) -> GamePictures:
    """The pictures of the game ``view`` is a view of."""
    name = view.get("game")
    try:
        return GAMES[str(name)]
    except KeyError:
        raise ValueError(f"no pictures for game {name!r} (known: {', '.join(GAMES)})") from None

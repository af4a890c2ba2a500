"""Catan's pictures: its part in the pictures every game has (``CatanPictures``, listed in ``render.registry``), and
its own turn picture, which the bot's Catan package asks for: the build preview of the set-up.

The board is imported when first drawn: a process that draws only the other game never loads it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from PIL import Image

from render.chart import Scoring
from render.plots import Section
from render.png import encode

View = Mapping[str, Any]
FRAME_SCALES: Final = (1.0, 0.75, 0.5)  # a timelapse frame's scale of the board per attempt


class CatanPictures:
    name: Final = "catan"
    scoring: Final = Scoring(
        name, "final_scores_catan", ("settlement", "city", "longest_road", "largest_army", "victory_point")
    )
    # GIF: in 55-85% of lossless WebP's time, and at most about 13% larger (5-10% smaller while the frames still
    # marked the player to move: bench/README.md, "Timelapse frames without the turn's mark")
    timelapse_formats: Final = ("gif",)

    def board(self, view: View) -> Image.Image:
        from render.catan.board import board_image  # lazy: only the game drawn is loaded

        return board_image(view)

    def since(self, view: View, placed: Mapping[str, Sequence[Any]]) -> Image.Image:
        from render.catan.board import board_image  # lazy: only the game drawn is loaded

        return board_image(view, outlined=placed)

    def frames(self, views: Sequence[View], attempt: int) -> Callable[[View], Image.Image]:
        from render.catan.board import board_image  # lazy: only the game drawn is loaded

        scale = FRAME_SCALES[attempt]

        def frame(view: View) -> Image.Image:
            img = board_image(view, turn_marked=False)  # the mark would jump from card to card every frame
            if scale == 1.0:
                return img
            return img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BILINEAR)

        return frame

    def breakdown(self, view: View) -> Mapping[int, Mapping[str, int]]:
        return breakdown(view)

    def recap(self, story: View) -> list[Section]:
        from render.catan.recap import recap  # lazy: loaded only when a game ends

        return recap(story)

    def warm_up(self) -> None:
        pass  # nothing worth preparing: its few sprites and each board's terrain are cached when first drawn

    def sample(self) -> None:
        return None


def breakdown(view: View) -> dict[int, dict[str, int]]:
    """Points per category from the public board (the view has no breakdown): 1 per settlement, 2 per city,
    2 for each card held, and the victory point cards revealed at the end."""
    from render.catan.state import read  # lazy: only the game drawn is loaded

    state = read(view)
    return {
        p.seat: {
            "settlement": p.settlements,
            "city": 2 * p.cities,
            "longest_road": 2 if state.longest_road == p.seat else 0,
            "largest_army": 2 if state.largest_army == p.seat else 0,
            "victory_point": p.vp_cards,
        }
        for p in state.players
    }


def preview_image(view: View, spots: Sequence[int] | Sequence[str]) -> Image.Image:
    """The build preview: only the legal spots, large and numbered with the engine's names: intersection numbers
    (``[12, 25]``) or paths (``["12-17", "17-22"]``)."""
    from render.catan.board import board_image  # lazy: only the game drawn is loaded

    return board_image(view, list(spots))


def preview_png(view: View, spots: Sequence[int] | Sequence[str]) -> bytes:
    return encode(preview_image(view, spots))

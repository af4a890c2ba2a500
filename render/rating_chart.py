"""A player's rating history (``render.rating_chart_png``): their rating after each rated game, one line per game
they play (Carcassonne, Catan), for ``/stats player``. Plain numbers in: the title and, per game, the ratings in
order."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from render.labels import label
from render.palette import ORANGE, SKY_BLUE
from render.plots import compose, heading, legend, line_chart

WIDTH: Final = 800
COLOURS: Final = (ORANGE, SKY_BLUE, (141, 190, 90), (171, 130, 195))


def rating_chart_image(title: str, series: Sequence[tuple[str, Sequence[float]]]) -> Image.Image:
    """``series``: per game (its engine name), the rating after each of the player's games, oldest first."""
    colours = [COLOURS[i % len(COLOURS)] for i in range(len(series))]
    lines = [
        (colour, "", [(float(n), float(value)) for n, value in enumerate(values, 1)])
        for colour, (_, values) in zip(colours, series, strict=True)
    ]
    return compose(
        [
            heading(title, WIDTH),
            legend(
                [(colour, "", label(f"title_{game}")) for colour, (game, _) in zip(colours, series, strict=True)], WIDTH
            ),
            line_chart(lines, height=280, x_label=label("rating_games"), width=WIDTH),
        ],
        WIDTH,
    )

"""The story of a finished game as one picture (``render.story_png``): the title, the winner, each player with
their final score, then the game's own charts (``GamePictures.recap``: Catan's dice, resources and awards,
Carcassonne's lead and points by feature), all from the plain numbers of ``engine.story``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image

from render.labels import label, names_list
from render.palette import marks, player_colour
from render.panel import ACCENT, TEXT
from render.plots import compose, legend, text_section
from render.registry import pictures_of

Story = Mapping[str, Any]


def story_image(story: Story) -> Image.Image:
    names = [str(name) for name in story["players"]]
    mk = marks(names)
    winners = [names[seat] for seat in story["winners"]]
    title = label("story_title", game=label(f"title_{story['game']}"))
    sections = [text_section(title, 32, TEXT, bold=True)]
    if winners:
        key = "winner" if len(winners) == 1 else "winners"
        sections.append(text_section("★ " + label(key, names=names_list(winners)), 24, ACCENT, bold=True))
    scores = [label("story_player", name=name, points=label("score", points=score))
              for name, score in zip(names, story["scores"], strict=True)]  # fmt: skip
    sections.append(legend([(player_colour(seat), mk[seat], text) for seat, text in enumerate(scores)]))
    sections += pictures_of(story).recap(story)
    return compose(sections)

"""Board images drawn in a worker process give the same picture as drawn in a thread."""

from __future__ import annotations

import io

from PIL import Image

from bot.rendering import Renderer
from engine import game_class


def pixels(png: bytes) -> bytes:
    """The picture itself (a worker deflates in one band, a thread in several: the bytes of the PNG differ)."""
    image = Image.open(io.BytesIO(png))
    return image.tobytes()


async def test_a_worker_process_draws_the_same_png_as_a_thread() -> None:
    view = game_class("catan").new(["A", "B", "C"], {"board": "beginner"}, 3).view(None)
    threads, processes = Renderer(0), Renderer(1)
    await processes.start()
    try:
        drawn_there = await processes.png(("board_png", (view,)))
    finally:
        processes.close()
    drawn_here = await threads.png(("board_png", (view,)))
    assert drawn_there.startswith(b"\x89PNG") and pixels(drawn_there) == pixels(drawn_here)


async def test_a_worker_process_draws_the_labels_in_the_game_language() -> None:
    from bot.text.i18n import speaking

    view = game_class("carcassonne").new(["A", "B"], {}, 3).view(None)
    processes = Renderer(1)
    await processes.start()
    try:
        english = await processes.png(("board_png", (view,)))
        with speaking("ru"):
            russian = await processes.png(("board_png", (view,)))
    finally:
        processes.close()
    with speaking("ru"):
        here = await Renderer(0).png(("board_png", (view,)))
    assert pixels(russian) != pixels(english) and pixels(russian) == pixels(here)

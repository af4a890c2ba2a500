"""Board images drawn off the event loop: in worker processes when configured, so a second core draws while the
first answers Discord, else in threads. Turn posters describe an image as a job (a ``render`` function's name and
its plain-data arguments: views are JSON-like), so it can cross to another process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from typing import Any

Job = tuple[str, tuple[Any, ...]]


def draw(name: str, args: tuple[Any, ...], language: str = "en") -> bytes:
    """Run ``render.<name>(*args)`` with the image labels in ``language``: the one entry point a worker needs.

    The language travels with the job because a worker process shares no context (nor installed labels) with
    the bot's process.
    """
    import render
    from bot.text.i18n import install_image_labels, speaking

    install_image_labels()
    with speaking(language):
        png: bytes = getattr(render, name)(*args)
    return png


def _worker_setup() -> None:
    """In each drawing process: freed image buffers kept for the next image (``bot.memory``), one thread per image
    (the processes are the parallelism), and every tile's shapes and the fonts drawn once before the first turn
    instead of during it."""
    import render
    from bot.memory import keep_freed_memory
    from render import png

    keep_freed_memory()
    png.band_threads = 1
    render.warm_up()
    draw("board_png", (_warm_view(),))


def _warm_view() -> dict[str, Any]:
    """A finished random game with River and Tower: every kind of tile, follower and tower is on the board."""
    import random

    from engine import game_class

    game = game_class("carcassonne").new(["A", "B"], {"river": True, "tower": True}, 1)
    moves = random.Random(1)
    while not game.finished:
        game.apply(game.random_action(moves))
    view: dict[str, Any] = game.view(None)
    return view


class Renderer:
    def __init__(self, processes: int = 0) -> None:
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    async def start(self) -> None:
        """Start the worker processes and let each import Pillow and the fonts once, before the first turn."""
        if self.processes <= 0:
            return
        # spawn, not fork: the bot's process has threads (SQLite, the event loop) that a fork would copy mid-step
        self._pool = concurrent.futures.ProcessPoolExecutor(
            self.processes, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_setup
        )
        loop = asyncio.get_running_loop()
        # Wait until the processes have started and warmed up (each runs ``_worker_setup`` first).
        await asyncio.gather(*(loop.run_in_executor(self._pool, int) for _ in range(self.processes)))

    async def png(self, job: Job) -> bytes:
        """The picture of ``job`` with its labels in the language of the current context."""
        from bot.text.i18n import language

        name, args = job
        if self._pool is None:
            return await asyncio.to_thread(draw, name, args, language())
        return await asyncio.get_running_loop().run_in_executor(self._pool, draw, name, args, language())

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

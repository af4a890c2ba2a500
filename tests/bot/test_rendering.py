"""Board images drawn in a worker process give the same picture as drawn in a thread; the drawing processes
survive failures."""

from __future__ import annotations

import asyncio
import io
import os
import signal
from typing import Any

import pytest
from PIL import Image

import render
from bot.core.rendering import Job, Lane, Renderer, RenderError
from engine import game_class

TURN = Lane.INTERACTIVE


def pixels(png: bytes) -> bytes:
    """The picture itself (a worker deflates in one band, a thread in several: the bytes of the PNG differ)."""
    image = Image.open(io.BytesIO(png))
    return image.tobytes()


async def test_a_worker_process_draws_the_same_png_as_a_thread() -> None:
    view = game_class("catan").new(["A", "B", "C"], {"board": "beginner"}, 3).view(None)
    threads, processes = Renderer(0), Renderer(1)
    await processes.start()
    try:
        drawn_there = await processes.png(Job(render.board_png, view), lane=TURN)
    finally:
        processes.close()
    drawn_here = await threads.png(Job(render.board_png, view), lane=TURN)
    assert drawn_there.startswith(b"\x89PNG") and pixels(drawn_there) == pixels(drawn_here)


async def test_a_worker_process_draws_the_labels_in_the_game_language() -> None:
    from bot.text.i18n import speaking

    view = game_class("carcassonne").new(["A", "B"], {}, 3).view(None)
    processes = Renderer(1)
    await processes.start()
    try:
        english = await processes.png(Job(render.board_png, view), lane=TURN)
        with speaking("ru"):
            russian = await processes.png(Job(render.board_png, view), lane=TURN)
    finally:
        processes.close()
    with speaking("ru"):
        here = await Renderer(0).png(Job(render.board_png, view), lane=TURN)
    assert pixels(russian) != pixels(english) and pixels(russian) == pixels(here)


def finished_view() -> dict[str, Any]:
    import random

    game = game_class("carcassonne").new(["A", "B"], {"tower": True}, 4)
    moves = random.Random(4)
    while not game.finished:
        game.apply(game.random_action(moves))
    view: dict[str, Any] = game.view(None)
    return view


async def test_many_pictures_at_once_each_reach_the_one_who_asked() -> None:
    views = [game_class("catan").new(["A", "B", "C"], {"board": "random"}, seed).view(None) for seed in range(6)]
    processes = Renderer(2)
    await processes.start()
    try:
        drawn = await asyncio.gather(*(processes.png(Job(render.board_png, view), lane=TURN) for view in views))
    finally:
        processes.close()
    here = [await Renderer(0).png(Job(render.board_png, view), lane=TURN) for view in views]
    assert [pixels(png) for png in drawn] == [pixels(png) for png in here]


def turn_jobs() -> list[Job]:
    """The first job of each drawing function the games' turn messages ask for (a board, previews, the end)."""
    import random

    from bot.carcassonne.turn import turn_image as carcassonne_image
    from bot.catan.turn import turn_image as catan_image

    jobs: dict[object, Job] = {}
    for name, image in (("carcassonne", carcassonne_image), ("catan", catan_image)):
        game: Any = game_class(name).new(["A", "B", "C"], {}, 5)
        moves = random.Random(5)
        while not game.finished:
            job = image(game)
            jobs.setdefault(job.function, job)
            game.apply(game.random_action(moves))
        jobs.setdefault(image(game).function, image(game))
    return list(jobs.values())


async def test_every_kind_of_turn_picture_is_drawn_in_a_worker_process_as_in_a_thread() -> None:
    """Jobs cross to a drawing process with their function by reference: each kind draws there as here."""
    jobs = turn_jobs()
    functions = {job.function for job in jobs}
    assert {render.board_png, render.end_png} < functions and len(functions) == 5  # and the three previews
    processes = Renderer(1)
    await processes.start()
    try:
        drawn = [await processes.png(job, lane=TURN) for job in jobs]
    finally:
        processes.close()
    assert [pixels(png) for png in drawn] == [pixels(await Renderer(0).png(job, lane=TURN)) for job in jobs]


async def test_a_drawing_that_fails_is_reported_and_the_worker_draws_on() -> None:
    view = game_class("carcassonne").new(["A", "B"], {}, 3).view(None)
    processes = Renderer(1)
    await processes.start()
    try:
        with pytest.raises(RenderError, match="ValueError: no pictures for game 'chess'"):
            await processes.png(Job(render.board_png, {**view, "game": "chess"}), lane=TURN)
        assert (await processes.png(Job(render.board_png, view), lane=TURN)).startswith(b"\x89PNG")
    finally:
        processes.close()


async def test_a_drawing_process_that_dies_fails_its_picture_and_is_replaced() -> None:
    view = finished_view()
    processes = Renderer(1)
    await processes.start()
    try:
        (first,) = processes._workers
        drawing = asyncio.ensure_future(processes.png(Job(render.board_png, view), lane=TURN))
        await asyncio.sleep(0)  # the job is handed to the worker
        assert first.busy is not None
        os.kill(first.process.pid, signal.SIGKILL)
        with pytest.raises(RenderError, match="exited"):
            await drawing
        # the next picture waits for the replacement to warm up, then is drawn
        png = await asyncio.wait_for(processes.png(Job(render.board_png, view), lane=TURN), timeout=60)
        assert png.startswith(b"\x89PNG") and processes._workers[0] is not first
    finally:
        processes.close()
    assert not first.process.is_alive()


async def test_pictures_larger_than_the_pipe_holds_reach_whoever_asked_whole() -> None:
    from tests.bot.drawing_probes import noise

    processes = Renderer(2)
    await processes.start()
    try:
        sizes = [0, 1, 65_535, 65_536, 300_000, 3_000_000]  # the pipe holds about 200 kB
        drawn = await asyncio.gather(*(processes.png(Job(noise, n, n), lane=TURN) for n in sizes))
        assert drawn == [noise(n, n) for n in sizes]
    finally:
        processes.close()


async def test_closing_lets_a_process_finish_writing_the_picture_in_hand() -> None:
    from tests.bot.drawing_probes import noise

    processes = Renderer(1)
    await processes.start()
    (worker,) = processes._workers
    drawing = asyncio.ensure_future(processes.png(Job(noise, 8_000_000, 1), lane=TURN))
    await asyncio.sleep(0)  # handed to the process, which writes more than the pipe holds
    assert worker.busy is not None
    processes.close()  # nobody waits for the picture now: it is read and dropped until the process has exited
    assert worker.process.exitcode == 0  # it stopped on its own, not by the signal given after 5 s
    drawing.cancel()


async def test_a_process_that_writes_what_no_worker_writes_is_stopped_and_its_picture_fails(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.bot.drawing_probes import scribble

    processes = Renderer(1, target=scribble)
    await processes.start()
    (first,) = processes._workers
    try:
        with pytest.raises(RenderError, match="exited"):
            await asyncio.wait_for(processes.png(Job(render.board_png, finished_view()), lane=TURN), timeout=60)
        assert first not in processes._workers  # a replacement is coming
    finally:
        processes.close()
    first.process.join(timeout=10)
    assert first.process.exitcode == -signal.SIGKILL
    assert any("wrote not a message header: length -5; stopping it" in r.getMessage() for r in caplog.records)


async def test_closing_stops_the_drawing_processes() -> None:
    processes = Renderer(2)
    await processes.start()
    started = list(processes._workers)
    processes.close()
    assert started and all(not worker.process.is_alive() for worker in started)


async def test_a_replacement_that_dies_before_it_is_ready_is_started_again_after_a_pause(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = finished_view()
    processes = Renderer(1, backoff=0.2)
    await processes.start()
    try:
        (first,) = processes._workers
        os.kill(first.process.pid, signal.SIGKILL)
        while not processes._workers or processes._workers[0] is first:  # the replacement starts
            await asyncio.sleep(0.01)
        (replacement,) = processes._workers
        waiting = asyncio.ensure_future(processes.png(Job(render.board_png, view), lane=TURN))
        os.kill(replacement.process.pid, signal.SIGKILL)  # still warming up
        png = await asyncio.wait_for(waiting, timeout=60)  # drawn by the next attempt, after the pause
        assert png.startswith(b"\x89PNG")
        (third,) = processes._workers
        assert third is not replacement and third.attempt == 2
    finally:
        processes.close()
    assert any("before it was ready (attempt 1 of 4); trying again in 0.2 s" in r.getMessage() for r in caplog.records)


async def test_a_drawing_process_that_never_starts_is_given_up_after_a_few_attempts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.bot.dying_worker import die

    processes = Renderer(1, start_attempts=3, backoff=0.05, target=die)
    try:
        with pytest.raises(RenderError, match="no drawing process could start in 3 attempts"):
            await asyncio.wait_for(processes.start(), timeout=60)
        with pytest.raises(RenderError, match="no drawing process"):
            await processes.png(Job(render.board_png, finished_view()), lane=TURN)
    finally:
        processes.close()
    told = [r.getMessage() for r in caplog.records if r.name == "boardhost.rendering"]
    assert sum("trying again" in m for m in told) == 2, told
    assert any("3 times in a row: giving up on this drawing process (0 left)" in m for m in told), told

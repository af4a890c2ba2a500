"""Drawing in two lanes (issue 29): what a player waits for is drawn first and never waits behind a timelapse, a
game's story or a replay; background work runs in a process of its own at a lower OS priority, which stops when
idle and starts again with the next background job."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import threading
import time
from typing import Any

import pytest

import render
from bot.core.rendering import Job, Lane, Renderer, RenderError
from engine import game_class
from tests.bot.drawing_probes import die_in_background, niceness, pause, sprites_held

TURN, LATER = Lane.INTERACTIVE, Lane.BACKGROUND


def played(seed: int = 4) -> list[dict[str, Any]]:
    """The spectator's view after each placed tile of a random Carcassonne game with the Tower: a timelapse's frames."""
    game = game_class("carcassonne").new(["A", "B"], {"tower": True}, seed)
    moves = random.Random(seed)
    views = [game.view(None)]
    while not game.finished:
        tiles = len(game.view(None)["tiles"])
        game.apply(game.random_action(moves))
        if len(game.view(None)["tiles"]) > tiles:
            views.append(game.view(None))
    return views


async def test_a_turn_image_is_not_held_up_by_a_timelapse_in_flight() -> None:
    views = played()
    board = Job(render.board_png, views[-1])
    renderer = Renderer(1)  # one process for turn images: a timelapse in it would hold every turn image
    await renderer.start()
    try:
        started = time.perf_counter()
        await renderer.png(board, lane=TURN)
        alone = time.perf_counter() - started
        timelapse = asyncio.ensure_future(renderer.png(Job(render.timelapse_bytes, views), lane=LATER))
        while not any(worker.busy is not None for worker in renderer._workers):  # the timelapse is being drawn
            await asyncio.sleep(0.01)
        started = time.perf_counter()
        drawn = await renderer.png(board, lane=TURN)
        waited = time.perf_counter() - started
        assert drawn.startswith(b"\x89PNG")
        assert not timelapse.done(), f"the turn image took {waited:.3f} s (alone {alone:.3f} s): after the timelapse"
        assert (await timelapse)[:4] == b"RIFF"
    finally:
        renderer.close()


async def test_a_turn_image_asked_for_later_is_drawn_before_background_work_waiting_in_the_same_process() -> None:
    renderer = Renderer(1, background=0)  # no background process: one queue, most urgent first
    await renderer.start()
    try:
        order: list[str] = []

        async def ask(name: str, lane: Lane) -> None:
            order.append((await renderer.png(Job(pause, 0.2, name), lane=lane)).decode())

        first = asyncio.ensure_future(ask("turn 1", TURN))  # the process is busy with it ...
        await asyncio.sleep(0.05)
        later = [asyncio.ensure_future(ask(f"story {i}", LATER)) for i in range(3)]  # ... while these queue ...
        await asyncio.sleep(0.05)
        await asyncio.gather(first, ask("turn 2", TURN), *later)  # ... and this turn image comes after them
    finally:
        renderer.close()
    assert order == ["turn 1", "turn 2", "story 0", "story 1", "story 2"]


async def test_background_work_runs_at_a_lower_os_priority_in_a_process_that_stops_when_idle() -> None:
    renderer = Renderer(1, background_idle=0.3)
    await renderer.start()
    try:
        assert renderer.ready_pids(LATER) == []  # started with the first background job, not with the bot
        interactive = int(await renderer.png(Job(niceness), lane=TURN))
        background = int(await renderer.png(Job(niceness), lane=LATER))
        assert background == interactive + 10
        (first,) = [worker for worker in renderer._workers if worker.lane is LATER]
        while first.process.is_alive():  # idle for 0.3 s: it exits
            await asyncio.sleep(0.05)
        assert first.process.exitcode == 0 and renderer.ready_pids(LATER) == []
        assert (await renderer.png(Job(pause, 0, "again"), lane=LATER)) == b"again"  # another one starts
        assert len(renderer.ready_pids(LATER)) == 1 and renderer.ready_pids(LATER) != [first.process.pid]
    finally:
        renderer.close()


async def test_the_background_process_starts_without_warming_up_what_only_turn_images_need() -> None:
    """Warming every tile at every size cost the background process about 1.1 s of CPU at each start (once per
    finished game on a quiet host); its pictures are drawn without it, and nobody waits for them."""
    renderer = Renderer(1)
    await renderer.start()
    try:
        assert int(await renderer.png(Job(sprites_held), lane=TURN)) > 1000  # warmed: 51 tiles x 4 x its sizes
        assert int(await renderer.png(Job(sprites_held), lane=LATER)) == 0
        frames = played()[:3]
        assert (await renderer.png(Job(render.timelapse_bytes, frames), lane=LATER))[:4] in (b"RIFF", b"GIF8")
        assert int(await renderer.png(Job(sprites_held), lane=LATER)) > 0  # made on first use
    finally:
        renderer.close()


async def test_a_background_process_that_dies_fails_its_job_only_and_the_next_is_drawn() -> None:
    renderer = Renderer(1)
    await renderer.start()
    try:
        assert await renderer.png(Job(pause, 0, "warm"), lane=LATER) == b"warm"
        (worker,) = [worker for worker in renderer._workers if worker.lane is LATER]
        slow = asyncio.ensure_future(renderer.png(Job(pause, 30, "never"), lane=LATER))
        await asyncio.sleep(0.05)
        os.kill(worker.process.pid, signal.SIGKILL)
        with pytest.raises(RenderError, match="exited"):
            await slow
        assert await renderer.png(Job(pause, 0, "turn"), lane=TURN) == b"turn"  # the turns never noticed
        assert await asyncio.wait_for(renderer.png(Job(pause, 0, "after"), lane=LATER), timeout=60) == b"after"
    finally:
        renderer.close()


async def test_a_large_background_job_is_handed_over_without_holding_up_the_turn_images() -> None:
    """A timelapse's views are megabytes: written to the pipe from the event loop, they would hold every game's turn
    until the background process, at its lower priority, got the CPU to read them."""
    renderer = Renderer(1)
    await renderer.start()
    pid = 0
    resumed = threading.Event()
    try:
        assert await renderer.png(Job(pause, 0, "up"), lane=LATER) == b"up"
        (pid,) = renderer.ready_pids(LATER)
        os.kill(pid, signal.SIGSTOP)  # a background process that gets no CPU for a while
        threading.Timer(2.0, lambda: (resumed.set(), os.kill(pid, signal.SIGCONT))).start()
        big = asyncio.ensure_future(renderer.png(Job(pause, 0, "x" * 4_000_000), lane=LATER))
        await asyncio.sleep(0)  # handed to the background process
        assert await renderer.png(Job(pause, 0, "turn"), lane=TURN) == b"turn"
        assert not resumed.is_set(), "the turn image waited for the background process to read its job"
        assert len(await asyncio.wait_for(big, timeout=60)) == 4_000_000
    finally:
        if pid:
            os.kill(pid, signal.SIGCONT)
        renderer.close()


async def test_background_work_is_drawn_behind_the_turn_images_when_its_process_cannot_start(
    caplog: pytest.LogCaptureFixture,
) -> None:
    renderer = Renderer(1, start_attempts=2, backoff=0.05, target=die_in_background)
    await renderer.start()
    try:
        assert await asyncio.wait_for(renderer.png(Job(pause, 0, "story"), lane=LATER), timeout=60) == b"story"
        assert renderer.ready_pids(LATER) == [] and len(renderer.ready_pids(TURN)) == 1
    finally:
        renderer.close()
    assert any("2 times in a row: giving up" in r.getMessage() for r in caplog.records)


async def test_drawing_in_threads_background_work_has_a_thread_of_lower_priority() -> None:
    renderer = Renderer(0)
    try:
        interactive = int(await renderer.png(Job(niceness), lane=TURN))
        background = int(await renderer.png(Job(niceness), lane=LATER))
    finally:
        renderer.close()
    assert background == interactive + 10

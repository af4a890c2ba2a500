"""Board images drawn off the event loop: in worker processes when configured, so a second core draws while the
first answers Discord, else in threads. Turn posters describe an image as a ``Job`` (a drawing function and its
plain-data arguments: views are JSON-like), so it can cross to another process.

The processes are our own small pool rather than ``concurrent.futures.ProcessPoolExecutor``: a job is written to
an idle worker's pipe straight from the event loop, and the loop reads the picture from the pipe as it arrives
(``loop.add_reader``). The executor passes every job and result through two more threads (its manager and its queue
feeder), each of which must win the GIL from a busy event loop; on a loaded bot that cost about 5 ms more per
picture (``bench/README.md``); a thread per worker waiting on its pipe cost a wake-up and a hand-over per
picture. A worker that dies is replaced, and only the job it was drawing fails.

Every picture is asked for in a ``Lane``. What a player waits for (a turn message, a private preview, a command's
answer) is ``INTERACTIVE``: drawn by the drawing processes the bot starts with, oldest first. Work nobody waits on
(a game's timelapse, about a second and a half of drawing; its story; a replay) is ``BACKGROUND``: drawn by a process
of its own at a lower OS priority, started when the first such job comes and stopped once idle. A timelapse in
flight therefore never holds a turn image's process, and on a busy machine the kernel gives the interactive
processes the cores first (issue 29: turn images of other games queued up to 0.8 s behind a game's timelapse).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import enum
import logging
import os
import pickle
import queue as queues
import select
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, TypeVarTuple

import render
from bot.core.memory import keep_freed_memory
from bot.host.pipe_worker import READ_BYTES, STOP, Frames, serve, start_worker
from bot.text.i18n import install_image_labels, language, speaking
from render import png

log = logging.getLogger("boardhost.rendering")

Ts = TypeVarTuple("Ts")
READY = b"ready"  # a worker's first message: warmed up
START_ATTEMPTS = 4  # a drawing process that dies before it is ready is started again this many times in all
BACKOFF = 1.0  # seconds before the first new attempt; doubled after each failure (1, 2, 4 s)
# How much lower the background lane runs: at nice 10 the kernel weighs it about a tenth of an interactive process
# (110 against 1024), so a busy host still finishes its timelapses, slowly; at 19 (15 against 1024) they could wait
# for as long as the host stays busy, each holding its game's views in memory meanwhile.
BACKGROUND_NICE = 10
BACKGROUND_IDLE = 120.0  # seconds a background process waits for more work before it exits (its ~100 MB back)
# A job up to this size is written to the pipe straight from the event loop: the pipe holds it whole (64 kB), so the
# write cannot wait for the worker. A larger one (a timelapse's views: up to a few MB) goes through a thread of the
# worker's own: written from the loop, it would stand the loop still until the worker had read it all, and a
# background worker at a lower priority on a busy machine reads slowly (every game's turns waited meanwhile).
INLINE_BYTES = 32 * 1024


class Lane(enum.Enum):
    """Who waits for a picture: it decides which processes draw it and in what order."""

    INTERACTIVE = "interactive"  # a player or a command waits: a turn message, a private preview, /game board
    BACKGROUND = "background"  # nobody waits: a timelapse, the story of a game, a replay looked at afterwards


class RenderError(RuntimeError):
    """A picture could not be drawn: the drawing raised, or its worker process died."""


@dataclass(frozen=True, init=False)
class Job:
    """A picture to draw: a function at the top level of a ``render`` module (``render.board_png``, a game's
    ``render.<game>.pictures.preview_png``...) and its plain-data arguments, which the type checker holds to the
    function's parameters. The function crosses to a drawing process by reference (pickle sends its module and
    name, some 35 bytes), as cheap to send as the name string jobs used to carry."""

    function: Callable[..., bytes]
    args: tuple[Any, ...]

    def __init__(self, function: Callable[[*Ts], bytes], *args: *Ts) -> None:
        object.__setattr__(self, "function", function)
        object.__setattr__(self, "args", args)


def draw(job: Job, language: str = "en") -> bytes:
    """``job``'s picture with the image labels in ``language``."""
    return _draw(job.function, job.args, language)


def _draw(function: Callable[..., bytes], args: tuple[Any, ...], language: str) -> bytes:
    """Run ``function(*args)`` with the image labels in ``language``: the one entry point a worker needs.

    The language travels with the job because a worker process shares no context (nor installed labels) with
    the bot's process.
    """
    install_image_labels()
    with speaking(language):
        return function(*args)


def drawing_process_settings() -> None:
    """What a drawing process sets before its first picture (``bench/render_bench.py`` measures with the same):
    freed image buffers kept for the next image (``bot.core.memory``: fewer page faults), and one deflate thread
    per image (the processes are the parallelism)."""
    keep_freed_memory()
    png.band_threads = 1


def drawing_process_setup() -> None:
    """In each drawing process: its settings, and every tile's shapes and the fonts drawn once before the first turn
    instead of during it (``bench/bot_bench.drawing_probe`` draws after the same)."""
    drawing_process_settings()
    render.warm_up()
    for view in render.sample_views():
        draw(Job(render.board_png, view))


def _run(conn: Connection, target: Callable[[Connection], None], niceness: int) -> None:
    """A drawing process's entry point: lower its OS priority by ``niceness`` first (the background lane's), then
    run ``target``."""
    if niceness:
        _lower_priority(niceness, 0)
    target(conn)


def _lower_priority(niceness: int, who: int) -> None:
    """Lower the priority of process or thread ``who`` (0: the caller) by ``niceness``. On Linux a thread's id names
    that thread alone (and 0 the calling thread: a new process calls it before it starts any thread, which then
    inherit it); elsewhere, or where refused, it stays as it was."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, who, os.getpriority(os.PRIO_PROCESS, who) + niceness)


def _background_thread_setup(niceness: int) -> None:
    _lower_priority(niceness, threading.get_native_id())


def _worker(conn: Connection) -> None:
    """A drawing process: warm up, say so, then draw one job at a time until the bot closes the pipe."""
    _serve(conn, warm=True)


def _background_worker(conn: Connection) -> None:
    """A background drawing process: the same without the warm-up. Nobody waits for its pictures (timelapse frames,
    a game's story, replay pages), and warming every tile at every size cost it about 1.1 s of CPU each time it
    started (once per finished game on a quiet host: twice a timelapse's own drawing); what it draws is made and
    kept on first use instead."""
    _serve(conn, warm=False)


def _serve(conn: Connection, *, warm: bool) -> None:
    if warm:
        drawing_process_setup()
    else:
        drawing_process_settings()
    conn.send_bytes(READY)
    serve(conn, _answer)


def _answer(data: bytes) -> bytes:
    function, args, language = pickle.loads(data)
    return _draw(function, args, language)


def _drain(worker: _Process, polls: int = 100) -> None:
    """Wait (up to ``polls`` x 50 ms) for a stopping worker to exit, reading and dropping what it still writes: a
    picture it finishes meanwhile could fill the pipe and hold it in its write. Counted in polls, not by a clock (a
    test's may stand still)."""
    for _ in range(polls):
        if not worker.process.is_alive():
            break
        try:
            readable, _, _ = select.select([worker.fd], [], [], 0.05)  # not ``conn.poll``: it loops on the clock
            if readable and not os.read(worker.fd, 1 << 20):  # the pipe ended: it has exited
                break
        except OSError:
            break
    worker.process.join(timeout=5)


@dataclass(eq=False)
class _Process:
    """One drawing process, its end of the pipe, and the job it is drawing (at most one at a time)."""

    process: Any  # a multiprocessing Process (forked from the fork server, or spawned)
    conn: Connection
    fd: int  # the pipe's, watched by the event loop until the pipe ends (kept: a closed ``conn`` has none)
    lane: Lane
    ready: asyncio.Future[None]
    slot: asyncio.Future[bool]  # the place this process fills: True once one is ready, False once given up
    attempt: int = 1  # how many processes in a row tried to start for this place
    frames: Frames = field(default_factory=Frames)  # its answers, read as they arrive
    watched: bool = False  # the event loop reads its pipe
    busy: asyncio.Future[bytes] | None = None
    closed: bool = False
    retiring: bool = False  # stopped on purpose (idle): its end is not a loss
    idle: asyncio.TimerHandle | None = None  # a background process's stop, once it has nothing to draw
    sending: queues.SimpleQueue[bytes | None] | None = None  # to its writer thread, once a job was too large

    def send(self, payload: bytes) -> None:
        """Write ``payload`` to the worker's pipe without waiting for it to be read: at once if it is small, else on
        the worker's writer thread, which writes everything after that too (in order, never two writers at once)."""
        if self.sending is None and len(payload) <= INLINE_BYTES:
            self.conn.send_bytes(payload)
            return
        if self.sending is None:
            self.sending = queues.SimpleQueue()
            threading.Thread(target=self._write, name="boardhost-draw-writer", daemon=True).start()
        self.sending.put(payload)

    def _write(self) -> None:
        assert self.sending is not None
        while (payload := self.sending.get()) is not None:
            try:
                self.conn.send_bytes(payload)
            except OSError:  # the process is gone: its listener tells the loop
                return

    def stop_writing(self) -> None:
        if self.sending is not None:
            self.sending.put(None)


class Renderer:
    """Draws render jobs in ``processes`` drawing processes (0: in threads of this process), and background jobs in
    ``background`` processes of their own at ``background_nice`` lower priority (0: behind every interactive job in
    the same processes), started with the first background job and stopped after ``background_idle`` seconds
    without one. Drawing in threads, background jobs have a thread of their own at that lower priority.

    A drawing process that dies while drawing is replaced at once. One that dies before it is ready (a broken
    install, no memory) is started again after ``backoff`` seconds, doubled each time, and given up after
    ``start_attempts`` attempts in a row, with a clear log line; once no interactive process is left or coming,
    pictures fail with ``RenderError`` (once no background process is, background jobs queue behind the
    interactive ones). ``target`` is the process's entry point (tests give one that fails).
    """

    def __init__(
        self,
        processes: int = 0,
        *,
        background: int = 1,
        background_nice: int = BACKGROUND_NICE,
        background_idle: float = BACKGROUND_IDLE,
        start_attempts: int = START_ATTEMPTS,
        backoff: float = BACKOFF,
        target: Callable[[Connection], None] | None = None,
    ) -> None:
        self.processes = processes
        self.background = background
        self.background_nice = background_nice
        self.background_idle = background_idle
        self.start_attempts = start_attempts
        self.backoff = backoff
        self._target = target or _worker
        self._retrying = dict.fromkeys(Lane, 0)  # places waiting for their next attempt, per lane
        self._given_up: set[Lane] = set()  # lanes none of whose processes could start
        self._workers: list[_Process] = []
        self._queues: dict[Lane, collections.deque[tuple[bytes, asyncio.Future[bytes]]]] = {
            lane: collections.deque() for lane in Lane
        }
        self._loop: asyncio.AbstractEventLoop | None = None
        self._background_thread: ThreadPoolExecutor | None = None
        self._closing = False

    async def start(self) -> None:
        """Start the interactive worker processes and wait until each has imported Pillow and drawn its warm-up
        picture (the background lane starts with its first job)."""
        if self.processes <= 0:
            return
        self._loop = asyncio.get_running_loop()
        started = [self._spawn(Lane.INTERACTIVE, self._loop.create_future()) for _ in range(self.processes)]
        up = await asyncio.gather(*(worker.slot for worker in started))
        if not any(up):
            raise RenderError(f"no drawing process could start in {self.start_attempts} attempts (see the log)")

    def ready_pids(self, lane: Lane = Lane.INTERACTIVE) -> list[int]:
        """The process ids of ``lane``'s drawing processes ready to draw now (started, warmed up, not exited)."""
        return [w.process.pid for w in self._workers if w.lane is lane and w.ready.done() and not w.closed]

    def _home(self, lane: Lane) -> Lane:
        """The lane whose processes draw ``lane``'s jobs: background jobs go to the interactive processes when
        there is no background process (none configured, or none could start)."""
        if lane is Lane.BACKGROUND and (self.background <= 0 or Lane.BACKGROUND in self._given_up):
            return Lane.INTERACTIVE
        return lane

    def _serves(self, lane: Lane) -> tuple[Lane, ...]:
        """The queues a process of ``lane`` takes jobs from, most urgent first."""
        if lane is Lane.INTERACTIVE and self._home(Lane.BACKGROUND) is Lane.INTERACTIVE:
            return (Lane.INTERACTIVE, Lane.BACKGROUND)
        return (lane,)

    def _alive(self, lane: Lane) -> bool:
        """``lane`` has a process, or one coming."""
        return self._retrying[lane] > 0 or any(worker.lane is lane for worker in self._workers)

    def _spawn(self, lane: Lane, slot: asyncio.Future[bool], attempt: int = 1) -> _Process:
        assert self._loop is not None
        niceness = self.background_nice if lane is Lane.BACKGROUND else 0
        name = "boardhost-draw" if lane is Lane.INTERACTIVE else "boardhost-draw-background"
        target = _background_worker if lane is Lane.BACKGROUND and self._target is _worker else self._target
        process, here = start_worker(name, _run, target, niceness)
        worker = _Process(process, here, here.fileno(), lane, self._loop.create_future(), slot, attempt)
        self._workers.append(worker)
        self._loop.add_reader(worker.fd, self._readable, worker)
        worker.watched = True
        return worker

    def _readable(self, worker: _Process) -> None:
        """On the event loop, once ``worker``'s pipe has bytes: one read (it cannot wait: the pipe has some), then
        each answer those bytes completed; the pipe's end (the process exited) is a loss."""
        try:
            chunk = os.read(worker.fd, READ_BYTES)
        except OSError:
            chunk = b""
        if not chunk:
            self._lost(worker)
            return
        try:
            answers = worker.frames.feed(chunk)
        except ValueError as err:  # not what a worker writes: it is not one of ours any more
            log.error("drawing process %s wrote %s; stopping it", worker.process.pid, err)
            worker.process.kill()
            self._lost(worker)
            return
        for data in answers:
            self._received(worker, data)

    def _unwatch(self, worker: _Process) -> None:
        if worker.watched and self._loop is not None:
            worker.watched = False
            self._loop.remove_reader(worker.fd)  # before the pipe is closed: its number may be another's then

    def _received(self, worker: _Process, data: bytes) -> None:
        if not worker.ready.done():  # its first message: warmed up
            worker.ready.set_result(None)
            if not worker.slot.done():
                worker.slot.set_result(True)
        elif worker.busy is not None:
            ok, value = pickle.loads(data)
            waiting, worker.busy = worker.busy, None
            if not waiting.done():  # the caller may have given up (cancelled): the picture is dropped
                if ok:
                    waiting.set_result(value)
                else:
                    waiting.set_exception(RenderError(value))
        self._next(worker)

    def _lost(self, worker: _Process) -> None:
        """A worker's pipe closed: on purpose (closing, or idle), or the process died. Its job fails; a worker that
        had been drawing is replaced at once. One that died before it was ready is started again after a pause that
        doubles each time, and given up after ``start_attempts`` in a row (no crash loop); once no worker of its
        lane is left or coming, the waiting jobs fail too (background jobs move to the interactive processes)."""
        self._unwatch(worker)
        worker.closed = True
        worker.stop_writing()
        if worker.idle is not None:
            worker.idle.cancel()
        if worker in self._workers:
            self._workers.remove(worker)
        if worker.retiring:
            worker.process.join(timeout=0)  # reaped now if it has exited already, else at the next spawn
            worker.conn.close()
            return
        failure = RenderError(f"drawing process {worker.process.pid} exited (code {worker.process.exitcode})")
        had_started = worker.ready.done()
        if not had_started:
            worker.ready.set_exception(failure)
            # Seen here (``_next`` only asks a ready worker): unseen, the collector would log it as never retrieved
            # whenever it happens to run, and Python 3.11 can fail the code it interrupts (an ``ast.parse``).
            worker.ready.exception()
        if worker.busy is not None and not worker.busy.done():
            worker.busy.set_exception(failure)
        worker.busy = None
        if self._closing:
            return
        lane = worker.lane
        if had_started:
            log.error("%s; starting another", failure)
            self._replace(lane, self._loop_or_fail().create_future(), 1)
            return
        if worker.attempt < self.start_attempts:
            delay = self.backoff * 2 ** (worker.attempt - 1)
            log.warning("%s before it was ready (attempt %d of %d); trying again in %.1f s",
                        failure, worker.attempt, self.start_attempts, delay)  # fmt: skip
            self._retrying[lane] += 1
            self._loop_or_fail().call_later(delay, self._retry, lane, worker.slot, worker.attempt + 1)
            return
        left = sum(w.lane is lane for w in self._workers)
        log.error("%s before it was ready, %d times in a row: giving up on this drawing process (%d left)",
                  failure, worker.attempt, left)  # fmt: skip
        if not worker.slot.done():
            worker.slot.set_result(False)
        if not self._alive(lane):
            self._given_up.add(lane)
            if lane is Lane.BACKGROUND:  # drawn behind the interactive jobs instead
                self._dispatch()
            else:
                self._fail_waiting(failure, [q for q in Lane if self._home(q) is lane])

    def _loop_or_fail(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None
        return self._loop

    def _retry(self, lane: Lane, slot: asyncio.Future[bool], attempt: int) -> None:
        self._retrying[lane] -= 1
        if self._closing:
            if not slot.done():
                slot.set_result(False)
            return
        self._replace(lane, slot, attempt)

    def _replace(self, lane: Lane, slot: asyncio.Future[bool], attempt: int) -> None:
        replacement = self._spawn(lane, slot, attempt)
        replacement.ready.add_done_callback(lambda _: self._next(replacement))

    def _fail_waiting(self, failure: RenderError, lanes: list[Lane]) -> None:
        for queue in (self._queues[lane] for lane in lanes):
            while queue:
                _, waiting = queue.popleft()
                if not waiting.done():
                    waiting.set_exception(failure)

    def _next(self, worker: _Process) -> None:
        """Give an idle, ready worker the oldest waiting job of the most urgent lane it serves (skipping jobs whose
        caller gave up); a background worker with nothing to draw stops after a while."""
        if worker.closed or worker.busy is not None or not worker.ready.done() or worker.ready.exception():
            return
        for lane in self._serves(worker.lane):
            queue = self._queues[lane]
            while queue:
                payload, waiting = queue.popleft()
                if waiting.done():
                    continue
                worker.busy = waiting
                if worker.idle is not None:
                    worker.idle.cancel()
                    worker.idle = None
                # Jobs are small (a view is a few kB) and the worker is idle and reading: this does not block.
                worker.send(payload)
                return
        if worker.lane is Lane.BACKGROUND and worker.idle is None:
            worker.idle = self._loop_or_fail().call_later(self.background_idle, self._retire, worker)

    def _dispatch(self) -> None:
        for worker in list(self._workers):
            if not any(self._queues.values()):
                return
            self._next(worker)

    def _retire(self, worker: _Process) -> None:
        """Stop an idle background process: the next background job starts another."""
        worker.idle = None
        if worker.closed or worker.busy is not None:
            return
        worker.retiring = worker.closed = True
        self._workers.remove(worker)
        with contextlib.suppress(OSError):  # already gone
            worker.send(STOP)
        worker.stop_writing()

    async def png(self, job: Job, *, lane: Lane) -> bytes:
        """The picture of ``job`` with its labels in the language of the current context, drawn in ``lane``."""
        if self.processes <= 0 or self._loop is None:
            if lane is Lane.BACKGROUND and self.background > 0:
                return await asyncio.get_running_loop().run_in_executor(self._thread(), draw, job, language())
            return await asyncio.to_thread(draw, job, language())
        home = self._home(lane)
        if home is Lane.BACKGROUND and not self._alive(home):
            for _ in range(self.background):
                self._spawn(home, self._loop.create_future())
        if not self._alive(home):
            raise RenderError("no drawing process is left (see the log)")
        waiting: asyncio.Future[bytes] = self._loop.create_future()
        payload = pickle.dumps((job.function, job.args, language()), protocol=pickle.HIGHEST_PROTOCOL)
        self._queues[lane].append((payload, waiting))
        self._dispatch()
        return await waiting

    def _thread(self) -> ThreadPoolExecutor:
        """Drawing in threads: the background lane's one thread, at a lower OS priority."""
        if self._background_thread is None:
            self._background_thread = ThreadPoolExecutor(
                1, "boardhost-draw-background", _background_thread_setup, (self.background_nice,)
            )
        return self._background_thread

    def close(self) -> None:
        """Stop the worker processes: each finishes the picture in hand, then exits."""
        self._closing = True
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.closed = True
            if worker.idle is not None:
                worker.idle.cancel()
            with contextlib.suppress(OSError):  # already gone
                worker.send(STOP)
            worker.stop_writing()
        for worker in workers:
            self._unwatch(worker)
            _drain(worker)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=5)
            worker.conn.close()
        for queue in self._queues.values():
            for _, waiting in queue:
                if not waiting.done():
                    waiting.cancel()
            queue.clear()
        if self._background_thread is not None:
            self._background_thread.shutdown(wait=False, cancel_futures=True)
            self._background_thread = None
